// A per-instance cache of serialised queue answers. Queues are read far more often than requests change, so
// an answer is reused until anything changes: every committed change to requests, approvals or users
// signals 'adminease_queue' (migration 021) to every instance, and this instance's own decisions clear the
// cache at once. While the listener is not connected nothing is cached; entries also expire after maxAgeMs.
import { type ListenerLogger, PgListener } from '../db/listener.js';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/pool.js';

export const QUEUE_CHANNEL = 'adminease_queue';

interface Entry {
  gen: number;
  at: number;
  body: string;
}

export class QueueCache {
  private gen = 0;
  private readonly entries = new Map<string, Entry>();
  /** Characters held by all entries (bounded by maxChars). */
  private size = 0;
  private readonly listener: PgListener;
  hits = 0;
  misses = 0;

  constructor(
    db: Db,
    log: ListenerLogger,
    private readonly opts: { maxEntries?: number; maxChars?: number; maxAgeMs?: number; now?: () => number } = {},
  ) {
    this.listener = new PgListener(
      db,
      [QUEUE_CHANNEL],
      { onMessage: () => this.invalidate(), onReset: () => this.invalidate() },
      log,
      'queue cache',
    );
  }

  /** True while changes are heard; nothing is cached otherwise. */
  get listening(): boolean {
    return this.listener.listening;
  }

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  /** The cached body of `key`, if still valid. */
  get(key: string): string | undefined {
    if (!this.listening) return undefined;
    const e = this.entries.get(key);
    if (!e || e.gen !== this.gen || this.now() - e.at > (this.opts.maxAgeMs ?? 30_000)) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    return e.body;
  }

  /**
   * Stores `body` for `key` if nothing changed since `genAtStart` (the generation read before the queries ran),
   * so an answer computed from data that changed meanwhile is never kept.
   */
  set(key: string, body: string, genAtStart: number): void {
    if (!this.listening || genAtStart !== this.gen) return;
    const maxChars = this.opts.maxChars ?? 32 * 1024 * 1024;
    if (body.length > maxChars / 8) return; // one huge answer must not push out everything else
    this.remove(key);
    // Oldest first out, until both the entry count and the memory budget fit.
    while (this.entries.size >= (this.opts.maxEntries ?? 5000) || this.size + body.length > maxChars) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.entries.set(key, { gen: this.gen, at: this.now(), body });
    this.size += body.length;
  }

  private remove(key: string) {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.size -= e.body.length;
  }

  /** Entries and characters held (for metrics and tests). */
  stats() {
    return { entries: this.entries.size, chars: this.size, hits: this.hits, misses: this.misses, listening: this.listening };
  }

  generation(): number {
    return this.gen;
  }

  invalidate(): void {
    this.gen += 1;
    this.entries.clear();
    this.size = 0;
  }

  async start(): Promise<void> {
    await this.listener.start();
  }

  async stop(): Promise<void> {
    await this.listener.stop();
  }
}

const caches = new WeakMap<Db, QueueCache>();

export function registerQueueCache(db: Db, cache: QueueCache): void {
  caches.set(db, cache);
}

/** Clears the queue cache of this database's app at once (called after this instance's own changes). */
export function invalidateQueues(db: Db): void {
  caches.get(db)?.invalidate();
}

export function queueCacheFor(db: Db): QueueCache | undefined {
  return caches.get(db);
}

/**
 * Answers a queue from this database's cache (header x-queue-cache: hit), or computes, caches (unless anything
 * changed meanwhile) and answers (miss). Permission checks run before this. An answer `keep` refuses is never
 * cached (nor by the browser: Cache-Control no-store); it is answered with x-queue-cache: skip.
 */
export async function sendCachedJson(
  db: Db,
  reply: FastifyReply,
  key: string,
  compute: () => Promise<unknown>,
  opts: { keep?: (answer: unknown) => boolean } = {},
) {
  const cache = caches.get(db); // absent with ADMINEASE_QUEUE_CACHE=0
  reply.type('application/json; charset=utf-8');
  const hit = cache?.get(key);
  if (hit !== undefined) return reply.header('x-queue-cache', 'hit').send(hit);
  const gen = cache?.generation() ?? 0;
  const answer = await compute();
  const body = JSON.stringify(answer);
  if (opts.keep && !opts.keep(answer)) return reply.header('x-queue-cache', 'skip').header('cache-control', 'no-store').send(body);
  cache?.set(key, body, gen);
  return reply.header('x-queue-cache', 'miss').send(body);
}

/** Resolves once this instance has heard of a change after `generation` (tests; at most `timeoutMs`). */
export async function waitForQueueSignal(db: Db, generation: number, timeoutMs = 3000): Promise<boolean> {
  const cache = caches.get(db);
  if (!cache) return true;
  const until = Date.now() + timeoutMs;
  while (cache.generation() === generation) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}
