// The chatbot panel: header 'Chat with Chief Smile Officer' with subtitle, Online and CSO badges;
// streamed messages with hour:minute times; the waiting indicator; approval action buttons; 'Go to Approval Panel'
// and '[View Approvals]' scrolling to the approval panel; 'Suggested Actions' with Dismiss; the input (Enter sends,
// blank or in-flight sends ignored). Voice controls come from the voice feature when it is passed in.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ArrowDown, MessageSquarePlus, SendHorizontal } from 'lucide-react';
import { Badge, Button, Card, cn } from '../ui';
import type { ChatVoice } from '../voice/useChatVoice';
import { AudioBar, ListeningBox, MicButton, ReplayButton, SoundToggle, VoiceAudio } from '../voice/components';
import type { ApprovalAction } from './chat-api';
import { POINT_DOWN, type ChatMessage } from './useChat';
import './chat.css';

export const PLACEHOLDER = 'Type your message or click the mic to use voice input...';
export const WAITING_MESSAGES = ['Thinking...', 'Collecting data...', 'Checking forms...'] as const;
export const WAITING_SWITCH_MS = 2333;
export const HIGHLIGHT_MS = 2000;
const VIEW_APPROVALS = '[View Approvals]';

/** hour:minute, 24-hour clock. */
export function clockTime(d: Date): string {
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** Scrolls to the approval panel and highlights it for 2 s; a missing panel is only logged. */
export function goToApprovalPanel(target: 'panel' | 'table' = 'panel'): void {
  const panel = () => document.getElementById('approval-panel') ?? document.getElementById('approval-table-section');
  const table = () => document.querySelector<HTMLElement>('[data-testid="approval-table"]');
  const el = target === 'table' ? (table() ?? panel()) : (panel() ?? table());
  if (!el) {
    console.warn('Approval panel not found on this page');
    return;
  }
  el.scrollIntoView({ behavior: 'smooth', block: 'start' });
  el.setAttribute('data-cso-highlight', '');
  window.setTimeout(() => el.removeAttribute('data-cso-highlight'), HIGHLIGHT_MS);
}

/** The 'look below' arrow of a reply and of 'Go to Approval Panel' (a lucide icon, not the emoji). */
function PointDown() {
  return <ArrowDown className="inline-block h-4 w-4 align-text-bottom" aria-label="below" role="img" data-testid="point-down" />;
}

function MessageText({ text }: { text: string }) {
  const parts = text.split(VIEW_APPROVALS);
  const out: ReactNode[] = [];
  parts.forEach((p, i) => {
    // The reply's pointing-down emoji is drawn as an icon: many systems (Debian's Chromium among them) have no emoji font.
    const pieces = p.split(POINT_DOWN);
    out.push(
      <span key={`t${i}`}>
        {pieces.map((piece, j) => (
          <span key={j}>
            {j > 0 && <PointDown />}
            {piece}
          </span>
        ))}
      </span>,
    );
    if (i < parts.length - 1) {
      out.push(
        <button
          key={`l${i}`}
          type="button"
          onClick={() => goToApprovalPanel('table')}
          className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
        >
          View Approvals
        </button>,
      );
    }
  });
  return <p className="text-sm break-words whitespace-pre-wrap">{out}</p>;
}

function ApprovalActionCard({
  action,
  disabled,
  onPick,
}: {
  action: ApprovalAction;
  disabled: boolean;
  onPick: (message: string) => void;
}) {
  const styles: Record<string, string> = {
    success: 'bg-green-700 text-white hover:bg-green-800',
    danger: 'bg-red-600 text-white hover:bg-red-700',
    secondary: 'bg-white text-gray-800 ring-1 ring-gray-300 hover:bg-gray-50',
  };
  return (
    <div className="mt-2 rounded-md border border-gray-200 bg-white p-2" data-testid="approval-action" data-request-id={action.request_id}>
      <p className="text-xs font-semibold text-gray-900">
        {action.request_id} · {action.title}
      </p>
      <p className="text-xs text-gray-600">
        {action.employee_name}
        {action.summary ? ` — ${action.summary}` : ''}
      </p>
      <div className="mt-1.5 flex flex-wrap gap-1.5">
        {action.buttons.map((b) => (
          <button
            key={b.action}
            type="button"
            disabled={disabled}
            onClick={() => onPick(b.message)}
            className={cn(
              'rounded px-2.5 py-1 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50',
              styles[b.style ?? 'secondary'] ?? styles.secondary,
            )}
            aria-label={`${b.label} ${action.request_id}`}
          >
            {b.label}
          </button>
        ))}
      </div>
    </div>
  );
}

function WaitingIndicator() {
  const [i, setI] = useState(0);
  useEffect(() => {
    const t = window.setInterval(() => setI((x) => (x + 1) % WAITING_MESSAGES.length), WAITING_SWITCH_MS);
    return () => window.clearInterval(t);
  }, []);
  return (
    <p className="text-sm text-gray-500" role="status" data-testid="waiting-indicator">
      {WAITING_MESSAGES[i]}{' '}
      <span className="cso-dots" aria-hidden>
        <span>•</span>
        <span>•</span>
        <span>•</span>
      </span>
    </p>
  );
}

export interface ChatPanelProps {
  messages: ChatMessage[];
  sending: boolean;
  suggestions: string[];
  suggestionsVisible: boolean;
  input: string;
  onInput: (value: string) => void;
  onSend: (text: string) => void;
  onDismissSuggestions: () => void;
  onNewChat?: () => void;
  status?: 'Online' | 'Maintenance';
  voice?: ChatVoice;
}

export function ChatPanel(props: ChatPanelProps) {
  const { messages, sending, suggestions, suggestionsVisible, input, onInput, onSend, onDismissSuggestions, voice } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const lastText = messages.at(-1)?.text;
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, lastText, suggestionsVisible, suggestions, sending]);

  const blank = input.trim() === '';
  return (
    <Card className="flex h-[38rem] max-h-[80dvh] flex-col" aria-label="Chat with Chief Smile Officer" data-testid="chat-panel">
      <div className="flex items-start justify-between gap-2 border-b border-gray-200 px-4 py-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-base font-semibold text-gray-900">Chat with Chief Smile Officer</h2>
            <Badge tone="accent">CSO</Badge>
            <Badge
              tone={props.status === 'Maintenance' ? 'warning' : 'success'}
              icon={
                <span
                  className={cn('h-1.5 w-1.5 rounded-full', props.status === 'Maintenance' ? 'bg-amber-500' : 'bg-green-500')}
                  aria-hidden
                />
              }
            >
              {props.status ?? 'Online'}
            </Badge>
          </div>
          <p className="mt-0.5 text-xs text-gray-600">Text messages and voice transcripts appear here.</p>
        </div>
        {props.onNewChat && (
          <Button
            variant="ghost"
            size="sm"
            onClick={props.onNewChat}
            disabled={sending}
            aria-label="New chat"
            title="Start a new conversation"
            icon={<MessageSquarePlus className="h-4 w-4" aria-hidden />}
          />
        )}
      </div>

      <div
        ref={listRef}
        tabIndex={0}
        role="log"
        className="flex-1 space-y-3 overflow-y-auto px-4 py-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        aria-live="polite"
        aria-label="Messages"
        data-testid="chat-messages"
      >
        {messages.map((m) => (
          <div
            key={m.id}
            className={cn('flex', m.sender === 'user' ? 'justify-end' : 'justify-start')}
            data-testid={m.sender === 'user' ? 'user-message' : 'bot-message'}
            data-streaming={m.isStreaming ? 'true' : 'false'}
          >
            <div
              className={cn(
                'max-w-[88%] rounded-lg px-3 py-2',
                m.sender === 'user' ? 'bg-indigo-600 text-white' : 'bg-gray-100 text-gray-900',
              )}
            >
              {m.sender === 'bot' && m.isStreaming && m.text === '' ? <WaitingIndicator /> : <MessageText text={m.text} />}
              {m.approvalActions.map((a) => (
                <ApprovalActionCard key={a.request_id} action={a} disabled={sending} onPick={onSend} />
              ))}
              <div
                className={cn(
                  'mt-1 flex items-center gap-2 text-[11px]',
                  m.sender === 'user' ? 'justify-end text-indigo-100' : 'text-gray-600',
                )}
              >
                <time dateTime={m.timestamp.toISOString()}>{clockTime(m.timestamp)}</time>
                {m.sender === 'bot' && !m.isStreaming && voice?.soundEnabled && m.text.trim() && (
                  <ReplayButton voice={voice} text={m.text} messageId={m.id} />
                )}
              </div>
              {m.sender === 'bot' && !m.isStreaming && m.showApprovalButton && (
                <Button size="sm" variant="secondary" className="mt-2" onClick={() => goToApprovalPanel('panel')}>
                  Go to Approval Panel <ArrowDown className="h-4 w-4" aria-hidden="true" />
                </Button>
              )}
            </div>
          </div>
        ))}
      </div>

      {suggestionsVisible && suggestions.length > 0 && (
        <div className="border-t border-gray-200 px-4 py-2" data-testid="suggestions">
          <div className="mb-1 flex items-center justify-between">
            <p className="text-xs font-semibold text-gray-700">Suggested Actions</p>
            <button type="button" className="text-xs text-gray-500 hover:text-gray-800" onClick={onDismissSuggestions}>
              Dismiss
            </button>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {suggestions.map((s) => (
              <button
                key={s}
                type="button"
                onClick={() => {
                  if (!sending) onSend(s);
                }}
                aria-disabled={sending}
                className={cn(
                  'rounded-full border border-indigo-200 bg-indigo-50 px-2.5 py-1 text-xs text-indigo-800 hover:bg-indigo-100',
                  sending && 'cursor-not-allowed opacity-60',
                )}
              >
                {s}
              </button>
            ))}
          </div>
        </div>
      )}

      {voice && (
        <div className="px-4">
          <ListeningBox voice={voice} />
          <AudioBar voice={voice} />
        </div>
      )}
      <form
        className="space-y-2 border-t border-gray-200 px-4 py-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!blank && !sending) onSend(input);
        }}
      >
        <label className="sr-only" htmlFor="chat-input">
          Message
        </label>
        <textarea
          id="chat-input"
          rows={2}
          value={input}
          onChange={(e) => onInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (!blank && !sending) onSend(input);
            }
          }}
          placeholder={PLACEHOLDER}
          maxLength={2000}
          className="block w-full resize-none rounded-md border border-gray-300 px-3 py-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
        />
        <div className="flex items-center gap-2">
          {voice && <SoundToggle voice={voice} />}
          {voice && <MicButton voice={voice} disabled={sending} />}
          <Button
            type="submit"
            className="ml-auto"
            disabled={blank || sending}
            aria-label="Send message"
            icon={<SendHorizontal className="h-4 w-4" aria-hidden />}
          >
            Send
          </Button>
        </div>
      </form>
      {voice && <VoiceAudio voice={voice} />}
    </Card>
  );
}
