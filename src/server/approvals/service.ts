// The approval workflow: deciding a stage of a request (one conditional update in a transaction, with the
// event log), bulk decisions, the approver queues and their summaries, and audit history (the manager's
// acknowledgements of IT items are the IT desk's: it-desk/service.ts).
// Enforced here for line manager, HR, finance and facilities: only a pending stage can be decided, only by the
// role that owns it, finance only after the line manager approved, the facilities manager only after the desk
// approved.
import { businessDate } from '../../domain/business-time.js';
import {
  type ApproverRole,
  ROLE_STAGE,
  buildHistory,
  checkStageDecidable,
  derivedItSupportStatus,
  nextDataStage,
  isManagerQueueType,
  isViewOnlyForManager,
  normaliseFormType,
  rejectionReasonError,
  stageState,
  type HistoryEntry,
} from '../../domain/approvals.js';
import {
  FORM_TYPES,
  type Stage,
  STAGES,
  formTypeDef,
  formTypesOfKind,
  itLifecycleOf,
  requestAmount,
  requestPurpose,
} from '../../domain/forms.js';
import { acknowledgementText, isWithdrawn } from '../../domain/status.js';
import { type Db, type Queryable, prepared } from '../db/pool.js';
import { draftNotifications, firstNotificationsSql, notificationContext } from '../events/notify.js';
import { EVENT_COLUMNS, type NewEvent, eventValues, recordEvent } from '../events/service.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { type AuthUser, fullName } from '../people/service.js';
import { invalidateQueues, scopeOfRows } from './queue-cache.js';
import { isOverdue } from '../../domain/reminders.js';
import { reminderSettingsOf, settingsFor, waitedDays } from '../delegation/service.js';
import { queueRefusal } from '../policies/groups.js';
import type { ActingFor } from '../policies/cover.js';
import {
  NOT_FOUND_MESSAGE,
  type ViewRelation,
  acknowledgedSql,
  actingFor,
  callerStageOf,
  canSeeSensitive,
  canViewRequest,
  decideRefusal,
  decidedOtherStepSql,
  hasDataChain,
  queueScopeSql,
  isSensitiveField,
  notAcknowledgedSql,
  separationOfDutiesRefusal as dutyRefusal,
  stageStateCheck,
  viewRelations,
  withoutSensitive,
} from '../policies/requests.js';
import {
  RECORD_SELECT,
  type RecordRow,
  type RequestRecord,
  assertVersion,
  loadRecordByRef,
  signersOf,
  toRecord,
} from '../requests/repo.js';

export type Decision = 'Approved' | 'Rejected';

export interface DecideInput {
  ref: string | number;
  /** The stage to decide; by default the caller's stage on that request. */
  stage?: Stage;
  decision: Decision;
  reason?: string | null;
  comments?: string | null;
  /** When given (the dashboards send it), it must name the request's type: a guard against deciding the wrong record. */
  formType?: string | null;
  /** The request's version the caller saw (its `version`); when given and no longer the stored one: 409. */
  version?: number | null;
  /** Where the decision was made, when not on a dashboard: 'email' (an action link) is kept in the event's details. */
  via?: 'email';
  /** Runs in the decision's transaction after it is written (e.g. marking an e-mail link used); throwing undoes it. */
  inTransaction?: (c: Queryable) => Promise<void>;
}

const COMMENTS_MAX = 1000;

/** Types with a line-manager stage, plus the manager's view-only IT types (from the registry, at each call). */
export const managerQueueTypes = (): string[] => FORM_TYPES.map((t) => t.formType).filter(isManagerQueueType);
/** The manager queue's types when this module loaded. */
export const MANAGER_QUEUE_TYPES: readonly string[] = managerQueueTypes();

export { decidedOtherStep, isStageApprover } from '../policies/requests.js';

/** Separation of duties (the request policy's rule) as the error to throw, or null when `user` may act on `stage`. */
export function separationOfDutiesRefusal(
  user: AuthUser,
  row: Pick<RecordRow, 'employee_user_id' | 'approvals' | 'form_type' | 'line_manager_id' | 'hr_contact_id' | 'data'>,
  stage: Stage,
): HttpError | null {
  const message = dutyRefusal(user, row, stage);
  return message ? forbidden(message) : null;
}

