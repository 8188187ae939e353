// The IT support desk: the ticket queue, IT incident lifecycle (Open, with a ticket number once IT takes it ->
// Resolved with resolution notes -> the employee confirms: Closed, or rejects: Open again), password resets (Pending Manager -> Pending IT Action -> Password Set
// -> Completed) with the new password encrypted at rest and shown only to its owner, and the line manager's
// acknowledgements. Every change locks the request row, checks the state, and writes request_events.
import { businessDate } from '../../domain/business-time.js';
import {
  DEFAULT_CONFIRMATION_NOTES,
  DEFAULT_REJECTION_REASON,
  IT_OFFICER_FALLBACK_NAME,
  awaitsEmployeeConfirmation,
  type ItFilter,
  derivedItSupportStatus,
  employeeResponseRefusal,
  itBucket,
  itDisplayStatus,
  itSupportStatusOf,
  mayCloseTicket,
  planTicketSave,
  setPasswordRefusal,
} from '../../domain/it.js';
import { FORM_TYPES, formTypesOfKind, itLifecycleOf, itTicketType } from '../../domain/forms.js';
import { WITHDRAWN_MESSAGE, isWithdrawn } from '../../domain/status.js';
import { QUEUE_DEFAULT_LIMIT, QUEUE_MAX_LIMIT } from '../approvals/service.js';
import type { Config } from '../config.js';
import { type Log, currentLogger, moduleLogger } from '../logger.js';
import { type Queryable, prepared } from '../db/pool.js';
import { recordEvent } from '../events/service.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { type AuthUser, fullName } from '../people/service.js';
import { queueRefusal } from '../policies/groups.js';
import { acknowledgeRefusal, answerResolutionRefusal, workTicketRefusal } from '../policies/it.js';
import { assertSelfRef } from '../policies/people.js';
import {
  acknowledgementGatesIt,
  canViewRequest,
  itWorkAllowedSql,
  managerAcknowledged,
  refusalError,
  viewRelations,
} from '../policies/requests.js';
import { RECORD_SELECT, type RecordRow, type RequestRecord, assertVersion, loadRecordByRef, toRecord } from '../requests/repo.js';
import { ownerReadsPassword } from './owner-password.js';
import { erasedMessage } from './reset-retention.js';
import { type SecretKey, passwordContext, resolveSecretKey, seal } from './secret-box.js';

/** The IT ticket types (the registry's kind 'it-ticket'): an incident and a password reset. */
export const IT_FORM_TYPES: readonly string[] = formTypesOfKind('it-ticket');
/** The type with the incident lifecycle (reported, resolved by IT, confirmed by its reporter). */
const INCIDENT_TYPE = itTicketType('incident');
/** The type with the password-reset lifecycle (acknowledged by the line manager, a password set by IT). */
const RESET_TYPE = itTicketType('password-reset');

/** Rows per part of the queue (open tickets / finished ones) unless the caller asks for another limit. */
export const IT_QUEUE_DEFAULT_LIMIT = QUEUE_DEFAULT_LIMIT;
/** The most rows per part a caller may ask for. */
export const IT_QUEUE_MAX_LIMIT = QUEUE_MAX_LIMIT;

export const MAX_PASSWORD_LENGTH = 200;

/** The server key encrypting reset passwords (ADMINEASE_SECRET_KEY, else the key file outside the data folder). */
/** The settings that say which key seals reset passwords. */
export type SealKeyConfig = Pick<Config, 'dataDir' | 'secretKey' | 'secretKeyFile'>;

/** The server key encrypting reset passwords (ADMINEASE_SECRET_KEY, else the key file outside the data folder). */
export function itSecretKey(config: SealKeyConfig, log: Log = currentLogger(moduleLogger('it-desk'))): SecretKey {
  return resolveSecretKey({
    dataDir: config.dataDir,
    keyFile: config.secretKeyFile,
    envKey: config.secretKey,
    onGenerated: (file) =>
      log.warn(
        `generated the key encrypting reset passwords at ${file} (outside the data folder); back it up separately, or set ADMINEASE_SECRET_KEY (the same on every instance)`,
      ),
    onMoved: (from, to) =>
      log.warn(
        `moved the key encrypting reset passwords out of the data folder: ${from} -> ${to}; back it up separately from the data folder`,
      ),
    onWarn: (msg) => log.warn(msg),
  });
}

