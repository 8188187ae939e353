// The form-state API's rules: a user's unread notifications, the snapshot saved at logout and the changes since
// it (checked after login), and marking a notification read for good. Only the user's own notifications.
import type { ChangeType, FormNotification } from '../../domain/notifications.js';
import type { Queryable } from '../db/pool.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { type AuthUser, isSelfRef } from '../people/service.js';

/** Most notifications one answer carries (the oldest unread beyond it wait until newer ones are read). */
export const MAX_NOTIFICATIONS = 100;

export const NOTIFICATION_SELECT = `
  SELECT id, title, form_type, form_id, approval_field, old_value, new_value, change_type, created_at, read_at
    FROM notifications`;

export interface NotificationRow {
  id: number;
  title: string;
  form_type: string | null;
  form_id: string | null;
  approval_field: string | null;
  old_value: string | null;
  new_value: string | null;
  change_type: string;
  created_at: Date;
  read_at: Date | null;
}

export function toApiNotification(r: NotificationRow): FormNotification {
  return {
    id: r.id,
    title: r.title,
    form_type: r.form_type,
    form_id: r.form_id,
    approval_field: r.approval_field,
    old_value: r.old_value,
    new_value: r.new_value,
    change_type: r.change_type as ChangeType,
    timestamp: new Date(r.created_at).toISOString(),
    read: r.read_at !== null,
  };
}

/** The caller's own user id for a user_id of the form-state API (user id, employee code or HR id); else 403. */
export function ownUserId(caller: AuthUser, ref: unknown): number {
  if (ref === undefined || ref === null || String(ref).trim() === '') throw badRequest('user_id is required');
  if (typeof ref !== 'string' && typeof ref !== 'number') throw badRequest('user_id must be a string or a number');
  if (!isSelfRef(caller, ref)) throw forbidden('You may only read and change your own notifications');
  return caller.id;
}

/** Unread notifications, newest first. */
export async function unreadNotifications(c: Queryable, userId: number, limit = MAX_NOTIFICATIONS): Promise<FormNotification[]> {
  const r = await c.query(`${NOTIFICATION_SELECT} WHERE user_id = $1 AND read_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2`, [
    userId,
    limit,
  ]);
  return r.rows.map(toApiNotification);
}

export async function unreadCount(c: Queryable, userId: number): Promise<number> {
  const r = await c.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return r.rows[0].n;
}

/** Records what the user has seen: the newest notification id at this moment. */
export async function saveSnapshot(
  c: Queryable,
  userId: number,
  now: Date,
): Promise<{ snapshot_at: string; last_notification_id: number }> {
  const r = await c.query(
    `INSERT INTO form_state_snapshots (user_id, snapshot_at, last_notification_id)
     SELECT $1, $2, coalesce((SELECT max(id) FROM notifications WHERE user_id = $1), 0)
     ON CONFLICT (user_id) DO UPDATE SET snapshot_at = excluded.snapshot_at, last_notification_id = excluded.last_notification_id
     RETURNING snapshot_at, last_notification_id`,
    [userId, now],
  );
  return { snapshot_at: new Date(r.rows[0].snapshot_at).toISOString(), last_notification_id: r.rows[0].last_notification_id };
}

/**
 * Unread notifications newer than the user's snapshot, newest first; read ones never come back. A user without a
 * snapshot (a first sign-in) gets every unread notification (the newest, capped as the list), so the updates dialog
 * opens on the first sign-in too; this first check also saves the baseline, so the next one shows only newer ones.
 */
export async function changesSinceSnapshot(
  c: Queryable,
  userId: number,
  now: Date,
): Promise<{ snapshot_at: string; notifications: FormNotification[] }> {
  const snap = await c.query('SELECT snapshot_at, last_notification_id FROM form_state_snapshots WHERE user_id = $1', [userId]);
  if (!snap.rows[0]) {
    const unread = await unreadNotifications(c, userId);
    const baseline = await saveSnapshot(c, userId, now);
    return { snapshot_at: baseline.snapshot_at, notifications: unread };
  }
  const r = await c.query(
    `${NOTIFICATION_SELECT} WHERE user_id = $1 AND read_at IS NULL AND id > $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [userId, snap.rows[0].last_notification_id, MAX_NOTIFICATIONS],
  );
  return { snapshot_at: new Date(snap.rows[0].snapshot_at).toISOString(), notifications: r.rows.map(toApiNotification) };
}

/** Marks one of the caller's notifications read (idempotent: the first read time stays); anyone else's: 404. */
export async function markRead(c: Queryable, caller: AuthUser, idRef: string, now: Date): Promise<{ id: number; read_at: string }> {
  if (!/^\d{1,15}$/.test(idRef)) throw badRequest('Notification id must be a number');
  const id = Number(idRef);
  const r = await c.query(`UPDATE notifications SET read_at = coalesce(read_at, $3) WHERE id = $1 AND user_id = $2 RETURNING id, read_at`, [
    id,
    caller.id,
    now,
  ]);
  if (r.rows[0]) return { id, read_at: new Date(r.rows[0].read_at).toISOString() };
  // Someone else's notification answers exactly like a missing one (the spec fixes no 403 here): a refusal must not
  // tell whether an id exists.
  throw notFound('Notification not found');
}
