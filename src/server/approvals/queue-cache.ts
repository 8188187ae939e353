// A per-instance cache of serialised queue and list answers. Queues are read far more often than requests
// change, so an answer is reused until a change can affect it: every committed change to requests or approvals
// signals 'adminease_queue' to every instance with its scope (migration 175: the owners and form types of the
// changed requests), and a change drops only the answers of that scope: the owners' lists (user-forms) and the
// queues of the roles whose dashboards show those form types. Changes to people (names in every answer), bulk
// changes and anything unscoped drop everything. This instance's own writes drop their scope at once.
// While the listener is not connected nothing is cached; entries also expire after maxAgeMs.
import { type ListenerLogger, PgListener } from '../db/listener.js';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/pool.js';
import { MANAGER_VIEW_TYPES, STAGE_VIEW_TYPES, queueScopeSql } from '../policies/requests.js';

export const QUEUE_CHANNEL = 'adminease_queue';

/**
 * What a committed change touched: the requests' owners (user ids), form types and line managers (user ids;
 * absent: unknown, every line manager's queue).
 */
export interface ChangeScope {
  owners: readonly number[];
  formTypes: readonly string[];
  lineManagers?: readonly number[];
}

/** The payload of migration 175's signal, `o=<ids>;t=<types>;m=<ids>`; undefined (everything) for '' or anything else. */
export function parseChangeScope(payload: string): ChangeScope | undefined {
  const m = /^o=([\d,]*);t=([a-z0-9_,-]*)(?:;m=([\d,]*))?$/.exec(payload);
  if (!m) return undefined;
  const list = (x: string) => (x === '' ? [] : x.split(','));
  return { owners: list(m[1]).map(Number), formTypes: list(m[2]), lineManagers: m[3] === undefined ? undefined : list(m[3]).map(Number) };
}

/**
 * The scope of records just written (this instance's own change), or undefined when `out` holds none. Records
 * do not carry the line manager: every line manager's queue of those types goes (other instances hear the
 * exact scope from PostgreSQL). Rows of the requests table (`line_manager_id`) narrow it to their managers.
 */
export function scopeOfRecords(out: unknown): ChangeScope | undefined {
  const recs = (Array.isArray(out) ? out : [out]) as Array<{ employee_user_id?: unknown; form_type?: unknown }>;
  if (recs.length === 0 || !recs.every((r) => r && typeof r.employee_user_id === 'number' && typeof r.form_type === 'string'))
    return undefined;
  return { owners: recs.map((r) => r.employee_user_id as number), formTypes: recs.map((r) => r.form_type as string) };
}

/** The scope of a change to these request rows (a decision's request as it was read). */
export function scopeOfRows(
  rows: ReadonlyArray<{ employee_user_id: number; form_type: string; line_manager_id: number | null }>,
): ChangeScope {
  return {
    owners: rows.map((r) => r.employee_user_id),
    formTypes: rows.map((r) => r.form_type),
    lineManagers: rows.flatMap((r) => (r.line_manager_id === null ? [] : [r.line_manager_id])),
  };
}

/** The form types each cached queue (by key prefix, the role) can show. */
const QUEUE_TYPES: Record<string, readonly string[]> = {
  manager: MANAGER_VIEW_TYPES,
  hr: STAGE_VIEW_TYPES.hr,
  finance: STAGE_VIEW_TYPES.finance,
  facilities_desk: STAGE_VIEW_TYPES.facilities_desk,
  facilities_manager: STAGE_VIEW_TYPES.facilities_manager,
};

/**
 * A line manager's queue shows exactly the requests whose line_manager_id is that manager (the queue scope of the
 * request policy); only while that holds is a change narrowed to the queues of its requests' line managers.
 */
const MANAGER_QUEUE_PERSONAL = (() => {
  const s = queueScopeSql('manager', '$1');
  return !s.extra && /^r\.line_manager_id = \$1 AND r\.form_type IN \([^()]*\)$/.test(s.scope);
})();

/**
 * What an answer depends on, from its key: `user-forms|viewer|person|...` on the person's requests, a role's
 * queue (`manager|...`, `hr|...`) on the requests of the form types that role's dashboard shows. Any other key
 * (the IT queue, tests) on every change.
 */
export function dependsOn(key: string): { person?: number; role?: string; manager?: number } | undefined {
  const [head, viewer, person] = key.split('|', 3);
  if (head === 'user-forms' && /^\d+$/.test(person ?? '')) return { person: Number(person) };
  if (head === 'manager' && MANAGER_QUEUE_PERSONAL && /^\d+$/.test(viewer ?? '')) return { role: head, manager: Number(viewer) };
  if (head in QUEUE_TYPES) return { role: head };
  return undefined;
}

const tagsOfKey = (key: string): string[] => {
  const d = dependsOn(key);
  if (d?.person !== undefined) return [`p:${d.person}`];
  if (d?.manager !== undefined) return [`m:${d.manager}`, 'r:manager*'];
  return d?.role ? [`r:${d.role}`] : ['any'];
};