/** For the demo seed: a reset password sealed for `employeeCode` with the key of `config`. */
export function sealForSeed(employeeCode: string, password: string, config: SealKeyConfig): string {
  return seal(itSecretKey(config), password, passwordContext(employeeCode));
}

export { isItStaff } from '../policies/groups.js';

/** The IT queue and the IT work are IT support's (the group rule). */
export function assertItStaff(user: AuthUser): void {
  const refusal = queueRefusal(user, 'it');
  if (refusal) throw forbidden(refusal);
}

/** The name IT writes on what it does: the profile name, else 'IT Support Officer'. */
export function itOfficerName(user: Pick<AuthUser, 'first_name' | 'last_name'>): string {
  return fullName(user).trim() || IT_OFFICER_FALLBACK_NAME;
}

/** The organisation's calendar day of a moment (the date IT resolved or reset something). */
const today = (now: Date) => businessDate(now);
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** A queue / details entry: the flattened record plus the IT dashboard's derived fields. Never a password. */
export function toTicket(row: RecordRow): RequestRecord {
  const rec = toRecord(row);
  const out: Record<string, unknown> = {
    // The queue fields every ticket carries (null when they do not apply), then the record itself.
    affected_system: null,
    incident_date: null,
    employee_system_number: null,
    it_helpdesk_ticket_number: null,
    ...rec,
    // IT set one (it may since have been erased: see reset-retention.ts)
    has_new_password: typeof row.data.new_password_enc === 'string' || typeof row.data.new_password_erased_at === 'string',
    it_queue_status: itBucket(rec),
    display_status: itDisplayStatus(rec),
    derived_it_support_status: derivedItSupportStatus(rec),
  };
  if (itLifecycleOf(row.form_type) === 'incident') {
    out.employee_confirmation_status = rec.employee_confirmation_status ?? 'Pending';
    // An incident's IT support status is derived from its state: In Progress, Closed, Completed or Rejected from the
    // status, 'Details Filled' once a ticket number and description exist, else Pending.
    out.it_support_status = out.derived_it_support_status;
  }
  if (itLifecycleOf(row.form_type) === 'password-reset') {
    out.it_support_status = itSupportStatusOf(effectiveResetRecord(row));
    out.it_queue_status = itBucket(out);
    out.display_status = itDisplayStatus(out);
    // The IT table's Affected System and Incident Date columns: the system being reset, asked for on the day of
    // the request.
    out.affected_system = rec.system_for_reset ?? null;
    out.incident_date = businessDate(rec.created_at as string);
  } else if (out.incident_date === null || out.incident_date === undefined || String(out.incident_date).trim() === '') {
    // An incident reported without its date: the day it was reported.
    out.incident_date = businessDate(rec.created_at as string);
  }
  return out as RequestRecord;
}

function eventRef(row: RecordRow) {
  return { pk: row.pk, request_id: row.request_id, form_type: row.form_type, employee_id: row.employee_user_id };
}

/** Loads an IT request of one of `types` and locks its row until the transaction ends; 404 when absent. */
/**
 * Locks the request `ref` for `user`'s change. A request of another type, or one the caller may not see (request
 * policy), answers exactly like a request that does not exist.
 */
async function lockRequest(c: Queryable, user: AuthUser, ref: unknown, types: readonly string[], what = 'Ticket'): Promise<RecordRow> {
  const s = typeof ref === 'number' ? String(ref) : trimmed(ref);
  if (s === '') throw badRequest('form_id is required');
  const found = await loadRecordByRef(c, s);
  if (!found || !types.includes(found.form_type) || !canViewRequest(user, found)) throw notFound(`${what} not found`);
  await c.query('SELECT 1 FROM requests WHERE id = $1 FOR UPDATE', [found.pk]);
  return (await loadRecordByRef(c, found.pk))!;
}

/**
 * The checks before IT works on a locked request: separation of duties (never one's own ticket, nor a reset one
 * acknowledged as its line manager) and, when the caller sent one, the version it saw.
 */
function assertMayWork(user: AuthUser, row: RecordRow, version?: number | null): void {
  const refusal = workTicketRefusal(user, row);
  if (refusal) throw refusalError(refusal, 'Ticket not found');
  assertVersion(row, version);
}

