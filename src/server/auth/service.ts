// Sign-in and sessions: argon2id password check, opaque random tokens stored only as a SHA-256 hash,
// validity while the last activity is under 24 hours (refreshed on use), revocation on logout, and sign-in
// throttling with backoff per (e-mail, address) pair and per address.
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/pool.js';
import { HttpError, unauthorized } from '../http/errors.js';
import { USER_SELECT, type AuthUser, loadUserByEmail } from '../people/service.js';
import { PUBLISHED_DEMO_PASSWORD } from './demo-mode.js';
import type { SessionCache } from './session-cache.js';

export const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';

export const hashPassword = (password: string) => argonHash(password, { algorithm: 2 /* Argon2id */ });
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** What one key of the limiter allows before it starts to slow down. */
interface ThrottleEntry {
  failures: number;
  lastFailAt: number;
  free: number;
}

/**
 * Sign-in throttling with backoff, in memory (each instance limits on its own). Three counters of failed attempts:
 * - the (e-mail, address) pair: after `limit` failures the next attempt must wait 1 s, then 2 s, 4 s, ... up to
 *   the window (15 minutes); this is what stops guessing one account's password from one place;
 * - the address alone: the same backoff after 3 x `limit` failures over any e-mails, so one client cannot spray
 *   guesses (or made-up e-mails) across many accounts;
 * - the e-mail alone, over every address: never a refusal, only a short pause before the answer once it has
 *   `limit` failures, so a distributed attack is slowed while the real owner, signing in from an address that has
 *   not been failing, still gets in.
 * Every e-mail is counted the same way whether or not an account has it, so the answers (and their timing) do not
 * tell which accounts exist, and guesses at made-up e-mails never hold back a real account. A counter is forgotten
 * after a quiet window past its current delay; a successful sign-in clears its pair.
 */
export class LoginLimiter {
  private hits = new Map<string, ThrottleEntry>();
  /** Pause before answering an attempt on an e-mail that is failing from many places. */
  readonly accountPauseMs: number;
  /** The first wait once a counter is past its free failures; it doubles with each further failure. */
  private readonly baseDelayMs: number;
  constructor(
    private limit: number,
    private windowMs: number,
    private clock: Clock,
    opts: { accountPauseMs?: number; baseDelayMs?: number } = {},
  ) {
    this.accountPauseMs = opts.accountPauseMs ?? 1000;
    this.baseDelayMs = opts.baseDelayMs ?? 1000;
    void dummyPasswordHash(); // ready before the first unknown e-mail arrives
  }

  static keys(email: string, address: string) {
    const e = email.trim().toLowerCase();
    return { pair: `pair:${e}|${address}`, address: `address:${address}`, account: `account:${e}` };
  }

  /** The wait required after `failures` failures when `free` are allowed without one. */
  private delayOf(h: ThrottleEntry): number {
    if (h.failures < h.free) return 0;
    const exp = Math.min(h.failures - h.free, 30);
    return Math.min(this.windowMs, this.baseDelayMs * 2 ** exp);
  }

  private live(key: string, now: number): ThrottleEntry | undefined {
    const h = this.hits.get(key);
    if (h && now > h.lastFailAt + this.delayOf(h) + this.windowMs) {
      this.hits.delete(key);
      return undefined;
    }
    return h;
  }

  /** Milliseconds until an attempt with these keys is allowed (0: now). Only pair and address keys refuse. */
  waitMs(keys: { pair: string; address: string }): number {
    const now = this.clock.now().getTime();
    let wait = 0;
    for (const k of [keys.pair, keys.address]) {
      const h = this.live(k, now);
      if (h) wait = Math.max(wait, h.lastFailAt + this.delayOf(h) - now);
    }
    return Math.max(0, wait);
  }

  /** The pause before answering an attempt on this e-mail (0 unless it is failing from many places). */
  pauseMs(keys: { account: string }): number {
    const h = this.live(keys.account, this.clock.now().getTime());
    return h && h.failures >= this.limit ? this.accountPauseMs : 0;
  }

  fail(keys: { pair: string; address: string; account: string }): void {
    const now = this.clock.now().getTime();
    const free = { [keys.pair]: this.limit, [keys.address]: this.limit * 3, [keys.account]: this.limit };
    for (const k of [keys.pair, keys.address, keys.account]) {
      const h = this.live(k, now);
      if (!h) this.hits.set(k, { failures: 1, lastFailAt: now, free: free[k] });
      else {
        h.failures += 1;
        h.lastFailAt = now;
      }
    }
    if (this.hits.size > 50_000) for (const k of [...this.hits.keys()]) this.live(k, now);
  }

