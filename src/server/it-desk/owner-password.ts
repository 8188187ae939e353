// The owner reading the new password of their password reset: the one function behind every way they get it (the
// reveal call, and their own request lists and details, where the spec's clients read `new_password`). Only the
// owner reads it (the request policy also keeps the field out of everyone else's answers). Every read is written
// to the event log (password_revealed, with the way it was read); the first one completes the reset (status and
// it_support_status Completed, the IT step signed by the officer who set the password). A password not yet set,
// erased, or past its time limit is never shown (reset-retention.ts).
import { itLifecycleOf } from '../../domain/forms.js';
import { IT_OFFICER_FALLBACK_NAME, itSupportStatusOf } from '../../domain/it.js';
import type { Db, Queryable } from '../db/pool.js';
import { recordEvent } from '../events/service.js';
import { HttpError, forbidden } from '../http/errors.js';
import type { AuthUser } from '../people/service.js';
import { isRequestOwner } from '../policies/requests.js';
import { type RecordRow, loadRecordByRef, toRecord } from '../requests/repo.js';
import { resetPasswordExpiry, sweepExpiredResetPasswords } from './reset-retention.js';
import { type SecretKey, passwordContext, unseal } from './secret-box.js';

/** How the owner read it: the reveal call, their request lists, or one request's details. */
export type PasswordChannel = 'reveal' | 'user-forms' | 'details';

/** What reading a stored password needs: the server key, the time limit and the moment of the read. */
export interface PasswordAccess {
  key: () => SecretKey;
  ttlHours: number;
  now: Date;
}

export type OwnerRead =
  | { shown: true; password: string; completed: boolean; before: string; row: RecordRow }
  | { shown: false; reason: 'not_set' | 'erased' | 'expired'; row: RecordRow };

/** A password reset owned by `user` (the request policy's isRequestOwner) that still holds a stored password (readable unless past its time limit). */
export function holdsOwnPassword(row: RecordRow, user: Pick<AuthUser, 'id'>): boolean {
  return itLifecycleOf(row.form_type) === 'password-reset' && isRequestOwner(user, row) && typeof row.data.new_password_enc === 'string';
}

/**
 * The owner reads the stored password of `row` (a password reset, locked by the caller's transaction): logged,
 * and the first read completes the reset. Anyone but the owner: 403. Answers the row as it is afterwards.
 */
export async function ownerReadsPassword(
  c: Queryable,
  access: PasswordAccess,
  user: AuthUser,
  row: RecordRow,
  via: PasswordChannel,
): Promise<OwnerRead> {
  if (!isRequestOwner(user, row)) throw forbidden('Only the employee who requested this password reset can see the new password');
  const sealed = row.data.new_password_enc;
  if (typeof sealed !== 'string')
    return { shown: false, reason: typeof row.data.new_password_erased_at === 'string' ? 'erased' : 'not_set', row };
  // Past its time limit a stored password is never shown, even before a sweep erased it.
  if (resetPasswordExpiry(row.data, row.created_at, access.ttlHours) <= access.now) return { shown: false, reason: 'expired', row };
  const password = unseal(access.key(), sealed, passwordContext(row.employee_code));

  const now = access.now;
  const ref = { pk: row.pk, request_id: row.request_id, form_type: row.form_type, employee_id: row.employee_user_id };
  const before = itSupportStatusOf(toRecord(row));
  const completes = before === 'Password Set';
  await recordEvent(c, {
    request: ref,
    actorId: user.id,
    eventType: 'password_revealed',
    stage: 'it_helpdesk',
    at: now,
    details: { first_reveal: completes, via },
  });
  if (!completes) return { shown: true, password, completed: false, before, row };

  const signer = String(row.data.it_helpdesk_reset_by ?? IT_OFFICER_FALLBACK_NAME);
  await c.query(`UPDATE requests SET data = data || $2::jsonb, status = 'Completed', current_stage = NULL, updated_at = $3 WHERE id = $1`, [
    row.pk,
    JSON.stringify({ it_support_status: 'Completed', password_seen_at: now.toISOString() }),
    now,
  ]);
  const resetById = typeof row.data.it_helpdesk_reset_by_id === 'number' ? row.data.it_helpdesk_reset_by_id : null;
  await c.query(
    `UPDATE approvals SET decision = 'Completed', signer_id = $2, signer_name = $3, decided_at = $4
      WHERE request_pk = $1 AND stage = 'it_helpdesk' AND decision = 'Pending'`,
    [row.pk, resetById, signer, now],
  );
  await recordEvent(c, {
    request: ref,
    actorId: user.id,
    eventType: 'status_change',
    stage: 'it_helpdesk',
    field: 'it_support_status',
    oldValue: before,
    newValue: 'Completed',
    at: now,
    details: { status: { old: row.status, new: 'Completed' } },
  });
  await recordEvent(c, {
    request: ref,
    actorId: user.id,
    eventType: 'decision',
    stage: 'it_helpdesk',
    field: 'it_helpdesk_approval',
    oldValue: 'Pending',
    newValue: 'Completed',
    at: now,
    notify: false,
    details: { signer_name: signer },
  });
  return { shown: true, password, completed: true, before, row: (await loadRecordByRef(c, row.pk))! };
}

/**
 * The caller's own stored passwords among `rows` (their request lists and details): each one is read as above, in
 * its own transaction with the row locked, after the passwords past their time limit were erased (and logged so).
 * Answers every row as it is afterwards, with the password beside those read; other rows are left alone. A password
 * this server cannot decrypt (set under another server key) is left out here; the reveal call says why.
 */
export async function readOwnPasswords(
  db: Db,
  access: PasswordAccess,
  user: AuthUser,
  rows: readonly RecordRow[],
  via: PasswordChannel,
): Promise<{ rows: Array<{ row: RecordRow; password?: string }>; read: number }> {
  const held = rows.filter((r) => holdsOwnPassword(r, user));
  if (held.length === 0) return { rows: rows.map((row) => ({ row })), read: 0 };
  if (held.some((r) => resetPasswordExpiry(r.data, r.created_at, access.ttlHours) <= access.now)) {
    await sweepExpiredResetPasswords(db, access.now, access.ttlHours);
  }
  const after = new Map<number, { row: RecordRow; password?: string }>();
  let read = 0;
  for (const h of held) {
    try {
      const out = await db.tx(async (c) => {
        await c.query('SELECT 1 FROM requests WHERE id = $1 FOR UPDATE', [h.pk]);
        const row = await loadRecordByRef(c, h.pk);
        if (!row || !holdsOwnPassword(row, user)) return row ? { row } : undefined;
        const r = await ownerReadsPassword(c, access, user, row, via);
        return r.shown ? { row: r.row, password: r.password } : { row: r.row };
      });
      if (out) after.set(h.pk, out);
      if (out?.password !== undefined) read += 1;
    } catch (err) {
      if (!(err instanceof HttpError && err.statusCode === 500)) throw err;
    }
  }
  return { rows: rows.map((row) => after.get(row.pk) ?? { row }), read };
}
