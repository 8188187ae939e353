// Speech API: POST /api/tts/synthesize (the web client's call to speak a text), GET /api/tts/info (what this
// server can produce), and the speech hook of the chat stream.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerSentenceHook } from '../assistant/stream.js';
import { speechHookFor } from './chat-hook.js';
import { OFFLINE_FORMATS } from './formats.js';
import { SpeechBusyError } from './pool.js';
import { SpeechInputError, configureSpeech, speechPool, synthesize } from './service.js';
import { DEFAULT_LANGUAGE_CODE, DEFAULT_MODEL_NAME, DEFAULT_VOICE_NAME } from './voices.js';

const SynthesizeSchema = z.object({
  // Checked by the service (required, length, plain text), with its own messages.
  text: z.unknown().optional().meta({ type: 'string', description: 'The text to speak' }),
  voice_name: z.string().max(100, 'voice_name is too long').optional().nullable(),
  model_name: z.string().max(100, 'model_name is too long').optional().nullable(),
  audio_format: z.string().max(20, 'audio_format is too long').optional().nullable(),
  language_code: z
    .string()
    .max(35, 'language_code is too long')
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, 'language_code is not a language code')
    .optional()
    .nullable(),
});

/** What this server can produce (GET /api/tts/info). */
const SpeechInfo = z.object({
  provider: z.string(),
  fallback_provider: z.string().nullable(),
  audio_formats: z.array(z.string()),
  default_voice: z.string(),
  default_model: z.string(),
  default_language: z.string(),
  max_chars: z.number(),
});

export default async function speechRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Chat requests that ask for speech get tts_chunk events interleaved with the streamed reply.
  const settings = app.ctx.config.speech;
  configureSpeech(settings);
  const unregister = registerSentenceHook(speechHookFor);
  app.addHook('onClose', async () => {
    unregister();
  });

  // A listening server (not the in-process test apps) warms one speech worker in the background.
  app.addHook('onListen', async () => {
    if (!settings.prewarm) return;
    const started = Date.now();
    void speechPool()
      .warm()
      .then(() => app.log.info({ ms: Date.now() - started }, 'speech worker ready'));
  });

  // Synthesis costs seconds of CPU: one user may have only a few requests in progress at once (per instance).
  const inProgress = new Map<string, number>();

  // Failures answer the speech API's own shape ({success: false, audio_data: null, voice_used: null, error}),
  // bad input included: the validation error is handed to the handler rather than answered by the app.
  app.post('/api/tts/synthesize', { schema: { body: SynthesizeSchema }, attachValidation: true }, async (req, reply) => {
    const fail = (status: number, error: string) =>
      reply.status(status).send({ success: false, audio_data: null, voice_used: null, error });
    if (req.validationError)
      return fail(400, (req.validationError.cause as z.ZodError | undefined)?.issues[0]?.message ?? 'Invalid request');
    const b = req.body;
    const userKey = String(req.user.id);
    const running = inProgress.get(userKey) ?? 0;
    if (running >= settings.perUserConcurrency)
      return fail(429, 'Too many speech requests at once; try again when the current ones finish');
    inProgress.set(userKey, running + 1);
    try {
      const clip = await synthesize(
        {
          text: b.text as string,
          voice_name: b.voice_name ?? undefined,
          model_name: b.model_name ?? undefined,
          audio_format: b.audio_format ?? undefined,
          language_code: b.language_code ?? undefined,
        },
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

  app.get('/api/tts/info', { schema: { response: { 200: SpeechInfo } } }, async () => {
    const s = settings;
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
