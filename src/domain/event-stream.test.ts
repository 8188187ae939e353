// The one event-stream reader: events split over chunks anywhere, multi-line data, comments, every line ending,
// [DONE], malformed JSON, a last event without its blank line, Node-style sources and stopping early.
import { describe, expect, it } from 'vitest';
import { DONE, jsonEventsOf, parseEventStream, readEventStream, readJsonEvents } from './event-stream';

const enc = new TextEncoder();

/**
 * A fetch-like body delivering the given chunks one per read, as a network would (strings are UTF-8 encoded, byte
 * arrays passed as they are); `cancelled` says whether a reader cancelled it.
 */
function body(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> & { cancelled: boolean } {
  const state = { cancelled: false };
  let next = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (next >= chunks.length) {
          c.close();
          return;
        }
        const chunk = chunks[next++];
        c.enqueue(typeof chunk === 'string' ? enc.encode(chunk) : chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return Object.defineProperty(stream, 'cancelled', { get: () => state.cancelled }) as ReadableStream<Uint8Array> & { cancelled: boolean };
}

/** Cuts a text into pieces of `size` bytes (so cuts fall inside field names, line ends and UTF-8 characters). */
function bytesOf(text: string, size: number): Uint8Array[] {
  const all = enc.encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const v of gen) out.push(v);
  return out;
}

const STREAM = [
  ': a comment the server sends to keep the connection open',
  'event: notification',
  'id: 7',
  'data: {"title":"Leave approved",',
  'data: "note":"Enjoy – 3 days ☀️"}',
  '',
  'data: {"type":"content","content":"Hello"}',
  '',
  ': ping',
  '',
  'data:{"type":"complete"}',
  '',
  'data: [DONE]',
  '',
];

describe('event stream reader', () => {
  it('joins multi-line data with newlines, keeps event and id, skips comments', () => {
    expect(parseEventStream(STREAM.join('\n'))).toEqual([
      { event: 'notification', id: '7', data: '{"title":"Leave approved",\n"note":"Enjoy – 3 days ☀️"}' },
      { event: undefined, id: undefined, data: '{"type":"content","content":"Hello"}' },
      { event: undefined, id: undefined, data: '{"type":"complete"}' },
      { event: undefined, id: undefined, data: '[DONE]' },
    ]);
  });

  it('reads the same events whatever the line ending (LF, CRLF, CR) and wherever the chunks are cut', async () => {
    const expected = parseEventStream(STREAM.join('\n'));
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = STREAM.join(eol);
      expect(parseEventStream(text)).toEqual(expected);
      for (const size of [1, 2, 3, 5, 7, 64]) {
        expect(await collect(readEventStream(body(bytesOf(text, size)))), `eol ${JSON.stringify(eol)}, ${size}-byte chunks`).toEqual(
          expected,
        );
      }
    }
  });

  it('yields each event as soon as its blank line arrives, not at the end of the stream', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const stream = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(enc.encode('data: {"n":1}\n\ndata: {"n"'));
        await gate;
        c.enqueue(enc.encode(':2}\n\n'));
        c.close();
      },
    });
    const events = readJsonEvents<{ n: number }>(stream);
    expect((await events.next()).value).toEqual({ n: 1 }); // the second event is still incomplete here
    release();
    expect((await events.next()).value).toEqual({ n: 2 });
    expect((await events.next()).done).toBe(true);
  });

  it('stops at [DONE] and skips data that is not JSON, leaving the rest of the body unread but not cancelled', async () => {
    const b = body([
      'data: {"type":"content","content":"Hel',
      'lo"}\n\ndata: {oops}\n\n',
      'data: {"type":"complete"}\n\ndata: [DONE]\n\n',
      'data: {"late":true}\n\n',
    ]);
    expect(await collect(readJsonEvents(b))).toEqual([{ type: 'content', content: 'Hello' }, { type: 'complete' }]);
    // Cancelling would abort the request (a browser then drops the response); the body is only let go of.
    expect(b.cancelled).toBe(false);
    expect(b.locked).toBe(false);
    const rest = await b.getReader().read();
    expect(new TextDecoder().decode(rest.value)).toBe('data: {"late":true}\n\n');
  });

  it('delivers a last event that the stream ends without a blank line; drops a cut-off JSON object', async () => {
    expect(await collect(readJsonEvents(body(['data: {"a":1}\n\ndata: {"b":2}'])))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(await collect(readJsonEvents(body(['data: {"a":1}\n\ndata: {"b":'])))).toEqual([{ a: 1 }]);
    expect(await collect(readJsonEvents(body([])))).toEqual([]);
  });

  it('reads Node-style sources (async iterables of Buffers or strings) and reports every chunk', async () => {
    async function* node() {
      yield Buffer.from('data: {"a":');
      yield '1}\n\n';
      yield Buffer.from(': keep-alive\n\n');
      yield 'data: {"b":2}\n\n';
    }
    let chunks = 0;
    expect(
      await collect(
        readJsonEvents(node(), {
          onChunk: () => {
            chunks += 1;
          },
        }),
      ),
    ).toEqual([{ a: 1 }, { b: 2 }]);
    expect(chunks).toBe(4);
  });

  it('stops reading once its signal is aborted', async () => {
    const abort = new AbortController();
    const b = body(['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: {"n":3}\n\n']);
    const seen: unknown[] = [];
    for await (const e of readJsonEvents(b, { signal: abort.signal })) {
      seen.push(e);
      abort.abort();
    }
    expect(seen).toEqual([{ n: 1 }]);
    expect(b.locked).toBe(false);
  });

  it('lists the JSON events of a whole answer, with where [DONE] came', () => {
    const text = 'data: {"type":"content"}\n\ndata: nope\n\ndata: [DONE]\n\ndata: {"type":"late"}\n\n';
    expect(jsonEventsOf(text)).toEqual([{ type: 'content' }, DONE, { type: 'late' }]);
  });
});
