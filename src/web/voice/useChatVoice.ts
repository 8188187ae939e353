// Everything voice for the chat panel in one hook: sound on/off, the fields that ask the chat stream for speech,
// the audio queue fed by tts_chunk / tts events, the last clip (play, download), Replay, the avatar state, and
// voice input. The panel renders the pieces from ./components and calls the notify* functions at each step.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ApiError, api } from '../api/client';
import { type AudioChunk, AudioQueue } from './audio-queue';
import { AvatarController, type AvatarState } from './avatar';
import { base64ToBytes, combineClips, extensionOf, mimeTypeOf } from './clips';
import { ElementPlayer, downloadBytes } from './player';
import { VOICE_INPUT_UNSUPPORTED, VoiceInput, speechRecognitionConstructor } from './voice-input';

export const SOUND_KEY = 'tts_sound_enabled';
/** How long the "sound off" indicator shows after turning sound off. */
export const SOUND_STOP_INDICATOR_MS = 500;
export const CHAT_AUDIO_FORMAT = 'mp3';

/** A streamed chat event carrying speech (POST /ai/streaming-chat and the role streams). */
export interface TtsStreamEvent {
  type: 'tts_chunk' | 'tts';
  audio_data: string;
  audio_format: string;
  text?: string;
  chunk_index?: number;
  text_start?: number;
  text_end?: number;
  fallback_used?: boolean;
}

export interface LastClip {
  messageId: string | null;
  format: string;
  chunks: Uint8Array[];
  kind: 'reply' | 'greeting' | 'replay';
}

export interface ChatVoiceOptions {
  /** Sound on at first (default: the browser's remembered choice, else off). */
  initialSoundEnabled?: boolean;
  /**
   * The user's stored sound preference (GET /api/users/me/preferences sound_enabled) once loaded: it sets the sound
   * state whenever it changes. The toggle reports changes through onSoundChange so the panel can save them.
   */
  soundEnabled?: boolean;
  onSoundChange?: (enabled: boolean) => void;
  /** Playback speed of spoken replies (preferences speech_rate, 0.5-2; default 1). */
  playbackRate?: number;
  /** Language of voice input (preferences voice_input_language; default en-US as the spec says). */
  voiceInputLanguage?: string;
  /** voice_name sent to the speech service (default: the server's, en-US-Chirp3-HD-Charon). */
  voiceName?: string;
  /** Called with the final voice transcript: the panel sends it as a message. */
  onTranscript?: (text: string) => void;
  /** Logs failures (default console.error). */
  log?: (message: string, error?: unknown) => void;
}