/** The stage the caller would decide on this request, or a 403 when they approve none of it. */
export function callerStage(user: AuthUser, row: RecordRow): Stage {
  const stage = callerStageOf(user, row);
  if (typeof stage === 'string') return stage;
  throw new HttpError(stage.status, stage.message);
}

function decisionOf(value: unknown): Decision {
  const s = String(value ?? '')
    .trim()
    .toLowerCase();
  if (s === 'approved' || s === 'approve') return 'Approved';
  if (s === 'rejected' || s === 'reject') return 'Rejected';
  throw badRequest('The decision must be Approved or Rejected');
}

/**
 * Decides one stage of a request. The caller must be that stage's approver; earlier stages must be approved
 * and this one pending. Optimistic: the request is read without a lock and checked; then, in one transaction,
 * the request's new state is written only if its row is still the version that was read (its xmin), the
 * approval only if still pending, with the event and its notifications.
 * If anything changed meanwhile, the decision is read and checked again, so of several approvers acting at
 * once exactly one decides and the others get the answer they would get now (409 'This request has already
 * been decided', or why the stage cannot be decided).
 */
export async function decideStage(db: Db, user: AuthUser, input: DecideInput, now: Date = new Date()): Promise<RequestRecord> {
  const decision = decisionOf(input.decision);
  const comments = input.comments == null ? null : String(input.comments).trim();
  if (comments && comments.length > COMMENTS_MAX) throw badRequest(`Comments can have at most ${COMMENTS_MAX} characters`);
  const ref = String(input.ref ?? '').trim();
  if (ref === '') throw badRequest('form_id is required');
  if (input.stage && !Object.hasOwn(STAGES, input.stage) && !/^(managers_manager|stage_\d{1,2})$/.test(input.stage))
    throw badRequest(`Unknown approval stage: ${input.stage}`);

  for (let attempt = 1; ; attempt += 1) {
    // The request with an id for the decision's event, so the event and its notifications are written in one
    // statement: read, then BEGIN, the request, the approval + event + notifications, COMMIT.
    const row = await loadRecordByRef(db, ref, { reserveEventId: true });
    if (!row) throw notFound('Request not found');
    const plan = planDecision(user, row, input, decision, comments, now);
    const eventId = Number(row.reserved_event_id);
    const context = notificationContext(plan.after);
    const notices = await draftNotifications(db, { ...plan.event, context });
    if (notices && plan.acting) {
      // The owner's notification says who decided for whom ('... by Daniel Roy on behalf of Priya Nair').
      const note = decidedForNote(plan.signer, plan.acting);
      for (const d of notices.drafts) if (d.userId === row.employee_user_id) d.title = `${d.title} (${note})`;
    }
    const record = await db
      .tx(async (c) => {
        // The request, then its approval: the approval counters' triggers read the other table, so the two must
        // change one after the other. The first also locks the request for the rest of the transaction.
        const moved = await c.query(MOVE_REQUEST_SQL, [row.pk, row.version, plan.after.status, plan.after.current_stage, now]);
        if (moved.rowCount !== 1) throw CHANGED; // changed since it was read: roll back, read again
        plan.after.revision = moved.rows[0].revision; // the version after this decision (migration 082's trigger)
        const n = notices ? firstNotificationsSql(notices, 'e', now, 20) : null;
        const written = await c.query(
          prepared(
            `WITH a AS (
           UPDATE approvals SET decision = $3, signer_id = $4, signer_name = $5, decided_at = $6, rejection_reason = $7, comments = $8,
                  on_behalf_of_id = $18, on_behalf_of_name = $19, decided_as = $20
            WHERE request_pk = $1 AND stage = $2 AND decision = 'Pending'
           RETURNING request_pk
         ), e AS (
           INSERT INTO request_events (id, ${EVENT_COLUMNS})
           SELECT $9::bigint, a.request_pk, $10::int, $11::text, $12::text, $13::text, $14::text, $15::text, $16::jsonb, $17::timestamptz FROM a
           RETURNING id
         )${n ? `, ${n.cte}` : ''}
         SELECT (SELECT id FROM e) AS event_id${n ? `, ${n.select}` : ''}`,
          ),
          [
            row.pk,
            plan.stage,
            decision,
            user.id,
            plan.signer,
            now,
            plan.reason,
            comments || null,
            eventId,
            ...eventValues(plan.event).slice(1),
            plan.acting?.id ?? null,
            plan.acting?.name ?? null,
            plan.acting?.kind ?? null,
            ...(n?.params ?? []),
          ],
        );
        if (written.rows[0].event_id === null) throw CHANGED;
        if (input.inTransaction) await input.inTransaction(c);
        if (plan.after.status !== row.status) {
          const reqRef = plan.event.request;
          await recordEvent(c, {
            request: reqRef,
            actorId: user.id,
            eventType: 'status_change',
            stage: plan.stage,
            field: 'status',
            oldValue: row.status,
            newValue: plan.after.status,
            at: now,
            context,
          });
        }
        return toRecord(plan.after);
      })
      .catch((err) => {
        if (err === CHANGED) return null;
        throw err;
      });
    if (record) {
      // This instance's answers of this request (owner, type, line manager) change now; other instances hear it from PostgreSQL.
      invalidateQueues(db, scopeOfRows([row]));
      return record;
    }
    if (attempt >= 20) throw conflict('This request is being changed by someone else. Please try again.');
  }
}

