// WAV writing/parsing and MP3 frame walking, the checks every synthesis test relies on.
import { describe, expect, it } from 'vitest';
import { encodeWav, mimeTypeOf, normaliseAudioFormat, parseMp3, parseWav } from './formats.js';

describe('audio formats', () => {
  it('normalises the names clients send and maps MIME types as the spec lists them', () => {
    expect(normaliseAudioFormat('MP3')).toBe('mp3');
    expect(normaliseAudioFormat(undefined)).toBe('mp3');
    expect(normaliseAudioFormat('LINEAR16')).toBe('linear16');
    expect(normaliseAudioFormat('OGG_OPUS')).toBe('ogg_opus');
    expect(normaliseAudioFormat('flac')).toBeNull();
    expect(mimeTypeOf('mp3')).toBe('audio/mpeg');
    expect(mimeTypeOf('ogg_opus')).toBe('audio/ogg');
    expect(mimeTypeOf('linear16')).toBe('audio/wav');
  });

  it('writes a RIFF/WAVE file that parses back to the same samples', () => {
    const samples = Int16Array.from({ length: 22050 }, (_, i) => Math.round(Math.sin(i / 5) * 1000));
    const wav = encodeWav({ samples, sampleRate: 22050, channels: 1 });
    expect(new TextDecoder().decode(wav.slice(0, 4))).toBe('RIFF');
    const back = parseWav(wav);
    expect(back.sampleRate).toBe(22050);
    expect(back.durationSec).toBeCloseTo(1, 5);
    expect(Array.from(back.samples.slice(0, 50))).toEqual(Array.from(samples.slice(0, 50)));
    expect(() => parseWav(new Uint8Array(100))).toThrow(/RIFF/);
  });

  it('walks MP3 frames and rejects non-MP3 bytes', () => {
    // Two MPEG-2 Layer III frames, 48 kbit/s, 22050 Hz, no padding: 576/8*48000/22050 = 156 bytes each.
    const frame = new Uint8Array(156);
    frame.set([0xff, 0xf3, 0x60, 0xc4]);
    const two = new Uint8Array(312);
    two.set(frame, 0);
    two.set(frame, 156);
    const info = parseMp3(two);
    expect(info).toMatchObject({ frames: 2, sampleRate: 22050, version: 2 });
    expect(info.durationSec).toBeCloseTo(1152 / 22050, 6);
    expect(() => parseMp3(new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0]))).toThrow(/sync/);
  });
});
