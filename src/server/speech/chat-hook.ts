// Speech in the chat stream: when a chat request asks for it (`tts: true` / `enable_tts: true`, see
// chatSpeechOptions), each content piece goes to a ReplySpeech, whose tts_chunk events the stream interleaves
// with the text; the stream waits for the last audio before its final events and [DONE].
import type { FastifyRequest } from 'fastify';
import type { SentenceHook, StreamEvent } from '../assistant/stream.js';
import { ReplySpeech, chatSpeechOptions } from './service.js';

/** The sentence-hook factory registered with the assistant's chat stream. Throws (-> 400) on an unusable format. */
export function speechHookFor(req: FastifyRequest, body: Record<string, unknown>): SentenceHook | undefined {
  const opts = chatSpeechOptions(body);
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
