// Speech in the chat stream: when a chat request asks for it (`tts: true` / `enable_tts: true`), or says nothing
// and its user's saved sound preference is on (the default, as the original client's sound toggle; see
// chatSpeechOptions), each content piece goes to a ReplySpeech, whose tts_chunk events the stream interleaves
// with the text; the stream waits for the last audio before its final events and [DONE].
import type { FastifyRequest } from 'fastify';
import type { SentenceHook, StreamEvent } from '../assistant/stream.js';
import { getPreferences } from '../preferences/service.js';
import { badRequest } from '../http/errors.js';
import { ReplySpeech, SpeechInputError, chatSpeechOptions, speechAsked } from './service.js';

/** The sentence-hook factory registered with the assistant's chat stream. Throws a 400 on an unusable format or mode. */
export async function speechHookFor(req: FastifyRequest, body: Record<string, unknown>): Promise<SentenceHook | undefined> {
  // An explicit tts flag decides; otherwise the user's saved sound preference (read only then).
  const preference =
    speechAsked(body) === undefined && req.user ? (await getPreferences(req.server.ctx.db, req.user.id)).sound_enabled : false;
  let opts;
  try {
    opts = chatSpeechOptions(body, preference);
  } catch (err) {
    if (err instanceof SpeechInputError) throw badRequest(err.message);
    throw err;
  }
  if (!opts) return undefined;
  let emit: ((event: StreamEvent) => void) | null = null;
  const speech = new ReplySpeech(opts, (event) => emit?.(event as unknown as StreamEvent), req.log);
  return {
    piece(text, streamEmit) {
      emit = streamEmit;
      speech.push(text);
    },
    async end(streamEmit) {
      emit = streamEmit;
      return speech.finish();
    },
    abort() {
      speech.abort();
    },
  };
}
