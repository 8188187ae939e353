// Clip helpers: MIME types of the spec, and joining chunks into one downloadable clip.
import { describe, expect, it } from 'vitest';
import { base64ToBytes, combineClips, extensionOf, mimeTypeOf } from './clips';

function wav(samples: number[]): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const v = new DataView(out.buffer);
  const ascii = (o: number, s: string) => {
    for (let i = 0; i < 4; i += 1) out[o + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, 22050, true);
  v.setUint32(28, 44100, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => v.setInt16(44 + i * 2, s, true));
  return out;
}

describe('clips', () => {
  it('maps formats to the spec MIME types and file extensions', () => {
    expect(mimeTypeOf('mp3')).toBe('audio/mpeg');
    expect(mimeTypeOf('ogg_opus')).toBe('audio/ogg');
    expect(mimeTypeOf('ogg')).toBe('audio/ogg');
    expect(mimeTypeOf('linear16')).toBe('audio/wav');
    expect(mimeTypeOf('WAV')).toBe('audio/wav');
    expect(extensionOf('linear16')).toBe('wav');
  });

  it('decodes base64', () => {
    expect(Array.from(base64ToBytes('AQID'))).toEqual([1, 2, 3]);
  });

  it('concatenates MP3 chunks and merges WAV chunks into one RIFF file', () => {
    expect(Array.from(combineClips('mp3', [new Uint8Array([1, 2]), new Uint8Array([3])]))).toEqual([1, 2, 3]);
    const merged = combineClips('wav', [wav([1, 2]), wav([3])]);
    const v = new DataView(merged.buffer);
    expect(merged.length).toBe(44 + 6);
    expect(v.getUint32(40, true)).toBe(6);
    expect(v.getUint32(4, true)).toBe(36 + 6);
    expect([v.getInt16(44, true), v.getInt16(46, true), v.getInt16(48, true)]).toEqual([1, 2, 3]);
  });
});
