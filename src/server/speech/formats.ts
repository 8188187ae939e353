// Audio formats of the speech API (mp3 is audio/mpeg; ogg and ogg_opus audio/ogg; wav and linear16 audio/wav):
// names, MIME types, and the small binary codecs we own: RIFF/WAV writing and parsing, MP3 frame-header reading
// (to check and time encoded audio). Pure functions.

/** Formats a client may ask for, in the spelling the events and clients use (lower case). */
export type AudioFormat = 'mp3' | 'wav' | 'linear16' | 'ogg' | 'ogg_opus';

/** Formats the offline engine can produce; ogg/ogg_opus need the cloud provider (no pure-JS Opus/Vorbis encoder is installed). */
export const OFFLINE_FORMATS: readonly AudioFormat[] = ['mp3', 'wav', 'linear16'];

const ALIASES: Record<string, AudioFormat> = {
  mp3: 'mp3',
  mpeg: 'mp3',
  'audio/mpeg': 'mp3',
  wav: 'wav',
  wave: 'wav',
  'audio/wav': 'wav',
  linear16: 'linear16',
  pcm: 'linear16',
  l16: 'linear16',
  ogg: 'ogg',
  'audio/ogg': 'ogg',
  ogg_opus: 'ogg_opus',
  'ogg-opus': 'ogg_opus',
  opus: 'ogg_opus',
};

/** 'MP3' -> 'mp3', 'OGG_OPUS' -> 'ogg_opus'; null for anything unknown. */
export function normaliseAudioFormat(value: string | undefined | null): AudioFormat | null {
  if (value == null || value === '') return 'mp3';
  return ALIASES[String(value).trim().toLowerCase()] ?? null;
}

/** MIME type per format, as the spec lists them. */
export function mimeTypeOf(format: AudioFormat): string {
  if (format === 'mp3') return 'audio/mpeg';
  if (format === 'ogg' || format === 'ogg_opus') return 'audio/ogg';
  return 'audio/wav';
}

/** The AudioEncoding name of Google Cloud Text-to-Speech for a format. */
export function googleEncodingOf(format: AudioFormat): 'MP3' | 'LINEAR16' | 'OGG_OPUS' {
  if (format === 'mp3') return 'MP3';
  if (format === 'ogg' || format === 'ogg_opus') return 'OGG_OPUS';
  return 'LINEAR16';
}

export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
  channels: number;
}

/** A canonical 44-byte-header RIFF/WAVE file of 16-bit PCM. */
export function encodeWav(pcm: Pcm): Uint8Array {
  const dataBytes = pcm.samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (off: number, s: string) => {
    for (let i = 0; i < s.length; i += 1) out[off + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, pcm.channels, true);
  v.setUint32(24, pcm.sampleRate, true);
  v.setUint32(28, pcm.sampleRate * pcm.channels * 2, true);
  v.setUint16(32, pcm.channels * 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  for (let i = 0; i < pcm.samples.length; i += 1) v.setInt16(44 + i * 2, pcm.samples[i], true);
  return out;
}

export interface WavInfo extends Pcm {
  bitsPerSample: number;
  durationSec: number;
}

/** Parses a RIFF/WAVE file of 16-bit PCM (walks the chunks, so extra chunks such as LIST are fine). Throws on anything else. */
export function parseWav(bytes: Uint8Array): WavInfo {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (off: number) => String.fromCharCode(bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]);
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let off = 12;
  let fmt: { format: number; channels: number; sampleRate: number; bits: number } | null = null;
  while (off + 8 <= bytes.length) {
    const id = tag(off);
    let size = v.getUint32(off + 4, true);
    const body = off + 8;
    if (id === 'fmt ') {
      fmt = {
        format: v.getUint16(body, true),
        channels: v.getUint16(body + 2, true),
        sampleRate: v.getUint32(body + 4, true),
        bits: v.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('data chunk before fmt chunk');
      if (fmt.format !== 1 || fmt.bits !== 16) throw new Error(`unsupported WAV encoding (format ${fmt.format}, ${fmt.bits} bits)`);
      // Streamed WAVs may carry a placeholder size: clamp to the bytes present.
      size = Math.min(size, bytes.length - body) & ~1;
      const samples = new Int16Array(size / 2);
      for (let i = 0; i < samples.length; i += 1) samples[i] = v.getInt16(body + i * 2, true);
      return {
        samples,
        sampleRate: fmt.sampleRate,
        channels: fmt.channels,
        bitsPerSample: fmt.bits,
        durationSec: samples.length / fmt.channels / fmt.sampleRate,
      };
    }
    off = body + size + (size & 1);
  }
  throw new Error('WAV file has no data chunk');
}

const MP3_BITRATES: Record<string, number[]> = {
  // kbit/s by bitrate index, for Layer III: MPEG-1, and MPEG-2/2.5.
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export interface Mp3Info {
  frames: number;
  sampleRate: number;
  durationSec: number;
  /** MPEG version: 1, 2 or 2.5. */
  version: number;
}

/**
 * Walks the Layer III frames of an MP3 stream (skipping an ID3v2 tag) and totals their duration.
 * Throws when the bytes are not a sequence of valid frame headers.
 */
export function parseMp3(bytes: Uint8Array): Mp3Info {
  let off = 0;
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    off = 10 + (((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f));
  }
  let frames = 0;
  let duration = 0;
  let sampleRate = 0;
  let version = 0;
  while (off + 4 <= bytes.length) {
    const b1 = bytes[off + 1];
    const b2 = bytes[off + 2];
    if (bytes[off] !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no MP3 frame sync at byte ${off}`);
    const versionBits = (b1 >> 3) & 3;
    const layerBits = (b1 >> 1) & 3;
    if (versionBits === 1 || layerBits !== 1) throw new Error(`not an MPEG Layer III frame at byte ${off}`);
    const bitrateIndex = b2 >> 4;
    const rateIndex = (b2 >> 2) & 3;
    if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) throw new Error(`bad MP3 frame header at byte ${off}`);
    const padding = (b2 >> 1) & 1;
    const kbps = (versionBits === 3 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[bitrateIndex];
    const rate = MP3_RATES[versionBits][rateIndex];
    const samplesPerFrame = versionBits === 3 ? 1152 : 576;
    const frameLength = Math.floor(((samplesPerFrame / 8) * kbps * 1000) / rate) + padding;
    if (off + frameLength > bytes.length) break; // a truncated last frame
    frames += 1;
    duration += samplesPerFrame / rate;
    sampleRate = rate;
    version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
    off += frameLength;
  }
  if (frames === 0) throw new Error('no complete MP3 frame');
  return { frames, sampleRate, durationSec: duration, version };
}