function readSound(initial?: boolean): boolean {
  if (initial !== undefined) return initial;
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

export function useChatVoice(options: ChatVoiceOptions = {}) {
  const log = options.log ?? ((m: string, e?: unknown) => console.error(m, e));
  const logRef = useRef(log);
  logRef.current = log;
  const onTranscriptRef = useRef(options.onTranscript);
  onTranscriptRef.current = options.onTranscript;

  const [soundEnabled, setSoundEnabled] = useState(() => readSound(options.soundEnabled ?? options.initialSoundEnabled));
  const soundRef = useRef(soundEnabled);
  soundRef.current = soundEnabled;
  const onSoundChangeRef = useRef(options.onSoundChange);
  onSoundChangeRef.current = options.onSoundChange;
  const [soundStopped, setSoundStopped] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [lastClip, setLastClip] = useState<LastClip | null>(null);

  const audioRef = useRef<HTMLAudioElement | null>(null);
  const displayed = useRef(new Map<string, number>());
  const streaming = useRef<string | null>(null);
  /** The newest reply: audio of older replies (a stream still finishing after the user moved on) is dropped. */
  const latestReply = useRef<string | null>(null);
  const replyAudio = useRef(new Map<string, boolean>());
  const replyKind = useRef(new Map<string, 'reply' | 'greeting'>());

  const avatar = useMemo(() => new AvatarController('greeting'), []);
  const rateRef = useRef(options.playbackRate ?? 1);
  rateRef.current = options.playbackRate ?? 1;
  const player = useMemo(
    () =>
      new ElementPlayer(
        () => audioRef.current,
        () => rateRef.current,
      ),
    [],
  );
  const queue = useMemo(
    () =>
      new AudioQueue({
        play: player.play,
        stopPlayback: player.stop,
        displayedLength: (c) => (c.messageId ? (displayed.current.get(c.messageId) ?? Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER),
        log: (m, e) => logRef.current(m, e),
        onStart: () => avatar.speaking(),
        onIdle: (last) => {
          // While the reply is still streaming more audio may come; the return timer starts once it is all played.
          if (last && last.messageId && streaming.current === last.messageId) return;
          avatar.finished(last?.kind ?? 'reply');
        },
      }),
    [avatar, player],
  );

  const queueState = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  const avatarState: AvatarState = useSyncExternalStore(avatar.subscribe, avatar.getSnapshot, avatar.getSnapshot);

  useEffect(
    () => () => {
      queue.clear();
      avatar.dispose();
    },
    [queue, avatar],
  );

  const applySound = useCallback(
    (next: boolean) => {
      if (next === soundRef.current) return;
      soundRef.current = next;
      setSoundEnabled(next);
      try {
        localStorage.setItem(SOUND_KEY, next ? 'on' : 'off');
      } catch {
        /* storage unavailable */
      }
      if (!next) {
        queue.clear();
        setGenerating(false);
        setSoundStopped(true);
        setTimeout(() => setSoundStopped(false), SOUND_STOP_INDICATOR_MS);
      }
    },
    [queue],
  );

  // The user's own click wins over a stored value still on its way (a load that started before the click); once the
  // stored value agrees, later changes (the settings panel) apply again.
  const ownChoice = useRef<boolean | null>(null);

  // The stored preference, when it loads or changes elsewhere (the settings panel).
  useEffect(() => {
    if (options.soundEnabled === undefined) return;
    if (ownChoice.current !== null) {
      if (options.soundEnabled !== ownChoice.current) return;
      ownChoice.current = null;
    }
    applySound(options.soundEnabled);
  }, [options.soundEnabled, applySound]);

  const toggleSound = useCallback(() => {
    const next = !soundRef.current;
    ownChoice.current = next;
    applySound(next);
    onSoundChangeRef.current?.(next);
  }, [applySound]);

  /** Fields to merge into a chat request body: always says whether speech is wanted (on only while sound is on),
   * since a request that does not say gets the user's saved sound preference. */
  const speechRequestFields = useCallback(
    (): Record<string, unknown> =>
      soundRef.current
        ? { tts: true, audio_format: CHAT_AUDIO_FORMAT, ...(options.voiceName ? { voice_name: options.voiceName } : {}) }
        : { tts: false },
    [options.voiceName],
  );

  /** A message was sent (or voice started): the avatar listens; with sound on, 'Generating audio...' until audio arrives. */
  const notifySend = useCallback(() => {
    // A new turn interrupts the assistant: what it was saying stops, and clips still arriving for it are dropped.
    queue.clear();
    avatar.listening();
  }, [avatar, queue]);

  /** The user was already greeted (resumed conversation, approver greeted before): the avatar stands by (idle). */
  const notifyAlreadyGreeted = useCallback(() => {
    avatar.idle();
  }, [avatar]);

  /** The bot message `messageId` starts streaming; `greeting` for the automatic greeting (shown, never spoken). */
  const notifyReplyStart = useCallback((messageId: string, opts: { greeting?: boolean } = {}) => {
    streaming.current = messageId;
    latestReply.current = messageId;
    replyKind.current.set(messageId, opts.greeting ? 'greeting' : 'reply');
    displayed.current.set(messageId, 0);
    replyAudio.current.set(messageId, false);
    // The automatic greeting is never read aloud, so no audio is awaited for it.
    if (soundRef.current && !opts.greeting) setGenerating(true);
  }, []);

  /** The bot message now shows `length` characters (first content makes the avatar speak). */
  const notifyDisplayed = useCallback(
    (messageId: string, length: number) => {
      const before = displayed.current.get(messageId) ?? 0;
      displayed.current.set(messageId, length);
      if (before === 0 && length > 0) avatar.speaking();
      queue.poke();
    },
    [avatar, queue],
  );

  /** Handles a tts_chunk / tts stream event for `messageId`; returns false for other events. */
  const handleStreamEvent = useCallback(
    (messageId: string, event: { type?: unknown }): boolean => {
      if (event.type !== 'tts_chunk' && event.type !== 'tts') return false;
      const e = event as TtsStreamEvent;
      if (!soundRef.current || typeof e.audio_data !== 'string' || !e.audio_data) return true;
      // Speech only follows the user's own message: audio for the automatic greeting (sent by a server that reads
      // the saved preference) is dropped.
      if (replyKind.current.get(messageId) === 'greeting') return true;
      if (latestReply.current !== null && latestReply.current !== messageId) return true;
      const hadAudio = replyAudio.current.get(messageId) ?? false;
      // A final 'tts' clip after chunks would repeat the reply: it is used only when no chunk came.
      if (e.type === 'tts' && hadAudio) return true;
      replyAudio.current.set(messageId, true);
      setGenerating(false);
      const chunk: AudioChunk = {
        id: `${messageId}-${e.type}-${e.chunk_index ?? 0}`,
        audioData: e.audio_data,
        format: e.audio_format || CHAT_AUDIO_FORMAT,
        text: e.text,
        chunkIndex: e.chunk_index ?? 0,
        textStart: e.type === 'tts_chunk' ? e.text_start : undefined,
        textEnd: e.type === 'tts_chunk' ? e.text_end : undefined,
        messageId,
        kind: replyKind.current.get(messageId) ?? 'reply',
      };
      queue.enqueue(chunk);
      let bytes: Uint8Array | null = null;
      try {
        bytes = base64ToBytes(e.audio_data);
      } catch (err) {
        logRef.current('Audio chunk is not valid base64', err);
      }
      if (bytes) {
        const b = bytes;
        setLastClip((prev) =>
          prev && prev.messageId === messageId && prev.kind !== 'replay' && prev.format === chunk.format
            ? { ...prev, chunks: [...prev.chunks, b] }
            : { messageId, format: chunk.format, chunks: [b], kind: chunk.kind ?? 'reply' },
        );
      }
      return true;
    },
    [queue],
  );

  /** The reply finished streaming (done signal or end of stream). */
  const notifyReplyDone = useCallback(
    (messageId: string) => {
      if (streaming.current !== messageId) return; // an older reply ending after the user moved on
      streaming.current = null;
      setGenerating(false);
      const st = queue.getSnapshot();
      // The greeting is shown without speech; the avatar still follows it as the greeting (5 s, then greeting again).
      const kind = replyKind.current.get(messageId) ?? 'reply';
      const played = kind === 'greeting' || replyAudio.current.get(messageId) ? kind : 'reply';
      if (!st.playing && st.waiting === 0) avatar.finished(played);
      else if (!st.playing && st.waiting > 0) queue.poke();
    },
    [avatar, queue],
  );

  /** Speaks `text` again (a bot message's Replay). Needs sound on and non-blank text. */
  const replay = useCallback(
    async (text: string, messageId: string | null = null) => {
      if (!soundRef.current || !text.trim()) return;
      setGenerating(true);
      try {
        const res = await api.post<{ success: boolean; audio_data: string | null; audio_format?: string; error: string | null }>(
          '/api/tts/synthesize',
          { text, audio_format: 'MP3', ...(options.voiceName ? { voice_name: options.voiceName } : {}) },
        );
        if (!res.success || !res.audio_data) throw new Error(res.error || 'TTS generation failed');
        if (!soundRef.current) return;
        const format = res.audio_format || CHAT_AUDIO_FORMAT;
        queue.clear();
        queue.enqueue({
          id: `replay-${Date.now()}`,
          audioData: res.audio_data,
          format,
          text,
          chunkIndex: 0,
          messageId: messageId ?? undefined,
          kind: 'replay',
        });
        setLastClip({ messageId, format, chunks: [base64ToBytes(res.audio_data)], kind: 'replay' });
      } catch (err) {
        logRef.current(
          err instanceof ApiError || (err instanceof Error && err.message === 'TTS generation failed')
            ? 'TTS generation failed'
            : 'Network error',
          err,
        );
      } finally {
        setGenerating(false);
      }
    },
    [queue, options.voiceName],
  );

  /** Plays the last clip again from the audio bar. */
  const playLastClip = useCallback(() => {
    if (!lastClip) return;
    const bytes = combineClips(lastClip.format, lastClip.chunks);
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    queue.clear();
    queue.enqueue({ id: `last-${Date.now()}`, audioData: btoa(bin), format: lastClip.format, chunkIndex: 0, kind: 'replay' });
  }, [lastClip, queue]);

  const downloadLastClip = useCallback(() => {
    if (!lastClip) return;
    const bytes = combineClips(lastClip.format, lastClip.chunks);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    downloadBytes(bytes, mimeTypeOf(lastClip.format), `chief-smile-officer-${stamp}.${extensionOf(lastClip.format)}`);
  }, [lastClip]);

  /** Stops audio and forgets the clips (new session, logout). */
  const reset = useCallback(() => {
    queue.clear();
    setLastClip(null);
    setGenerating(false);
    displayed.current.clear();
    replyAudio.current.clear();
    replyKind.current.clear();
    streaming.current = null;
    latestReply.current = null;
  }, [queue]);

  // Voice input.
  const [listening, setListening] = useState(false);
  const [interim, setInterim] = useState('');
  const [voiceError, setVoiceError] = useState<string | null>(null);
  const voiceInput = useMemo(
    () =>
      new VoiceInput(
        {
          onListening: (l) => {
            setListening(l);
            // The microphone must not hear the assistant: speaking stops when listening starts.
            if (l) {
              queue.clear();
              setVoiceError(null);
              avatar.listening();
            } else avatar.idle();
          },
          onInterim: setInterim,
          onFinal: (text) => onTranscriptRef.current?.(text),
          onError: (message, code) => {
            setVoiceError(message);
            logRef.current(`Speech recognition error: ${code}`);
          },
        },
        { Recognition: speechRecognitionConstructor(), lang: options.voiceInputLanguage || 'en-US' },
      ),
    [avatar, queue, options.voiceInputLanguage],
  );
  useEffect(() => () => voiceInput.cancel(), [voiceInput]);

  const toggleListening = useCallback(() => {
    if (voiceInput.listening) voiceInput.stop();
    else voiceInput.start();
  }, [voiceInput]);

  return {
    audioRef,
    soundEnabled,
    soundStopped,
    toggleSound,
    speechRequestFields,
    generating,
    queueState,
    lastClip,
    playLastClip,
    downloadLastClip,
    replay,
    reset,
    avatar,
    avatarState,
    notifySend,
    notifyAlreadyGreeted,
    notifyReplyStart,
    notifyDisplayed,
    notifyReplyDone,
    handleStreamEvent,
    voiceInput: {
      supported: voiceInput.supported,
      unsupportedReason: voiceInput.supported ? null : VOICE_INPUT_UNSUPPORTED,
      listening,
      interim,
      error: voiceError,
      toggle: toggleListening,
      stop: () => voiceInput.stop(),
    },
  };
}

export type ChatVoice = ReturnType<typeof useChatVoice>;
