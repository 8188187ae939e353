// Reading a server-sent event stream (`text/event-stream`): the one reader for every consumer in the project, the
// web app's chat, the assistant's client of an OpenAI-compatible model provider, the benchmark and the tests.
// The format's rules come from eventsource-parser: an event ends at a blank line; a field name runs to the first
// colon and one space after it is dropped; several `data:` lines of one event are joined with newlines; lines that
// start with a colon are comments; lines end with LF, CRLF or CR; an event may arrive split over any number of
// chunks (even inside a UTF-8 character). One leniency: a last event that the stream does not close with a blank
// line is still delivered (a cut-off JSON object in it is then skipped by the JSON readers).
import { type EventSourceMessage, createParser } from 'eventsource-parser';

export type StreamMessage = EventSourceMessage;

/** The data that ends a stream of JSON events (the OpenAI convention, also used by the chat streams). */
export const DONE = '[DONE]';

/** Bytes as they arrive: a fetch body, or anything iterable such as a Node.js response. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface ReadOptions {
  /** Stops reading (between chunks) once aborted. */
  signal?: AbortSignal;
  /** Called for every chunk that arrives, whether or not it completes an event (keep-alive comments too). */
  onChunk?: () => void;
}

/** Every event of a whole event-stream text. */
export function parseEventStream(text: string): StreamMessage[] {
  const out: StreamMessage[] = [];
  const parser = createParser({ onEvent: (m) => out.push(m) });
  parser.feed(text);
  parser.feed('\n\n');
  return out;
}

async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array | string> {
  // A ReadableStream is read through its reader: not every browser makes it async-iterable.
  if (typeof (source as ReadableStream).getReader !== 'function') {
    yield* source as AsyncIterable<Uint8Array | string>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopping early (a [DONE], an abort) only lets go of the body: cancelling it would abort the request, and a
    // browser then drops the whole response (its developer tools and test tools could no longer read it). The
    // server ends the stream after [DONE] anyway; an abort signal given to fetch stops the request itself.
    reader.releaseLock();
  }
}

/** Yields each event as soon as its last line has arrived. */
export async function* readEventStream(source: ByteSource, opts: ReadOptions = {}): AsyncGenerator<StreamMessage> {
  const ready: StreamMessage[] = [];
  const parser = createParser({ onEvent: (m) => ready.push(m) });
  const decoder = new TextDecoder();
  for await (const chunk of chunksOf(source)) {
    if (opts.signal?.aborted) return;
    opts.onChunk?.();
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (ready.length > 0) {
      yield ready.shift()!;
      if (opts.signal?.aborted) return;
    }
  }
  parser.feed(`${decoder.decode()}\n\n`);
  yield* ready;
}

/** The JSON value of an event's data; undefined for data that is not JSON. */
function jsonOf<T>(data: string): T | undefined {
  try {
    return JSON.parse(data) as T;
  } catch {
    return undefined;
  }
}

/** Yields the JSON data of each event until a `[DONE]` or the end of the stream; data that is not JSON is skipped. */
export async function* readJsonEvents<T = unknown>(source: ByteSource, opts: ReadOptions = {}): AsyncGenerator<T> {
  for await (const message of readEventStream(source, opts)) {
    if (message.data === DONE) return;
    const value = jsonOf<T>(message.data);
    if (value !== undefined) yield value;
  }
}

/**
 * The JSON events of a whole event-stream text, in order, with `'[DONE]'` where the stream said so (data that is
 * not JSON is skipped): for checking a complete answer, including what comes after its end marker.
 */
export function jsonEventsOf<T = Record<string, unknown>>(text: string): Array<T | typeof DONE> {
  const out: Array<T | typeof DONE> = [];
  for (const message of parseEventStream(text)) {
    if (message.data === DONE) {
      out.push(DONE);
      continue;
    }
    const value = jsonOf<T>(message.data);
    if (value !== undefined) out.push(value);
  }
  return out;
}
