// Reminders and escalation of waiting approvals (docs/delegation.md), run by the job scheduler ('reminders-sweep',
// src/server/jobs/). A stage that has waited the form type's first limit of working days reminds its approvers (and
// their delegates) once a business day; after the second limit it escalates once: the approver's own manager (a
// group stage: the group's lead, else an administrator) is told and may decide it. Every effect is keyed (one
// approval_reminders row per stage, kind and day; the escalation is a conditional update), so a sweep run twice, on
// two instances or after a retry, sends nothing twice.
import { businessDate } from '../../domain/business-time.js';
import type { Stage } from '../../domain/forms.js';
import type { OverdueItem } from '../../domain/delegation.js';

export type { OverdueItem };
import { formTypeLabel, stageApprovalField } from '../../domain/notifications.js';
import { DEFAULT_REMINDER_SETTINGS, type ReminderSettings, reminderStep } from '../../domain/reminders.js';
import type { Db, Queryable } from '../db/pool.js';
import { LIVE_CHANNEL } from '../events/notify.js';
import { recordEvent } from '../events/service.js';
import { separatedFrom, stageDeciders } from '../policies/requests.js';
import { RECORD_SELECT, type RecordRow } from '../requests/repo.js';
import { reminderSettingsOf, settingsFor, stageLabelOf, waitedDays } from './service.js';

export interface SweepResult {
  reminded: number;
  escalated: number;
  /** Escalations due that found nobody to go to: recorded for the day, tried again the next business day. */
  unescalated: number;
}

interface Options {
  /** Queue an e-mail with each notification (SMTP is configured). */
  mail: boolean;
}

/**
 * Stages waiting long enough to be due something: a superset by calendar days (n working days span at least n - 1
 * whole days between the two business dates), narrowed by the working-day count in code. IT tickets have their own
 * lifecycle and are left out. `s.since`: when the stage began waiting.
 */
const DUE_SQL = `${RECORD_SELECT}
  JOIN approvals w ON w.request_pk = r.id AND w.stage = r.current_stage AND w.decision = 'Pending'
  LEFT JOIN reminder_settings rs ON rs.form_type = r.form_type
  CROSS JOIN LATERAL (
    SELECT coalesce((SELECT max(p.decided_at) FROM approvals p WHERE p.request_pk = r.id AND p.seq < w.seq AND p.decision <> 'Pending'),
                    r.created_at) AS since
  ) s
 WHERE r.current_stage IS NOT NULL AND r.current_stage <> 'it_helpdesk'
   AND s.since <= $1::timestamptz - make_interval(days => coalesce(rs.remind_after_days, ${DEFAULT_REMINDER_SETTINGS.remind_after_days}) - 1)`;

/**
 * The sweep's share of them: what an earlier pass did today is not looked at again (a stage reminded today is left
 * out unless its escalation may be due, by the same superset, and is not done), and those not yet reminded today
 * come first, so a backlog longer than one pass is worked through by the next passes. The reminder of today is
 * looked up by its key for each row (as a join, a fresh table's missing statistics once planned a scan per row).
 */
const REMINDED_TODAY = `EXISTS (SELECT 1 FROM approval_reminders ar
                          WHERE ar.request_pk = r.id AND ar.stage = w.stage AND ar.kind = 'reminder' AND ar.sent_on = $2::date)`;
/** Looked at today with nothing more due today (migration 202): left alone until tomorrow or a change of limits or calendar. */
const NOTHING_DUE_TODAY = `EXISTS (SELECT 1 FROM approval_reminders nd
                             WHERE nd.request_pk = r.id AND nd.stage = w.stage AND nd.kind = 'nothing_due' AND nd.sent_on = $2::date)`;
const SWEEP_SQL = `${DUE_SQL}
   AND NOT ${NOTHING_DUE_TODAY}
   AND (NOT ${REMINDED_TODAY}
        OR (w.escalated_to_id IS NULL
            AND s.since <= $1::timestamptz - make_interval(days => coalesce(rs.escalate_after_days, ${DEFAULT_REMINDER_SETTINGS.escalate_after_days}) - 1)
            AND NOT EXISTS (SELECT 1 FROM approval_reminders nt
                             WHERE nt.request_pk = r.id AND nt.stage = w.stage AND nt.kind = 'no_escalation_target' AND nt.sent_on = $2::date)))
 ORDER BY ${REMINDED_TODAY}, r.id
 LIMIT $3`;

