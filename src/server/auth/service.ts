// Sign-in and sessions: argon2id password check, opaque random tokens stored only as a SHA-256 hash,
// validity while the last activity is under 24 hours (refreshed on use), revocation on logout, and a
// login rate limit per account and per address.
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/pool.js';
import { HttpError, unauthorized } from '../http/errors.js';
import { USER_SELECT, type AuthUser, loadUserByEmail } from '../people/service.js';
import type { SessionCache } from './session-cache.js';

export const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';

export const hashPassword = (password: string) => argonHash(password, { algorithm: 2 /* Argon2id */ });
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface Clock { now(): Date }
export const systemClock: Clock = { now: () => new Date() };

/** Fixed-window counters of failed attempts, per key. In memory: each instance limits on its own. */
export class LoginLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();
  constructor(private limit: number, private windowMs: number, private clock: Clock) {}
  blocked(keys: string[]): boolean {
    const now = this.clock.now().getTime();
    return keys.some((k) => {
      const h = this.hits.get(k);
      return h !== undefined && h.resetAt > now && h.count >= this.limit;
    });
  }
  fail(keys: string[]): void {
    const now = this.clock.now().getTime();
    for (const k of keys) {
      const h = this.hits.get(k);
      if (!h || h.resetAt <= now) this.hits.set(k, { count: 1, resetAt: now + this.windowMs });
      else h.count += 1;
    }
    if (this.hits.size > 50_000) for (const [k, h] of this.hits) if (h.resetAt <= now) this.hits.delete(k);
  }
  reset(key: string): void {
    this.hits.delete(key);
  }
}

export interface AuthContext {
  db: Db; clock: Clock; limiter: LoginLimiter; sessionIdleMs: number; sessions?: SessionCache;
  /** Absolute session lifetime from sign-in, however active (ADMINEASE_SESSION_MAX_HOURS); unset: none. */
  sessionMaxMs?: number;
  /** Told of every session this instance ends (logout), e.g. to close its live streams at once. */
  sessionEnded?: Array<(tokenHash: string) => void>;
}

export async function login(ctx: AuthContext, email: string, password: string, address: string): Promise<{ user: AuthUser; token: string }> {
  const keys = [`account:${email.trim().toLowerCase()}`, `address:${address}`];
  if (ctx.limiter.blocked(keys)) throw new HttpError(429, 'Too many sign-in attempts. Please wait 15 minutes and try again.');
  const found = await loadUserByEmail(ctx.db, email.trim());
  const ok = found ? await argonVerify(found.password_hash, password).catch(() => false) : false;
  if (!found || !ok) {
    ctx.limiter.fail(keys);
    throw new HttpError(401, INVALID_CREDENTIALS);
  }
  ctx.limiter.reset(keys[0]);
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.query('INSERT INTO sessions (token_hash, user_id, created_at, last_activity_at) VALUES ($1, $2, $3, $3)', [hashToken(token), found.id, now]);
  const { password_hash: _omit, ...user } = found;
  return { user, token };
}

/**
 * The user of a valid session, refreshing its last activity; 401 otherwise. A session is valid while its last
 * activity is under the idle limit and its sign-in under the absolute lifetime. `expiresAtMs`: when it ends at
 * the latest if not used again.
 */
export async function authenticate(ctx: AuthContext, token: string | undefined): Promise<{ user: AuthUser; tokenHash: string; expiresAtMs: number }> {
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
  // activity is a minute old, so busy clients do not write on every call.
  const r = await ctx.db.query<AuthUser>(
    `WITH s AS (
       SELECT token_hash, user_id, last_activity_at, created_at FROM sessions
        WHERE token_hash = $1 AND revoked_at IS NULL AND last_activity_at > $2 AND created_at > $4
     ), touched AS (
       UPDATE sessions SET last_activity_at = $3
        WHERE token_hash = $1 AND EXISTS (SELECT 1 FROM s WHERE s.last_activity_at < $3::timestamptz - interval '1 minute')
     )
     SELECT x.*, s.last_activity_at AS session_last_activity_at, s.created_at AS session_created_at
       FROM s CROSS JOIN LATERAL (${USER_SELECT} WHERE u.id = s.user_id) x`,
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

export async function logout(ctx: AuthContext, tokenHash: string): Promise<void> {
  ctx.sessions?.drop(tokenHash);
  await ctx.db.query('UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash, ctx.clock.now()]);
  ctx.sessions?.drop(tokenHash); // also a look-up that read the session before the revocation committed
  for (const fn of ctx.sessionEnded ?? []) fn(tokenHash);
}
