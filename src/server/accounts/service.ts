// Accounts: invitations and the first-run set-up link (single-use tokens stored only as a SHA-256 hash), setting a
// password from such a link, changing one's own password (every other session of the person ends on every
// instance), and an administrator's demand for a new password at next sign-in. Passwords are checked against the
// shared strength rules (src/domain/password-rules.ts) and stored only as argon2id hashes; no answer, log line or
// event ever holds one.
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { PoolClient } from 'pg';
import { businessToday } from '../../domain/business-time.js';
import { type PasswordOwner, passwordProblems } from '../../domain/password-rules.js';
import { LoginLimiter, hashPassword, hashToken, passwordCheck } from '../auth/service.js';
import { isDemoDatabase } from '../auth/demo-mode.js';
import type { Config } from '../config.js';
import type { Db, Queryable } from '../db/pool.js';
import type { AppContext } from '../http/context.js';
import { HttpError, badRequest, conflict, notFound } from '../http/errors.js';
import { currentLogger } from '../logger.js';
import type { AuthUser } from '../people/service.js';
import { writeAudit } from '../admin/audit.js';

export const DEAD_LINK = 'This link is no longer valid: it has expired or was already used. Ask your administrator for a new one.';
export const SETUP_DONE = 'The first administrator has already been created: this set-up link is no longer valid.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';

const FIRST_ADMIN_KEY = 'first_administrator';