const MOVE_REQUEST_SQL = prepared(
  'UPDATE requests SET status = $3, current_stage = $4, updated_at = $5 WHERE id = $1 AND xmin = $2::text::xid RETURNING revision',
);

/** Thrown inside a decision's transaction when the request changed since it was read. */
const CHANGED = new Error('the request changed since it was read');

/** How a decision made for someone else reads in notifications. */
export function decidedForNote(signer: string, acting: ActingFor): string {
  if (acting.kind === 'escalation') return `decided by ${signer} after escalation`;
  return `decided by ${signer} on behalf of ${acting.name ?? 'the approver'}`;
}

interface DecisionPlan {
  /** Decided for someone else (a delegate's decision, or after an escalation); null in one's own right. */
  acting: ActingFor | null;
  stage: Stage;
  signer: string;
  reason: string | null;
  /** The request as it will be stored. */
  after: RecordRow;
  /** The decision's event row. */
  event: NewEvent;
}

/** The permission and state checks of a decision on `row`, and what it will write (throws 4xx otherwise). */
function planDecision(
  user: AuthUser,
  row: RecordRow,
  input: DecideInput,
  decision: Decision,
  comments: string | null,
  now: Date,
): DecisionPlan {
  // A request the caller may not see answers exactly like one that does not exist (before anything reveals its type).
  if (!canViewRequest(user, row)) throw notFound(NOT_FOUND_MESSAGE);
  if (input.formType && input.formType.trim() !== '' && normaliseFormType(input.formType) !== row.form_type) {
    throw badRequest(`This request is a ${row.form_type}, not a ${input.formType}`);
  }
  const stage = input.stage ?? callerStage(user, row);
  const refusal = decideRefusal(user, row, stage);
  if (refusal) throw new HttpError(refusal.status, refusal.message);
  assertVersion(row, input.version);

  // A chain defined as data (issue 20) is the request's own stages, as resolved when it was submitted.
  const dataChain = hasDataChain(row);
  const check = stageStateCheck(row, stage);
  if (!check.ok) throw new HttpError(check.status ?? 409, check.message ?? 'This request cannot be decided now');
  const reasonErr = rejectionReasonError(decision, input.reason, stage);
  if (reasonErr) throw badRequest(reasonErr);
  const reason = decision === 'Rejected' ? String(input.reason ?? '').trim() : null;

  const signer = fullName(user);
  const acting = actingFor(user, row, stage);
  const chain = formTypeDef(row.form_type)?.chain ?? [];
  const next = dataChain ? nextDataStage(row.approvals, stage) : (chain[chain.indexOf(stage) + 1] ?? null);
  const after: RecordRow = {
    ...row,
    status: decision === 'Rejected' ? 'Rejected' : next ? row.status : 'Approved',
    current_stage: decision === 'Rejected' ? null : next,
    updated_at: now.toISOString(),
    approvals: row.approvals.map((a) =>
      a.stage === stage
        ? {
            ...a,
            decision,
            signer_id: user.id,
            signer_name: signer,
            decided_at: now.toISOString(),
            rejection_reason: reason,
            comments: comments || null,
            on_behalf_of_id: acting?.id ?? null,
            on_behalf_of_name: acting?.name ?? null,
            decided_as: acting?.kind ?? null,
          }
        : a,
    ),
  };
  const event: NewEvent = {
    request: { pk: row.pk, request_id: row.request_id, form_type: row.form_type, employee_id: row.employee_user_id },
    actorId: user.id,
    eventType: 'decision',
    stage,
    field: `${STAGES[stage]?.prefix ?? stage}_approval`,
    oldValue: 'Pending',
    newValue: decision,
    details: {
      signer_name: signer,
      ...(reason !== null ? { rejection_reason: reason } : {}),
      ...(comments ? { comments } : {}),
      ...(acting ? { decided_as: acting.kind, ...(acting.name ? { on_behalf_of: acting.name, on_behalf_of_id: acting.id } : {}) } : {}),
      ...(input.via ? { via: input.via } : {}),
      next_stage: after.current_stage,
      ...(dataChain ? { stage_label: row.approvals.find((a) => a.stage === stage)?.stage_label ?? stage } : {}),
    },
    at: now,
  };
  return { acting, stage, signer, reason, after, event };
}

