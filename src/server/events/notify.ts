// Notifications derived from request events, written in the event's transaction: the owner hears of every change
// to an approval, the status or the IT ticket of their request; approvers hear when something new reaches their
// stage. Each new row is announced with pg_notify (delivered on commit) for the live stream of every instance.
// Every notification names one of the spec's approval fields (notificationField: IT's changes are `status`), and
// an approver's 'awaits your ...' item reads 'New' -> 'Pending'; it is marked read for everyone it went to once
// that stage is acted on or the request is withdrawn or finished (a trigger on request_events, migration 096, so
// every writer of events is covered).
import { type Stage, itLifecycleOf } from '../../domain/forms.js';
import {
  approverTitle,
  changeTypeOf,
  formTypeLabel,
  notificationField,
  ownerTitle,
  stageApprovalField,
  type ApprovalField,
  type ChangeType,
} from '../../domain/notifications.js';
import type { Queryable } from '../db/pool.js';
import type { RecordRow } from '../requests/repo.js';
import type { NewEvent } from './service.js';
import { awaitsAcknowledgement } from '../policies/it.js';
import { acknowledgementGatesIt, liveAudience, stageDeciders } from '../policies/requests.js';

/** The PostgreSQL channel of live updates (notifications and request changes). */
export const LIVE_CHANNEL = 'adminease_live';

/** Payloads on LIVE_CHANNEL: new notifications (ids `n[i]` for users `u[i]`; one payload per transaction and
 * ANNOUNCE_CHUNK of them, since every payload is a message each instance reads), or a changed request for the
 * people who see it. */
export type LivePayload = { k: 'n'; u: number[]; n: number[] } | { k: 'r'; r: string; f: string; u: number[]; t: string[] };

let emailEnabled = false;
/** Set by the notifications feature when SMTP is configured: notifications that merit an e-mail are queued. */
export function setEmailQueueing(on: boolean) {
  emailEnabled = on;
}

/** What the notifications of an event read about its request (as it is after the change). */
export interface RequestContext {
  pk: number;
  request_id: string;
  form_type: string;
  employee_id: number;
  line_manager_id: number | null;
  hr_contact_id: number | null;
  status: string;
  employee_name: string;
  line_manager_acknowledgement: unknown;
  approvals: Array<{ stage: Stage; seq: number; decision: string; signer_id?: number | null; on_behalf_of_id?: number | null }>;
}

async function loadContext(c: Queryable, pk: number): Promise<RequestContext | undefined> {
  const r = await c.query(
    `SELECT r.id AS pk, r.request_id, r.form_type, r.employee_id, r.line_manager_id, r.hr_contact_id, r.status,
            e.first_name || ' ' || e.last_name AS employee_name, r.data->'line_manager_acknowledgement' AS line_manager_acknowledgement,
            (SELECT coalesce(json_agg(json_build_object('stage', a.stage, 'seq', a.seq, 'decision', a.decision, 'signer_id', a.signer_id,
                   'on_behalf_of_id', a.on_behalf_of_id, 'approver', a.approver, 'approver_ids', a.approver_ids, 'stage_label', a.stage_label) ORDER BY a.seq), '[]'::json)
               FROM approvals a WHERE a.request_pk = r.id) AS approvals
       FROM requests r JOIN users e ON e.id = r.employee_id
      WHERE r.id = $1`,
    [pk],
  );
  return r.rows[0];
}

/** The context of a request record already loaded in the transaction (approvals in chain order). */
export function notificationContext(row: RecordRow): RequestContext {
  return {
    pk: row.pk,
    request_id: row.request_id,
    form_type: row.form_type,
    employee_id: row.employee_user_id,
    line_manager_id: row.line_manager_id,
    hr_contact_id: row.hr_contact_id,
    status: row.status,
    employee_name: row.employee_name,
    line_manager_acknowledgement: row.data?.line_manager_acknowledgement ?? null,
    approvals: row.approvals.map((a, i) => ({
      stage: a.stage,
      seq: i + 1,
      decision: a.decision,
      signer_id: a.signer_id,
      on_behalf_of_id: a.on_behalf_of_id ?? null,
      approver: a.approver ?? null,
      approver_ids: a.approver_ids ?? null,
      stage_label: a.stage_label ?? null,
    })),
  };
}

