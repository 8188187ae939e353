// Out of office and delegates (docs/delegation.md): a person's period away with the delegate who decides for them
// meanwhile, set by themselves or by an administrator (audited either way); who is covering a waiting request, for its
// requester; and the items a delegate (or the person an overdue stage escalated to) decides for others. Who may
// decide what is the request policy's (policies/requests.ts with policies/cover.ts); this module stores and lists.
import type { AuditAction } from '../../domain/audit-actions.js';
import { addDays, businessDate, isIsoDate } from '../../domain/business-time.js';
import { type Stage, STAGES, formTypeDef } from '../../domain/forms.js';
import { DEFAULT_REMINDER_SETTINGS, type ReminderSettings, isOverdue, workingDaysWaited } from '../../domain/reminders.js';
import { stageKeyLabel } from '../../domain/form-types.js';
import { type Db, type Queryable, prepared } from '../db/pool.js';
import { badRequest, notFound } from '../http/errors.js';
import type { AuthUser } from '../people/service.js';
import { writeAudit } from '../admin/audit.js';
import { GROUP_USER_TYPE } from '../policies/groups.js';
import { actingFor, stageDeciders, stageStateCheck } from '../policies/requests.js';
import { RECORD_SELECT, type RecordRow } from '../requests/repo.js';
import { HolidayService } from '../calendar/service.js';

import type { CoveringItem, OutOfOfficeAnswer, OutOfOfficeInput } from '../../domain/delegation.js';

export type { CoveringItem, OutOfOfficeAnswer, OutOfOfficeInput };
export const MESSAGE_MAX = 500;

const offline = new HolidayService();
/** Closed days (weekends aside) between two business dates, from the company's calendar. */
export const closedBetween = (start: string, end: string) => offline.closedDates(start, end);

/** '3 Dec' */
export function shortDate(iso: string): string {
  const [, m, d] = iso.split('-').map(Number);
  return `${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]}`;
}

/** A person's stored period (or none) and whom they cover today. */
export async function outOfOfficeOf(db: Queryable, userId: number, now: Date): Promise<OutOfOfficeAnswer> {
  const today = businessDate(now);
  // One after the other: inside a transaction `db` is one client, which runs one query at a time.
  const own = await db.query(
    `SELECT d.employee_code AS delegate, d.first_name || ' ' || d.last_name AS delegate_name, d.email AS delegate_email,
              to_char(o.starts_on, 'YYYY-MM-DD') AS from, to_char(o.ends_on, 'YYYY-MM-DD') AS until, o.message,
              s.first_name || ' ' || s.last_name AS set_by
         FROM out_of_office o JOIN users d ON d.id = o.delegate_id LEFT JOIN users s ON s.id = o.set_by
        WHERE o.user_id = $1`,
    [userId],
  );
  const covering = await db.query(
    `SELECT u.employee_code, c.name, to_char(c.ends_on, 'YYYY-MM-DD') AS until
         FROM cover_chain($1) c JOIN users u ON u.id = c.covered_id
        WHERE c.starts_on <= $2::date AND c.ends_on >= $2::date ORDER BY c.name`,
    [userId, today],
  );
  const o = own.rows[0];
  return {
    delegate: o?.delegate ?? null,
    delegate_name: o?.delegate_name ?? null,
    delegate_email: o?.delegate_email ?? null,
    from: o?.from ?? null,
    until: o?.until ?? null,
    message: o?.message ?? null,
    active: o ? o.from <= today && today <= o.until : false,
    set_by: o?.set_by ?? null,
    covering: covering.rows,
  };
}

/** The checks of a period: dates, the delegate (an active person, not the person away). Returns the delegate's id. */
async function checkPeriod(db: Queryable, userId: number, input: OutOfOfficeInput, now: Date): Promise<number> {
  if (!isIsoDate(input.from)) throw badRequest('from must be a date (YYYY-MM-DD)');
  if (!isIsoDate(input.until)) throw badRequest('until must be a date (YYYY-MM-DD)');
  if (input.until < input.from) throw badRequest('until must be on or after from');
  if (input.until < businessDate(now)) throw badRequest('The period has already ended: until must be today or later');
  if (input.message && input.message.length > MESSAGE_MAX) throw badRequest(`message can have at most ${MESSAGE_MAX} characters`);
  const ref = String(input.delegate ?? '').trim();
  if (!ref) throw badRequest('delegate is required (an e-mail or an employee code)');
  const r = await db.query<{ id: number; active: boolean }>(
    'SELECT id, active FROM users WHERE lower(email) = lower($1) OR employee_code = $1 ORDER BY id LIMIT 1',
    [ref],
  );
  const d = r.rows[0];
  if (!d) throw badRequest(`No person with the e-mail or employee code ${ref}`);
  if (!d.active) throw badRequest('The delegate must be an active person');
  if (d.id === userId) throw badRequest('You cannot be your own delegate');
  return d.id;
}

