// The chat stream: `text/event-stream` lines `data: {json}` (content pieces, suggestions, approval_actions,
// complete) ending with `data: [DONE]`. A reply goes out in small pieces as it is written. Each completed
// sentence is handed to an optional sentence hook, through which the speech feature interleaves its
// {type: 'tts_chunk'} events (see registerSentenceHook).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApprovalAction } from './engine/types.js';

export type StreamEvent = Record<string, unknown>;

/**
 * Extra events interleaved with a reply (the speech feature's tts_chunk / tts). `emit` writes an event into the
 * stream at any time until the stream ends; the stream waits for end() before its final events.
 */
export type SentenceHook = {
  /** Each content piece as it is sent (for hooks that split sentences themselves, e.g. ReplySpeech.push). */
  piece?(text: string, emit: (event: StreamEvent) => void): void;
  /** Each completed sentence of the reply, in order. */
  sentence?(text: string, index: number, emit: (event: StreamEvent) => void): void | Promise<void>;
  /** After the last piece; the stream sends suggestions and complete at once, and [DONE] once this resolves. */
  end?(emit: (event: StreamEvent) => void): void | Promise<unknown>;
  /** The client went away: stop producing events. */
  abort?(): void;
};

/** Decides, per chat request, whether a sentence hook applies (e.g. the body or the user's settings ask for speech). */
export type SentenceHookFactory = (
  req: FastifyRequest,
  body: Record<string, unknown>,
) => SentenceHook | undefined | Promise<SentenceHook | undefined>;

const factories: SentenceHookFactory[] = [];

/** Registers a sentence hook factory (the speech feature calls this once at start). */
export function registerSentenceHook(factory: SentenceHookFactory): () => void {
  factories.push(factory);
  return () => {
    const i = factories.indexOf(factory);
    if (i >= 0) factories.splice(i, 1);
  };
}

export async function sentenceHookFor(req: FastifyRequest, body: Record<string, unknown>): Promise<SentenceHook | undefined> {
  for (const f of factories) {
    const hook = await f(req, body);
    if (hook) return hook;
  }
  return undefined;
}

/** Splits text into stream pieces of a few words, keeping every character (whitespace and newlines). */
export function pieces(text: string, wordsPerPiece = 3): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerPiece) out.push(tokens.slice(i, i + wordsPerPiece).join(''));
  return out;
}

const SENTENCE_END = /([.!?…]+["')\]]?|\n)(\s+|$)/;

/** Content events written together in one socket write (after the first piece). */
const PIECES_PER_WRITE = 16;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ChatStream {
  private open = false;
  private closed = false;
  private sentenceBuf = '';
  private sentenceIndex = 0;
  private hookChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly reply: FastifyReply,
    private readonly hook?: SentenceHook,
  ) {
    reply.raw.on('close', () => {
      if (!reply.raw.writableEnded) hook?.abort?.();
      this.closed = true;
    });
  }

  /** Sends the headers at once, so the client sees the stream open before the reply is ready. */
  start(): void {
    if (this.open) return;
    this.open = true;
    const headers: Record<string, string | number | string[]> = {};
    for (const [k, v] of Object.entries(this.reply.getHeaders())) if (v !== undefined) headers[k] = v;
    this.reply.hijack();
    this.reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.reply.raw.flushHeaders?.();
  }

  get disconnected(): boolean {
    return this.closed;
  }

  event(ev: StreamEvent): void {
    if (this.closed || this.reply.raw.writableEnded) return;
    this.reply.raw.write(`data: ${JSON.stringify(ev)}\n\n`);
  }

  private emitSentences(final: boolean): void {
    if (!this.hook?.sentence) return;
    for (;;) {
      const m = SENTENCE_END.exec(this.sentenceBuf);
      let sentence: string | undefined;
      if (m) {
        const end = m.index + m[1].length;
        sentence = this.sentenceBuf.slice(0, end);
        this.sentenceBuf = this.sentenceBuf.slice(end + m[2].length);
      } else if (final && this.sentenceBuf.trim()) {
        sentence = this.sentenceBuf;
        this.sentenceBuf = '';
      }
      if (sentence === undefined) break;
      const text = sentence.trim();
      if (!text) continue;
      const index = this.sentenceIndex++;
      const hook = this.hook;
      this.hookChain = this.hookChain.then(() => hook.sentence!(text, index, (e) => this.event(e))).catch(() => undefined);
    }
  }

  /**
   * Writes text as content pieces ({type: 'content', content}). The first piece goes out on its own at once;
   * the others follow in batches of PIECES_PER_WRITE events per socket write, yielding to other requests
   * between batches (one write per piece cost a system call each and most of a reply's CPU).
   */
  async content(text: string, opts: { split?: boolean } = {}): Promise<void> {
    if (!text) return;
    const parts = opts.split === false ? [text] : pieces(text);
    const raw = this.reply.raw;
    for (let i = 0; i < parts.length;) {
      const batch = i === 0 ? 1 : PIECES_PER_WRITE;
      const corked = batch > 1 && !raw.writableEnded;
      if (corked) raw.cork();
      for (const p of parts.slice(i, i + batch)) {
        this.event({ type: 'content', content: p });
        this.hook?.piece?.(p, (e) => this.event(e));
        this.sentenceBuf += p;
        this.emitSentences(false);
      }
      if (corked) raw.uncork();
      i += batch;
      await nextTick();
    }
  }

  /** Suggestions, approval actions, the complete event and [DONE]; then closes the stream. */
  async finish(opts: {
    suggestions?: string[];
    approvalActions?: ApprovalAction[];
    showApprovalAction?: boolean;
    extra?: StreamEvent;
  }): Promise<void> {
    this.emitSentences(true);
    if (this.hook?.end) {
      const hook = this.hook;
      this.hookChain = this.hookChain
        .then(async () => {
          await hook.end!((e) => this.event(e));
        })
        .catch(() => undefined);
    }
    // The text is complete: its final events go out now, so the client can finish the message and take the next
    // one; speech still being synthesised (the hook's tail) follows, and [DONE] comes after the last of it.
    if (opts.suggestions?.length) this.event({ type: 'suggestions', suggestions: opts.suggestions });
    for (const a of opts.approvalActions ?? []) this.event({ type: 'approval_actions', approval_action: a });
    this.event({ type: 'complete', show_approval_action: Boolean(opts.showApprovalAction), ...(opts.extra ?? {}) });
    await this.hookChain;
    if (!this.closed && !this.reply.raw.writableEnded) {
      this.reply.raw.write('data: [DONE]\n\n');
      this.reply.raw.end();
    }
  }

  /** Ends the stream after an error: a short message, complete and [DONE]. */
  async fail(message: string): Promise<void> {
    await this.content(message);
    await this.finish({});
  }
}
