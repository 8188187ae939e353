// Speech API: POST /api/tts/synthesize (employee-side §7), GET /api/tts/info (what this server can produce), and the
// speech hook of the chat stream.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerSentenceHook } from '../assistant/stream.js';
import { speechHookFor } from './chat-hook.js';
import { OFFLINE_FORMATS } from './formats.js';
import { SpeechBusyError } from './pool.js';
import { SpeechInputError, speechPool, speechSettings, synthesize } from './service.js';
import { DEFAULT_LANGUAGE_CODE, DEFAULT_MODEL_NAME, DEFAULT_VOICE_NAME } from './voices.js';

const SynthesizeSchema = z.object({
  text: z.unknown().optional(),
  voice_name: z.string().max(100, 'voice_name is too long').optional().nullable(),
  model_name: z.string().max(100, 'model_name is too long').optional().nullable(),
  audio_format: z.string().max(20, 'audio_format is too long').optional().nullable(),
  language_code: z.string().max(35, 'language_code is too long').regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, 'language_code is not a language code').optional().nullable(),
});

export default async function speechRoutes(app: FastifyInstance) {
  // Chat requests that ask for speech get tts_chunk events interleaved with the streamed reply.
  const unregister = registerSentenceHook(speechHookFor);
  app.addHook('onClose', async () => { unregister(); });

  // A listening server (not the in-process test apps) warms one speech worker in the background.
  app.addHook('onListen', async () => {
    if (process.env.TTS_PREWARM === '0') return;
    const started = Date.now();
    void speechPool().warm().then(() => app.log.info({ ms: Date.now() - started }, 'speech worker ready'));
  });

  // Synthesis costs seconds of CPU: one user may have only a few requests in progress at once (per instance).
  const inProgress = new Map<string, number>();

  app.post('/api/tts/synthesize', async (req, reply) => {
    const fail = (status: number, error: string) => reply.status(status).send({ success: false, audio_data: null, voice_used: null, error });
    const parsed = SynthesizeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Invalid request');
    const b = parsed.data;
    const userKey = String(req.user.id);
    const running = inProgress.get(userKey) ?? 0;
    if (running >= speechSettings().perUserConcurrency) return fail(429, 'Too many speech requests at once; try again when the current ones finish');
    inProgress.set(userKey, running + 1);
    try {
      const clip = await synthesize(
        { text: b.text as string, voice_name: b.voice_name ?? undefined, model_name: b.model_name ?? undefined, audio_format: b.audio_format ?? undefined, language_code: b.language_code ?? undefined },
        req.log,
      );
      return {
        success: true,
        audio_data: Buffer.from(clip.audio.buffer, clip.audio.byteOffset, clip.audio.byteLength).toString('base64'),
        audio_format: clip.format,
        voice_used: clip.voiceUsed,
        error: null,
      };
    } catch (err) {
      if (err instanceof SpeechInputError) return fail(400, err.message);
      if (err instanceof SpeechBusyError) return fail(503, err.message);
      req.log.error({ err }, 'TTS generation failed');
      return fail(500, 'TTS generation failed');
    } finally {
      const left = (inProgress.get(userKey) ?? 1) - 1;
      if (left > 0) inProgress.set(userKey, left);
      else inProgress.delete(userKey);
    }
  });

  app.get('/api/tts/info', async () => {
    const s = speechSettings();
    return {
      provider: s.google ? 'google' : 'espeak-ng',
      fallback_provider: s.google ? 'espeak-ng' : null,
      audio_formats: s.google ? [...OFFLINE_FORMATS, 'ogg', 'ogg_opus'] : [...OFFLINE_FORMATS],
      default_voice: DEFAULT_VOICE_NAME,
      default_model: DEFAULT_MODEL_NAME,
      default_language: DEFAULT_LANGUAGE_CODE,
      max_chars: s.maxChars,
    };
  });
}
