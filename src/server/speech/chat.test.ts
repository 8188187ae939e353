// Speech in the chat stream: with `tts: true` the SSE reply carries tts_chunk events, in order, whose positions
// point into the streamed text, all before [DONE] (complete does not wait for them); with `tts: false` none; a
// request that does not say follows the user's saved sound preference (on by default); a bad format is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DONE, parseEventStream, readEventStream } from '../../domain/event-stream.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { parseMp3, parseWav } from './formats.js';

let t: TestApp;
let alex: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
});
afterAll(async () => {
  await t?.close();
});

let address: string | undefined;
/** The test app over a real connection (listening once for the whole file). */
const listening = async () => (address ??= await t.app.listen({ port: 0, host: '127.0.0.1' }));

/** The events of a whole chat stream, in order; data that is not JSON fails the test. */
function events(text: string): Array<Record<string, any> | '[DONE]'> {
  return parseEventStream(text).map((m) => (m.data === DONE ? DONE : JSON.parse(m.data)));
}

function contentOf(evs: ReturnType<typeof events>): string {
  return evs
    .filter(
      (e): e is Record<string, any> => e !== '[DONE]' && (e.type === 'content' || (e.type === undefined && typeof e.content === 'string')),
    )
    .map((e) => e.content)
    .join('');
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
    const started = Date.now();
    const res = await fetch(`${await listening()}/ai/streaming-chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alex.token}` },
      body: JSON.stringify({ message: 'hello', stream: true, tts: true }),
    });
    const arrivals: Array<{ type: string; read: number; at: number }> = [];
    let read = -1; // which network read completed the event
    for await (const message of readEventStream(res.body!, {
      onChunk: () => {
        read += 1;
      },
    })) {
      const type = message.data === DONE ? DONE : (JSON.parse(message.data).type ?? 'content');
      arrivals.push({ type, read, at: Date.now() - started });
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

  it('answers 400 for a format it cannot produce', async () => {
    const bad = await alex.post('/ai/streaming-chat', { message: 'hello', stream: true, tts: true, audio_format: 'OGG_OPUS' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Unsupported audio format: ogg_opus/);
  }, 60_000);
});

describe('speech when the request does not say', () => {
  const ttsEvents = (text: string) =>
    events(text).filter((e): e is Record<string, any> => e !== '[DONE]' && String(e.type).startsWith('tts'));

  it('follows the saved sound preference (on by default); an explicit tts flag decides', async () => {
    const maria = await t.login('maria.garcia@adminease.test');
    // Default preference (sound on): audio, as the original client expects with its sound toggle on.
    const byDefault = await maria.post('/ai/streaming-chat', { message: 'hello', stream: true });
    expect(byDefault.status).toBe(200);
    expect(ttsEvents(byDefault.text).length).toBeGreaterThan(0);
    // An explicit false is obeyed whatever the preference.
    const declined = await maria.post('/ai/streaming-chat', { message: 'hello', stream: true, tts: false });
    expect(ttsEvents(declined.text)).toEqual([]);
    // The role streams too (a line manager's), same rule.
    const priya = await t.login('priya.sharma@adminease.test');
    const role = await priya.post('/ai/manager/chat-stream', { message: 'hello', user_id: priya.user.id });
    expect(ttsEvents(role.text).length).toBeGreaterThan(0);
    // Sound turned off in the settings: no audio when the request does not say, audio when it asks.
    expect((await maria.put('/api/users/me/preferences', { sound_enabled: false })).status).toBe(200);
    const off = await maria.post('/ai/streaming-chat', { message: 'hello', stream: true });
    expect(off.status).toBe(200);
    expect(contentOf(events(off.text)).length).toBeGreaterThan(20);
    expect(ttsEvents(off.text)).toEqual([]);
    const asked = await maria.post('/ai/streaming-chat', { message: 'hello', stream: true, tts: true });
    expect(ttsEvents(asked.text).length).toBeGreaterThan(0);
  }, 90_000);

  it('audio never holds back the text: with sound on by default the first content piece comes at once, before any speech', async () => {
    const nina = await t.login('nina.patel@adminease.test');
    const started = Date.now();
    const res = await fetch(`${await listening()}/ai/streaming-chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${nina.token}` },
      body: JSON.stringify({ message: 'what can you help me with?', stream: true }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstContentAt = 0;
    let firstTtsAt = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const now = Date.now() - started;
      if (!firstContentAt && text.includes('"type":"content"')) firstContentAt = now;
      if (!firstTtsAt && text.includes('"type":"tts')) firstTtsAt = now;
    }
    const types = events(text).map((e) => (e === '[DONE]' ? e : String(e.type ?? 'content')));
    expect(types.findIndex((x) => x.startsWith('tts'))).toBeGreaterThan(types.indexOf('content'));
    expect(firstContentAt).toBeGreaterThan(0);
    expect(firstTtsAt).toBeGreaterThanOrEqual(firstContentAt);
    // the assistant's first-piece target holds with audio on (the same bound as without audio)
    expect(firstContentAt).toBeLessThan(1500);
  }, 90_000);
});