async function updateRequest(
  c: Queryable,
  pk: number,
  patch: Record<string, unknown>,
  status: string,
  currentStage: string | null,
  now: Date,
) {
  await c.query('UPDATE requests SET data = data || $2::jsonb, status = $3, current_stage = $4, updated_at = $5 WHERE id = $1', [
    pk,
    JSON.stringify(patch),
    status,
    currentStage,
    now,
  ]);
}

async function reload(c: Queryable, pk: number): Promise<RecordRow> {
  return (await loadRecordByRef(c, pk))!;
}

// ---- queue and details (IT staff) -------------------------------------------------------------

export interface ItQueueOptions {
  /**
   * The IT dashboard's status filter: All (default) = open tickets plus the newest finished ones;
   * Open / Resolved = open tickets whose it_queue_status is that; Closed = the newest finished ones.
   */
  status?: ItFilter;
  /** Rows per part (open tickets / finished ones); default 50, at most 500. */
  limit?: number;
  /** Only this type: one of IT_FORM_TYPES. */
  formType?: string;
}

function itQueueLimit(limit: number | undefined): number {
  const n = Math.floor(Number(limit ?? IT_QUEUE_DEFAULT_LIMIT));
  if (!Number.isFinite(n) || n < 1) return IT_QUEUE_DEFAULT_LIMIT;
  return Math.min(n, IT_QUEUE_MAX_LIMIT);
}

// itBucket (src/domain/it.ts) in SQL: 'Open', 'Resolved' or 'Closed' of a request row r. Keep the two in step.
const SQL_STATUS = `lower(btrim(r.status))`;
const SQL_RESET_STATUS = `lower(btrim(coalesce(r.data->>'it_support_status', '')))`;
export const SQL_IT_BUCKET = `(CASE
    WHEN ${SQL_STATUS} IN ('cancelled', 'withdrawn') THEN 'Closed'
    WHEN r.form_type = '${RESET_TYPE}' THEN (CASE
      WHEN ${SQL_STATUS} IN ('rejected', 'completed') OR ${SQL_RESET_STATUS} = 'completed' THEN 'Closed'
      WHEN ${SQL_RESET_STATUS} = 'password set' THEN 'Resolved'
      ELSE 'Open' END)
    WHEN ${SQL_STATUS} IN ('closed', 'rejected') THEN 'Closed'
    WHEN ${SQL_STATUS} = 'resolved' THEN 'Resolved'
    ELSE 'Open' END)`;

/**
 * Only the IT forms have the IT helpdesk stage in their chain, so `current_stage = 'it_helpdesk'` alone picks the
 * open tickets of both types, through requests_stage_created_idx in index order. (A form_type condition next to it
 * makes the planner AND in a bitmap of requests_type_created_idx: every incident or reset ever filed.)
 */
const HELPDESK_ONLY_IT = FORM_TYPES.filter((t) => t.chain.includes('it_helpdesk')).every((t) => IT_FORM_TYPES.includes(t.formType));

/**
 * The IT queue, newest first and bounded: the open tickets (still at the IT helpdesk stage, up to `limit`)
 * plus the newest `limit` finished ones, or only one bucket of the dashboard's filter. Like the approver
 * queues, the ids are picked first through indexes (open: requests_stage_created_idx; finished: the newest of
 * each type through requests_type_created_idx) and only those rows are loaded in full.
 */
