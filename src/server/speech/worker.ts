// A speech worker thread: renders one job at a time with the offline engine and posts the audio back (transferred,
// not copied). Started by pool.ts (compiled worker.js in the build, worker.ts under tsx when run from source).
import { getPriority, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { type RenderRequest, prepareEspeak, renderSpeech } from './engine.js';

export interface WorkerJob extends RenderRequest {
  id: number;
}
export type WorkerReply =
  /**
   * threadId and renderMs (time spent rendering in this thread) tell where and how long the work ran; nice is this
   * thread's scheduling priority (lowered at start, see below).
   */
  | { id: number; ok: true; audio: Uint8Array; durationSec: number; sampleRate: number; threadId: number; renderMs: number; nice: number }
  | { id: number; ok: false; error: string };

/** What pool.ts passes as workerData. */
export interface WorkerOptions {
  /** The nice value this thread takes at start (0: unchanged). */
  nice?: number;
}

/**
 * Lowers this thread's CPU priority, so that synthesis yields the cores to the request thread (the first text piece
 * of a reply must not wait for audio being rendered). On Linux the nice value belongs to the thread: os.setPriority
 * without a pid is setpriority(PRIO_PROCESS, 0), which changes the calling thread only; the server's main thread
 * and other workers keep theirs. A failure (a platform or sandbox that refuses) leaves the thread as it was: speech
 * still works, only without the lower priority. Returns the thread's nice value afterwards.
 */
export function lowerThreadPriority(nice: number): number {
  if (nice > 0) {
    try {
      if (getPriority() < nice) setPriority(nice);
    } catch {
      /* tolerated: the thread keeps its priority */
    }
  }
  try {
    return getPriority();
  } catch {
    return 0;
  }
}

const port = parentPort;
if (port) {
  const nice = lowerThreadPriority((workerData as WorkerOptions | undefined)?.nice ?? 0);
  // The job's own try/catch answers every failure, so nothing awaits the handler's promise.
  port.on(
    'message',
    (job: WorkerJob) =>
      void (async () => {
        try {
          const started = performance.now();
          const r = await renderSpeech(job);
          const reply: WorkerReply = {
            id: job.id,
            ok: true,
            audio: r.audio,
            durationSec: r.durationSec,
            sampleRate: r.sampleRate,
            threadId,
            renderMs: performance.now() - started,
            nice,
          };
          port.postMessage(reply, [r.audio.buffer as ArrayBuffer]);
        } catch (err) {
          const reply: WorkerReply = { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) };
          port.postMessage(reply);
        }
        // Prepare the next espeak instance while idle (after the reply is on its way).
        setImmediate(prepareEspeak);
      })(),
  );
  prepareEspeak();
  port.postMessage({ ready: true });
}
