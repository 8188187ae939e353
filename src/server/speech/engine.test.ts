// The offline engine in this thread: espeak-ng renders speech, lamejs encodes MP3; durations are plausible for the text.
import { describe, expect, it } from 'vitest';
import { renderSpeech } from './engine.js';
import { parseMp3, parseWav } from './formats.js';

const SENTENCE = 'Your leave request has been approved by your line manager.'; // 10 words

describe('offline engine', () => {
  it('renders MP3 whose frames add up to a plausible duration', async () => {
    const r = await renderSpeech({ text: SENTENCE, espeakVoice: 'en-us', format: 'mp3' });
    const info = parseMp3(r.audio);
    expect(info.sampleRate).toBe(22050);
    expect(info.durationSec).toBeGreaterThan(10 * 0.3);
    expect(info.durationSec).toBeLessThan(10 * 1.5);
    expect(Math.abs(info.durationSec - r.durationSec)).toBeLessThan(0.2);
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