/** Who decides `stage` of a request (the request policy's rule, stageDeciders). */
export function stageRecipients(stage: string, req: RequestContext): { ids: number[] } | { userType: string; exclude: number[] } {
  return stageDeciders(policyFacts(req), stage);
}

/** The request policy's facts of a notification context. */
const policyFacts = (req: RequestContext) => ({
  employee_user_id: req.employee_id,
  line_manager_id: req.line_manager_id,
  hr_contact_id: req.hr_contact_id,
  form_type: req.form_type,
  approvals: req.approvals,
});

const OWNER_FIELD = /(_approval|_acknowledgement)$|^(status|it_support_status|it_helpdesk_ticket_number|it_helpdesk_assigned_to)$/;
const FINAL_STATUS = ['approved', 'rejected', 'completed', 'closed'];

/** Rank of a change within one transaction, by the record field its event changed: a decision says more than the
 * status it moved, which says more than a detail (an IT ticket number or assignee). Mirrored in writeDrafts' SQL. */
function priority(eventField: string | null): number {
  if (!eventField) return 1;
  if (eventField.endsWith('_approval')) return 3;
  if (eventField.endsWith('_acknowledgement') || eventField === 'status' || eventField === 'it_support_status') return 2;
  return 1;
}

/** Values of an awaiting item: the stage's work is new to its approver and now waits for them. */
const AWAITING = { oldValue: 'New', newValue: 'Pending' } as const;

interface NotificationDraft {
  /** The recipient, or null for every member of `group` except the ids it excludes. */
  userId: number | null;
  group?: { userType: string; exclude: number[] };
  title: string;
  /** One of the spec's approval fields. */
  field: ApprovalField;
  stage: string | null;
  /** An approver's item that waits for their action on `stage` (resolved once the stage is acted on). */
  awaiting: boolean;
  /** priority() of the event's own field. */
  rank: number;
  oldValue: string | null;
  newValue: string | null;
  changeType: ChangeType;
  emailKind: 'final_decision' | 'new_item' | null;
}

const norm = (v: unknown) => (v == null ? null : String(v));

/** The notifications one event causes, ready to write. */
export interface PreparedNotifications {
  req: RequestContext;
  drafts: NotificationDraft[];
  /** The request-changed payload for LIVE_CHANNEL. */
  changed: LivePayload;
}

/** Creates the notifications of one event (call in the event's transaction, after the event row). */
export async function notifyForEvent(c: Queryable, e: NewEvent, eventId: number): Promise<number> {
  const p = await draftNotifications(c, e);
  if (!p) return 0;
  return writeDrafts(c, p.req, p.drafts, eventId, e.at, p.changed);
}