/** Sets (or replaces) the period of `userId`; `setBy` is who set it (the person, or an administrator: audited). */
export async function setOutOfOffice(
  db: Db,
  userId: number,
  input: OutOfOfficeInput,
  setBy: AuthUser,
  now: Date,
): Promise<OutOfOfficeAnswer> {
  const delegateId = await checkPeriod(db, userId, input, now);
  const message = input.message?.trim() || null;
  await db.tx(async (c) => {
    // Audited whoever sets it, the person themselves or an administrator (who, before, after).
    const before = await outOfOfficeOf(c, userId, now);
    await c.query(
      `INSERT INTO out_of_office (user_id, delegate_id, starts_on, ends_on, message, set_by, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id) DO UPDATE SET delegate_id = excluded.delegate_id, starts_on = excluded.starts_on, ends_on = excluded.ends_on,
              message = excluded.message, set_by = excluded.set_by, updated_at = excluded.updated_at`,
      [userId, delegateId, input.from, input.until, message, setBy.id, now],
    );
    await auditOutOfOffice(c, setBy, userId, 'person.out_of_office.set', before, await outOfOfficeOf(c, userId, now));
  });
  return outOfOfficeOf(db, userId, now);
}

/** Ends the period of `userId` (none set: nothing changes). */
export async function clearOutOfOffice(db: Db, userId: number, by: AuthUser, now: Date): Promise<OutOfOfficeAnswer> {
  await db.tx(async (c) => {
    const before = await outOfOfficeOf(c, userId, now);
    const r = await c.query('DELETE FROM out_of_office WHERE user_id = $1', [userId]);
    if (r.rowCount) await auditOutOfOffice(c, by, userId, 'person.out_of_office.clear', before, null);
  });
  return outOfOfficeOf(db, userId, now);
}

async function auditOutOfOffice(c: Queryable, actor: AuthUser, userId: number, action: AuditAction, before: unknown, after: unknown) {
  const code = (await c.query('SELECT employee_code FROM users WHERE id = $1', [userId])).rows[0]?.employee_code ?? String(userId);
  await writeAudit(c, { actorId: actor.id, action, targetType: 'person', targetId: code, before, after });
}

/** The user id of an active or inactive person by employee code (the admin's path), or 404. */
export async function personByCode(db: Queryable, code: string): Promise<{ id: number; active: boolean }> {
  const r = await db.query('SELECT id, active FROM users WHERE employee_code = $1', [code]);
  if (!r.rows[0]) throw notFound('Person not found');
  return r.rows[0];
}

// ---- who is covering a waiting request ------------------------------------------------------------

export interface CoverNotice {
  approver_name: string;
  until: string;
  delegate_name: string;
  message: string | null;
  /** 'Priya is away until 3 Dec; Daniel is deciding for her meanwhile' */
  text: string;
}

/**
 * For a request that waits on a person (its line manager or HR contact), who is deciding for them while they are
 * away today; null when nobody is away. Added to the details answer as `covering`.
 */
export async function coverNoticeFor(db: Queryable, row: RecordRow, now: Date): Promise<CoverNotice | null> {
  const stage = row.current_stage as Stage | null;
  if (!stage || row.approvals.find((a) => a.stage === stage)?.decision !== 'Pending') return null;
  const to = stageDeciders(row, stage);
  if (!('ids' in to) || to.ids.length === 0) return null;
  const today = businessDate(now);
  const r = await db.query(
    `SELECT a.first_name AS approver_first, a.first_name || ' ' || a.last_name AS approver_name,
            d.first_name AS delegate_first, d.first_name || ' ' || d.last_name AS delegate_name,
            to_char(o.ends_on, 'YYYY-MM-DD') AS until, o.message
       FROM out_of_office o JOIN users a ON a.id = o.user_id JOIN users d ON d.id = o.delegate_id
      WHERE o.user_id = ANY($1::int[]) AND o.starts_on <= $2::date AND o.ends_on >= $2::date AND o.delegate_id <> $3
      ORDER BY a.id LIMIT 1`,
    [to.ids, today, row.employee_user_id],
  );
  const o = r.rows[0];
  if (!o) return null;
  return {
    approver_name: o.approver_name,
    until: o.until,
    delegate_name: o.delegate_name,
    message: o.message,
    text: `${o.approver_first} is away until ${shortDate(o.until)}; ${o.delegate_first} is deciding in the meantime`,
  };
}