export async function itQueue(c: Queryable, user: AuthUser, opts: ItQueueOptions = {}): Promise<RequestRecord[]> {
  assertItStaff(user);
  const limit = itQueueLimit(opts.limit);
  const status: ItFilter = opts.status ?? 'All';
  const types: readonly string[] = opts.formType ? [opts.formType] : IT_FORM_TYPES;
  const params: unknown[] = [limit];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };

  const open = (bucket?: 'Open' | 'Resolved') => {
    const typeCond =
      types.length === 1 ? ` AND r.form_type = ${add(types[0])}` : HELPDESK_ONLY_IT ? '' : ` AND r.form_type = ANY(${add(types)}::text[])`;
    // "not one of the other two buckets" (the same rows): the planner then reads the stage index in order and
    // stops at `limit`, where "= bucket" (estimated at 0.5% of the rows) makes it fetch and sort every open ticket.
    const others = bucket === 'Open' ? `'Resolved', 'Closed'` : `'Open', 'Closed'`;
    const bucketCond = bucket ? ` AND ${SQL_IT_BUCKET} NOT IN (${others})` : '';
    // Separation of duties: the caller's own tickets and the resets they acknowledged as line manager are worked by
    // a colleague, so they are not offered to the caller.
    const notMine = ` AND ${itWorkAllowedSql(add(user.id))}`;
    return `(SELECT r.id FROM requests r WHERE r.current_stage = 'it_helpdesk'${typeCond}${bucketCond}${notMine}
       ORDER BY r.created_at DESC, r.id DESC LIMIT $1)`;
  };
  // One ordered index scan per type, merged (one scan over both types would have to sort all their rows).
  const finished = () =>
    `(SELECT f.id FROM (${types
      .map(
        (t) => `(SELECT r.id, r.created_at FROM requests r WHERE r.form_type = ${add(t)} AND r.current_stage IS NULL
          ORDER BY r.created_at DESC, r.id DESC LIMIT $1)`,
      )
      .join(' UNION ALL ')}) f
       ORDER BY f.created_at DESC, f.id DESC LIMIT $1)`;

  let ids: string;
  if (status === 'Open' || status === 'Resolved') ids = open(status);
  else if (status === 'Closed') ids = finished();
  else ids = `${open()} UNION ALL ${finished()}`;

  // Prepared, as the approver queues are: a name per distinct text (status x type filter).
  const r = await c.query(
    prepared(`WITH q AS (${ids}) ${RECORD_SELECT} JOIN q ON q.id = r.id ORDER BY r.created_at DESC, r.id DESC`),
    params,
  );
  return (r.rows as RecordRow[]).map(toTicket);
}

export async function itFormDetails(c: Queryable, user: AuthUser, formId: unknown, formType?: unknown): Promise<RequestRecord> {
  assertItStaff(user);
  const s = trimmed(formId) || (typeof formId === 'number' ? String(formId) : '');
  if (s === '') throw badRequest('form_id is required');
  const row = await loadRecordByRef(c, s);
  const type = trimmed(formType);
  // The IT dashboard shows what the request policy puts on it; anything else does not exist here.
  if (!row || !viewRelations(user, row).includes('it') || (type !== '' && type !== row.form_type)) {
    throw notFound('Ticket not found');
  }
  return toTicket(row);
}

// ---- incidents (IT staff) ---------------------------------------------------------------------

export interface SaveTicketInput {
  form_id: string | number;
  it_helpdesk_ticket_number?: string | null;
  it_resolution_notes?: string | null;
  it_helpdesk_assigned_to?: string | null;
  /** The ticket's version the caller saw; when given and no longer the stored one: 409. */
  version?: number | null;
}

/**
 * Saves the ticket number (required, trimmed), the assignee and the resolution notes (trimmed; blank = none).
 * With notes the incident becomes Resolved and waits for the employee; without, it stays Open (assigned), so IT
 * can update it again from either dashboard.
 */
