// POST /api/tts/synthesize through the HTTP API: decodable audio of the requested format with a plausible duration,
// the spec's defaults and errors, and the chat/API staying responsive while synthesis runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const TEXT = 'Hello Alex, your leave request for next Monday has been approved.'; // 11 words
const words = TEXT.split(/\s+/).length;

describe('POST /api/tts/synthesize', () => {
  it('answers MP3 by default with the default voice mapped offline, of plausible length for the text', async () => {
    const res = await alex.post('/api/tts/synthesize', { text: TEXT });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, audio_format: 'mp3', voice_used: 'espeak-ng:en-us', error: null });
    const mp3 = Buffer.from(res.body.audio_data, 'base64');
    const info = parseMp3(mp3);
    expect(info.frames).toBeGreaterThan(10);
    expect(info.durationSec / words).toBeGreaterThan(0.3);
    expect(info.durationSec / words).toBeLessThan(1.5);
  }, 60_000);

  it('answers WAV and LINEAR16 as RIFF PCM files', async () => {
    for (const audio_format of ['WAV', 'LINEAR16']) {
      const res = await alex.post('/api/tts/synthesize', {
        text: TEXT,
        audio_format,
        voice_name: 'en-US-Chirp3-HD-Kore',
        language_code: 'en-US',
      });
      expect(res.status).toBe(200);
      expect(res.body.voice_used).toMatch(/^espeak-ng:en-us\+f[1-5]$/);
      const wav = parseWav(Buffer.from(res.body.audio_data, 'base64'));
      expect(wav.channels).toBe(1);
      expect(wav.durationSec / words).toBeGreaterThan(0.3);
      expect(wav.durationSec / words).toBeLessThan(1.5);
    }
  }, 60_000);

  it("answers 400 'No text provided' for blank or missing text", async () => {
    for (const body of [{ text: '' }, { text: '   \n ' }, {}, { text: 42 }, { text: '👍' }]) {
      const res = await alex.post('/api/tts/synthesize', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, audio_data: null, voice_used: null, error: 'No text provided' });
    }
  });

  it('bounds the text length and names unsupported formats', async () => {
    const long = await alex.post('/api/tts/synthesize', { text: 'a'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Text is too long (at most 5000 characters)');
    const ogg = await alex.post('/api/tts/synthesize', { text: 'Hi there', audio_format: 'OGG_OPUS' });
    expect(ogg.status).toBe(400);
    expect(ogg.body.error).toBe('Unsupported audio format: ogg_opus (offline synthesis supports mp3, wav, linear16)');
    const odd = await alex.post('/api/tts/synthesize', { text: 'Hi there', audio_format: 'flac' });
    expect(odd.status).toBe(400);
    expect(odd.body.error).toMatch(/^Unsupported audio format: flac/);
    const lang = await alex.post('/api/tts/synthesize', { text: 'Hi there', language_code: 'en US; rm' });
    expect(lang.status).toBe(400);
  });

  it('limits how many syntheses one user runs at once (429), not other users', async () => {
    const text = 'A sentence long enough to keep a worker busy for a moment. '.repeat(10);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => alex.post('/api/tts/synthesize', { text, audio_format: 'WAV' })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(answers.find((a) => a.status === 429)!.body).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Too many speech requests/),
    });
    const maria = await t.login('maria.garcia@adminease.test');
    expect((await maria.post('/api/tts/synthesize', { text: 'Hi Maria.' })).status).toBe(200);
    expect((await alex.post('/api/tts/synthesize', { text: 'Hi again.' })).status).toBe(200);
  }, 120_000);

  it('needs a session', async () => {
    const res = await t.anonymous.post('/api/tts/synthesize', { text: 'Hi' });
    expect(res.status).toBe(401);
  });

  it('keeps answering other requests while a long text is synthesised', async () => {
    const long = 'The approval workflow moves every request from the employee to the line manager. '.repeat(20);
    const started = Date.now();
    const synth = alex.post('/api/tts/synthesize', { text: long, audio_format: 'MP3' });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    const me = await alex.get('/api/health');
    const quick = Date.now() - t0;
    const res = await synth;
    expect(me.status).toBe(200);
    expect(res.status).toBe(200);
    const took = Date.now() - started;
    // The health check did not wait for the synthesis (which takes seconds of CPU in a worker).
    expect(quick).toBeLessThan(Math.max(500, took / 2));
    expect(parseMp3(Buffer.from(res.body.audio_data, 'base64')).durationSec).toBeGreaterThan(60);
  }, 60_000);
});

describe('GET /api/tts/info', () => {
  it('says what this server produces', async () => {
    const res = await alex.get('/api/tts/info');
    expect(res.body).toMatchObject({
      provider: 'espeak-ng',
      audio_formats: ['mp3', 'wav', 'linear16'],
      default_voice: 'en-US-Chirp3-HD-Charon',
      max_chars: 5000,
    });
  });
});
