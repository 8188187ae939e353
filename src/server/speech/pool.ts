// A small pool of speech worker threads, so synthesis (CPU-bound WebAssembly and MP3 encoding) never blocks the
// request thread. Workers start on demand, stop when idle, are replaced after a crash or a timed-out job; the
// queue is bounded so a flood of requests answers "busy" instead of growing without limit.
import { Worker } from 'node:worker_threads';
import type { RenderRequest, RenderResult } from './engine.js';
import type { WorkerJob, WorkerOptions, WorkerReply } from './worker.js';

export class SpeechBusyError extends Error {
  constructor() {
    super('Speech synthesis is busy, try again shortly');
  }
}

/** Rendered audio, with the worker thread that rendered it, how long that took there and that thread's nice value. */
export interface PoolResult extends RenderResult {
  threadId: number;
  renderMs: number;
  nice: number;
}

export interface RunOptions {
  /** This job's time limit instead of the pool's (jobTimeoutMs). */
  timeoutMs?: number;
}

export interface PoolOptions {
  /** Worker threads (default 2). */
  size?: number;
  /** Jobs waiting beyond the running ones (default 200). */
  queueMax?: number;
  /** A job (including a cold worker's start) that takes longer fails and its worker is replaced (default 30 s). */
  jobTimeoutMs?: number;
  /** An idle worker stops after this long (default 5 min). */
  idleMs?: number;
  /**
   * The nice value (0-19) each worker thread takes at start (default 0: unchanged; the server passes its
   * TTS_WORKER_NICE), so synthesis yields the cores to the request thread.
   */
  nice?: number;
}

interface Job {
  id: number;
  req: RenderRequest;
  timeoutMs: number;
  resolve: (r: PoolResult) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  idleTimer?: NodeJS.Timeout;
}

// The built server runs the compiled worker.js beside this file. Run from source (tsx in `npm run dev`, vitest in
// tests) it is worker.ts, and the thread gets tsx's loader itself: a new thread does not inherit the loader
// registered on the thread that starts it. Production never loads tsx.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './worker.ts' : './worker.js', import.meta.url);
const WORKER_EXEC_ARGV = FROM_SOURCE ? [...process.execArgv, '--import', 'tsx'] : undefined;

export class SpeechPool {
  private readonly size: number;
  private readonly queueMax: number;
  private readonly jobTimeoutMs: number;
  private readonly idleMs: number;
  private readonly nice: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Jobs finished, failed, and worker threads started and ended; for tests and diagnostics. */
  readonly counters = { done: 0, failed: 0, started: 0, exited: 0 };

  constructor(opts: PoolOptions = {}) {
    this.size = Math.min(Math.max(Math.floor(opts.size ?? 2), 1), 8);
    this.queueMax = opts.queueMax ?? 200;
    this.jobTimeoutMs = opts.jobTimeoutMs ?? 30_000;
    this.idleMs = opts.idleMs ?? 5 * 60_000;
    this.nice = Math.min(Math.max(Math.floor(opts.nice ?? 0), 0), 19);
  }

  get workers(): number {
    return this.slots.length;
  }
  /** The thread ids of the pool's live workers (a replaced worker is no longer listed). */
  get threadIds(): number[] {
    return this.slots.map((s) => s.worker.threadId);
  }
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  run(req: RenderRequest, opts: RunOptions = {}): Promise<PoolResult> {
    if (this.closed) return Promise.reject(new Error('speech pool is closed'));
    if (this.queue.length >= this.queueMax) return Promise.reject(new SpeechBusyError());
    const timeoutMs = opts.timeoutMs ?? this.jobTimeoutMs;
    return new Promise<PoolResult>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, req, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Starts a worker and renders a word, so the first real request does not pay for thread start and compilation. */
  warm(): Promise<void> {
    return this.run({ text: 'Ready.', espeakVoice: 'en-us', format: 'mp3' }).then(
      () => undefined,
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('speech pool is closed'));
    await Promise.all(
      this.slots.splice(0).map((s) => {
        if (s.job) {
          clearTimeout(s.job.timer);
          s.job.reject(new Error('speech pool is closed'));
        }
        clearTimeout(s.idleTimer);
        return s.worker.terminate();
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const workerData: WorkerOptions = { nice: this.nice };
    const worker = new Worker(WORKER_URL, {
      stdout: false,
      stderr: false,
      workerData,
      ...(WORKER_EXEC_ARGV ? { execArgv: WORKER_EXEC_ARGV } : {}),
    });
    worker.unref();
    const slot: Slot = { worker, job: null };
    this.slots.push(slot);
    this.counters.started += 1;
    worker.on('message', (msg: WorkerReply | { ready: true }) => {
      if ('ready' in msg) return;
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      clearTimeout(job.timer);
      slot.job = null;
      if (msg.ok) {
        this.counters.done += 1;
        job.resolve({
          audio: msg.audio,
          durationSec: msg.durationSec,
          sampleRate: msg.sampleRate,
          threadId: msg.threadId,
          renderMs: msg.renderMs,
          nice: msg.nice,
        });
      } else {
        this.counters.failed += 1;
        job.reject(new Error(msg.error));
      }
      this.afterJob(slot);
    });
    const lost = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      clearTimeout(slot.idleTimer);
      if (slot.job) {
        clearTimeout(slot.job.timer);
        this.counters.failed += 1;
        slot.job.reject(err);
        slot.job = null;
      }
      if (!this.closed) this.pump();
    };
    worker.on('error', (err) => lost(err));
    worker.on('exit', (code) => {
      this.counters.exited += 1;
      lost(new Error(`speech worker exited (code ${code})`));
    });
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    job.timer = setTimeout(() => {
      if (slot.job !== job) return;
      // A stuck worker is replaced; the job fails with a clear message.
      slot.job = null;
      this.counters.failed += 1;
      job.reject(new Error(`speech synthesis timed out after ${job.timeoutMs} ms`));
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      void slot.worker.terminate();
      this.pump();
    }, job.timeoutMs);
    job.timer.unref();
    const message: WorkerJob = { id: job.id, ...job.req };
    slot.worker.postMessage(message);
  }

  private afterJob(slot: Slot): void {
    this.pump();
    if (!slot.job && this.slots.includes(slot)) {
      slot.idleTimer = setTimeout(() => {
        if (slot.job) return;
        const i = this.slots.indexOf(slot);
        if (i >= 0) this.slots.splice(i, 1);
        void slot.worker.terminate();
      }, this.idleMs);
      slot.idleTimer.unref();
    }
  }
}