export interface BulkItem {
  form_id: string | number;
  decision: string;
  reason?: string | null;
  comments?: string | null;
  stage?: Stage;
  version?: number | null;
}
export interface BulkResult {
  form_id: string;
  ok: boolean;
  status: number;
  error?: string;
  record?: RequestRecord;
}

export const BULK_MAX = 100;

/** Decides several requests, each exactly as if decided alone (own transaction, own checks). */
export async function bulkDecide(db: Db, user: AuthUser, items: readonly BulkItem[], now: Date = new Date()): Promise<BulkResult[]> {
  if (items.length === 0) throw badRequest('Choose at least one request');
  if (items.length > BULK_MAX) throw badRequest(`At most ${BULK_MAX} requests can be decided at once`);
  const seen = new Set<string>();
  const out: BulkResult[] = [];
  for (const item of items) {
    const id = String(item.form_id ?? '')
      .trim()
      .toUpperCase();
    if (seen.has(id)) {
      out.push({ form_id: id, ok: false, status: 400, error: 'This request is listed twice' });
      continue;
    }
    seen.add(id);
    try {
      const record = await decideStage(
        db,
        user,
        {
          ref: id,
          decision: item.decision as Decision,
          reason: item.reason,
          comments: item.comments,
          stage: item.stage,
          version: item.version,
        },
        now,
      );
      out.push({ form_id: record.request_id, ok: true, status: 200, record });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      out.push({ form_id: id, ok: false, status: err.statusCode, error: err.message });
    }
  }
  return out;
}

// ---- reading one request ------------------------------------------------------------------------

