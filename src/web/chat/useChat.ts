// The chat panel's conversation and a reply's lifecycle: the session, sending (blank or
// in-flight sends ignored), the streamed bot message revealed piece by piece (80 ms per piece), suggestions,
// approval actions, the approvers' automatic greeting (once, 30 s timeout) and the fallback greeting typed at
// 50 ms per character (UI updated at most every 200 ms) when the server fails. Voice hooks are optional.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isApproverRole } from '../../domain/roles';
import type { User } from '../api/types';
import {
  type ApprovalAction,
  DEFAULT_SUGGESTIONS,
  FALLBACK_GREETING,
  chatStreamUrl,
  chatUserId,
  conversationHistory,
  openChatSession,
  postChat,
  userInfo,
} from './chat-api';

export const PIECE_PAUSE_MS = 80;
export const FALLBACK_CHAR_MS = 50;
export const FALLBACK_UPDATE_MS = 200;
export const GREETING_TIMEOUT_MS = 30_000;
export const POINT_DOWN = '👇';

export interface ChatMessage {
  id: string;
  text: string;
  sender: 'user' | 'bot';
  timestamp: Date;
  isStreaming: boolean;
  showApprovalButton: boolean;
  approvalActions: ApprovalAction[];
}

/** What the voice feature needs to hear about (useChatVoice implements it). */
export interface ChatVoiceHooks {
  notifySend(): void;
  notifyReplyStart(messageId: string, opts?: { greeting?: boolean }): void;
  notifyDisplayed(messageId: string, length: number): void;
  notifyReplyDone(messageId: string): void;
  handleStreamEvent(messageId: string, event: { type?: unknown }): boolean;
  speechRequestFields(): Record<string, unknown>;
  reset(): void;
  /** The user was already greeted (a resumed conversation, or an approver's greeting already given): avatar idle. */
  notifyAlreadyGreeted?(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let counter = 0;
const newId = (p: string) => `${p}-${Date.now().toString(36)}-${(counter += 1)}`;
// cleared at logout with the other chatbot_ keys
const greetedKey = (sessionId: string) => `chatbot_greeted_${sessionId}`;

export function useChat(user: User, voice?: ChatVoiceHooks) {
  const qc = useQueryClient();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [suggestions, setSuggestions] = useState<string[]>([...DEFAULT_SUGGESTIONS]);
  const [suggestionsVisible, setSuggestionsVisible] = useState(true);
  const [input, setInput] = useState('');
  const sendingRef = useRef(false);
  const sessionRef = useRef<string | null>(null);
  const voiceRef = useRef(voice);
  voiceRef.current = voice;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const patch = useCallback((id: string, change: Partial<ChatMessage> | ((m: ChatMessage) => Partial<ChatMessage>)) => {
    if (!mounted.current) return;
    setMessages((list) => list.map((m) => (m.id === id ? { ...m, ...(typeof change === 'function' ? change(m) : change) } : m)));
  }, []);

  /** Types the fallback greeting into message `id`: 50 ms per character, the UI refreshed at most every 200 ms. */
  const typeFallback = useCallback(
    async (id: string) => {
      let shown = '';
      let last = 0;
      for (const ch of FALLBACK_GREETING) {
        shown += ch;
        const now = Date.now();
        if (now - last >= FALLBACK_UPDATE_MS) {
          last = now;
          patch(id, { text: shown });
          voiceRef.current?.notifyDisplayed(id, shown.length);
        }
        await sleep(FALLBACK_CHAR_MS);
      }
      patch(id, { text: FALLBACK_GREETING });
    },
    [patch],
  );

  const send = useCallback(
    async (raw: string, opts: { autoGreeting?: boolean } = {}) => {
      const text = raw.trim();
      const greeting = Boolean(opts.autoGreeting);
      if ((!text && !greeting) || sendingRef.current) return;
      // The automatic greeting runs beside the chat: it never disables the input, the suggestions or the mic, and the
      // user's own first message may start while it is still arriving.
      if (!greeting) {
        sendingRef.current = true;
        setSending(true);
      }
      const botId = newId('bot');
      const now = new Date();
      setMessages((list) => [
        ...list,
        ...(opts.autoGreeting
          ? []
          : [
              {
                id: newId('user'),
                text,
                sender: 'user' as const,
                timestamp: now,
                isStreaming: false,
                showApprovalButton: false,
                approvalActions: [],
              },
            ]),
        { id: botId, text: '', sender: 'bot' as const, timestamp: now, isStreaming: true, showApprovalButton: false, approvalActions: [] },
      ]);
      if (!greeting) setInput('');
      if (!greeting) voiceRef.current?.notifySend();
      voiceRef.current?.notifyReplyStart(botId, { greeting });

      const kind = chatStreamUrl(user.role);
      // Replies are spoken only after the user's own message (and with sound on): the greeting asks for no speech.
      const speech = greeting ? { tts: false } : (voiceRef.current?.speechRequestFields() ?? { tts: false });
      const common = { message: text, sessionId: sessionRef.current, ...speech };
      const body =
        kind === '/ai/streaming-chat'
          ? { ...common, stream: true, user_id: chatUserId(user), userInfo: userInfo(user) }
          : { ...common, user_id: chatUserId(user), user_info: userInfo(user), auto_greeting: greeting };
      const controller = new AbortController();
      const timer = opts.autoGreeting ? setTimeout(() => controller.abort(), GREETING_TIMEOUT_MS) : null;

      // pieces are revealed one by one, 80 ms apart, while the stream keeps arriving
      const pending: string[] = [];
      let shown = '';
      let streamEnded = false;
      let showApproval = false;
      let nextSuggestions: string[] | null = null;
      const pump = (async () => {
        while (!(streamEnded && pending.length === 0)) {
          if (pending.length === 0) {
            await sleep(20);
            continue;
          }
          shown += pending.shift();
          patch(botId, { text: shown });
          voiceRef.current?.notifyDisplayed(botId, shown.length);
          await sleep(PIECE_PAUSE_MS);
        }
      })();

      // At 'complete' the text is all there: the message finishes and the next send is accepted, while speech still
      // being synthesised keeps arriving until the end of the stream (the server sends it after complete).
      let released = false;
      const release = (withSuggestions: boolean) => {
        if (released) return;
        released = true;
        if (timer) clearTimeout(timer);
        // suggestions fit the finished reply: shown once it is all on screen
        if (withSuggestions && nextSuggestions && mounted.current) {
          setSuggestions(nextSuggestions);
          setSuggestionsVisible(true);
        }
        patch(botId, (m) => ({ isStreaming: false, showApprovalButton: showApproval || m.text.includes(POINT_DOWN) }));
        if (greeting) return;
        sendingRef.current = false;
        if (mounted.current) setSending(false);
      };

      try {
        const events = await postChat(kind, body, sessionRef.current, controller.signal);
        for await (const e of events) {
          if (voiceRef.current?.handleStreamEvent(botId, e)) continue;
          if (typeof e.content === 'string' && (e.type === undefined || e.type === 'content')) pending.push(e.content);
          else if (e.type === 'suggestions' && Array.isArray(e.suggestions)) nextSuggestions = e.suggestions.slice(0, 6);
          else if (e.type === 'approval_actions' && e.approval_action) {
            const action = e.approval_action;
            patch(botId, (m) => ({ approvalActions: [...m.approvalActions, action] }));
          } else if (e.type === 'complete') {
            showApproval = Boolean(e.show_approval_action);
            if (e.request_changed) void qc.invalidateQueries();
            streamEnded = true;
            void pump.then(() => {
              if (shown) release(true);
            });
          }
        }
        streamEnded = true;
        await pump;
        if (!shown) throw new Error('The reply was empty');
        release(true);
      } catch (err) {
        streamEnded = true;
        await pump;
        console.error('Chat request failed', err);
        if (!shown) await typeFallback(botId);
      } finally {
        release(false);
        voiceRef.current?.notifyReplyDone(botId);
      }
    },
    [patch, qc, typeFallback, user],
  );

  /** Starts a conversation: the stored session (with its last messages) or a new one; approvers are greeted once. */
  const start = useCallback(
    async (fresh = false) => {
      let session: { sessionId: string; resumed: boolean };
      try {
        session = await openChatSession(user, { fresh });
      } catch (err) {
        console.error('Failed to create session', err);
        return;
      }
      if (!mounted.current) return;
      sessionRef.current = session.sessionId;
      setSessionId(session.sessionId);
      setMessages([]);
      setSuggestions([...DEFAULT_SUGGESTIONS]);
      setSuggestionsVisible(true);
      setInput('');
      voiceRef.current?.reset();
      if (session.resumed) {
        const history = await conversationHistory(user, session.sessionId, 10);
        if (!mounted.current) return;
        setMessages(
          history.map((h) => ({
            id: newId(h.role),
            text: h.content,
            sender: h.role === 'user' ? 'user' : 'bot',
            timestamp: new Date(h.timestamp),
            isStreaming: false,
            showApprovalButton: h.role !== 'user' && (h.content.includes(POINT_DOWN) || h.metadata?.show_approval_action === true),
            approvalActions: [],
          })),
        );
        if (history.length > 0) {
          voiceRef.current?.notifyAlreadyGreeted?.();
          return;
        }
      }
      let greeted = false;
      try {
        greeted = localStorage.getItem(greetedKey(session.sessionId)) === '1';
      } catch {
        /* no storage */
      }
      if (isApproverRole(user.role) && greeted) voiceRef.current?.notifyAlreadyGreeted?.();
      if (isApproverRole(user.role) && !greeted) {
        try {
          localStorage.setItem(greetedKey(session.sessionId), '1');
        } catch {
          /* no storage */
        }
        void send('', { autoGreeting: true });
        return;
      }
      const first = user.profile?.first_name ?? user.firstName ?? '';
      setMessages([
        {
          id: newId('bot'),
          text: `Hello${first ? ` ${first}` : ''}! I'm Chief Smile Officer, your AI assistant. How can I help you today?`,
          sender: 'bot',
          timestamp: new Date(),
          isStreaming: false,
          showApprovalButton: false,
          approvalActions: [],
        },
      ]);
    },
    [send, user],
  );

  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void start(false);
  }, [start]);

  return {
    messages,
    sessionId,
    sending,
    suggestions,
    suggestionsVisible,
    input,
    setInput,
    send,
    newSession: () => start(true),
    dismissSuggestions: () => setSuggestionsVisible(false),
  };
}
