// The worker pool: synthesis runs off the event loop, jobs are bounded, stuck or failing jobs do not stop the pool.
import { afterEach, describe, expect, it } from 'vitest';
import { parseMp3, parseWav } from './formats.js';
import { SpeechBusyError, SpeechPool } from './pool.js';

let pool: SpeechPool | undefined;
afterEach(async () => { await pool?.close(); pool = undefined; });

describe('SpeechPool', () => {
  it('renders in worker threads while this thread stays responsive', async () => {
    pool = new SpeechPool({ size: 2 });
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(30);
    let last = Date.now();
    let worstGap = 0;
    const timer = setInterval(() => { const now = Date.now(); worstGap = Math.max(worstGap, now - last); last = now; }, 10);
    const [a, b] = await Promise.all([
      pool.run({ text: long, espeakVoice: 'en-us', format: 'mp3' }),
      pool.run({ text: 'Short one.', espeakVoice: 'en-us+f2', format: 'wav' }),
    ]);
    clearInterval(timer);
    expect(parseMp3(a.audio).durationSec).toBeGreaterThan(60);
    expect(parseWav(b.audio).durationSec).toBeGreaterThan(0.3);
    expect(pool.workers).toBe(2);
    // Rendering a minute of MP3 takes seconds of CPU; on the main thread it would stall this timer that long.
    expect(worstGap).toBeLessThan(400);
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

  it('replaces a worker whose job times out', async () => {
    pool = new SpeechPool({ size: 1, jobTimeoutMs: 1 });
    await expect(pool.run({ text: 'Slow.', espeakVoice: 'en-us', format: 'wav' })).rejects.toThrow(/timed out/);
    expect(pool.workers).toBe(0);
    await pool.close();
    pool = new SpeechPool({ size: 1 });
    await expect(pool.run({ text: 'Fine.', espeakVoice: 'en-us', format: 'wav' })).resolves.toMatchObject({ sampleRate: 22050 });
  }, 60_000);
});
