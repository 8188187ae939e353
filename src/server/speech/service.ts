// Speech synthesis rules: validation and defaults of /api/tts/synthesize, the provider choice (Google when a key is
// configured, falling back to the offline engine with a logged warning), and ReplySpeech, which speaks a streamed
// chat reply sentence by sentence while it streams (tts_chunk events, in order, with text positions).
import { type SpeechSettings, loadConfig } from '../config.js';
import { currentLogger, moduleLogger } from '../logger.js';
import type { AudioFormat } from './formats.js';
import { OFFLINE_FORMATS, normaliseAudioFormat } from './formats.js';
import { googleSynthesize } from './google.js';
import { SpeechPool } from './pool.js';
import { type Sentence, SentenceSplitter, speakableText } from './sentences.js';
import { DEFAULT_LANGUAGE_CODE, DEFAULT_MODEL_NAME, DEFAULT_VOICE_NAME, offlineVoiceFor } from './voices.js';

export type { SpeechSettings } from '../config.js';

let configured: SpeechSettings | undefined;

/**
 * Sets the speech settings of this process (the speech routes pass the app's configuration: TTS_*, GOOGLE_TTS_*).
 * The worker pool takes its size and job time limit from the settings in force when it starts.
 */
export function configureSpeech(settings: SpeechSettings): void {
  configured = settings;
}

/** The speech settings in force: the configured ones, else the configuration's defaults. */
export function speechSettings(): SpeechSettings {
  configured ??= loadConfig({}).speech;
  return configured;
}

let pool: SpeechPool | null = null;

/** The process-wide worker pool (started on first use; its threads do not keep the process alive). */
export function speechPool(): SpeechPool {
  if (!pool) {
    const s = speechSettings();
    pool = new SpeechPool({ size: s.workers, jobTimeoutMs: s.jobTimeoutMs, nice: s.workerNice });
  }
  return pool;
}

export async function closeSpeechPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.close();
}

/** Bad input: answered 400 with {success: false, error}. */
export class SpeechInputError extends Error {}

export interface SpeechLog {
  warn(obj: object, msg: string): void;
}
const speechLog = moduleLogger('speech');
/** Without a logger given: the current request's logger (with its request id), else the speech module's. */
const defaultLog: SpeechLog = {
  warn: (obj, msg) => currentLogger(speechLog).warn(obj, msg),
};

export interface SpeechRequest {
  text: string;
  voice_name?: string;
  model_name?: string;
  audio_format?: string;
  language_code?: string;
}

export interface SpeechClip {
  audio: Uint8Array;
  format: AudioFormat;
  voiceUsed: string;
  provider: 'google' | 'espeak-ng';
  /** True when the configured cloud provider failed and the offline engine answered instead. */
  fallbackUsed: boolean;
}

export interface ResolvedSpeechOptions {
  voiceName: string;
  modelName: string;
  languageCode: string;
  format: AudioFormat;
}

/** Applies the spec's defaults and checks the format: unknown or (offline) unsupported formats are SpeechInputErrors. */
export function resolveSpeechOptions(req: Omit<SpeechRequest, 'text'>, settings = speechSettings()): ResolvedSpeechOptions {
  const format = normaliseAudioFormat(req.audio_format);
  const supported = settings.google ? 'mp3, wav, linear16, ogg, ogg_opus' : OFFLINE_FORMATS.join(', ');
  if (!format) throw new SpeechInputError(`Unsupported audio format: ${String(req.audio_format)} (supported: ${supported})`);
  if (!settings.google && !OFFLINE_FORMATS.includes(format)) {
    throw new SpeechInputError(`Unsupported audio format: ${format} (offline synthesis supports ${supported})`);
  }
  return {
    voiceName: (req.voice_name || DEFAULT_VOICE_NAME).trim(),
    modelName: (req.model_name || DEFAULT_MODEL_NAME).trim(),
    languageCode: (req.language_code || DEFAULT_LANGUAGE_CODE).trim(),
    format,
  };
}

/** Checks the text: blank -> 'No text provided'; longer than the bound -> a 400 naming it. Returns what will be spoken. */
export function checkSpeechText(text: unknown, settings = speechSettings()): string {
  if (typeof text !== 'string' || text.trim() === '') throw new SpeechInputError('No text provided');
  if (text.length > settings.maxChars) throw new SpeechInputError(`Text is too long (at most ${settings.maxChars} characters)`);
  const spoken = speakableText(text);
  if (!/[\p{L}\p{N}]/u.test(spoken)) throw new SpeechInputError('No text provided');
  return spoken;
}