/** Removes secrets an approver must not see and adds the flags the dashboards read. */
export function approverView(rec: RequestRecord, user: AuthUser, role?: ApproverRole): RequestRecord {
  const out: RequestRecord = { ...rec };
  if (itLifecycleOf(rec.form_type) === 'password-reset') {
    out.has_new_password = Boolean(rec.new_password) || rec.has_new_password === true;
    delete out.new_password;
  }
  if (role === 'finance') {
    // The finance dashboard reads each row's total and purpose under petty cash's names, whatever the type: the
    // registry says which field of the type holds them.
    // The spec's row has a number and a text: a request without a readable total (older data, a type without one)
    // answers 0 and an empty purpose, never null (the original client would show '$NaN').
    out.amount_requested = requestAmount(rec.form_type, rec) ?? 0;
    out.purpose = requestPurpose(rec.form_type, rec) ?? '';
  }
  if (role) {
    const stage = ROLE_STAGE[role];
    out.view_only = role === 'manager' && isViewOnlyForManager(rec.form_type);
    // The request policy's separation of duties on the record's signers (a signer's stage is decided).
    const signed = signersOf(rec)
      .filter((a) => a.signer_id !== null)
      .map((a) => ({ stage: a.stage, signer_id: a.signer_id, decision: 'Signed' }));
    const facts = {
      employee_user_id: Number(rec.employee_user_id),
      line_manager_id: null,
      hr_contact_id: null,
      form_type: rec.form_type,
      approvals: signed,
    };
    out.actionable = !out.view_only && checkStageDecidable(rec, stage).ok && dutyRefusal(user, facts, stage) === null;
    // A withdrawn IT item waits on nobody: 'Closed' (No Further Action), never a Pending acknowledgement.
    out.stage_state = !out.view_only
      ? stageState(rec, stage)
      : isWithdrawn(rec)
        ? 'Closed'
        : acknowledgementText(rec.line_manager_acknowledgement);
    if (out.view_only) {
      // The manager's column of IT items is the acknowledgement: true shows Approved, false Rejected, else Pending.
      out.line_manager_acknowledgement = rec.line_manager_acknowledgement ?? null;
      out.line_manager_approval = acknowledgementText(rec.line_manager_acknowledgement);
      out.line_manager_signature = rec.line_manager_acknowledged_by ?? null;
      out.line_manager_date = typeof rec.line_manager_acknowledged_at === 'string' ? businessDate(rec.line_manager_acknowledged_at) : null;
      out.it_support_status_derived = derivedItSupportStatus(rec);
    } else if (role === 'manager') {
      // The spec's manager queue item names the acknowledgement on every row; only IT items have one (else null).
      out.line_manager_acknowledgement = rec.line_manager_acknowledgement ?? null;
    }
  }
  return out;
}

/** The types of each approver role's queue: the types whose chain has the role's stage (manager: plus the IT tickets). */
const ROLE_TYPES: Record<ApproverRole, (formType: string) => boolean> = {
  manager: isManagerQueueType,
  hr: (t) => formTypeDef(t)?.chain.includes('hr') ?? false,
  finance: (t) => formTypeDef(t)?.chain.includes('finance') ?? false,
  facilities_desk: (t) => formTypeDef(t)?.chain.includes('facilities_desk') ?? false,
  facilities_manager: (t) => formTypeDef(t)?.chain.includes('facilities_manager') ?? false,
};

/** Checks that the caller works as `role` (the group rule; anyone may ask for their own team's). */
export function assertRole(user: AuthUser, role: ApproverRole): void {
  const refusal = queueRefusal(user, role);
  if (refusal) throw forbidden(refusal);
}

/** The dashboard relation of each approver role in the request policy. */
const ROLE_RELATION: Record<ApproverRole, ViewRelation> = {
  manager: 'manager',
  hr: 'hr',
  finance: 'finance',
  facilities_desk: 'facilities_desk',
  facilities_manager: 'facilities_manager',
};

/**
 * The details of one request for an approver dashboard: a request the request policy shows on that role's
 * dashboard (anything else answers exactly like a request that does not exist), secrets removed.
 */
export async function formDetailsFor(
  db: Queryable,
  user: AuthUser,
  role: ApproverRole,
  ref: string,
  formType?: string | null,
): Promise<RequestRecord> {
  if (!ref || String(ref).trim() === '') throw badRequest('form_id is required');
  // Whether the caller works this dashboard does not depend on the request: refused before any lookup.
  assertRole(user, role);
  const row = await loadRecordByRef(db, ref);
  const relations = row ? viewRelations(user, row) : [];
  // A delegate (or the person an overdue stage escalated to) opens the items they decide for from their dashboard.
  if (!row || !(relations.includes(ROLE_RELATION[role]) || relations.includes('cover'))) throw notFound(NOT_FOUND_MESSAGE);
  if (formType && String(formType).trim() !== '' && normaliseFormType(formType) !== row.form_type) throw notFound(NOT_FOUND_MESSAGE);
  return approverView(withoutSensitive(user, row, toRecord(row)), user, role);
}

// ---- queues -------------------------------------------------------------------------------------