export async function saveTicketDetails(c: Queryable, user: AuthUser, input: SaveTicketInput, now: Date): Promise<RequestRecord> {
  assertItStaff(user);
  const ticketNumber = trimmed(input.it_helpdesk_ticket_number);
  if (ticketNumber === '') throw badRequest('IT Ticket Number is required');
  const notes = trimmed(input.it_resolution_notes);
  const row = await lockRequest(c, user, input.form_id, [INCIDENT_TYPE]);
  assertMayWork(user, row, input.version);
  const rec = toRecord(row);
  const plan = planTicketSave(rec, { ticketNumber, resolutionNotes: notes || null });
  if (!plan.ok) throw new HttpError(plan.code, plan.error);

  const officer = itOfficerName(user);
  const assignedTo = trimmed(input.it_helpdesk_assigned_to) || trimmed(rec.it_helpdesk_assigned_to) || officer;
  const patch: Record<string, unknown> = {
    it_helpdesk_ticket_number: ticketNumber,
    it_helpdesk_assigned_to: assignedTo,
    employee_confirmation_status: plan.employeeConfirmationStatus,
    it_helpdesk_updated_by: officer,
    it_helpdesk_updated_at: now.toISOString(),
  };
  if (plan.resolved) {
    Object.assign(patch, {
      it_resolution_notes: notes,
      it_resolution_date: today(now),
      it_resolved_by: officer,
      it_resolved_by_id: user.id, // signs the IT helpdesk step when the employee's confirmation closes the ticket
      // A new resolution asks afresh: earlier answers of the employee no longer apply.
      employee_confirmation_date: null,
      employee_confirmation_notes: null,
    });
  }
  await updateRequest(c, row.pk, patch, plan.status, 'it_helpdesk', now);
  // One event per changed field the employee follows (notifications keep the most telling one per request).
  const details = {
    it_helpdesk_ticket_number: ticketNumber,
    it_helpdesk_assigned_to: assignedTo,
    it_resolution_notes: plan.resolved ? notes : null,
    employee_confirmation_status: plan.employeeConfirmationStatus,
    updated_by: officer,
  };
  const changes: Array<[string, unknown, unknown]> = [
    ['status', row.status, plan.status],
    ['it_helpdesk_ticket_number', rec.it_helpdesk_ticket_number, ticketNumber],
    ['it_helpdesk_assigned_to', rec.it_helpdesk_assigned_to, assignedTo],
  ];
  let wrote = false;
  for (const [field, before, after] of changes) {
    if ((before ?? null) === after) continue;
    wrote = true;
    await recordEvent(c, {
      request: eventRef(row),
      actorId: user.id,
      eventType: 'ticket_updated',
      stage: 'it_helpdesk',
      field,
      oldValue: before === undefined || before === null ? null : String(before),
      newValue: String(after),
      at: now,
      details,
    });
  }
  if (!wrote) {
    // Same status, number and assignee: the notes changed (or nothing did); still one entry in the log.
    await recordEvent(c, {
      request: eventRef(row),
      actorId: user.id,
      eventType: 'ticket_updated',
      stage: 'it_helpdesk',
      field: 'it_resolution_notes',
      oldValue: null,
      newValue: null,
      at: now,
      details,
    });
  }
  return toTicket(await reload(c, row.pk));
}

/**
 * Closes a resolved incident that the employee confirmed as solved; the IT helpdesk step becomes Completed. Today
 * the confirmation closes the ticket itself: this serves tickets confirmed under older versions.
 */
export async function closeTicket(
  c: Queryable,
  user: AuthUser,
  formId: unknown,
  now: Date,
  version?: number | null,
): Promise<RequestRecord> {
  assertItStaff(user);
  const row = await lockRequest(c, user, formId, [INCIDENT_TYPE]);
  assertMayWork(user, row, version);
  const rec = toRecord(row);
  if (!mayCloseTicket(rec)) {
    throw conflict(
      String(rec.status) === 'Closed'
        ? 'This ticket is already closed'
        : 'Only a resolved ticket that the employee has confirmed as solved can be closed',
    );
  }
  const officer = itOfficerName(user);
  await updateRequest(c, row.pk, { it_closed_by: officer, it_closed_at: now.toISOString() }, 'Closed', null, now);
  await c.query(
    `UPDATE approvals SET decision = 'Completed', signer_id = $2, signer_name = $3, decided_at = $4
      WHERE request_pk = $1 AND stage = 'it_helpdesk' AND decision = 'Pending'`,
    [row.pk, user.id, officer, now],
  );
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'status_change',
    stage: 'it_helpdesk',
    field: 'status',
    oldValue: row.status,
    newValue: 'Closed',
    at: now,
    details: { it_helpdesk_ticket_number: rec.it_helpdesk_ticket_number ?? null, it_helpdesk_approval: 'Completed', closed_by: officer },
  });
  // The helpdesk step's decision, logged too; the status change above is what people are told about.
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'decision',
    stage: 'it_helpdesk',
    field: 'it_helpdesk_approval',
    oldValue: 'Pending',
    newValue: 'Completed',
    at: now,
    notify: false,
    details: { signer_name: officer },
  });
  return toTicket(await reload(c, row.pk));
}

// ---- the reporting employee's confirmation -------------------------------------------------------

export interface ConfirmationInput {
  form_id: string | number;
  employee_id?: string | number | null;
  confirmation_notes?: string | null;
  rejection_reason?: string | null;
}

function assertSelfIfNamed(user: AuthUser, employeeId: unknown) {
  assertSelfRef(user, employeeId, 'You may only answer for your own IT tickets');
}

async function lockOwnIncident(c: Queryable, user: AuthUser, input: ConfirmationInput): Promise<RecordRow> {
  assertSelfIfNamed(user, input.employee_id);
  const row = await lockRequest(c, user, input.form_id, [INCIDENT_TYPE]);
  const notOwner = answerResolutionRefusal(user, row);
  if (notOwner) throw refusalError(notOwner, 'Ticket not found');
  const refusal = employeeResponseRefusal(toRecord(row));
  if (refusal) throw conflict(refusal);
  return row;
}

