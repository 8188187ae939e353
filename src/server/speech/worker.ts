// A speech worker thread: renders one job at a time with the offline engine and posts the audio back (transferred,
// not copied). Started by pool.ts (compiled worker.js in the build, worker.ts under tsx when run from source).
import { performance } from 'node:perf_hooks';
import { parentPort, threadId } from 'node:worker_threads';
import { type RenderRequest, prepareEspeak, renderSpeech } from './engine.js';

export interface WorkerJob extends RenderRequest {
  id: number;
}
export type WorkerReply =
  /** threadId and renderMs (time spent rendering in this thread) tell where and how long the work ran. */
  | { id: number; ok: true; audio: Uint8Array; durationSec: number; sampleRate: number; threadId: number; renderMs: number }
  | { id: number; ok: false; error: string };

const port = parentPort;
if (port) {
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
