// A per-instance cache of signed-in sessions, so most calls do not need a database round trip to find their
// user. An entry is used only while its known last activity is under a minute old: that is exactly when
// `authenticate` would not refresh the stored activity, and far inside the 24-hour idle limit, so the cache
// never extends or shortens a session. A revoked or deleted session is dropped on every instance as soon as
// PostgreSQL signals it (migration 060; this instance's own logout drops it at once); any change to the
// users' shown columns or to departments drops every entry. While the listener is not connected nothing is
// cached. An entry also carries the session's absolute end (its sign-in plus the maximum lifetime) and is
// never used at or after it.
import { type ListenerLogger, PgListener } from '../db/listener.js';
import type { Db } from '../db/pool.js';
import type { AuthUser } from '../people/service.js';

export const SESSION_CHANNEL = 'adminease_session';

/** How long after its last stored activity a session is answered from memory. */
export const SESSION_CACHE_WINDOW_MS = 60_000;

export interface SessionEntry {
  user: AuthUser;
  lastActivityMs: number;
  expiresAtMs: number;
}

export class SessionCache {
  private readonly entries = new Map<string, SessionEntry>();
  private readonly listener: PgListener;
  /** Bumped by every drop and reset, so a look-up that started before a change is not stored after it. */
  private gen = 0;
  hits = 0;
  misses = 0;

  constructor(
    db: Db,
    log: ListenerLogger,
    private readonly maxEntries = 100_000,
  ) {
    this.listener = new PgListener(
      db,
      [SESSION_CHANNEL],
      { onMessage: (_ch, tokenHash) => (tokenHash ? this.drop(tokenHash) : this.clear()), onReset: () => this.clear() },
      log,
      'session cache',
    );
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  generation(): number {
    return this.gen;
  }

  /** The user of a cached session whose known activity is under a minute old at `nowMs`. */
  get(tokenHash: string, nowMs: number): AuthUser | undefined {
    return this.lookup(tokenHash, nowMs)?.user;
  }

  /** The cached session whose known activity is under a minute old at `nowMs` and which has not reached its end. */
  lookup(tokenHash: string, nowMs: number): SessionEntry | undefined {
    if (!this.listener.listening) return undefined;
    const e = this.entries.get(tokenHash);
    if (!e || nowMs - e.lastActivityMs >= SESSION_CACHE_WINDOW_MS || nowMs < e.lastActivityMs || nowMs >= e.expiresAtMs) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    return e;
  }

  /** Stores what the database said, unless a change was signalled since `genAtStart`. */
  set(tokenHash: string, user: AuthUser, lastActivityMs: number, genAtStart: number, expiresAtMs = Number.POSITIVE_INFINITY): void {
    if (!this.listener.listening || genAtStart !== this.gen) return;
    this.entries.delete(tokenHash);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { user, lastActivityMs, expiresAtMs });
  }

  drop(tokenHash: string): void {
    this.gen += 1; // a look-up of this session already under way must not store it again
    this.entries.delete(tokenHash);
  }

  clear(): void {
    this.gen += 1;
    this.entries.clear();
  }

  stats() {
    return { entries: this.entries.size, hits: this.hits, misses: this.misses, listening: this.listening };
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }
}
