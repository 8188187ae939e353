// The audio queue of spoken replies: chunks play in order, one at a time; a
// chunk with a text start position waits until the displayed text has reached it (checked every 50 ms); at most
// 50 chunks are kept (the oldest waiting one is dropped); a clip that fails is logged and the queue goes on.
// Pure: playback and timers are injected, so it is tested with fake timers and reused with any audio element.

export const AUDIO_QUEUE_MAX_CHUNKS = 50;
export const TEXT_WAIT_POLL_MS = 50;

export interface AudioChunk {
  id: string;
  /** Base64 audio bytes. */
  audioData: string;
  /** mp3, wav, linear16, ogg, ogg_opus. */
  format: string;
  text?: string;
  chunkIndex: number;
  /** Offsets of the spoken text in its message; the chunk waits until the message shows textStart characters. */
  textStart?: number;
  textEnd?: number;
  /** The chat message the chunk speaks. */
  messageId?: string;
  /** What the audio is, for the avatar's return timing: a reply, the automatic greeting, or a replay. */
  kind?: 'reply' | 'greeting' | 'replay';
}

export interface QueueTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface AudioQueueState {
  /** The chunk playing now. */
  playing: AudioChunk | null;
  /** Chunks waiting (not counting the one playing). */
  waiting: number;
  /** The next chunk is held back until its text is shown. */
  waitingForText: boolean;
  played: number;
  failed: number;
  dropped: number;
}

export interface AudioQueueOptions {
  /** Plays one chunk; resolves when it has finished, rejects when it cannot be played. */
  play(chunk: AudioChunk): Promise<void>;
  /** Stops the clip playing now (stop()/clear()); play()'s promise may then resolve or reject, it is ignored. */
  stopPlayback?(): void;
  /** Characters of the chunk's message shown so far; without it chunks never wait. */
  displayedLength?(chunk: AudioChunk): number;
  timers?: QueueTimers;
  maxChunks?: number;
  pollMs?: number;
  log?(message: string, error?: unknown): void;
  /** A chunk starts playing. */
  onStart?(chunk: AudioChunk): void;
  /** The queue ran empty after playing (or failing) chunk `last`. */
  onIdle?(last: AudioChunk | null): void;
}

const realTimers: QueueTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class AudioQueue {
  private readonly items: AudioChunk[] = [];
  private current: AudioChunk | null = null;
  private pollHandle: unknown = null;
  private generation = 0;
  private counts = { played: 0, failed: 0, dropped: 0 };
  private readonly listeners = new Set<() => void>();
  private snapshot: AudioQueueState;
  private readonly timers: QueueTimers;
  private readonly maxChunks: number;
  private readonly pollMs: number;

  constructor(private readonly opts: AudioQueueOptions) {
    this.timers = opts.timers ?? realTimers;
    this.maxChunks = opts.maxChunks ?? AUDIO_QUEUE_MAX_CHUNKS;
    this.pollMs = opts.pollMs ?? TEXT_WAIT_POLL_MS;
    this.snapshot = this.computeState();
  }

  /** Adds a chunk at the end; beyond the limit the oldest waiting chunk is dropped. */
  enqueue(chunk: AudioChunk): void {
    this.items.push(chunk);
    while (this.items.length > this.maxChunks) {
      this.items.shift();
      this.counts.dropped += 1;
    }
    this.changed();
    this.next();
  }

  /** Stops the clip playing and forgets every waiting chunk (sound off, new session, logout, replay). */
  clear(): void {
    this.generation += 1;
    this.items.length = 0;
    if (this.pollHandle !== null) {
      this.timers.clearTimeout(this.pollHandle);
      this.pollHandle = null;
    }
    const wasPlaying = this.current !== null;
    this.current = null;
    if (wasPlaying) this.opts.stopPlayback?.();
    this.changed();
  }

  /** Re-checks a waiting chunk now (e.g. the displayed text grew) instead of at the next poll. */
  poke(): void {
    if (this.pollHandle !== null) {
      this.timers.clearTimeout(this.pollHandle);
      this.pollHandle = null;
    }
    this.next();
  }

  get state(): AudioQueueState {
    return this.snapshot;
  }

  /** For React's useSyncExternalStore. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): AudioQueueState => this.snapshot;

  private computeState(): AudioQueueState {
    return {
      playing: this.current,
      waiting: this.items.length,
      waitingForText: this.current === null && this.pollHandle !== null,
      ...this.counts,
    };
  }

  private changed(): void {
    this.snapshot = this.computeState();
    for (const l of this.listeners) l();
  }

  private next(): void {
    if (this.current || this.pollHandle !== null) return;
    const head = this.items[0];
    if (!head) return;
    if (head.textStart !== undefined && this.opts.displayedLength && this.opts.displayedLength(head) < head.textStart) {
      this.pollHandle = this.timers.setTimeout(() => {
        this.pollHandle = null;
        this.next();
      }, this.pollMs);
      this.changed();
      return;
    }
    this.items.shift();
    this.current = head;
    const generation = this.generation;
    this.changed();
    this.opts.onStart?.(head);
    let playing: Promise<void>;
    try {
      playing = Promise.resolve(this.opts.play(head));
    } catch (err) {
      playing = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    playing
      .then(
        () => {
          if (generation === this.generation) this.counts.played += 1;
        },
        (err) => {
          if (generation !== this.generation) return;
          this.counts.failed += 1;
          (this.opts.log ?? ((m, e) => console.error(m, e)))(`Audio chunk ${head.chunkIndex} could not be played`, err);
        },
      )
      .finally(() => {
        if (generation !== this.generation) return;
        this.current = null;
        this.changed();
        if (this.items.length === 0) this.opts.onIdle?.(head);
        this.next();
      });
  }
}