/** Who is told what about event `e` (reads the request unless `e.context` holds it); null when nobody. */
export async function draftNotifications(c: Queryable, e: NewEvent): Promise<PreparedNotifications | null> {
  const req = e.context ?? (await loadContext(c, e.request.pk));
  if (!req) return null;
  const owner = req.employee_id;
  let field = e.field ?? null;
  let newValue = norm(e.newValue);
  const oldValue = norm(e.oldValue);
  if (e.eventType === 'acknowledged' && !field) {
    field = 'line_manager_acknowledgement';
    newValue = newValue ?? 'true';
  }
  const drafts: NotificationDraft[] = [];
  const stageSeq = (stage: string | null | undefined) => req.approvals.find((a) => a.stage === stage)?.seq;

  // The owner: any change of an approval, acknowledgement, status or IT ticket field made by someone else.
  const changed = oldValue !== newValue;
  if (field && OWNER_FIELD.test(field) && changed && e.eventType !== 'submitted' && e.eventType !== 'edited' && e.actorId !== owner) {
    const changeType = changeTypeOf(newValue);
    const stage = e.stage ?? (field.endsWith('_approval') ? field.slice(0, -'_approval'.length) : null);
    let final = false;
    if (field.endsWith('_approval')) {
      const seq = stageSeq(stage);
      const laterPending = req.approvals.some((a) => seq !== undefined && a.seq > seq && a.decision === 'Pending');
      final = changeType === 'rejected' || ((changeType === 'approved' || changeType === 'completed') && !laterPending);
    } else if (field === 'status') {
      final = FINAL_STATUS.includes(String(newValue ?? '').toLowerCase());
    }
    // IT's ticket details are told as the status: the incident's status, and 'IT Processing' (the spec's next-stage
    // text once a ticket number exists) while it is still open.
    const detail = field === 'it_helpdesk_ticket_number' || field === 'it_helpdesk_assigned_to';
    const shownOld = detail ? req.status : oldValue;
    const shownNew = detail ? (req.status === 'Open' ? 'IT Processing' : req.status) : newValue;
    drafts.push({
      userId: owner,
      title: ownerTitle({ formType: req.form_type, requestId: req.request_id, field, stage, newValue }),
      field: notificationField(field),
      stage,
      oldValue: shownOld,
      newValue: shownNew,
      awaiting: false,
      rank: priority(field),
      changeType: detail ? changeTypeOf(shownNew) : changeType,
      emailKind: final ? 'final_decision' : null,
    });
  }

  // Approvers: the first stage on submission, the next stage after an approval, IT after a password reset is
  // acknowledged, IT when the employee answers a resolution.
  interface Target {
    stage: string;
    acknowledgement?: boolean;
    title?: string;
    field: ApprovalField;
    oldValue: string | null;
    newValue: string | null;
    awaiting: boolean;
  }
  /** The item that a stage (or the line manager's acknowledgement) now waits for its approver. */
  const awaits = (stage: string, acknowledgement = false): Target => ({
    stage,
    acknowledgement,
    field: acknowledgement ? 'line_manager_acknowledgement' : stageApprovalField(stage),
    ...AWAITING,
    awaiting: true,
  });
  const ackFirst = awaitsAcknowledgement({ ...policyFacts(req), data: { line_manager_acknowledgement: req.line_manager_acknowledgement } });
  const approverTargets: Target[] = [];
  if (e.eventType === 'submitted') {
    const first = req.approvals.find((a) => a.decision === 'Pending');
    if (ackFirst) approverTargets.push(awaits('line_manager', true));
    else if (first) approverTargets.push(awaits(first.stage));
  } else if (e.eventType === 'edited') {
    // The owner changed a request still waiting: whoever decides its current step hears of it, so an approval is
    // never given to content the approver did not see (their decision on the old version is refused). It still
    // waits for them: Pending -> Pending, under the same approval field as their awaiting item.
    const current = req.approvals.find((a) => a.decision === 'Pending');
    const stage = ackFirst ? 'line_manager' : current?.stage;
    if (stage) {
      approverTargets.push({
        ...awaits(stage, ackFirst),
        oldValue: 'Pending',
        title: `${formTypeLabel(req.form_type)} ${req.request_id} from ${req.employee_name} was changed by its owner: please look at it again before deciding`,
      });
    }
  } else if (field?.endsWith('_approval') && ['approved', 'completed'].includes(changeTypeOf(newValue)) && changed) {
    const seq = stageSeq(e.stage ?? field.slice(0, -'_approval'.length));
    const next = req.approvals.find((a) => seq !== undefined && a.seq > seq && a.decision === 'Pending');
    if (next) approverTargets.push(awaits(next.stage));
  } else if (
    acknowledgementGatesIt(req.form_type) &&
    ((field === 'line_manager_acknowledgement' && changeTypeOf(newValue) === 'approved') ||
      (field === 'it_support_status' && newValue === 'Pending IT Action')) &&
    changed
  ) {
    approverTargets.push(awaits('it_helpdesk'));
  } else if (itLifecycleOf(req.form_type) === 'incident' && field === 'employee_confirmation_status' && changed && e.actorId === owner) {
    const confirmed = changeTypeOf(newValue) === 'approved';
    approverTargets.push({
      stage: 'it_helpdesk',
      field: 'status',
      oldValue: oldValue ?? 'Pending',
      newValue,
      awaiting: false,
      title: `IT Incident ${req.request_id} from ${req.employee_name}: ${confirmed ? 'the employee confirmed the problem is solved' : 'the employee reports the problem is not solved'}`,
    });
  }
  for (const t of approverTargets) {
    const to = stageRecipients(t.stage, req);
    const exclude = [owner, ...(e.actorId ? [e.actorId] : []), ...('exclude' in to ? to.exclude : [])];
    const recipients = 'userType' in to ? [null] : to.ids.filter((id) => !exclude.includes(id));
    for (const userId of recipients) {
      drafts.push({
        userId,
        group: 'userType' in to ? { userType: to.userType, exclude } : undefined,
        title:
          t.title ??
          approverTitle({
            formType: req.form_type,
            requestId: req.request_id,
            employeeName: req.employee_name,
            stage: t.stage,
            acknowledgement: t.acknowledgement,
          }),
        field: t.field,
        stage: t.stage,
        oldValue: t.oldValue,
        newValue: t.newValue,
        awaiting: t.awaiting,
        rank: priority(field),
        changeType: t.title && !t.awaiting ? changeTypeOf(t.newValue) : 'pending',
        emailKind: t.title ? null : 'new_item',
      });
    }
  }

  if (drafts.length === 0 && !field) return null;
  // Tell every instance that the request changed, for the lists of the people who see it.
  const audience = liveAudience(policyFacts(req));
  return { req, drafts, changed: { k: 'r', r: req.request_id, f: req.form_type, u: audience.users, t: audience.userTypes } };
}