/** Stages one pass looks at, at most (the rest wait for the next pass, ten minutes later). */
export const SWEEP_BATCH = 5000;

/** One pass over the waiting stages at `now` (the app clock) not yet done today. */
export async function sweepReminders(db: Db, now: Date, opts: Options & { batch?: number }): Promise<SweepResult> {
  const settings = await reminderSettingsOf(db);
  const today = businessDate(now);
  const rows = (await db.query<RecordRow>(SWEEP_SQL, [now, today, opts.batch ?? SWEEP_BATCH])).rows;
  // Those already reminded today are here only for an escalation that may be due: no second reminder attempt.
  const done = await db.query<{ request_pk: string; stage: string }>(
    `SELECT request_pk, stage FROM approval_reminders WHERE kind = 'reminder' AND sent_on = $1::date AND request_pk = ANY($2::bigint[])`,
    [today, rows.map((r) => r.pk)],
  );
  const remindedToday = new Set(done.rows.map((d) => `${d.request_pk}|${d.stage}`));
  const out: SweepResult = { reminded: 0, escalated: 0, unescalated: 0 };
  // Steps with nothing more due today once this pass is done: no reminder due by working days, or reminded today,
  // and no escalation due by working days (the SQL's selection is by calendar days).
  const settled: Array<{ pk: number; stage: string }> = [];
  for (const row of rows) {
    const stage = row.current_stage as Stage;
    const s: ReminderSettings = settingsFor(settings, row.form_type);
    const waited = waitedDays(row, stage, now);
    const step = reminderStep(waited, s);
    if (step !== 'escalate') settled.push({ pk: row.pk, stage });
    if (step === 'none') continue;
    const approval = row.approvals.find((a) => a.stage === stage);
    if (step === 'escalate' && !approval?.escalated_to_id) {
      const done = await escalate(db, row, stage, waited, now, opts);
      if (done === 'escalated') out.escalated += 1;
      else if (done === 'nobody') out.unescalated += 1;
    }
    if (!remindedToday.has(`${row.pk}|${stage}`) && (await remind(db, row, stage, waited, now, opts))) out.reminded += 1;
  }
  await db.query(
    `WITH old AS (DELETE FROM approval_reminders WHERE kind = 'nothing_due' AND sent_on < $3::date)
     INSERT INTO approval_reminders (request_pk, stage, kind, sent_on, sent_at)
     SELECT s.pk, s.stage, 'nothing_due', $3, $4 FROM unnest($1::bigint[], $2::text[]) AS s(pk, stage)
     ON CONFLICT DO NOTHING`,
    [settled.map((x) => x.pk), settled.map((x) => x.stage), today, now],
  );
  return out;
}

/** The people a stage waits on now: its deciders, their delegates while away (followed to three hops), the escalation's. */
async function waitingOn(c: Queryable, row: RecordRow, stage: Stage, today: string): Promise<number[]> {
  const to = stageDeciders(row, stage);
  let ids: number[];
  if ('ids' in to) ids = to.ids;
  else {
    const r = await c.query('SELECT id FROM users WHERE user_type = $1 AND active AND id <> ALL($2::int[])', [to.userType, to.exclude]);
    ids = r.rows.map((x) => x.id);
  }
  const all = new Set(ids);
  let frontier = ids;
  for (let hop = 0; hop < 3 && frontier.length; hop += 1) {
    const r = await c.query(
      `SELECT o.delegate_id FROM out_of_office o JOIN users d ON d.id = o.delegate_id AND d.active
        WHERE o.user_id = ANY($1::int[]) AND o.starts_on <= $2::date AND o.ends_on >= $2::date`,
      [frontier, today],
    );
    // A chain of delegation never passes through the requester (policies/cover.ts).
    frontier = r.rows.map((x) => x.delegate_id).filter((id: number) => !all.has(id) && id !== row.employee_user_id);
    for (const id of frontier) all.add(id);
  }
  const escalatedTo = row.approvals.find((a) => a.stage === stage)?.escalated_to_id;
  if (escalatedTo) all.add(escalatedTo);
  // Never anyone separation of duties keeps from the stage (the policy's rule: the requester, whoever decided another
  // step of the request themselves or had a delegate decide it for them).
  const separated = separatedFrom(row, stage);
  return [...all].filter((id) => !separated.includes(id));
}