/** A stage's label: a data-defined stage's own, else the built-in stage's name. */
export function stageLabelOf(row: Pick<RecordRow, 'approvals'>, stage: string): string {
  return row.approvals.find((a) => a.stage === stage)?.stage_label || STAGES[stage as Stage]?.label || stageKeyLabel(stage);
}

// ---- reminder settings and waiting time -------------------------------------------------------------

const REMINDER_SETTINGS_SQL = prepared('SELECT form_type, remind_after_days, escalate_after_days FROM reminder_settings');

export async function reminderSettingsOf(db: Queryable): Promise<Map<string, ReminderSettings>> {
  const r = await db.query(REMINDER_SETTINGS_SQL);
  return new Map(r.rows.map((x) => [x.form_type, { remind_after_days: x.remind_after_days, escalate_after_days: x.escalate_after_days }]));
}

export const settingsFor = (all: Map<string, ReminderSettings>, formType: string) => all.get(formType) ?? DEFAULT_REMINDER_SETTINGS;

/** When each stage of a record began waiting (the previous decision, else the submission), as a business date. */
export function waitingSinceOf(row: Pick<RecordRow, 'approvals' | 'created_at'>, stage: string): string {
  // Compared as moments: decided_at is PostgreSQL's text of the session's zone ('...+00:00', '...+05:30'), created_at ISO 'Z' text.
  let since = Date.parse(row.created_at);
  for (const a of row.approvals) {
    if (a.stage === stage) break;
    const at = a.decided_at && a.decision !== 'Pending' ? Date.parse(a.decided_at) : NaN;
    if (at > since) since = at;
  }
  return businessDate(since);
}

/** Working days the current stage of a record has waited on `now`'s business date. */
export function waitedDays(row: Pick<RecordRow, 'approvals' | 'created_at'>, stage: string, now: Date): number {
  const since = waitingSinceOf(row, stage);
  const today = businessDate(now);
  return workingDaysWaited(since, today, today > since ? closedBetween(addDays(since, 1), today) : undefined);
}

// ---- what a delegate decides for others -------------------------------------------------------------

/**
 * The stages waiting now that `user` may decide for someone else: as the delegate of someone away, or because an
 * overdue stage escalated to them. The request policy decides each row (actingFor); the SQL only narrows the rows.
 */
export async function coveringItems(db: Queryable, user: AuthUser, now: Date, limit = 200): Promise<CoveringItem[]> {
  const covered = [...new Set((user.covers ?? []).map((c) => c.id))];
  // The group stages of the people covered (a delegate of a finance member decides finance steps too).
  const types = new Set((user.covers ?? []).map((c) => c.user_type));
  const groupStages = Object.entries(GROUP_USER_TYPE)
    .filter(([, t]) => t && types.has(t))
    .map(([stage]) => stage);
  const r = await db.query<RecordRow>(
    `${RECORD_SELECT}
      WHERE r.current_stage IS NOT NULL AND r.employee_id <> $1 AND (
            EXISTS (SELECT 1 FROM approvals x WHERE x.request_pk = r.id AND x.stage = r.current_stage AND x.decision = 'Pending' AND x.escalated_to_id = $1)
         OR r.line_manager_id = ANY($2::int[]) OR r.hr_contact_id = ANY($2::int[])
         OR r.current_stage = ANY($3::text[])
         OR EXISTS (SELECT 1 FROM approvals y WHERE y.request_pk = r.id AND y.stage = r.current_stage AND y.approver_ids && $2::int[]))
      ORDER BY r.created_at DESC, r.id DESC LIMIT $4`,
    [user.id, covered, groupStages, limit],
  );
  const settings = await reminderSettingsOf(db);
  const out: CoveringItem[] = [];
  for (const row of r.rows) {
    const stage = row.current_stage as Stage;
    const acting = actingFor(user, row, stage);
    const check = stageStateCheck(row, stage);
    if (!acting || !check.ok) continue;
    const waited = waitedDays(row, stage, now);
    out.push({
      form_id: row.request_id,
      form_type: row.form_type,
      title: formTypeDef(row.form_type)?.title ?? row.form_type,
      employee_name: row.employee_name,
      stage,
      stage_label: stageLabelOf(row, stage),
      kind: acting.kind,
      on_behalf_of: acting.name,
      waiting_days: waited,
      overdue: isOverdue(waited, settingsFor(settings, row.form_type)),
      created_at: new Date(row.created_at).toISOString(),
      version: row.revision,
    });
  }
  return out;
}