const draftRows = (drafts: NotificationDraft[]) =>
  drafts.map((d, i) => ({
    ord: i,
    user_id: d.userId,
    user_type: d.group?.userType ?? null,
    exclude: d.group?.exclude ?? null,
    title: d.title,
    field: d.field,
    stage: d.stage,
    old_value: d.oldValue,
    new_value: d.newValue,
    awaiting: d.awaiting,
    change_type: d.changeType,
    email_kind: d.emailKind,
    email_state: emailEnabled && d.emailKind ? 'queued' : null,
    prio: d.rank,
  }));

const DRAFT_COLUMNS = `ord int, user_id int, user_type text, exclude int[], title text, field text, stage text, old_value text, new_value text,
                       awaiting boolean, change_type text, email_kind text, email_state text, prio int`;

/** The drafts of parameter `param`, one row per recipient: a group draft becomes one row per member (read in the
 * writing statement itself: no separate look-up, and nobody who joined the group meanwhile is missed). */
const draftsSql = (param: string) => `
  SELECT r.user_id, x.title, x.field, x.stage, x.old_value, x.new_value, x.awaiting, x.change_type, x.email_kind, x.email_state, x.prio
    FROM jsonb_to_recordset(${param}::jsonb) AS x(${DRAFT_COLUMNS})
   CROSS JOIN LATERAL (SELECT x.user_id WHERE x.user_type IS NULL
                       UNION ALL
                       SELECT u.id FROM users u
                        WHERE x.user_type IS NOT NULL AND u.user_type = x.user_type AND u.id <> ALL(coalesce(x.exclude, '{}'))) r(user_id)
   ORDER BY x.ord, r.user_id`;

/**
 * The notifications of the first event of a transaction, as parts of the statement that writes the event:
 * `cte` inserts them (reading the event id from the CTE named `eventCte`) and `select` announces them on
 * LIVE_CHANNEL; parameters are numbered from `offset` + 1. Later events of the same transaction use
 * notifyForEvent, which merges with what this wrote.
 */
export function firstNotificationsSql(
  p: PreparedNotifications,
  eventCte: string,
  at: Date,
  offset: number,
): { cte: string; select: string; params: unknown[] } {
  const $ = (k: number) => `$${offset + k}`;
  return {
    cte: `notified AS (
       INSERT INTO notifications (user_id, event_id, request_pk, title, form_type, form_id, approval_field, old_value, new_value,
                                  change_type, stage, awaiting, email_kind, email_state, created_at)
       SELECT d.user_id, ${eventCte}.id, ${$(2)}::bigint, d.title, ${$(3)}::text, ${$(4)}::text, d.field, d.old_value, d.new_value, d.change_type,
              d.stage, d.awaiting, d.email_kind, d.email_state, ${$(5)}::timestamptz
         FROM (${draftsSql($(1))}) AS d CROSS JOIN ${eventCte}
       RETURNING id, user_id
     )`,
    select: `${announceSql('notified', $(6))} AS announced,
             (SELECT pg_notify(${$(6)}, ${$(7)}) FROM ${eventCte}) AS changed`,
    params: [JSON.stringify(draftRows(p.drafts)), p.req.pk, p.req.form_type, p.req.request_id, at, LIVE_CHANNEL, JSON.stringify(p.changed)],
  };
}