/** The address people open AdminEase at (links in invitations and the set-up link). */
export const publicBase = (config: Pick<Config, 'publicUrl' | 'port'>) =>
  (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');

export const setPasswordUrl = (config: Pick<Config, 'publicUrl' | 'port'>, token: string) =>
  `${publicBase(config)}/set-password?token=${encodeURIComponent(token)}`;

const newToken = () => randomBytes(32).toString('base64url');

export async function recordAccountEvent(
  c: Queryable,
  e: { userId: number; actorId: number | null; kind: string; at: Date; detail?: Record<string, unknown> },
): Promise<void> {
  await c.query('INSERT INTO account_events (user_id, actor_id, kind, detail, created_at) VALUES ($1, $2, $3, $4, $5)', [
    e.userId,
    e.actorId,
    e.kind,
    JSON.stringify(e.detail ?? {}),
    e.at,
  ]);
}

/** 400 naming every rule the password breaks (the rules' texts in `problems`). */
function assertStrong(password: string, owner: PasswordOwner): void {
  const problems = passwordProblems(password, owner);
  if (problems.length) throw new HttpError(400, `The password is not strong enough: ${problems.join('; ')}.`, { problems });
}

/**
 * Ends every session of `userId` but `keepTokenHash` (revoked in the database: each instance's session cache
 * drops them through the session signal, migration 060), and tells this instance's listeners (live streams).
 */
async function endSessions(ctx: AppContext, c: Queryable, userId: number, keepTokenHash: string | null): Promise<string[]> {
  const r = await c.query<{ token_hash: string }>(
    `UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND revoked_at IS NULL AND token_hash IS DISTINCT FROM $2 RETURNING token_hash`,
    [userId, keepTokenHash, ctx.clock.now()],
  );
  return r.rows.map((row) => row.token_hash);
}

function announceEnded(ctx: AppContext, hashes: string[]): void {
  for (const h of hashes) {
    ctx.sessions?.drop(h);
    for (const fn of ctx.sessionEnded ?? []) fn(h);
  }
}

// ---------------------------------------------------------------- invitations

async function personByCode(c: Queryable, employeeCode: string) {
  const r = await c.query<{
    id: number;
    email: string;
    first_name: string;
    last_name: string;
    active: boolean;
    must_change_password: boolean;
  }>('SELECT id, email, first_name, last_name, active, must_change_password FROM users WHERE employee_code = $1', [employeeCode]);
  return r.rows[0];
}

async function sendInvitationMail(config: Config, to: { email: string; first_name: string }, url: string, expiresAt: Date) {
  if (!config.mail) return false;
  try {
    const transport = nodemailer.createTransport(config.mail.transport as any);
    await transport.sendMail({
      from: config.mail.from,
      to: to.email,
      subject: 'Your AdminEase account',
      text: [
        `Hello ${to.first_name},`,
        '',
        'An AdminEase account is ready for you. Choose your password here (the link works once):',
        url,
        '',
        `The link expires at ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      ].join('\n'),
    });
    return true;
  } catch (err) {
    currentLogger().warn({ err: (err as Error).message }, 'invitation e-mail not sent');
    return false;
  }
}

/**
 * A new invitation for the person with `employeeCode` (404 when there is none): every older open link of theirs
 * dies, the new one works once until the configured expiry. E-mailed when SMTP is configured; the link is always
 * answered so the administrator can pass it on.
 */
export async function invite(
  ctx: AppContext,
  admin: AuthUser,
  employeeCode: string,
): Promise<{ invite_url: string; expires_at: string; emailed: boolean }> {
  const token = newToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.inviteTtlHours * 3_600_000);
  const person = await ctx.db.tx(async (c) => {
    const p = await personByCode(c, employeeCode);
    if (!p) throw notFound('Person not found');
    if (!p.active) throw conflict('This person is deactivated: reactivate them before sending an invitation');
    await c.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [p.id]); // one invitation of a person at a time
    const revoked = await c.query(
      `UPDATE password_tokens SET revoked_at = $2 WHERE user_id = $1 AND purpose = 'invite' AND used_at IS NULL AND revoked_at IS NULL`,
      [p.id, now],
    );
    await c.query(
      `INSERT INTO password_tokens (token_hash, purpose, user_id, created_by, created_at, expires_at) VALUES ($1, 'invite', $2, $3, $4, $5)`,
      [hashToken(token), p.id, admin.id, now, expiresAt],
    );
    const resent = (revoked.rowCount ?? 0) > 0;
    await recordAccountEvent(c, {
      userId: p.id,
      actorId: admin.id,
      kind: resent ? 'invitation_resent' : 'invitation_created',
      at: now,
      detail: { expires_at: expiresAt.toISOString() },
    });
    // The audit log names the invitation, never its link.
    await writeAudit(c, {
      actorId: admin.id,
      action: 'person.invite',
      targetType: 'person',
      targetId: employeeCode,
      before: { open_invitations: revoked.rowCount ?? 0 },
      after: { open_invitations: 1, expires_at: expiresAt.toISOString(), resent },
    });
    return p;
  });
  const url = setPasswordUrl(ctx.config, token);
  const emailed = await sendInvitationMail(ctx.config, person, url, expiresAt);
  return { invite_url: url, expires_at: expiresAt.toISOString(), emailed };
}

/** The person must choose a new password at their next sign-in (and their open sessions can do nothing else). */
export async function requirePasswordChange(ctx: AppContext, admin: AuthUser, employeeCode: string): Promise<void> {
  await ctx.db.tx(async (c) => {
    const p = await personByCode(c, employeeCode);
    if (!p) throw notFound('Person not found');
    await c.query('UPDATE users SET must_change_password = true WHERE id = $1 AND NOT must_change_password', [p.id]);
    await recordAccountEvent(c, { userId: p.id, actorId: admin.id, kind: 'password_change_required', at: ctx.clock.now() });
    await writeAudit(c, {
      actorId: admin.id,
      action: 'person.require_password_change',
      targetType: 'person',
      targetId: employeeCode,
      before: { must_change_password: p.must_change_password },
      after: { must_change_password: true },
    });
  });
  ctx.sessions?.clear();
}

// ---------------------------------------------------------------- links: what a token opens, setting a password

interface TokenRow {
  id: number;
  purpose: 'invite' | 'setup';
  user_id: number | null;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  active: boolean | null;
}

async function liveToken(c: Queryable, token: string, now: Date, lock = false): Promise<TokenRow> {
  const r = await c.query<TokenRow>(
    `SELECT t.id, t.purpose, t.user_id, t.expires_at, t.used_at, t.revoked_at, u.email, u.first_name, u.last_name, u.active
       FROM password_tokens t LEFT JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 ${lock ? 'FOR UPDATE OF t' : ''}`,
    [hashToken(token)],
  );
  const row = r.rows[0];
  const dead = !row || row.used_at || row.revoked_at || row.active === false || new Date(row.expires_at).getTime() <= now.getTime();
  if (dead) throw new HttpError(410, DEAD_LINK);
  if (row.purpose === 'setup' && (await firstAdministratorCreated(c))) throw new HttpError(410, SETUP_DONE);
  return row;
}

async function firstAdministratorCreated(c: Queryable): Promise<boolean> {
  const r = await c.query('SELECT 1 FROM installation_settings WHERE key = $1', [FIRST_ADMIN_KEY]);
  return (r.rowCount ?? 0) > 0;
}

/** What a live link is for (the set-password page asks before showing its form); 410 for a dead one. */
export async function describeToken(ctx: AppContext, token: string) {
  const row = await liveToken(ctx.db, token, ctx.clock.now());
  return row.purpose === 'invite'
    ? { purpose: 'invite' as const, email: row.email!, first_name: row.first_name!, last_name: row.last_name! }
    : { purpose: 'setup' as const };
}

export interface FirstAdministrator {
  first_name: string;
  last_name: string;
  email: string;
  employee_code: string;
}

/**
 * Sets a password from a live link. An invitation: the person's password (their other links and every session
 * of theirs end). The first-run set-up: creates the first administrator with it, once only (recorded in
 * installation_settings in the same transaction, so two instances or a second click cannot both do it).
 */
export async function setPasswordWithToken(
  ctx: AppContext,
  token: string,
  password: string,
  admin?: Partial<FirstAdministrator>,
): Promise<{ email: string }> {
  const first = await liveToken(ctx.db, token, ctx.clock.now());
  let adminFields: FirstAdministrator | undefined;
  if (first.purpose === 'setup') {
    const missing = (['first_name', 'last_name', 'email'] as const).filter((k) => !admin?.[k]?.trim());
    if (missing.length) throw badRequest(`The first administrator needs ${missing.join(', ')}`);
    adminFields = {
      first_name: admin!.first_name!.trim(),
      last_name: admin!.last_name!.trim(),
      email: admin!.email!.trim(),
      employee_code: admin?.employee_code?.trim() || 'ADM-001',
    };
    assertStrong(password, adminFields);
  } else {
    assertStrong(password, first);
  }
  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  let ended: string[] = [];
  const email = await ctx.db.tx(async (c: PoolClient) => {
    // Set-up links of several starts or instances: one at a time (they would otherwise wait on each other's rows).
    if (first.purpose === 'setup') await c.query(`SELECT pg_advisory_xact_lock(hashtext('adminease_first_administrator'))`);
    const row = await liveToken(c, token, now, true);
    await c.query('UPDATE password_tokens SET used_at = $2 WHERE id = $1', [row.id, now]);
    if (row.purpose === 'invite') {
      const userId = row.user_id!;
      await c.query('UPDATE users SET password_hash = $2, must_change_password = false WHERE id = $1', [userId, hash]);
      await c.query(`UPDATE password_tokens SET revoked_at = $2 WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL`, [
        userId,
        now,
      ]);
      ended = await endSessions(ctx, c, userId, null);
      await recordAccountEvent(c, { userId, actorId: null, kind: 'password_set_from_invitation', at: now });
      return row.email!;
    }
    const a = adminFields!;
    const claimed = await c.query(
      `INSERT INTO installation_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [FIRST_ADMIN_KEY, a.email],
    );
    if (!claimed.rowCount) throw new HttpError(410, SETUP_DONE);
    const taken = await c.query('SELECT 1 FROM users WHERE lower(email) = lower($1) OR employee_code = $2', [a.email, a.employee_code]);
    if (taken.rowCount) throw conflict('Someone already has that e-mail or employee code');
    const created = await c.query<{ id: number }>(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, employee_code, join_date)
       VALUES ($1, $2, $3, $4, 'System Administrator', 'admin', $5, $6) RETURNING id`,
      [a.email, hash, a.first_name, a.last_name, a.employee_code, businessToday(now)],
    );
    await c.query(`UPDATE password_tokens SET used_at = $1 WHERE purpose = 'setup' AND used_at IS NULL`, [now]);
    await recordAccountEvent(c, { userId: created.rows[0].id, actorId: null, kind: 'first_administrator_created', at: now });
    return a.email;
  });
  announceEnded(ctx, ended);
  return { email };
}

// ---------------------------------------------------------------- changing one's own password

/**
 * The signed-in user's new password, the current one required (a wrong one counts against sign-in throttling).
 * Every other session of theirs ends at once on every instance; the one in use stays signed in.
 */
export async function changePassword(
  ctx: AppContext,
  user: AuthUser,
  currentTokenHash: string,
  currentPassword: string,
  newPassword: string,
  address: string,
): Promise<void> {
  const keys = LoginLimiter.keys(user.email, address);
  const wait = ctx.limiter.waitMs(keys);
  if (wait > 0) throw new HttpError(429, 'Too many attempts. Please wait a few minutes and try again.');
  const r = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
  const ok = r.rows[0] ? await passwordCheck.verify(r.rows[0].password_hash, currentPassword).catch(() => false) : false;
  if (!ok) {
    ctx.limiter.fail(keys);
    throw badRequest(WRONG_CURRENT_PASSWORD);
  }
  if (newPassword === currentPassword) throw badRequest('The new password must differ from the current one.');
  assertStrong(newPassword, user);
  const hash = await hashPassword(newPassword);
  const now = ctx.clock.now();
  const ended = await ctx.db.tx(async (c) => {
    await c.query('UPDATE users SET password_hash = $2, must_change_password = false WHERE id = $1', [user.id, hash]);
    const hashes = await endSessions(ctx, c, user.id, currentTokenHash);
    await recordAccountEvent(c, {
      userId: user.id,
      actorId: user.id,
      kind: 'password_changed',
      at: now,
      detail: { sessions_ended: hashes.length },
    });
    return hashes;
  });
  announceEnded(ctx, ended);
  ctx.sessions?.drop(currentTokenHash); // its user no longer has to change the password
}

// ---------------------------------------------------------------- first run

/**
 * On a start without demo data and before the first administrator exists: a new one-time set-up link (valid for
 * the invitation lifetime; each start adds one while none was used). Undefined when there is nothing to set up.
 */
export async function firstRunSetupLink(db: Db, config: Config, now = new Date()): Promise<string | undefined> {
  if (await isDemoDatabase(db)) return undefined;
  if (await firstAdministratorCreated(db)) return undefined;
  const admins = await db.query(`SELECT 1 FROM users WHERE user_type = 'admin' LIMIT 1`);
  if (admins.rowCount) return undefined;
  const token = newToken();
  await db.query(`INSERT INTO password_tokens (token_hash, purpose, created_at, expires_at) VALUES ($1, 'setup', $2, $3)`, [
    hashToken(token),
    now,
    new Date(now.getTime() + config.inviteTtlHours * 3_600_000),
  ]);
  return setPasswordUrl(config, token);
}
