// Speaking a streamed reply: tts_chunk events per sentence, in order, with positions, the first one while the text
// still streams; the final tts event in 'full' mode and as the fallback; the optional Google provider.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav, parseMp3, parseWav } from './formats.js';
import { loadConfig } from '../config.js';
import {
  ReplySpeech,
  SpeechInputError,
  type TtsChunkEvent,
  type TtsEvent,
  chatSpeechOptions,
  configureSpeech,
  synthesize,
  synthesizeSentences,
} from './service.js';

const quiet = {
  warn: (obj: object, msg: string) => {
    warnings.push(`${msg} ${JSON.stringify(obj)}`);
  },
};
let warnings: string[] = [];

// A stand-in for Google's text:synthesize: answers per `mode`, records what it was sent.
let mode: 'ok' | 'fail' = 'ok';
const received: Array<{ body: any; key: string | undefined }> = [];
const fake = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => {
    data += c;
  });
  req.on('end', () => {
    received.push({ body: JSON.parse(data), key: req.headers['x-goog-api-key'] as string | undefined });
    if (mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"quota"}}');
      return;
    }
    const wav = encodeWav({ samples: new Int16Array(2205).fill(500), sampleRate: 22050, channels: 1 });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ audioContent: Buffer.from(wav).toString('base64') }));
  });
});
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  endpoint = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1/text:synthesize`;
});
afterAll(() => new Promise<void>((r) => fake.close(() => r())));
afterEach(() => {
  configureSpeech(loadConfig({}).speech);
  warnings = [];
  received.length = 0;
  mode = 'ok';
});

/** Speech configured as GOOGLE_TTS_API_KEY and GOOGLE_TTS_ENDPOINT would configure it. */
function useGoogle() {
  configureSpeech(loadConfig({ GOOGLE_TTS_API_KEY: 'test-key', GOOGLE_TTS_ENDPOINT: endpoint }).speech);
}

const waitFor = async (cond: () => boolean, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('chatSpeechOptions', () => {
  it('is off unless the request asks for speech, and applies the spec defaults', () => {
    expect(chatSpeechOptions({ message: 'hi' })).toBeNull();
    expect(chatSpeechOptions({ tts: false })).toBeNull();
    expect(chatSpeechOptions({ tts: true })).toEqual({
      voiceName: 'en-US-Chirp3-HD-Charon',
      modelName: 'gemini-2.5-flash-tts',
      languageCode: 'en-US',
      format: 'mp3',
      mode: 'chunks',
    });
    expect(chatSpeechOptions({ enable_tts: true, audio_format: 'LINEAR16', tts_mode: 'full' })).toMatchObject({
      format: 'linear16',
      mode: 'full',
    });
    expect(() => chatSpeechOptions({ tts: true, audio_format: 'OGG_OPUS' })).toThrow(SpeechInputError);
    expect(() => chatSpeechOptions({ tts: true, tts_mode: 'loud' })).toThrow(/tts_mode/);
  });
});

describe('ReplySpeech', () => {
  it('emits one tts_chunk per sentence, in order, the first while the reply still streams', async () => {
    const events: Array<TtsChunkEvent | TtsEvent> = [];
    const speech = new ReplySpeech(chatSpeechOptions({ tts: true })!, (e) => events.push(e), quiet);
    const pieces = ['Hello Alex! ', 'Your leave request ', 'is approved. ', 'Would you like ', 'to book a room? ', 'Bye.'];
    let text = '';
    speech.push(pieces[0]);
    text += pieces[0];
    speech.push(pieces[1]);
    text += pieces[1];
    // The first sentence is complete: its audio arrives before any more text is sent.
    await waitFor(() => events.length >= 1);
    for (const p of pieces.slice(2)) {
      speech.push(p);
      text += p;
    }
    const summary = await speech.finish();
    expect(summary).toMatchObject({ sentences: 4, chunks: 4, failed: 0, finalClip: false });
    const chunks = events as TtsChunkEvent[];
    expect(chunks.map((e) => e.type)).toEqual(['tts_chunk', 'tts_chunk', 'tts_chunk', 'tts_chunk']);
    expect(chunks.map((e) => e.chunk_index)).toEqual([0, 1, 2, 3]);
    expect(chunks.map((e) => e.text)).toEqual(['Hello Alex!', 'Your leave request is approved.', 'Would you like to book a room?', 'Bye.']);
    for (const c of chunks) {
      expect(text.slice(c.text_start, c.text_end)).toBe(c.text);
      expect(c.audio_format).toBe('mp3');
      expect(parseMp3(Buffer.from(c.audio_data, 'base64')).durationSec).toBeGreaterThan(0.3);
    }
    for (let i = 1; i < chunks.length; i += 1) expect(chunks[i].text_start).toBeGreaterThanOrEqual(chunks[i - 1].text_end);
  }, 60_000);

  it("sends one final tts event in 'full' mode", async () => {
    const events: Array<TtsChunkEvent | TtsEvent> = [];
    const speech = new ReplySpeech(chatSpeechOptions({ tts: true, tts_mode: 'full', audio_format: 'wav' })!, (e) => events.push(e), quiet);
    speech.push('Short reply. Two sentences.');
    await speech.finish();
    expect(events).toHaveLength(1);
    const e = events[0] as TtsEvent;
    expect(e).toMatchObject({ type: 'tts', audio_format: 'wav', fallback_used: false });
    expect(parseWav(Buffer.from(e.audio_data, 'base64')).durationSec).toBeGreaterThan(1);
  }, 60_000);

  it('falls back to one offline tts clip when no sentence could be spoken in chunks', async () => {
    useGoogle();
    mode = 'fail';
    const events: Array<TtsChunkEvent | TtsEvent> = [];
    // ogg_opus exists only with the cloud provider; when it fails, the chunks fail and the fallback is offline mp3.
    const speech = new ReplySpeech(chatSpeechOptions({ tts: true, audio_format: 'OGG_OPUS' })!, (e) => events.push(e), quiet);
    speech.push('First sentence here. Second one.');
    const summary = await speech.finish();
    expect(summary).toMatchObject({ chunks: 0, failed: 2, finalClip: true });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'tts', audio_format: 'mp3', fallback_used: true });
    expect(warnings.some((w) => w.includes('Google text-to-speech failed'))).toBe(true);
  }, 60_000);

  it('emits nothing after abort()', async () => {
    const events: unknown[] = [];
    const speech = new ReplySpeech(chatSpeechOptions({ tts: true })!, (e) => events.push(e), quiet);
    speech.push('One sentence. Another sentence. ');
    speech.abort();
    await speech.finish();
    expect(events).toEqual([]);
  });
});

describe('synthesizeSentences', () => {
  it('yields the chunks of a complete text in order', async () => {
    const got = [];
    for await (const c of synthesizeSentences('One. Two. Three.', { audio_format: 'wav' }, quiet)) got.push(c);
    expect(got.map((c) => [c.chunk_index, c.text, c.text_start, c.text_end])).toEqual([
      [0, 'One.', 0, 4],
      [1, 'Two.', 5, 9],
      [2, 'Three.', 10, 16],
    ]);
  }, 60_000);
});

describe('synthesize with Google configured', () => {
  it('calls Google with the key in a header and the Gemini speaker, and returns its audio', async () => {
    useGoogle();
    const clip = await synthesize({ text: 'Hello there', audio_format: 'LINEAR16' }, quiet);
    expect(clip).toMatchObject({ provider: 'google', voiceUsed: 'en-US-Chirp3-HD-Charon', fallbackUsed: false, format: 'linear16' });
    expect(parseWav(clip.audio).durationSec).toBeCloseTo(0.1, 3);
    expect(received[0].key).toBe('test-key');
    expect(received[0].body).toEqual({
      input: { text: 'Hello there' },
      voice: { languageCode: 'en-US', name: 'Charon', modelName: 'gemini-2.5-flash-tts' },
      audioConfig: { audioEncoding: 'LINEAR16' },
    });
  });

  it('falls back to the offline voice with a logged warning when Google fails', async () => {
    useGoogle();
    mode = 'fail';
    const clip = await synthesize({ text: 'Hello there' }, quiet);
    expect(clip).toMatchObject({ provider: 'espeak-ng', voiceUsed: 'espeak-ng:en-us', fallbackUsed: true, format: 'mp3' });
    expect(parseMp3(clip.audio).durationSec).toBeGreaterThan(0.5);
    expect(warnings.join()).toMatch(/Google text-to-speech failed.*500.*quota/);
    expect(warnings.join()).not.toContain('test-key');
  }, 60_000);
});