/** New notifications per LIVE_CHANNEL payload (a payload must stay under PostgreSQL's 8,000 bytes). */
const ANNOUNCE_CHUNK = 200;

/** SQL announcing the rows (id, user_id) of CTE `cte` on the channel `channel` (a parameter), ANNOUNCE_CHUNK per
 * payload; its value is the number of payloads. */
function announceSql(cte: string, channel: string): string {
  return `(SELECT count(*) FROM (
             SELECT pg_notify(${channel}, json_build_object('k', 'n', 'u', json_agg(q.user_id ORDER BY q.id), 'n', json_agg(q.id ORDER BY q.id))::text)
               FROM (SELECT id, user_id, (row_number() OVER (ORDER BY id) - 1) / ${ANNOUNCE_CHUNK} AS chunk FROM ${cte}) q
              GROUP BY q.chunk) s)::int`;
}

/**
 * Writes the drafts in one statement: within one transaction a person gets one notification per request (a later,
 * more telling change replaces an earlier one in place), each new row is announced on LIVE_CHANNEL, and so is the
 * request change. Answers how many rows were inserted.
 */
async function writeDrafts(
  c: Queryable,
  req: RequestContext,
  drafts: NotificationDraft[],
  eventId: number,
  at: Date | undefined,
  changed: LivePayload,
): Promise<number> {
  const rows = draftRows(drafts);
  const r = await c.query(
    `WITH d AS (${draftsSql('$1')}),
     prev AS (
       SELECT DISTINCT ON (n.user_id) n.id, n.user_id,
              CASE WHEN e.field LIKE '%\\_approval' THEN 3
                   WHEN e.field LIKE '%\\_acknowledgement' OR e.field IN ('status', 'it_support_status') THEN 2
                   ELSE 1 END AS prio
         FROM notifications n LEFT JOIN request_events e ON e.id = n.event_id
        WHERE n.request_pk = $2 AND n.txid = pg_current_xact_id() AND n.user_id IN (SELECT user_id FROM d)
        ORDER BY n.user_id, n.id
     ),
     upd AS (
       UPDATE notifications n
          SET event_id = $3, title = d.title, approval_field = d.field, old_value = d.old_value, new_value = d.new_value,
              change_type = d.change_type, stage = d.stage, awaiting = d.awaiting, email_kind = coalesce(d.email_kind, n.email_kind),
              email_state = coalesce(d.email_state, n.email_state)
         FROM d JOIN prev p ON p.user_id = d.user_id
        WHERE n.id = p.id AND d.prio > p.prio
        RETURNING n.id
     ),
     ins AS (
       INSERT INTO notifications (user_id, event_id, request_pk, title, form_type, form_id, approval_field, old_value, new_value,
                                  change_type, stage, awaiting, email_kind, email_state, created_at)
       SELECT d.user_id, $3, $2, d.title, $4, $5, d.field, d.old_value, d.new_value, d.change_type, d.stage, d.awaiting, d.email_kind, d.email_state,
              coalesce($6::timestamptz, now())
         FROM d WHERE NOT EXISTS (SELECT 1 FROM prev p WHERE p.user_id = d.user_id)
       RETURNING id, user_id
     )
     SELECT (SELECT count(*) FROM ins)::int AS created, ${announceSql('ins', '$7')} AS announced,
            (SELECT count(*) FROM upd)::int AS updated,
            pg_notify($7, $8) AS changed`,
    [JSON.stringify(rows), req.pk, eventId, req.form_type, req.request_id, at ?? null, LIVE_CHANNEL, JSON.stringify(changed)],
  );
  return r.rows[0].created;
}