/**
 * The reporting employee confirms a resolved incident as solved: that closes it (status Closed, no stage left) and
 * completes the IT helpdesk step, signed by the IT officer who resolved it. Nobody has to act after the employee,
 * which is what the original IT dashboard expects: it offers no action on a confirmed ticket.
 */
export async function confirmProblemSolved(c: Queryable, user: AuthUser, input: ConfirmationInput, now: Date) {
  const row = await lockOwnIncident(c, user, input);
  const notes = trimmed(input.confirmation_notes).slice(0, 1000) || DEFAULT_CONFIRMATION_NOTES;
  const old = String(row.data.employee_confirmation_status ?? 'Pending');
  const resolver = String(row.data.it_resolved_by ?? row.data.it_helpdesk_assigned_to ?? IT_OFFICER_FALLBACK_NAME);
  const resolverId = typeof row.data.it_resolved_by_id === 'number' ? row.data.it_resolved_by_id : null;
  await updateRequest(
    c,
    row.pk,
    {
      employee_confirmation_status: 'Confirmed',
      employee_confirmation_date: now.toISOString(),
      employee_confirmation_notes: notes,
      it_closed_at: now.toISOString(),
    },
    'Closed',
    null,
    now,
  );
  await c.query(
    `UPDATE approvals SET decision = 'Completed', signer_id = $2, signer_name = $3, decided_at = $4
      WHERE request_pk = $1 AND stage = 'it_helpdesk' AND decision = 'Pending'`,
    [row.pk, resolverId, resolver, now],
  );
  const ticketNumber = row.data.it_helpdesk_ticket_number ?? null;
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'employee_confirmation',
    stage: 'it_helpdesk',
    field: 'employee_confirmation_status',
    oldValue: old,
    newValue: 'Confirmed',
    at: now,
    details: { confirmation_notes: notes, it_helpdesk_ticket_number: ticketNumber },
  });
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'status_change',
    stage: 'it_helpdesk',
    field: 'status',
    oldValue: row.status,
    newValue: 'Closed',
    at: now,
    details: { it_helpdesk_ticket_number: ticketNumber, it_helpdesk_approval: 'Completed', closed_by: 'employee_confirmation' },
  });
  // The helpdesk step's decision, logged too; the status change above is what people are told about.
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'decision',
    stage: 'it_helpdesk',
    field: 'it_helpdesk_approval',
    oldValue: 'Pending',
    newValue: 'Completed',
    at: now,
    notify: false,
    details: { signer_name: resolver },
  });
  const ticket = toTicket(await reload(c, row.pk));
  return {
    success: true,
    message: 'Problem confirmed as solved. The ticket is closed.',
    form_id: ticket.request_id,
    it_helpdesk_ticket_number: ticket.it_helpdesk_ticket_number ?? null,
    status: ticket.status,
    employee_confirmation_status: 'Confirmed',
    ticket,
  };
}

export async function rejectResolution(c: Queryable, user: AuthUser, input: ConfirmationInput, now: Date) {
  const row = await lockOwnIncident(c, user, input);
  const reason = trimmed(input.rejection_reason).slice(0, 1000) || DEFAULT_REJECTION_REASON;
  const oldConfirmation = String(row.data.employee_confirmation_status ?? 'Pending');
  await updateRequest(
    c,
    row.pk,
    {
      employee_confirmation_status: 'Rejected',
      employee_confirmation_date: now.toISOString(),
      employee_rejection_reason: reason,
    },
    'Open',
    'it_helpdesk',
    now,
  );
  const details = { rejection_reason: reason, it_helpdesk_ticket_number: row.data.it_helpdesk_ticket_number ?? null };
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'employee_confirmation',
    stage: 'it_helpdesk',
    field: 'employee_confirmation_status',
    oldValue: oldConfirmation,
    newValue: 'Rejected',
    at: now,
    details,
  });
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'status_change',
    stage: 'it_helpdesk',
    field: 'status',
    oldValue: row.status,
    newValue: 'Open',
    at: now,
    details,
  });
  const ticket = toTicket(await reload(c, row.pk));
  return {
    success: true,
    message: 'Resolution rejected. IT Support will continue working on this ticket.',
    form_id: ticket.request_id,
    it_helpdesk_ticket_number: ticket.it_helpdesk_ticket_number ?? null,
    status: 'Open',
    employee_confirmation_status: 'Rejected',
    ticket,
  };
}