/** Synthesises already-checked speakable text with resolved options. */
export async function synthesizeResolved(
  spoken: string,
  opts: ResolvedSpeechOptions,
  log: SpeechLog = defaultLog,
  settings = speechSettings(),
): Promise<SpeechClip> {
  let fallbackUsed = false;
  if (settings.google) {
    try {
      const g = await googleSynthesize(settings.google, {
        text: spoken,
        voiceName: opts.voiceName,
        modelName: opts.modelName,
        languageCode: opts.languageCode,
        format: opts.format,
      });
      return { audio: g.audio, format: opts.format, voiceUsed: g.voiceUsed, provider: 'google', fallbackUsed: false };
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'Google text-to-speech failed; using the offline voice');
      if (!OFFLINE_FORMATS.includes(opts.format)) throw new Error('TTS generation failed');
      fallbackUsed = true;
    }
  }
  const voice = offlineVoiceFor(opts.voiceName, opts.languageCode);
  const r = await speechPool().run({ text: spoken, espeakVoice: voice.espeakVoice, format: opts.format, rateWpm: settings.rateWpm });
  return { audio: r.audio, format: opts.format, voiceUsed: `espeak-ng:${voice.espeakVoice}`, provider: 'espeak-ng', fallbackUsed };
}

/** One call of POST /api/tts/synthesize: validates, applies defaults, synthesises. */
export async function synthesize(req: SpeechRequest, log: SpeechLog = defaultLog): Promise<SpeechClip> {
  const settings = speechSettings();
  const spoken = checkSpeechText(req.text, settings);
  const opts = resolveSpeechOptions(req, settings);
  return synthesizeResolved(spoken, opts, log, settings);
}

export interface TtsChunkEvent {
  type: 'tts_chunk';
  audio_data: string;
  audio_format: AudioFormat;
  text: string;
  chunk_index: number;
  text_start: number;
  text_end: number;
}

export interface TtsEvent {
  type: 'tts';
  audio_data: string;
  audio_format: AudioFormat;
  fallback_used: boolean;
  text: string;
}

/** Sentences of one reply spoken at most (a reply of 5000 characters has far fewer). */
const MAX_SENTENCES = 200;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** Synthesises a complete text sentence by sentence, yielding tts_chunk events in order (failed sentences are skipped). */
export async function* synthesizeSentences(
  text: string,
  req: Omit<SpeechRequest, 'text'> = {},
  log: SpeechLog = defaultLog,
): AsyncGenerator<TtsChunkEvent> {
  const events: TtsChunkEvent[] = [];
  let wake: (() => void) | null = null;
  const speech = new ReplySpeech(
    { ...resolveSpeechOptions(req), mode: 'chunks' },
    (e) => {
      if (e.type === 'tts_chunk') {
        events.push(e);
        wake?.();
      }
    },
    log,
  );
  speech.push(text);
  let finished = false;
  const done = speech.finish().finally(() => {
    finished = true;
    wake?.();
  });
  while (!finished || events.length) {
    if (events.length) {
      yield events.shift()!;
      continue;
    }
    await new Promise<void>((r) => {
      wake = r;
    });
    wake = null;
  }
  await done;
}

export interface ChatSpeechOptions extends ResolvedSpeechOptions {
  /** 'chunks': a tts_chunk per sentence while the text streams (default). 'full': one tts event after the reply. */
  mode: 'chunks' | 'full';
}

/**
 * Whether a chat request says if it wants speech: `tts` (alias `enable_tts`) true or 'true' asks for it, any other
 * value of either declines; undefined when the request says nothing (then the user's sound preference decides).
 */
export function speechAsked(body: unknown): boolean | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const said = [b.tts, b.enable_tts].filter((v) => v !== undefined && v !== null);
  if (said.length === 0) return undefined;
  return said.some((v) => v === true || v === 'true');
}

/**
 * Reads a chat request's speech flags: whether speech is wanted (speechAsked; `soundPreference`, the user's saved
 * sound choice, when the request does not say); optional `tts_mode` ('chunks' | 'full'), `voice_name`,
 * `model_name`, `audio_format`, `language_code` as for /api/tts/synthesize.
 * Returns null when no speech is wanted; throws SpeechInputError on an unusable format or mode.
 */
export function chatSpeechOptions(body: unknown, soundPreference = false): ChatSpeechOptions | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const on = speechAsked(b) ?? soundPreference;
  if (!on) return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const mode = b.tts_mode === undefined ? 'chunks' : b.tts_mode;
  if (mode !== 'chunks' && mode !== 'full') throw new SpeechInputError("tts_mode must be 'chunks' or 'full'");
  return {
    ...resolveSpeechOptions({
      voice_name: str(b.voice_name),
      model_name: str(b.model_name),
      audio_format: str(b.audio_format),
      language_code: str(b.language_code),
    }),
    mode,
  };
}

