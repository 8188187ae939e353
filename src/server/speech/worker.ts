// A speech worker thread: renders one job at a time with the offline engine and posts the audio back (transferred,
// not copied). Started by pool.ts through worker-boot.mjs.
import { parentPort } from 'node:worker_threads';
import { type RenderRequest, prepareEspeak, renderSpeech } from './engine.js';

export interface WorkerJob extends RenderRequest { id: number }
export type WorkerReply =
  | { id: number; ok: true; audio: Uint8Array; durationSec: number; sampleRate: number }
  | { id: number; ok: false; error: string };

const port = parentPort;
if (port) {
  port.on('message', async (job: WorkerJob) => {
    try {
      const r = await renderSpeech(job);
      const reply: WorkerReply = { id: job.id, ok: true, audio: r.audio, durationSec: r.durationSec, sampleRate: r.sampleRate };
      port.postMessage(reply, [r.audio.buffer as ArrayBuffer]);
    } catch (err) {
      const reply: WorkerReply = { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      port.postMessage(reply);
    }
    // Prepare the next espeak instance while idle (after the reply is on its way).
    setImmediate(prepareEspeak);
  });
  prepareEspeak();
  port.postMessage({ ready: true });
}