/** The caller's resolved incidents that wait for their confirmation. */
export async function pendingConfirmations(c: Queryable, user: AuthUser, employeeId: unknown) {
  assertSelfIfNamed(user, employeeId);
  const r = await c.query(
    `${RECORD_SELECT} WHERE r.employee_id = $1 AND r.form_type = '${INCIDENT_TYPE}' AND r.status = 'Resolved'
      ORDER BY r.created_at DESC, r.id DESC LIMIT 500`,
    [user.id],
  );
  const tickets = (r.rows as RecordRow[]).map(toTicket).filter((t) => awaitsEmployeeConfirmation(t));
  return { success: true, employee_id: user.employee_code, count: tickets.length, tickets };
}

// ---- password resets ------------------------------------------------------------------------------

export interface SavePasswordInput {
  form_id?: string | number;
  request_id?: string | number;
  new_password?: string | null;
  it_helpdesk_reset_by?: string | null;
  /** The reset's version the caller saw; when given and no longer the stored one: 409. */
  version?: number | null;
}

/** A reset whose employee has no line manager cannot wait for an acknowledgement: it goes to IT directly. */
function effectiveResetRecord(row: RecordRow): RequestRecord {
  const rec = toRecord(row);
  if (row.line_manager_id === null && itSupportStatusOf(rec) === 'Pending Manager')
    return { ...rec, it_support_status: 'Pending IT Action' };
  return rec;
}

/**
 * IT sets the new password of a reset that waits for IT: stored encrypted (never in plain text), status
 * Password Set. It is a one-time value for the system the employee named (Email, ERP, CRM, VPN or Other) and never
 * touches the employee's AdminEase sign-in password. The resetting agent is the signed-in IT officer (a name in
 * the body is ignored).
 */
export async function savePasswordResetDetails(
  c: Queryable,
  config: Pick<Config, 'dataDir' | 'secretKey' | 'secretKeyFile'>,
  user: AuthUser,
  input: SavePasswordInput,
  now: Date,
) {
  assertItStaff(user);
  const password = typeof input.new_password === 'string' ? input.new_password : '';
  if (password.trim() === '') throw badRequest('New password is required');
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest(`New password is too long (at most ${MAX_PASSWORD_LENGTH} characters)`);
  const key = itSecretKey(config); // before any change: a misconfigured key refuses cleanly
  const row = await lockRequest(c, user, input.form_id ?? input.request_id, [RESET_TYPE], 'Password reset request');
  assertMayWork(user, row, input.version);
  const rec = effectiveResetRecord(row);
  const refusal = setPasswordRefusal(rec);
  if (refusal) throw conflict(refusal);

  const officer = itOfficerName(user);
  const oldStatus = itSupportStatusOf(toRecord(row));
  await updateRequest(
    c,
    row.pk,
    {
      new_password_enc: seal(key, password, passwordContext(row.employee_code)),
      new_password_set_at: now.toISOString(), // the stored password's time limit counts from here
      has_new_password: true,
      it_helpdesk_reset_by: officer,
      it_helpdesk_reset_by_id: user.id,
      it_helpdesk_date: today(now),
      it_support_status: 'Password Set',
    },
    row.status,
    'it_helpdesk',
    now,
  );
  await recordEvent(c, {
    request: eventRef(row),
    actorId: user.id,
    eventType: 'password_set',
    stage: 'it_helpdesk',
    field: 'it_support_status',
    oldValue: oldStatus,
    newValue: 'Password Set',
    at: now,
    details: { it_helpdesk_reset_by: officer, system_for_reset: rec.system_for_reset ?? null },
  });
  return {
    success: true,
    message: 'Password reset details saved',
    rows_updated: 1,
    form_id: row.request_id,
    it_support_status: 'Password Set',
  };
}

/**
 * Shows the new password to the employee who asked for the reset, and only to them (owner-password.ts: logged, the
 * first read completes the reset). An erased or expired password is a 409 saying so (reset-retention.ts).
 */