export interface ReplySpeechSummary {
  sentences: number;
  chunks: number;
  failed: number;
  /** Whether a final tts event was sent. */
  finalClip: boolean;
}

/**
 * Speaks a chat reply while it streams. push() each content piece as it is sent; tts_chunk events come back through
 * `emit` in sentence order, each as soon as its sentence is complete and synthesised (at most two sentences are
 * synthesised at once per reply, so one long reply cannot monopolise the workers). finish() speaks the rest and
 * resolves once every event has been emitted, so the caller can then end the stream.
 *
 * A final {type:'tts'} event is sent (a) in 'full' mode: the whole reply as one clip, or (b) as the fallback when
 * no sentence could be spoken in chunks: the whole reply retried as one offline clip, with fallback_used true.
 */
export class ReplySpeech {
  private readonly splitter = new SentenceSplitter();
  private readonly settings = speechSettings();
  private chain: Promise<void> = Promise.resolve();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private aborted = false;
  private index = 0;
  private readonly summary: ReplySpeechSummary = { sentences: 0, chunks: 0, failed: 0, finalClip: false };

  constructor(
    private readonly opts: ChatSpeechOptions,
    private readonly emit: (event: TtsChunkEvent | TtsEvent) => void,
    private readonly log: SpeechLog = defaultLog,
    private readonly maxInFlight = 2,
  ) {}

  push(piece: string): void {
    if (this.aborted || !piece) return;
    const sentences = this.splitter.push(piece);
    if (this.opts.mode === 'chunks') for (const s of sentences) this.speak(s);
  }

  /** Stops: nothing more is synthesised or emitted (e.g. the client went away). */
  abort(): void {
    this.aborted = true;
    for (const w of this.waiting.splice(0)) w();
  }

  async finish(): Promise<ReplySpeechSummary> {
    const rest = this.splitter.finish();
    if (this.opts.mode === 'chunks') for (const s of rest) this.speak(s);
    await this.chain;
    const text = this.splitter.fullText;
    const needFull = this.opts.mode === 'full' || (this.summary.chunks === 0 && this.summary.failed > 0);
    if (!this.aborted && needFull && /[\p{L}\p{N}]/u.test(speakableText(text))) {
      const fallback = this.opts.mode === 'chunks';
      try {
        const spoken = speakableText(text).slice(0, this.settings.maxChars);
        const clip = await synthesizeResolved(
          spoken,
          fallback ? { ...this.opts, format: this.offlineFormat() } : this.opts,
          this.log,
          fallback ? { ...this.settings, google: null } : this.settings,
        );
        if (!this.aborted) {
          this.emit({
            type: 'tts',
            audio_data: base64(clip.audio),
            audio_format: clip.format,
            fallback_used: fallback || clip.fallbackUsed,
            text,
          });
          this.summary.finalClip = true;
        }
      } catch (err) {
        this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'TTS generation failed');
      }
    }
    return { ...this.summary };
  }

  private offlineFormat(): AudioFormat {
    return OFFLINE_FORMATS.includes(this.opts.format) ? this.opts.format : 'mp3';
  }

  private speak(sentence: Sentence): void {
    if (this.summary.sentences >= MAX_SENTENCES) return; // a runaway reply is not read out beyond this
    this.summary.sentences += 1;
    const chunkIndex = this.index++;
    const clip = this.acquire().then(async () => {
      if (this.aborted) return null;
      try {
        return await synthesizeResolved(sentence.speakable, this.opts, this.log, this.settings);
      } catch (err) {
        this.summary.failed += 1;
        this.log.warn({ err: err instanceof Error ? err.message : String(err), chunk_index: chunkIndex }, 'TTS generation failed');
        return null;
      } finally {
        this.release();
      }
    });
    this.chain = this.chain.then(async () => {
      const c = await clip;
      if (!c || this.aborted) return;
      this.summary.chunks += 1;
      this.emit({
        type: 'tts_chunk',
        audio_data: base64(c.audio),
        audio_format: c.format,
        text: sentence.text,
        chunk_index: chunkIndex,
        text_start: sentence.start,
        text_end: sentence.end,
      });
    });
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxInFlight) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) =>
      this.waiting.push(() => {
        this.running += 1;
        resolve();
      }),
    );
  }

  private release(): void {
    this.running -= 1;
    const next = this.waiting.shift();
    if (next) next();
  }
}