export interface QueueOptions {
  /** All (default): everything still waiting on the role, plus the newest others; or one state. */
  status?: 'All' | 'Pending' | 'Approved' | 'Rejected';
  /** Rows per part (waiting / others); default 50, at most 500. */
  limit?: number;
  formType?: string;
  /** The app clock's time, for how long each waiting row has waited (default: now). */
  now?: Date;
}

export const QUEUE_DEFAULT_LIMIT = 50;
export const QUEUE_MAX_LIMIT = 500;

interface QueueScope {
  /** Conditions of the role's requests (alias r), with $1 = caller id where needed. */
  scope: string;
  /** Still waiting on this role (index-backed). */
  waiting: string;
  /** Decided by (or no longer waiting on) this role. */
  others: string;
  /** SQL expression of the role's state of a row: Pending, Approved, Rejected, ... */
  stage: Stage;
  /** More requests of the role's queue with their own scope (HR: the steps passed on from a colleague). */
  extra?: Pick<QueueScope, 'scope' | 'waiting' | 'others'>;
}

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
// The manager's view-only IT tickets, from the registry at each call (migration 020's index lists the same types).
const ITT = () => list(formTypesOfKind('it-ticket'));

// The `waiting` conditions repeat the predicates of the partial indexes of migration 020 word for word.
const managerWaiting = () => `(r.current_stage = 'line_manager'
     OR (r.form_type IN (${ITT()}) AND r.current_stage IS NOT NULL
         AND ${notAcknowledgedSql()}))`;

/** Separation of duties in the queues: a request whose other step the caller ($1) decided is not offered to them
 * (someone else of the group decides this step), nor one a delegate decided another step of for the caller (the policy's
 * decidedOtherStep). The line-manager step comes first, so it needs no such check. */
const notDecidedByCaller = (stage: Stage) => `NOT ${decidedOtherStepSql('r.id', '$1', `'${stage}'`, 'x')}`;

function scopeOf(role: ApproverRole): QueueScope {
  switch (role) {
    case 'manager':
      return {
        scope: queueScopeSql('manager', '$1').scope,
        waiting: managerWaiting(),
        others: `NOT coalesce(${managerWaiting()}, false)`,
        stage: 'line_manager',
      };
    case 'hr':
      return {
        scope: queueScopeSql('hr', '$1').scope,
        waiting: `r.current_stage = 'hr' AND ${notDecidedByCaller('hr')}`,
        others: `r.current_stage IS NULL AND EXISTS (SELECT 1 FROM approvals h WHERE h.request_pk = r.id AND h.stage = 'hr' AND h.decision <> 'Pending')`,
        stage: 'hr',
        // The HR step of a request whose HR contact decided its line-manager step goes to the other HR staff
        // (migration 083's index holds these requests).
        extra: {
          scope: queueScopeSql('hr', '$1').extra!,
          waiting: `r.current_stage = 'hr'`,
          others: `r.current_stage IS NULL AND EXISTS (SELECT 1 FROM approvals h WHERE h.request_pk = r.id AND h.stage = 'hr' AND h.signer_id = $1)`,
        },
      };
    case 'finance':
      return {
        scope: queueScopeSql('finance', '$1').scope,
        waiting: `r.current_stage IS NOT NULL AND ${notDecidedByCaller('finance')}`,
        others: `r.current_stage IS NULL`,
        stage: 'finance',
      };
    case 'facilities_desk':
      return {
        scope: queueScopeSql('facilities_desk', '$1').scope,
        waiting: `r.current_stage = 'facilities_desk' AND ${notDecidedByCaller('facilities_desk')}`,
        others: `r.current_stage IS DISTINCT FROM 'facilities_desk'`,
        stage: 'facilities_desk',
      };
    case 'facilities_manager':
      return {
        scope: queueScopeSql('facilities_manager', '$1').scope,
        waiting: `r.current_stage IS NOT NULL AND ${notDecidedByCaller('facilities_manager')}`,
        others: `r.current_stage IS NULL`,
        stage: 'facilities_manager',
      };
  }
}

