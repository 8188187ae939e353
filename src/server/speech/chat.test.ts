// Speech in the chat stream: with `tts: true` the SSE reply carries tts_chunk events, in order, whose positions
// point into the streamed text, all before [DONE] (complete does not wait for them); without the flag none; a bad
// format is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { parseMp3, parseWav } from './formats.js';

let t: TestApp;
let alex: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
});
afterAll(async () => { await t?.close(); });

function events(text: string): Array<Record<string, any> | '[DONE]'> {
  return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => {
    const payload = l.slice(6);
    return payload === '[DONE]' ? '[DONE]' : JSON.parse(payload);
  });
}

function contentOf(evs: ReturnType<typeof events>): string {
  return evs.filter((e): e is Record<string, any> => e !== '[DONE]' && (e.type === 'content' || (e.type === undefined && typeof e.content === 'string')))
    .map((e) => e.content).join('');
}

describe('chat stream with speech', () => {
  it('interleaves tts_chunk events, one per sentence, in order, with positions inside the text', async () => {
    const res = await alex.post('/ai/streaming-chat', { message: 'hello', stream: true, user_id: alex.user.id, tts: true });
    expect(res.status).toBe(200);
    const evs = events(res.text);
    expect(evs.at(-1)).toBe('[DONE]');
    const text = contentOf(evs);
    expect(text.length).toBeGreaterThan(20);
    const chunks = evs.filter((e): e is Record<string, any> => e !== '[DONE]' && e.type === 'tts_chunk');
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
    let previousEnd = 0;
    for (const c of chunks) {
      expect(c.audio_format).toBe('mp3');
      expect(c.text_start).toBeGreaterThanOrEqual(previousEnd);
      expect(c.text_end).toBeLessThanOrEqual(text.length);
      expect(text.slice(c.text_start, c.text_end)).toBe(c.text);
      expect(parseMp3(Buffer.from(c.audio_data, 'base64')).durationSec).toBeGreaterThan(0.2);
      previousEnd = c.text_end;
    }
    // complete (suggestions, approval actions) does not wait for the audio; every clip still comes before [DONE].
    expect(evs.filter((e) => e !== '[DONE]' && e.type === 'complete')).toHaveLength(1);
    expect(evs.indexOf('[DONE]')).toBe(evs.length - 1);
    expect(evs.some((e) => e !== '[DONE]' && e.type === 'tts')).toBe(false);
  }, 60_000);

  it('streams each clip as soon as it is ready: the first audio arrives long before the stream ends', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const started = Date.now();
    const res = await fetch(`${address}/ai/streaming-chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alex.token}` },
      body: JSON.stringify({ message: 'hello', stream: true, tts: true }),
    });
    const reader = res.body!.getReader();
    const arrivals: Array<{ type: string; read: number; at: number }> = [];
    let buf = '';
    for (let read = 0; ; read += 1) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (!line.startsWith('data: ')) continue;
        const type = line === 'data: [DONE]' ? '[DONE]' : JSON.parse(line.slice(6)).type ?? 'content';
        arrivals.push({ type, read, at: Date.now() - started });
      }
    }
    const firstContent = arrivals.find((a) => a.type === 'content')!;
    const chunks = arrivals.filter((a) => a.type === 'tts_chunk');
    const end = arrivals.find((a) => a.type === '[DONE]')!;
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    // Not batched at the end: the first clip came in an earlier network read than the end of the stream.
    expect(chunks[0].read).toBeLessThan(end.read);
    expect(chunks[0].at).toBeLessThan(end.at);
    // And it came about when its sentence was complete (one short sentence's synthesis; generous for a busy machine).
    expect(chunks[0].at - firstContent.at).toBeLessThan(15_000);
  }, 60_000);

  it("uses one final 'tts' clip in full mode, and WAV when asked", async () => {
    const res = await alex.post('/ai/streaming-chat', { message: 'hello', stream: true, tts: true, tts_mode: 'full', audio_format: 'WAV' });
    const evs = events(res.text);
    const tts = evs.filter((e): e is Record<string, any> => e !== '[DONE]' && e.type === 'tts');
    expect(tts).toHaveLength(1);
    expect(tts[0]).toMatchObject({ audio_format: 'wav', fallback_used: false });
    expect(parseWav(Buffer.from(tts[0].audio_data, 'base64')).durationSec).toBeGreaterThan(0.5);
    expect(evs.some((e) => e !== '[DONE]' && e.type === 'tts_chunk')).toBe(false);
  }, 60_000);

  it('sends no audio without the flag, and answers 400 for a format it cannot produce', async () => {
    const plain = await alex.post('/ai/streaming-chat', { message: 'hello', stream: true });
    expect(events(plain.text).some((e) => e !== '[DONE]' && String(e.type).startsWith('tts'))).toBe(false);
    const bad = await alex.post('/ai/streaming-chat', { message: 'hello', stream: true, tts: true, audio_format: 'OGG_OPUS' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Unsupported audio format: ogg_opus/);
  }, 60_000);
});
