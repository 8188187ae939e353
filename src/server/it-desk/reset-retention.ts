// How long a reset password stays stored. The encrypted new password of a password reset is kept only until its
// owner has read it and confirmed they saved it, or until the time limit (ADMINEASE_RESET_PASSWORD_TTL_HOURS,
// counted from when IT set it) has passed, whichever comes first. Erasing sets data.new_password_enc to null,
// records when and why (new_password_erased_at, new_password_erased_reason) and writes a `password_erased` event.
// The time limit needs no user action: every server sweeps at start and then every few minutes, and the reveal
// call sweeps before it reads, so an expired password is never shown. Sweeps of several instances do not collide:
// the UPDATE only touches rows still holding a ciphertext, and a row another sweep erased first no longer matches.
import { businessTimeZone, isIsoDate, startOfBusinessDate } from '../../domain/business-time.js';
import { itLifecycleOf, itTicketType } from '../../domain/forms.js';
import type { Db, Queryable } from '../db/pool.js';
import { recordEvent } from '../events/service.js';
import { conflict, forbidden, notFound, badRequest } from '../http/errors.js';
import type { AuthUser } from '../people/service.js';
import { canViewRequest, isRequestOwner } from '../policies/requests.js';
import { loadRecordByRef } from '../requests/repo.js';

/** The type with the password-reset lifecycle (the registry's), whose stored passwords these rules erase. */
const RESET_TYPE = itTicketType('password-reset');

export type ErasureReason = 'owner_confirmed' | 'time_limit';

/** How often each server looks for expired reset passwords. */
export const RESET_PASSWORD_SWEEP_MS = 5 * 60 * 1000;

/**
 * When IT set the stored password: recorded at save, else (older rows) the start of the day IT filled it in on the
 * organisation's calendar ($4 is the business time zone), else the request's creation.
 */
const SET_AT_SQL = `COALESCE((data->>'new_password_set_at')::timestamptz, ((data->>'it_helpdesk_date')::date::timestamp AT TIME ZONE $4::text), created_at)`;

/** The moment a password set at `data.new_password_set_at` (or the fallbacks) must be gone. */
export function resetPasswordExpiry(data: Record<string, unknown>, createdAt: Date | string, ttlHours: number): Date {
  const set =
    typeof data.new_password_set_at === 'string'
      ? Date.parse(data.new_password_set_at)
      : isIsoDate(data.it_helpdesk_date)
        ? startOfBusinessDate(data.it_helpdesk_date).getTime()
        : new Date(createdAt).getTime();
  return new Date((Number.isFinite(set) ? set : 0) + ttlHours * 3_600_000);
}

const erasurePatch = (now: Date, reason: ErasureReason) =>
  JSON.stringify({ new_password_enc: null, new_password_erased_at: now.toISOString(), new_password_erased_reason: reason });

/** Erases every stored reset password past the time limit; answers the request ids erased. */
export async function sweepExpiredResetPasswords(db: Db, now: Date, ttlHours: number): Promise<string[]> {
  return db.tx(async (c) => {
    const r = await c.query<{ pk: number; request_id: string; form_type: string; employee_id: number }>(
      `UPDATE requests SET data = data || $1::jsonb
        WHERE form_type = '${RESET_TYPE}' AND data->>'new_password_enc' IS NOT NULL
          AND ${SET_AT_SQL} <= $2::timestamptz - make_interval(secs => $3)
       RETURNING id AS pk, request_id, form_type, employee_id`,
      [erasurePatch(now, 'time_limit'), now, ttlHours * 3600, businessTimeZone()],
    );
    for (const row of r.rows) {
      await recordEvent(c, {
        request: row,
        actorId: null,
        eventType: 'password_erased',
        stage: 'it_helpdesk',
        at: now,
        notify: false,
        details: { reason: 'time_limit', ttl_hours: ttlHours },
      });
    }
    return r.rows.map((x) => x.request_id);
  });
}

/** The answer to a reveal of a password that is no longer stored. */
export function erasedMessage(data: Record<string, unknown>): string {
  return data.new_password_erased_reason === 'owner_confirmed'
    ? 'The new password was erased after you confirmed you had saved it. Submit a new password reset request if you need another one.'
    : 'The new password was erased because it was not collected in time. Submit a new password reset request if you need another one.';
}

/**
 * The owner confirms they have saved the new password they read: it is erased at once. Only after at least one
 * reveal (a password never shown cannot have been saved); confirming again changes nothing. Call inside a transaction.
 */
export async function confirmPasswordSaved(c: Queryable, user: AuthUser, formId: unknown, now: Date) {
  const ref = typeof formId === 'number' ? String(formId) : typeof formId === 'string' ? formId.trim() : '';
  if (ref === '') throw badRequest('form_id is required');
  const found = await loadRecordByRef(c, ref);
  if (!found || itLifecycleOf(found.form_type) !== 'password-reset') throw notFound('Password reset request not found');
  await c.query('SELECT 1 FROM requests WHERE id = $1 FOR UPDATE', [found.pk]);
  const row = (await loadRecordByRef(c, found.pk))!;
  // A reset the caller may not see answers like a missing one (request policy); those who see it are told why not.
  if (!canViewRequest(user, row)) throw notFound('Password reset request not found');
  if (!isRequestOwner(user, row)) throw forbidden('Only the employee who requested this password reset can confirm it');
  const erasedAt = row.data.new_password_erased_at;
  if (typeof row.data.new_password_enc !== 'string') {
    if (typeof erasedAt === 'string') {
      return {
        success: true,
        changed: false,
        form_id: row.request_id,
        new_password_erased_at: erasedAt,
        new_password_erased_reason: row.data.new_password_erased_reason ?? null,
      };
    }
    throw conflict('No new password has been set for this request yet');
  }
  if (typeof row.data.password_seen_at !== 'string') throw conflict('Show the new password and save it before confirming');
  await c.query('UPDATE requests SET data = data || $2::jsonb WHERE id = $1', [row.pk, erasurePatch(now, 'owner_confirmed')]);
  await recordEvent(c, {
    request: { pk: row.pk, request_id: row.request_id, form_type: row.form_type, employee_id: row.employee_user_id },
    actorId: user.id,
    eventType: 'password_erased',
    stage: 'it_helpdesk',
    at: now,
    notify: false,
    details: { reason: 'owner_confirmed' },
  });
  return {
    success: true,
    changed: true,
    form_id: row.request_id,
    new_password_erased_at: now.toISOString(),
    new_password_erased_reason: 'owner_confirmed',
  };
}

/** Runs the sweep at start and every RESET_PASSWORD_SWEEP_MS; answers the function that stops it (and waits for a running round). */
export function startResetPasswordSweeper(
  db: Db,
  clock: { now(): Date },
  ttlHours: number,
  warn: (err: unknown) => void,
): () => Promise<void> {
  let current: Promise<void> | undefined;
  const run = () => {
    current ??= sweepExpiredResetPasswords(db, clock.now(), ttlHours)
      // e.g. the database is briefly unreachable: the next round (or the next reveal) tries again
      .then(() => undefined, warn)
      .finally(() => {
        current = undefined;
      });
  };
  run();
  const timer = setInterval(run, RESET_PASSWORD_SWEEP_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
