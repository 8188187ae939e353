// The worker pool: synthesis runs off the event loop, jobs are bounded, stuck or failing jobs do not stop the pool.
import { getPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadId as thisThread } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseMp3, parseWav } from './formats.js';
import { SpeechBusyError, SpeechPool } from './pool.js';

let pool: SpeechPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const LONG = 'The quick brown fox jumps over the lazy dog. '.repeat(30); // about a minute and a half of speech

describe('SpeechPool', () => {
  it('renders in its worker threads, and this thread keeps answering meanwhile', async () => {
    pool = new SpeechPool({ size: 2 });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const [a, b] = await Promise.all([
      pool.run({ text: LONG, espeakVoice: 'en-us', format: 'mp3' }),
      pool.run({ text: 'Short one.', espeakVoice: 'en-us+f2', format: 'wav' }),
    ]);
    delay.disable();
    expect(parseMp3(a.audio).durationSec).toBeGreaterThan(60);
    expect(parseWav(b.audio).durationSec).toBeGreaterThan(0.3);
    // Where the work ran: in two different threads of the pool, neither of them this one.
    expect(pool.workers).toBe(2);
    expect(new Set([a.threadId, b.threadId]).size).toBe(2);
    expect(pool.threadIds).toEqual(expect.arrayContaining([a.threadId, b.threadId]));
    expect([a.threadId, b.threadId]).not.toContain(thisThread);
    // What that buys: the long clip took its worker a while (espeak and the MP3 encoder each run in one piece, about
    // half of it each); had either run here, this thread would have stalled that long. Its longest stall stays well
    // below, however busy the machine (a busy machine slows the rendering as much).
    expect(a.renderMs).toBeGreaterThan(200);
    expect(delay.max / 1e6).toBeLessThan(a.renderMs / 4);
  }, 60_000);

  it('answers busy beyond its queue, and keeps going after a failed job', async () => {
    pool = new SpeechPool({ size: 1, queueMax: 1 });
    const first = pool.run({ text: 'One.', espeakVoice: 'en-us', format: 'wav' });
    const second = pool.run({ text: 'Two.', espeakVoice: 'zz-nope', format: 'wav' });
    await expect(pool.run({ text: 'Three.', espeakVoice: 'en-us', format: 'wav' })).rejects.toBeInstanceOf(SpeechBusyError);
    await expect(first).resolves.toMatchObject({ sampleRate: 22050 });
    await expect(second).rejects.toThrow(/no audio/);
    await expect(pool.run({ text: 'Four.', espeakVoice: 'en-us', format: 'wav' })).resolves.toMatchObject({ sampleRate: 22050 });
  }, 60_000);

  it('replaces a worker whose job times out: that thread ends and a new one serves the next job', async () => {
    pool = new SpeechPool({ size: 1 });
    const warm = await pool.run({ text: 'Ready.', espeakVoice: 'en-us', format: 'wav' });
    expect(pool.threadIds).toEqual([warm.threadId]);
    // A minute of speech cannot be rendered in 1 ms: the job fails and its worker is dropped at once.
    await expect(pool.run({ text: LONG, espeakVoice: 'en-us', format: 'mp3' }, { timeoutMs: 1 })).rejects.toThrow(/timed out after 1 ms/);
    expect(pool.workers).toBe(0);
    // The stuck thread really ends (it is terminated, not left running).
    await vi.waitFor(() => expect(pool!.counters.exited).toBe(1), { timeout: 10_000 });
    // The next job, under the pool's usual limit, is served by a new thread.
    const next = await pool.run({ text: 'Fine.', espeakVoice: 'en-us', format: 'wav' });
    expect(parseWav(next.audio).durationSec).toBeGreaterThan(0.2);
    expect(next.threadId).not.toBe(warm.threadId);
    expect(pool.threadIds).toEqual([next.threadId]);
    expect(pool.counters).toMatchObject({ started: 2, done: 2, failed: 1, exited: 1 });
  }, 60_000);

  // Synthesis competes with the request thread for the cores; the first text piece of a reply must not wait for it
  // (issue 15). On Linux a nice value belongs to one thread: the workers lower their own, this thread keeps its.
  it.runIf(process.platform === 'linux')(
    'runs its workers at the lower priority it is given, and leaves this thread as it was',
    async () => {
      const before = getPriority();
      pool = new SpeechPool({ size: 2, nice: 15 });
      const [a, b] = await Promise.all([
        pool.run({ text: 'One sentence.', espeakVoice: 'en-us', format: 'wav' }),
        pool.run({ text: 'Another sentence.', espeakVoice: 'en-us', format: 'wav' }),
      ]);
      expect(new Set([a.threadId, b.threadId]).size).toBe(2);
      // Lowered from this process's own nice value (a test run may itself be niced; a thread can only go lower).
      expect([a.nice, b.nice]).toEqual([Math.max(15, before), Math.max(15, before)]);
      expect(getPriority()).toBe(before);
      await pool.close();
      // Without the option the workers keep the usual priority.
      pool = new SpeechPool({ size: 1 });
      expect((await pool.run({ text: 'Plain.', espeakVoice: 'en-us', format: 'wav' })).nice).toBe(before);
    },
    60_000,
  );
});
