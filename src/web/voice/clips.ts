// Audio clip helpers of the web app: base64 to bytes, the MIME type per format (mp3 audio/mpeg, ogg audio/ogg,
// wav and linear16 audio/wav), and joining a
// reply's chunks into the one "last clip" the audio bar plays and downloads (MP3 frames concatenate; WAVs merge).

export function mimeTypeOf(format: string): string {
  const f = format.toLowerCase();
  if (f === 'mp3' || f === 'mpeg') return 'audio/mpeg';
  if (f === 'ogg' || f === 'ogg_opus') return 'audio/ogg';
  if (f === 'wav' || f === 'linear16') return 'audio/wav';
  return 'audio/mpeg';
}

export function extensionOf(format: string): string {
  const mime = mimeTypeOf(format);
  return mime === 'audio/ogg' ? 'ogg' : mime === 'audio/wav' ? 'wav' : 'mp3';
}

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) out[i] = bin.charCodeAt(i);
  return out;
}

/** The PCM data of a 16-bit RIFF/WAVE file and its format chunk fields, or null when it is not one. */
function wavParts(bytes: Uint8Array): { sampleRate: number; channels: number; data: Uint8Array } | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (o: number) => String.fromCharCode(bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]);
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let off = 12;
  let sampleRate = 0;
  let channels = 0;
  while (off + 8 <= bytes.length) {
    const id = tag(off);
    const size = v.getUint32(off + 4, true);
    if (id === 'fmt ') {
      channels = v.getUint16(off + 10, true);
      sampleRate = v.getUint32(off + 12, true);
    }
    if (id === 'data') return { sampleRate, channels, data: bytes.subarray(off + 8, Math.min(off + 8 + size, bytes.length)) };
    off += 8 + size + (size & 1);
  }
  return null;
}

function wavFile(sampleRate: number, channels: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(44 + data.length);
  const v = new DataView(out.buffer);
  const ascii = (o: number, s: string) => {
    for (let i = 0; i < 4; i += 1) out[o + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + data.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * channels * 2, true);
  v.setUint16(32, channels * 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, data.length, true);
  out.set(data, 44);
  return out;
}

/** One playable file from a reply's clips (all of one format, in order). */
export function combineClips(format: string, clips: Uint8Array[]): Uint8Array {
  if (clips.length === 1) return clips[0];
  if (mimeTypeOf(format) === 'audio/wav') {
    const parts = clips.map(wavParts);
    if (parts.every((p): p is NonNullable<typeof p> => p !== null) && parts.length > 0) {
      const total = parts.reduce((n, p) => n + p.data.length, 0);
      const data = new Uint8Array(total);
      let at = 0;
      for (const p of parts) {
        data.set(p.data, at);
        at += p.data.length;
      }
      return wavFile(parts[0].sampleRate, parts[0].channels, data);
    }
  }
  const total = clips.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of clips) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
