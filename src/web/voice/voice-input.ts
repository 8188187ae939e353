// Voice input with the browser's speech recognition (continuous, with interim results, in en-US).
// Interim text is reported while the user speaks; final results accumulate and are handed over as one message when
// recognition ends: the user clicks stop, the browser ends it, or 2 s pass without speech after a final result.
import type { QueueTimers } from './audio-queue';

/** The subset of the Web Speech API's SpeechRecognition that we use. */
export interface RecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: RecognitionResultEventLike) => void) | null;
  onerror: ((event: { error: string; message?: string }) => void) | null;
  onend: (() => void) | null;
  onstart: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export interface RecognitionResultEventLike {
  resultIndex: number;
  results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>;
}

export type RecognitionConstructor = new () => RecognitionLike;

/** The browser's SpeechRecognition constructor (standard or webkit-prefixed), or null where there is none. */
export function speechRecognitionConstructor(
  win: unknown = typeof window === 'undefined' ? undefined : window,
): RecognitionConstructor | null {
  const w = win as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor } | undefined;
  return w?.SpeechRecognition ?? w?.webkitSpeechRecognition ?? null;
}

export const VOICE_INPUT_UNSUPPORTED =
  'Voice input is not available in this browser (it has no speech recognition). Type your message instead, or use a browser with speech recognition such as Chrome or Edge.';

export const SILENCE_AFTER_FINAL_MS = 2000;

/** Readable messages for the recognition error codes. */
export function recognitionErrorMessage(code: string): string {
  switch (code) {
    case 'not-allowed':
    case 'service-not-allowed':
      return 'Microphone access was denied. Allow the microphone for this site to use voice input.';
    case 'audio-capture':
      return 'No microphone was found.';
    case 'no-speech':
      return 'No speech was detected. Try again.';
    case 'network':
      return 'Speech recognition needs a network connection.';
    case 'language-not-supported':
      return 'Speech recognition does not support this language.';
    default:
      return 'Voice input stopped unexpectedly.';
  }
}

export interface VoiceInputCallbacks {
  /** Listening started or stopped. */
  onListening(listening: boolean): void;
  /** What has been heard so far in this session (final parts plus the current interim guess). */
  onInterim(text: string): void;
  /** The final transcript, once, when recognition ends with something said. */
  onFinal(text: string): void;
  onError?(message: string, code: string): void;
}

export interface VoiceInputOptions {
  Recognition: RecognitionConstructor | null;
  lang?: string;
  silenceMs?: number;
  timers?: QueueTimers;
}

const realTimers: QueueTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class VoiceInput {
  private recognition: RecognitionLike | null = null;
  private finalText = '';
  private silence: unknown = null;
  private active = false;
  private readonly timers: QueueTimers;

  constructor(
    private readonly cb: VoiceInputCallbacks,
    private readonly opts: VoiceInputOptions,
  ) {
    this.timers = opts.timers ?? realTimers;
  }

  get supported(): boolean {
    return this.opts.Recognition !== null;
  }
  get listening(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active || !this.opts.Recognition) return;
    const rec = new this.opts.Recognition();
    rec.continuous = true;
    rec.interimResults = true;
    rec.lang = this.opts.lang ?? 'en-US';
    this.finalText = '';
    rec.onresult = (event) => this.onResult(event);
    rec.onerror = (event) => {
      // 'aborted' is our own stop; 'no-speech' just ends the session.
      if (event.error !== 'aborted') this.cb.onError?.(recognitionErrorMessage(event.error), event.error);
    };
    rec.onend = () => this.ended(rec);
    rec.onstart = null;
    this.recognition = rec;
    this.active = true;
    this.cb.onListening(true);
    this.cb.onInterim('');
    try {
      rec.start();
    } catch (err) {
      this.cb.onError?.(recognitionErrorMessage('start'), 'start');
      this.ended(rec);
    }
  }

  /** Stops listening; what was heard is sent when the browser reports the end. */
  stop(): void {
    this.clearSilence();
    if (!this.recognition) return;
    try {
      this.recognition.stop();
    } catch {
      this.ended(this.recognition);
    }
  }

  /** Stops without sending anything (logout, panel closed). */
  cancel(): void {
    this.clearSilence();
    const rec = this.recognition;
    this.finalText = '';
    if (!rec) return;
    rec.onresult = null;
    try {
      rec.abort();
    } catch {
      /* already stopped */
    }
    this.ended(rec);
  }

  private onResult(event: RecognitionResultEventLike): void {
    let interim = '';
    for (let i = event.resultIndex; i < event.results.length; i += 1) {
      const r = event.results[i];
      const said = r[0]?.transcript ?? '';
      if (r.isFinal) this.finalText = `${this.finalText} ${said}`.trim();
      else interim += said;
    }
    this.cb.onInterim(`${this.finalText} ${interim}`.trim());
    this.clearSilence();
    if (this.finalText && !interim.trim()) {
      this.silence = this.timers.setTimeout(() => {
        this.silence = null;
        this.stop();
      }, this.opts.silenceMs ?? SILENCE_AFTER_FINAL_MS);
    }
  }

  private ended(rec: RecognitionLike): void {
    if (this.recognition !== rec) return;
    this.recognition = null;
    this.clearSilence();
    const text = this.finalText.trim();
    this.finalText = '';
    if (this.active) {
      this.active = false;
      this.cb.onListening(false);
      this.cb.onInterim('');
    }
    if (text) this.cb.onFinal(text);
  }

  private clearSilence(): void {
    if (this.silence !== null) {
      this.timers.clearTimeout(this.silence);
      this.silence = null;
    }
  }
}