const tagsOfScope = (s: ChangeScope): string[] => {
  const roles = Object.keys(QUEUE_TYPES).filter((role) => s.formTypes.some((t) => QUEUE_TYPES[role].includes(t)));
  const tags = ['any', ...s.owners.map((o) => `p:${o}`), ...roles.map((role) => `r:${role}`)];
  // A personal line-manager queue ('r:manager*' on every one of them) goes with its own manager's requests only.
  if (roles.includes('manager')) tags.push(...(s.lineManagers ? s.lineManagers.map((m) => `m:${m}`) : ['r:manager*']));
  return tags;
};

interface Entry {
  at: number;
  body: string;
  tags: string[];
}

export class QueueCache {
  private gen = 0;
  /** The generation of the last change that dropped everything. */
  private fullGen = 0;
  /** The generation of the last change of each tag (`p:<person>`, `r:<role>`, `any`). */
  private readonly tagGen = new Map<string, number>();
  private readonly entries = new Map<string, Entry>();
  /** Characters held by all entries (bounded by maxChars). */
  private size = 0;
  private readonly listener: PgListener;
  hits = 0;
  misses = 0;
  /** Changes heard or made, and how many of them dropped everything. */
  changes = 0;
  fullChanges = 0;

  constructor(
    db: Db,
    log: ListenerLogger,
    private readonly opts: { maxEntries?: number; maxChars?: number; maxAgeMs?: number; now?: () => number } = {},
  ) {
    this.listener = new PgListener(
      db,
      [QUEUE_CHANNEL],
      { onMessage: (_channel, payload) => this.invalidate(parseChangeScope(payload)), onReset: () => this.invalidate() },
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
    if (!e || this.now() - e.at > (this.opts.maxAgeMs ?? 30_000)) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    return e.body;
  }

  /**
   * Stores `body` for `key` if nothing it depends on changed since `genAtStart` (the generation read before the
   * queries ran), so an answer computed from data that changed meanwhile is never kept.
   */
  set(key: string, body: string, genAtStart: number): void {
    if (!this.listening || genAtStart > this.gen) return;
    const tags = tagsOfKey(key);
    if (this.fullGen > genAtStart || tags.some((t) => (this.tagGen.get(t) ?? 0) > genAtStart)) return;
    const maxChars = this.opts.maxChars ?? 32 * 1024 * 1024;
    if (body.length > maxChars / 8) return; // one huge answer must not push out everything else
    this.remove(key);
    // Oldest first out, until both the entry count and the memory budget fit.
    while (this.entries.size >= (this.opts.maxEntries ?? 5000) || this.size + body.length > maxChars) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.entries.set(key, { at: this.now(), body, tags });
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
    return {
      entries: this.entries.size,
      chars: this.size,
      hits: this.hits,
      misses: this.misses,
      changes: this.changes,
      fullChanges: this.fullChanges,
      listening: this.listening,
    };
  }

  generation(): number {
    return this.gen;
  }

  /** Drops the answers a change of `scope` can affect; without a scope, everything. */
  invalidate(scope?: ChangeScope): void {
    this.gen += 1;
    this.changes += 1;
    if (!scope) {
      this.fullChanges += 1;
      this.fullGen = this.gen;
      this.tagGen.clear();
      this.entries.clear();
      this.size = 0;
      return;
    }
    const tags = tagsOfScope(scope);
    for (const t of tags) this.tagGen.set(t, this.gen);
    const hit = new Set(tags);
    for (const [key, e] of this.entries) if (e.tags.some((t) => hit.has(t))) this.remove(key);
    // Bounded: tags of people who changed long ago are older than any answer being computed now.
    if (this.tagGen.size > 50_000) {
      this.tagGen.clear();
      this.fullGen = this.gen;
    }
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

/**
 * Drops this instance's cached answers a change of `scope` can affect, at once (called after this instance's own
 * changes; other instances hear of them from PostgreSQL). Without a scope, everything.
 */
export function invalidateQueues(db: Db, scope?: ChangeScope): void {
  caches.get(db)?.invalidate(scope);
}

export function queueCacheFor(db: Db): QueueCache | undefined {
  return caches.get(db);
}

/**
 * Answers a queue from this database's cache (header x-queue-cache: hit), or computes, caches (unless anything
 * changed meanwhile) and answers (miss). A request sent with `Cache-Control: no-cache` is computed whatever the cache
 * holds (bypass; its answer is not stored: a valid entry stays valid, and the uncached path stays lean). Permission
 * checks run before this. An answer `keep` refuses is never cached (nor by the browser: Cache-Control no-store); it
 * is answered with x-queue-cache: skip.
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
  const bypass = /no-cache/i.test(reply.request.headers['cache-control'] ?? '');
  const hit = bypass ? undefined : cache?.get(key);
  if (hit !== undefined) return reply.header('x-queue-cache', 'hit').send(hit);
  const gen = cache?.generation() ?? 0;
  const answer = await compute();
  const body = JSON.stringify(answer);
  if (opts.keep && !opts.keep(answer)) return reply.header('x-queue-cache', 'skip').header('cache-control', 'no-store').send(body);
  if (bypass) return reply.header('x-queue-cache', 'bypass').send(body);
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