/** Writes notifications (awaiting items of `stage`) for `userIds` and announces them on the live channel. */
async function notify(c: Queryable, row: RecordRow, stage: Stage, userIds: number[], title: string, now: Date, opts: Options) {
  if (userIds.length === 0) return;
  const r = await c.query(
    `INSERT INTO notifications (user_id, request_pk, title, form_type, form_id, approval_field, old_value, new_value, change_type, stage,
                                awaiting, email_kind, email_state, created_at)
     SELECT u, $2, $3, $4, $5, $6, 'Pending', 'Pending', 'pending', $7, true, $8, $9, $10 FROM unnest($1::int[]) AS u
     RETURNING id, user_id`,
    [
      userIds,
      row.pk,
      title,
      row.form_type,
      row.request_id,
      stageApprovalField(stage),
      stage,
      opts.mail ? 'new_item' : null,
      opts.mail ? 'queued' : null,
      now,
    ],
  );
  await c.query('SELECT pg_notify($1, $2)', [
    LIVE_CHANNEL,
    JSON.stringify({ k: 'n', u: r.rows.map((x) => x.user_id), n: r.rows.map((x) => x.id) }),
  ]);
}

/** Today's reminder of a waiting stage, unless one was sent today. True when sent. */
async function remind(db: Db, row: RecordRow, stage: Stage, waited: number, now: Date, opts: Options): Promise<boolean> {
  const today = businessDate(now);
  return db.tx(async (c) => {
    const recipients = await waitingOn(c, row, stage, today);
    const claimed = await c.query(
      `INSERT INTO approval_reminders (request_pk, stage, kind, sent_on, sent_at, recipients) VALUES ($1, $2, 'reminder', $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [row.pk, stage, today, now, recipients],
    );
    if (!claimed.rowCount) return false;
    const title = `Reminder: ${formTypeLabel(row.form_type)} ${row.request_id} from ${row.employee_name} has waited ${waited} working days for the ${stageLabelOf(row, stage)} step`;
    await notify(c, row, stage, recipients, title, now, opts);
    return true;
  });
}

/**
 * Who an overdue stage escalates to: the approver's own manager (line manager and HR steps), the lead of a group
 * (the person most of its members report to), else an administrator; never anyone separation of duties keeps from
 * the stage (separatedFrom: the requester, whoever decided another step of the request or had it decided for them by
 * a delegate), since they could not decide it. Null: nobody fits.
 */
async function escalationTarget(c: Queryable, row: RecordRow, stage: Stage): Promise<{ id: number; name: string } | null> {
  const to = stageDeciders(row, stage);
  const excluded = [...separatedFrom(row, stage), ...('ids' in to ? to.ids : [])];
  const r = await c.query<{ id: number; name: string }>(
    `WITH approvers AS (
       SELECT u.id, u.manager_id FROM users u
        WHERE u.active AND (u.id = ANY($1::int[]) OR ($2::text IS NOT NULL AND u.user_type = $2))
     ), candidates AS (
       SELECT m.id, 1 AS rank, count(*) AS weight FROM approvers a JOIN users m ON m.id = a.manager_id AND m.active GROUP BY m.id
       UNION ALL
       SELECT u.id, 2, 0 FROM users u WHERE u.user_type = 'admin' AND u.active
     )
     SELECT c.id, u.first_name || ' ' || u.last_name AS name FROM candidates c JOIN users u ON u.id = c.id
      WHERE c.id <> ALL($3::int[]) AND ($2::text IS NULL OR u.user_type IS DISTINCT FROM $2 OR c.rank = 2)
      ORDER BY c.rank, c.weight DESC, c.id LIMIT 1`,
    ['ids' in to ? to.ids : [], 'userType' in to ? to.userType : null, excluded],
  );
  return r.rows[0] ?? null;
}

/**
 * Escalates an overdue stage once (a conditional update): records it in the history and tells the person. When
 * nobody fits, that is recorded for the business day (the sweep's later passes that day leave the stage alone).
 */
async function escalate(
  db: Db,
  row: RecordRow,
  stage: Stage,
  waited: number,
  now: Date,
  opts: Options,
): Promise<'escalated' | 'nobody' | 'already'> {
  return db.tx(async (c) => {
    const target = await escalationTarget(c, row, stage);
    if (!target) {
      await c.query(
        `INSERT INTO approval_reminders (request_pk, stage, kind, sent_on, sent_at) VALUES ($1, $2, 'no_escalation_target', $3, $4)
         ON CONFLICT DO NOTHING`,
        [row.pk, stage, businessDate(now), now],
      );
      return 'nobody';
    }
    const set = await c.query(
      `UPDATE approvals SET escalated_to_id = $3, escalated_at = $4
        WHERE request_pk = $1 AND stage = $2 AND decision = 'Pending' AND escalated_to_id IS NULL RETURNING 1`,
      [row.pk, stage, target.id, now],
    );
    if (!set.rowCount) return 'already';
    await c.query(
      `INSERT INTO approval_reminders (request_pk, stage, kind, sent_on, sent_at, recipients) VALUES ($1, $2, 'escalation', $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [row.pk, stage, businessDate(now), now, [target.id]],
    );
    await recordEvent(c, {
      request: { pk: row.pk, request_id: row.request_id, form_type: row.form_type, employee_id: row.employee_user_id },
      actorId: null,
      eventType: 'escalated',
      stage,
      field: null,
      oldValue: null,
      newValue: target.name,
      details: { working_days: waited, escalated_to_id: target.id },
      at: now,
      notify: false,
    });
    const title = `Escalated to you: ${formTypeLabel(row.form_type)} ${row.request_id} from ${row.employee_name} has waited ${waited} working days for the ${stageLabelOf(row, stage)} step; you may decide it`;
    await notify(c, row, stage, [target.id], title, now, opts);
    return 'escalated';
  });
}

// ---- the administrator's overdue list ---------------------------------------------------------------

/** Every stage across the company that has waited at least its type's first limit, longest first. */
export async function overdueList(db: Queryable, now: Date, limit = 500): Promise<OverdueItem[]> {
  const settings = await reminderSettingsOf(db);
  const r = await db.query(
    `SELECT x.*, hc.first_name || ' ' || hc.last_name AS hr_contact_name, es.first_name || ' ' || es.last_name AS escalated_to_name,
            w.escalated_at
       FROM (${DUE_SQL}) x
       JOIN approvals w ON w.request_pk = x.pk AND w.stage = x.current_stage
       LEFT JOIN users hc ON hc.id = x.hr_contact_id
       LEFT JOIN users es ON es.id = w.escalated_to_id
      ORDER BY x.created_at LIMIT $2`,
    [now, limit * 4],
  );
  const out: OverdueItem[] = [];
  for (const row of r.rows) {
    const stage = row.current_stage as Stage;
    const s = settingsFor(settings, row.form_type);
    const waited = waitedDays(row, stage, now);
    if (reminderStep(waited, s) === 'none') continue;
    out.push({
      form_id: row.request_id,
      form_type: row.form_type,
      title: formTypeLabel(row.form_type),
      employee_name: row.employee_name,
      department: row.department,
      stage,
      stage_label: stageLabelOf(row, stage),
      waiting_on:
        stage === 'line_manager'
          ? (row.manager_name ?? 'Line manager')
          : stage === 'hr'
            ? (row.hr_contact_name ?? 'HR')
            : stageLabelOf(row, stage),
      waiting_days: waited,
      remind_after_days: s.remind_after_days,
      escalate_after_days: s.escalate_after_days,
      escalated_to: row.escalated_to_name ?? null,
      escalated_at: row.escalated_at ? new Date(row.escalated_at).toISOString() : null,
      created_at: new Date(row.created_at).toISOString(),
    });
  }
  out.sort((a, b) => b.waiting_days - a.waiting_days || a.created_at.localeCompare(b.created_at));
  return out.slice(0, limit);
}