function clampLimit(limit: number | undefined): number {
  const n = Math.floor(Number(limit ?? QUEUE_DEFAULT_LIMIT));
  if (!Number.isFinite(n) || n < 1) return QUEUE_DEFAULT_LIMIT;
  return Math.min(n, QUEUE_MAX_LIMIT);
}

/**
 * The queue of `role` for `user`, newest first and bounded: every request still waiting on the role (up to
 * `limit`) plus the newest `limit` others; or only rows of one state. Rows are the flattened records with
 * `actionable`, `view_only` and `stage_state` for the caller.
 */
export async function queueFor(db: Queryable, user: AuthUser, role: ApproverRole, opts: QueueOptions = {}): Promise<RequestRecord[]> {
  assertRole(user, role);
  const limit = clampLimit(opts.limit);
  const s = scopeOf(role);
  const status = opts.status ?? 'All';
  const formType = opts.formType ? normaliseFormType(opts.formType) : null;
  // Role-wide scopes may not use the caller id; only pass the parameters a query uses.
  const scopes = [s, ...(s.extra ? [s.extra] : [])];
  const usesCaller = scopes.some((x) => `${x.scope} ${x.waiting} ${x.others}`.includes('$1'));
  const params: unknown[] = usesCaller ? [user.id] : [];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const lim = add(limit);
  const typeCond = formType ? ` AND r.form_type = ${add(formType)}` : '';
  const part = (scope: string, cond: string) =>
    `(SELECT r.id FROM requests r WHERE ${scope} AND ${cond}${typeCond} ORDER BY r.created_at DESC, r.id DESC LIMIT ${lim})`;
  const parts = (cond: (x: Pick<QueueScope, 'waiting' | 'others'>) => string) =>
    scopes.map((x) => part(x.scope, cond(x))).join(' UNION ALL ');

  let ids: string;
  if (status === 'Pending') ids = parts((x) => x.waiting);
  else if (status === 'Approved' || status === 'Rejected') {
    const decided =
      role === 'manager'
        ? `(EXISTS (SELECT 1 FROM approvals d WHERE d.request_pk = r.id AND d.stage = 'line_manager' AND d.decision = '${status}')` +
          (status === 'Approved' ? ` OR (r.form_type IN (${ITT()}) AND ${acknowledgedSql()}))` : ')')
        : `EXISTS (SELECT 1 FROM approvals d WHERE d.request_pk = r.id AND d.stage = '${s.stage}' AND d.decision = '${status}')`;
    // A stage rejection rejects the request (decideStage): for the line manager and HR, `r.status = 'Rejected'`
    // lets the partial indexes of migration 062 find those rows instead of walking every decided request of the
    // approver (1M requests: 14 -> 2 ms and 90 -> 20 ms). The role-wide queues keep their plan (10 ms).
    const viaStatus = status === 'Rejected' && (role === 'manager' || role === 'hr');
    ids = parts((x) => `${viaStatus ? "r.status = 'Rejected' AND " : ''}${x.others} AND ${decided}`);
  } else {
    ids = `${parts((x) => x.waiting)} UNION ALL ${parts((x) => x.others)}`;
  }
  const sql = `WITH q AS (${ids}) ${RECORD_SELECT} JOIN q ON q.id = r.id ORDER BY r.created_at DESC, r.id DESC`;
  // Prepared (a name per distinct text: role x state x type filter, a few dozen): planning the statement took as
  // long as running it (1-3 ms of a 2-5 ms queue read on 1,000,000 requests).
  const [res, settings] = await Promise.all([db.query(prepared(sql), params), reminderSettingsOf(db)]);
  const now = opts.now ?? new Date();
  return res.rows.map((row: RecordRow) => {
    const view = approverView(withoutSensitive(user, row, toRecord(row)), user, role);
    // Added to the spec's fields: how long a row still waiting on this role has waited, and whether it is overdue.
    const stage = ROLE_STAGE[role];
    if (row.current_stage === stage && row.approvals.find((a) => a.stage === stage)?.decision === 'Pending') {
      const waited = waitedDays(row, stage, now);
      view.waiting_days = waited;
      view.overdue = isOverdue(waited, settingsFor(settings, row.form_type));
    }
    return view;
  });
}