  /** Dates the last failure of each key now (an attempt counted up front whose verdict came later). */
  failedNow(keys: { pair: string; address: string; account: string }): void {
    const now = this.clock.now().getTime();
    for (const k of [keys.pair, keys.address, keys.account]) {
      const h = this.hits.get(k);
      if (h) h.lastFailAt = Math.max(h.lastFailAt, now);
    }
  }

  /** Takes back one failure of each key (an attempt counted up front that succeeded or got no verdict). */
  refund(keys: { pair: string; address: string; account: string }): void {
    for (const k of [keys.pair, keys.address, keys.account]) {
      const h = this.hits.get(k);
      if (h && (h.failures -= 1) <= 0) this.hits.delete(k);
    }
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}

/** '45 seconds', '1 minute', '15 minutes': a wait in words, rounded up. */
function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

// A hash of a random password, verified against when no account has the e-mail, so that an unknown e-mail costs
// the same argon2 work (and time) as a known one with a wrong password.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomBytes(18).toString('base64')));
/** The argon2 verification login uses (exported so tests can count calls). */
export const passwordCheck = { verify: (hash: string, password: string) => argonVerify(hash, password) };

export interface AuthContext {
  db: Db;
  clock: Clock;
  limiter: LoginLimiter;
  sessionIdleMs: number;
  sessions?: SessionCache;
  /** Absolute session lifetime from sign-in, however active (ADMINEASE_SESSION_MAX_HOURS); unset: none. */
  sessionMaxMs?: number;
  /** Told of every session this instance ends (logout), e.g. to close its live streams at once. */
  sessionEnded?: Array<(tokenHash: string) => void>;
  /** Demo mode in force (see demo-mode.ts); when off, the published demo password never signs anyone in. */
  demo?: boolean;
}

export async function login(
  ctx: AuthContext,
  email: string,
  password: string,
  address: string,
): Promise<{ user: AuthUser; token: string }> {
  const keys = LoginLimiter.keys(email, address);
  const wait = ctx.limiter.waitMs(keys);
  if (wait > 0) throw new HttpError(429, `Too many sign-in attempts. Please wait ${waitText(wait)} and try again.`);
  const pause = ctx.limiter.pauseMs(keys);
  // The attempt counts as a failure from the start (before any await) and is refunded if it succeeds or gets no
  // verdict: attempts sent in parallel cannot all slip through one backoff window.
  ctx.limiter.fail(keys);
  let verdict: 'failed' | 'signed-in' | undefined;
  let found: Awaited<ReturnType<typeof loadUserByEmail>>;
  try {
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    found = await loadUserByEmail(ctx.db, email.trim());
    // Always one argon2 verification, against a dummy hash when the e-mail is unknown.
    const ok = await passwordCheck.verify(found ? found.password_hash : await dummyPasswordHash(), password).catch(() => false);
    // Outside demo mode the password printed in the README and on the demo panel is refused, whoever has it (the
    // demo organisation's accounts of a database once run as a demo included).
    const published = !ctx.demo && password === PUBLISHED_DEMO_PASSWORD;
    // A deactivated (offboarded) person is refused like a wrong password: the answer does not tell the account exists.
    verdict = !found || !ok || published || !found.account_active ? 'failed' : 'signed-in';
  } finally {
    if (verdict === 'failed')
      ctx.limiter.failedNow(keys); // the backoff runs from the answer, not the start
    else ctx.limiter.refund(keys);
  }
  if (verdict === 'failed' || !found) throw new HttpError(401, INVALID_CREDENTIALS);
  ctx.limiter.reset(keys.pair);
  const token = await openSession(ctx, found.id);
  const { password_hash: _omit, account_active: _active, ...user } = found;
  return { user, token };
}

/** A new sign-in session of `userId` (password or single sign-on); answers its token, stored only as a hash. */
export async function openSession(ctx: Pick<AuthContext, 'db' | 'clock'>, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await ctx.db.query('INSERT INTO sessions (token_hash, user_id, created_at, last_activity_at) VALUES ($1, $2, $3, $3)', [
    hashToken(token),
    userId,
    ctx.clock.now(),
  ]);
  return token;
}

/**
 * The user of a valid session, refreshing its last activity; 401 otherwise. A session is valid while its last
 * activity is under the idle limit and its sign-in under the absolute lifetime. `expiresAtMs`: when it ends at
 * the latest if not used again.
 */
export async function authenticate(
  ctx: AuthContext,
  token: string | undefined,
): Promise<{ user: AuthUser; tokenHash: string; expiresAtMs: number }> {
  if (!token) throw unauthorized();
  const tokenHash = hashToken(token);
  const now = ctx.clock.now();
  const cached = ctx.sessions?.lookup(tokenHash, now.getTime());
  if (cached) return { user: cached.user, tokenHash, expiresAtMs: Math.min(cached.expiresAtMs, cached.lastActivityMs + ctx.sessionIdleMs) };
  const gen = ctx.sessions?.generation() ?? 0;
  const cutoff = new Date(now.getTime() - ctx.sessionIdleMs);
  const maxMs = ctx.sessionMaxMs ?? Number.POSITIVE_INFINITY;
  const createdCutoff = Number.isFinite(maxMs) ? new Date(now.getTime() - maxMs) : new Date(0);
  // One round trip for the session and its user: refresh only a live session, and only when the stored
  // activity is a minute old, so busy clients do not write on every call. The refresh's commit does not wait for
  // the disk (synchronous_commit off for this statement's own transaction only): a crash could lose the last
  // second of activity times, which only makes a session look idle a little earlier, while every person's first
  // call of each minute no longer waits for a WAL flush.
  const r = await ctx.db.query<AuthUser>(
    `WITH s AS (
       SELECT token_hash, user_id, last_activity_at, created_at FROM sessions
        WHERE token_hash = $1 AND revoked_at IS NULL AND last_activity_at > $2 AND created_at > $4
     ), lazy AS (
       SELECT set_config('synchronous_commit', 'off', true) AS v
     ), touched AS (
       UPDATE sessions SET last_activity_at = $3
        WHERE token_hash = $1 AND EXISTS (SELECT 1 FROM s WHERE s.last_activity_at < $3::timestamptz - interval '1 minute')
     )
     SELECT x.*, s.last_activity_at AS session_last_activity_at, s.created_at AS session_created_at
       FROM s CROSS JOIN lazy CROSS JOIN LATERAL (${USER_SELECT} WHERE u.id = s.user_id AND u.active) x`,
    [tokenHash, cutoff, now, createdCutoff],
  );
  const row = r.rows[0] as (AuthUser & { session_last_activity_at: Date; session_created_at: Date }) | undefined;
  if (!row) throw unauthorized('Your session has expired. Please sign in again.');
  const { session_last_activity_at: stored, session_created_at: created, ...user } = row;
  // The activity now stored: refreshed to `now` when it was a minute old, otherwise unchanged.
  const storedMs = new Date(stored).getTime();
  const activityMs = storedMs < now.getTime() - 60_000 ? now.getTime() : storedMs;
  const absoluteEndMs = new Date(created).getTime() + maxMs;
  ctx.sessions?.set(tokenHash, user, activityMs, gen, absoluteEndMs);
  return { user, tokenHash, expiresAtMs: Math.min(absoluteEndMs, activityMs + ctx.sessionIdleMs) };
}

/** How long a session that can no longer be used is kept before the clean-up deletes it. */
export const DEAD_SESSION_KEEP_MS = 24 * 60 * 60 * 1000;
/** Sessions deleted at most per clean-up run (each deletion signals every instance's session cache). */
export const DEAD_SESSION_BATCH = 5000;

/**
 * Deletes sessions that can never be used again (signed out, idle past the limit, or past their absolute lifetime)
 * a day after they ended, at most DEAD_SESSION_BATCH a run: otherwise every sign-in is kept forever. Answers how many.
 */
export async function deleteDeadSessions(
  db: Queryable,
  now: Date,
  limits: { sessionIdleMs: number; sessionMaxMs?: number },
): Promise<number> {
  const t = now.getTime() - DEAD_SESSION_KEEP_MS;
  const maxMs = limits.sessionMaxMs ?? Number.POSITIVE_INFINITY;
  const r = await db.query(
    `DELETE FROM sessions WHERE token_hash IN (
       SELECT token_hash FROM sessions WHERE revoked_at < $1 OR last_activity_at < $2 OR created_at < $3 LIMIT $4)`,
    [new Date(t), new Date(t - limits.sessionIdleMs), Number.isFinite(maxMs) ? new Date(t - maxMs) : new Date(0), DEAD_SESSION_BATCH],
  );
  return r.rowCount ?? 0;
}

export async function logout(ctx: AuthContext, tokenHash: string): Promise<void> {
  ctx.sessions?.drop(tokenHash);
  await ctx.db.query('UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash, ctx.clock.now()]);
  ctx.sessions?.drop(tokenHash); // also a look-up that read the session before the revocation committed
  for (const fn of ctx.sessionEnded ?? []) fn(tokenHash);
}