export async function revealNewPassword(
  c: Queryable,
  config: Pick<Config, 'dataDir' | 'secretKey' | 'secretKeyFile' | 'resetPasswordTtlHours'>,
  user: AuthUser,
  formId: unknown,
  now: Date,
) {
  const row = await lockRequest(c, user, formId, [RESET_TYPE], 'Password reset request');
  // (A reset the caller may not see at all answered like a missing one above; those who see it, IT and the
  // line manager, are told that only its owner reads the password.)
  const read = await ownerReadsPassword(
    c,
    { key: () => itSecretKey(config), ttlHours: config.resetPasswordTtlHours, now },
    user,
    row,
    'reveal',
  );
  if (!read.shown) {
    if (read.reason === 'not_set') throw conflict('No new password has been set for this request yet');
    throw conflict(erasedMessage(read.reason === 'erased' ? row.data : {}));
  }
  return {
    success: true,
    form_id: row.request_id,
    system_for_reset: row.data.system_for_reset ?? null,
    new_password: read.password,
    it_support_status: read.completed ? 'Completed' : read.before,
    status: read.completed ? 'Completed' : row.status,
  };
}

// ---- the line manager's acknowledgements (called by the approvals feature) ----------------------------

export interface AcknowledgeResult {
  /** False when the manager had already acknowledged (nothing changed, no event). */
  changed: boolean;
  record: RequestRecord;
}

async function acknowledge(
  c: Queryable,
  request: string | number,
  manager: AuthUser,
  formType: string,
  now: Date,
  version?: number | null,
): Promise<AcknowledgeResult> {
  const what = acknowledgementGatesIt(formType) ? 'Password reset request' : 'IT incident';
  const row = await lockRequest(c, manager, request, [formType], what);
  const refusal = acknowledgeRefusal(manager, row);
  if (refusal) throw refusalError(refusal, `${what} not found`);
  assertVersion(row, version);
  const rec = toRecord(row);
  if (isWithdrawn(rec)) throw conflict(WITHDRAWN_MESSAGE);
  const moveOn = acknowledgementGatesIt(formType) && itSupportStatusOf(rec) === 'Pending Manager' && String(row.status) !== 'Rejected';
  const already = managerAcknowledged(row);
  if (already && !moveOn) return { changed: false, record: toTicket(row) };

  const name = fullName(manager);
  const patch: Record<string, unknown> = {
    line_manager_acknowledgement: true,
    line_manager_acknowledged_by: name,
    line_manager_acknowledged_at: now.toISOString(),
  };
  if (moveOn) patch.it_support_status = 'Pending IT Action';
  await updateRequest(c, row.pk, patch, row.status, row.current_stage, now);
  if (!already) {
    await recordEvent(c, {
      request: eventRef(row),
      actorId: manager.id,
      eventType: 'acknowledged',
      stage: 'line_manager',
      field: 'line_manager_acknowledgement',
      oldValue: row.data.line_manager_acknowledgement === undefined ? null : String(row.data.line_manager_acknowledgement),
      newValue: 'true',
      at: now,
      details: { acknowledged_by: name },
    });
  }
  if (moveOn) {
    await recordEvent(c, {
      request: eventRef(row),
      actorId: manager.id,
      eventType: 'status_change',
      stage: 'it_helpdesk',
      field: 'it_support_status',
      oldValue: 'Pending Manager',
      newValue: 'Pending IT Action',
      at: now,
    });
  }
  return { changed: true, record: toTicket(await reload(c, row.pk)) };
}

/**
 * The line manager acknowledges a team member's password reset: line_manager_acknowledgement true and the
 * reset moves from Pending Manager to Pending IT Action. Idempotent. Call inside a transaction.
 * 404 when `request` is not a password reset, 403 when `manager` is not the request's line manager.
 */
export function acknowledgePasswordReset(
  c: Queryable,
  request: string | number,
  manager: AuthUser,
  now: Date = new Date(),
  version?: number | null,
): Promise<AcknowledgeResult> {
  return acknowledge(c, request, manager, RESET_TYPE, now, version);
}

/** The line manager acknowledges (views) a team member's IT incident: line_manager_acknowledgement true. Idempotent. */
export function acknowledgeItIncident(
  c: Queryable,
  request: string | number,
  manager: AuthUser,
  now: Date = new Date(),
  version?: number | null,
): Promise<AcknowledgeResult> {
  return acknowledge(c, request, manager, INCIDENT_TYPE, now, version);
}
