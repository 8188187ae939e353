// Which errors mean "the database cannot serve right now" rather than "this request is wrong or the code is
// wrong": lost or refused connections, timeouts, a server shutting down or starting, exhausted resources (disk
// full, out of memory, too many connections) and a read-only server. The API answers them 503 with Retry-After
// (the client may simply try again), never 500, and the health check reports them.

/** Seconds a client is told to wait before trying again while the database is unavailable. */
export const DATABASE_RETRY_AFTER_S = 5;

export interface DatabaseTrouble {
  /** Short machine-readable cause, also shown by GET /api/health. */
  reason:
    | 'unreachable'
    | 'timeout'
    | 'shutting-down'
    | 'disk-full'
    | 'out-of-memory'
    | 'too-many-connections'
    | 'insufficient-resources'
    | 'read-only';
  /** The SQLSTATE or system error code, when there is one. */
  code?: string;
}

const NODE_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ESOCKETTIMEDOUT',
]);

// Messages of node-postgres and pg-pool for a lost or refused connection (they carry no code).
const CONNECTION_MESSAGES: Array<[RegExp, DatabaseTrouble['reason']]> = [
  [/^Connection terminated/, 'unreachable'],
  [/not queryable/, 'unreachable'],
  [/^Cannot use a pool after calling end/, 'shutting-down'],
  [/timeout exceeded when trying to connect/, 'timeout'],
  [/^Query read timeout/, 'timeout'],
  [/^timeout expired/, 'timeout'],
];

function classifyOne(err: any): DatabaseTrouble | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const code = typeof err.code === 'string' ? err.code : undefined;
  if (code) {
    if (NODE_CONNECTION_CODES.has(code))
      return { reason: code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' ? 'timeout' : 'unreachable', code };
    if (/^[0-9A-Z]{5}$/.test(code)) {
      if (code.startsWith('08')) return { reason: 'unreachable', code }; // connection exception
      if (code === '53100') return { reason: 'disk-full', code };
      if (code === '53200') return { reason: 'out-of-memory', code };
      if (code === '53300') return { reason: 'too-many-connections', code };
      if (code.startsWith('53')) return { reason: 'insufficient-resources', code };
      if (code === '57P01' || code === '57P02' || code === '57P03') return { reason: 'shutting-down', code };
      if (code === '57014' || code === '25P03' || code === '55P03') return { reason: 'timeout', code }; // statement, idle-in-transaction, lock timeout
      if (code === '25006') return { reason: 'read-only', code };
      return undefined;
    }
  }
  const message = typeof err.message === 'string' ? err.message : '';
  for (const [re, reason] of CONNECTION_MESSAGES) if (re.test(message)) return { reason };
  return undefined;
}

/** The database trouble behind `err` (also looked for in its cause and, for AggregateError, its parts), if any. */
export function databaseTrouble(err: unknown): DatabaseTrouble | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e: any = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const found = classifyOne(e);
    if (found) return found;
    if (e.cause) queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...e.errors);
  }
  return undefined;
}

/** The JSON body answered with 503 for database trouble. */
export function unavailableBody(trouble: DatabaseTrouble) {
  const text =
    trouble.reason === 'read-only' ||
    trouble.reason === 'disk-full' ||
    trouble.reason.includes('memory') ||
    trouble.reason.includes('resources')
      ? 'The database cannot store changes right now; please try again in a few minutes'
      : 'The database is unavailable right now; please try again shortly';
  return { error: text, reason: `database-${trouble.reason}` };
}

// The last database trouble answered for each database handle, so the health check can report recent failures that
// its own probe did not meet (e.g. a disk full for new pages while the probe's row still fits in its page).
const lastTrouble = new WeakMap<object, { at: number; trouble: DatabaseTrouble }>();

export function recordDatabaseTrouble(db: object, trouble: DatabaseTrouble, now = Date.now()): void {
  lastTrouble.set(db, { at: now, trouble });
}

/** Database trouble answered within the last `windowMs` for `db`, if any. */
export function recentDatabaseTrouble(db: object, windowMs: number, now = Date.now()): (DatabaseTrouble & { at: string }) | undefined {
  const t = lastTrouble.get(db);
  if (!t || now - t.at > windowMs) return undefined;
  return { ...t.trouble, at: new Date(t.at).toISOString() };
}

/**
 * The last line of defence of the process: an 'error' event of a database connection that nothing listened to,
 * or a rejected promise of one, is logged and the process carries on (the pool replaces the connection, the
 * listeners reconnect). Anything else still ends the process, as Node would.
 */
export function guardProcessAgainstDatabaseErrors(log: (level: string, msg: string, extra?: Record<string, unknown>) => void): void {
  process.on('uncaughtException', (err) => {
    const trouble = databaseTrouble(err);
    if (trouble) {
      log('error', 'database error outside any request; the server carries on', { err: err.message, ...trouble });
      return;
    }
    log('error', 'uncaught exception', { err: err instanceof Error ? err.stack : String(err) });
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    const trouble = databaseTrouble(reason);
    if (trouble) {
      log('error', 'database error outside any request; the server carries on', { err: (reason as Error)?.message, ...trouble });
      return;
    }
    throw reason;
  });
}
