// The offline engine in this thread: espeak-ng renders speech, LAME (WebAssembly) encodes MP3. The MP3 is checked
// as a player would see it: every frame header is valid and an independent decoder (mpg123) turns it back into
// the same sound, of the same length.
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMp3, renderSpeech, synthesizePcm } from './engine.js';
import { type Pcm, parseMp3, parseWav } from './formats.js';

const SENTENCE = 'Your leave request has been approved by your line manager.'; // 10 words

let decoder: MPEGDecoder;
beforeAll(async () => {
  decoder = new MPEGDecoder();
  await decoder.ready;
});
afterAll(() => decoder?.free());

/** Decodes a whole MP3 file with mpg123 (mono: the first channel). */
async function decode(mp3: Uint8Array) {
  await decoder.reset();
  const out = decoder.decode(mp3);
  return { samples: out.channelData[0].subarray(0, out.samplesDecoded), sampleRate: out.sampleRate, errors: out.errors };
}

/** Loudness over time: RMS of consecutive windows. */
function envelope(samples: ArrayLike<number>, window: number, scale = 1): number[] {
  const out: number[] = [];
  for (let at = 0; at + window <= samples.length; at += window) {
    let sum = 0;
    for (let i = at; i < at + window; i += 1) sum += (samples[i] / scale) ** 2;
    out.push(Math.sqrt(sum / window));
  }
  return out;
}

function correlation(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const mean = (x: number[]) => x.slice(0, n).reduce((s, v) => s + v, 0) / n;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i += 1) {
    num += (a[i] - ma) * (b[i] - mb);
    da += (a[i] - ma) ** 2;
    db += (b[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

/** The best envelope correlation over small shifts (the encoder and decoder add a few milliseconds of delay). */
function bestCorrelation(a: number[], b: number[], maxShift: number): number {
  let best = -1;
  for (let s = 0; s <= maxShift; s += 1) best = Math.max(best, correlation(a.slice(s), b), correlation(a, b.slice(s)));
  return best;
}

describe('offline engine', () => {
  it('renders MP3 whose frames add up to a plausible duration', async () => {
    const r = await renderSpeech({ text: SENTENCE, espeakVoice: 'en-us', format: 'mp3' });
    const info = parseMp3(r.audio);
    expect(info).toMatchObject({ sampleRate: 22050, version: 2 });
    expect(info.durationSec).toBeGreaterThan(10 * 0.3);
    expect(info.durationSec).toBeLessThan(10 * 1.5);
    // LAME adds its encoder delay and pads the last frame: at most a few frames (26 ms each) more than the speech.
    expect(info.durationSec - r.durationSec).toBeGreaterThanOrEqual(0);
    expect(info.durationSec - r.durationSec).toBeLessThan(0.2);
    // Every byte belongs to a complete frame: no tag or trailing garbage a player would trip on.
    const frameBytes = info.frames * 156; // 48 kbit/s at 22.05 kHz: 156 bytes a frame, 157 with padding
    expect(r.audio.length).toBeGreaterThanOrEqual(frameBytes);
    expect(r.audio.length).toBeLessThanOrEqual(frameBytes + info.frames);
  });

  it('encodes MP3 that an independent decoder plays back as the same speech', async () => {
    const pcm = await synthesizePcm(SENTENCE, 'en-us');
    const mp3 = await encodeMp3(pcm);
    const back = await decode(mp3);
    expect(back.errors).toEqual([]);
    expect(back.sampleRate).toBe(pcm.sampleRate);
    expect(mp3[3] >> 6).toBe(3); // the frame header's channel mode: single channel
    const seconds = pcm.samples.length / pcm.sampleRate;
    expect(back.samples.length / back.sampleRate).toBeGreaterThan(seconds - 0.01);
    expect(back.samples.length / back.sampleRate).toBeLessThan(seconds + 0.2);
    // Loudness over time (20 ms windows) follows the original: the words are where they were, not noise or silence.
    const window = Math.round(pcm.sampleRate * 0.02);
    const original = envelope(pcm.samples, window, 32768);
    const decoded = envelope(back.samples, window);
    expect(bestCorrelation(decoded, original, 5)).toBeGreaterThan(0.9);
    expect(Math.max(...decoded)).toBeGreaterThan(0.05);
  });

  it('keeps pitch and length of a pure tone through encoding and decoding, for every clip of the thread', async () => {
    const tone = (hz: number, seconds: number): Pcm => ({
      samples: Int16Array.from({ length: Math.round(22050 * seconds) }, (_, i) =>
        Math.round(Math.sin((2 * Math.PI * hz * i) / 22050) * 12000),
      ),
      sampleRate: 22050,
      channels: 1,
    });
    // The encoder is reused: each clip starts afresh (a clip's tail never leaks into the next).
    for (const [hz, seconds] of [
      [440, 1],
      [220, 0.5],
      [440, 1],
    ] as const) {
      const back = await decode(await encodeMp3(tone(hz, seconds)));
      expect(back.errors).toEqual([]);
      expect(back.samples.length / 22050).toBeGreaterThan(seconds - 0.01);
      expect(back.samples.length / 22050).toBeLessThan(seconds + 0.15);
      // Upward zero crossings in the steady middle part give the frequency.
      const mid = back.samples.subarray(Math.round(22050 * 0.1), Math.round(22050 * (seconds - 0.1)));
      let crossings = 0;
      for (let i = 1; i < mid.length; i += 1) if (mid[i - 1] < 0 && mid[i] >= 0) crossings += 1;
      expect(crossings / (mid.length / 22050)).toBeCloseTo(hz, -1);
    }
  });

  it('renders WAV with a female variant, and the text is never read as options', async () => {
    const r = await renderSpeech({ text: '-v xx --help', espeakVoice: 'en-us+f3', format: 'wav' });
    const wav = parseWav(r.audio);
    expect(wav.sampleRate).toBe(22050);
    expect(wav.durationSec).toBeGreaterThan(0.5);
    // Not silence.
    expect(Math.max(...Array.from(wav.samples.slice(0, 20000)).map(Math.abs))).toBeGreaterThan(1000);
  });

  it('gives each request its own fresh program: successive texts render their own audio', async () => {
    const short = await renderSpeech({ text: 'One.', espeakVoice: 'en-us', format: 'wav' });
    const long = await renderSpeech({ text: 'A much longer sentence follows the short one here.', espeakVoice: 'en-us', format: 'wav' });
    const again = await renderSpeech({ text: 'One.', espeakVoice: 'en-us', format: 'wav' });
    expect(long.durationSec).toBeGreaterThan(short.durationSec * 2);
    expect(again.durationSec).toBeCloseTo(short.durationSec, 5);
  });

  it('fails clearly for an unknown voice or an unsupported format', async () => {
    await expect(renderSpeech({ text: 'hi', espeakVoice: 'zz-nope', format: 'wav' })).rejects.toThrow(/espeak-ng produced no audio/);
    await expect(renderSpeech({ text: 'hi', espeakVoice: 'en-us', format: 'ogg_opus' })).rejects.toThrow(/Unsupported audio format/);
  });
});