export interface QueueSummary {
  total_pending: number;
  total_approved: number;
  total_rejected: number;
  /** Requests of the role still waiting on it that it can decide now (earlier stages approved). */
  awaiting_action: number;
  /** Every request in the role's view, by form type. */
  forms_by_type: Record<string, number>;
}

/**
 * Counts of the role's stage from the approval_counts table (exact, kept by triggers): Pending counts what
 * still waits on the role (for finance and the facilities manager also what waits on an earlier stage,
 * as their Pending filter shows those rows too).
 */
export async function queueSummary(db: Queryable, user: AuthUser, role: ApproverRole): Promise<QueueSummary> {
  assertRole(user, role);
  const stage = ROLE_STAGE[role];
  const approver = role === 'manager' || role === 'hr' ? user.id : 0;
  const r = await db.query(
    `SELECT form_type, state, sum(n)::int AS n FROM approval_counts WHERE approver_id = $1 AND stage = $2 GROUP BY form_type, state`,
    [approver, stage],
  );
  const typeOk = ROLE_TYPES[role];
  const out: QueueSummary = { total_pending: 0, total_approved: 0, total_rejected: 0, awaiting_action: 0, forms_by_type: {} };
  const waitingCounts = role === 'finance' || role === 'facilities_manager';
  for (const row of r.rows as Array<{ form_type: string; state: string; n: number }>) {
    if (!typeOk(row.form_type) || row.n === 0) continue;
    const inView = role === 'hr' ? row.state !== 'Waiting' && row.state !== 'Closed' : true;
    if (inView) out.forms_by_type[row.form_type] = (out.forms_by_type[row.form_type] ?? 0) + row.n;
    if (row.state === 'Pending') {
      out.total_pending += row.n;
      out.awaiting_action += row.n;
    } else if (row.state === 'Waiting' && waitingCounts) out.total_pending += row.n;
    else if (row.state === 'Approved') out.total_approved += row.n;
    else if (row.state === 'Rejected') out.total_rejected += row.n;
  }
  return out;
}

// ---- audit history ------------------------------------------------------------------------------

export interface RequestHistory {
  request_id: string;
  form_type: string;
  status: string;
  events: HistoryEntry[];
}

/** Who did what at which stage and when, and how long each stage waited; for the owner and the request's approvers. */
export async function requestHistory(db: Queryable, user: AuthUser, ref: string): Promise<RequestHistory> {
  const row = await loadRecordByRef(db, ref);
  // Whoever may not see the request gets the answer of a request that does not exist.
  if (!row || !canViewRequest(user, row)) throw notFound(NOT_FOUND_MESSAGE);
  const sensitive = !canSeeSensitive(user, row);
  const r = await db.query(
    `SELECT e.event_type, e.stage, e.field, e.old_value, e.new_value, e.details, e.created_at,
            CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS actor_name
       FROM request_events e LEFT JOIN users u ON u.id = e.actor_id
      WHERE e.request_pk = $1 ORDER BY e.id LIMIT 1000`,
    [row.pk],
  );
  const events = r.rows.map((e) => {
    const details = { ...(e.details ?? {}) };
    // Never echo secrets that a field change might carry.
    for (const k of Object.keys(details)) if (/password/i.test(k)) delete details[k];
    // An edit's changes name each field: the sensitive ones only for those who may see them.
    if (sensitive && details.changes && typeof details.changes === 'object') {
      details.changes = Object.fromEntries(
        Object.entries(details.changes as Record<string, unknown>).filter(([k]) => !isSensitiveField(row.form_type, k)),
      );
    }
    const secretField = /password/i.test(String(e.field ?? '')) || (sensitive && isSensitiveField(row.form_type, String(e.field ?? '')));
    return {
      event_type: e.event_type,
      stage: e.stage,
      field: e.field,
      old_value: secretField ? null : e.old_value,
      new_value: secretField ? null : e.new_value,
      actor_name: e.actor_name,
      details,
      created_at: new Date(e.created_at).toISOString(),
    };
  });
  return { request_id: row.request_id, form_type: row.form_type, status: row.status, events: buildHistory(events) };
}
