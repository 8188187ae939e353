// Submitting, editing and withdrawing requests: the one path every channel (REST forms, catalogue forms,
// the assistant) uses, so validation and the event log are the same everywhere. Also the employee's lists.
import { businessDate } from '../../domain/business-time.js';
import { dateRuleIssue, firstIssueMessage, formSchema, formTypeDef, isFormTypeEnabled, isLeaveType } from '../../domain/forms.js';
import { disabledTypeError } from '../form-types/service.js';
import { refreshDataChain } from '../form-types/chain.js';
import { type Db, type Queryable, prepared } from '../db/pool.js';
import { recordEvent } from '../events/service.js';
import { invalidateQueues, scopeOfRecords } from '../approvals/queue-cache.js';
import { HttpError, badRequest, conflict, notFound } from '../http/errors.js';
import { type AuthUser, fullName } from '../people/service.js';
import { assertMayViewPerson, assertSelfRef } from '../policies/people.js';
import { mayEditRequest, mayWithdrawRequest } from '../policies/owner-changes.js';
import { NOT_FOUND_MESSAGE, canViewRequest, changeRefusal, viewScopeSql, withoutSensitive } from '../policies/requests.js';
import { type PasswordAccess, type PasswordChannel, readOwnPasswords } from '../it-desk/owner-password.js';
import { RECORD_SELECT, type RecordRow, type RequestRecord, insertRequest, loadRecordByRef, toRecord } from '../requests/repo.js';
import { checkLeaveRules } from './leave.js';

/** At most this many requests per form type in GET /api/forms/user-forms (newest first). */
export const USER_FORMS_PER_TYPE_LIMIT = 100;
/** At most this many requests in the single-type lists (leave requests, purchase requisitions). */
export const TYPE_LIST_LIMIT = 200;

/** Statuses in which nothing has happened yet beyond submission. */

/** The form's fields checked by its schema and, before anything counts days, its date rules relative to `now`. */
function validate(formType: string, input: unknown, now: Date): Record<string, unknown> {
  if (!formTypeDef(formType)) throw notFound(`Unknown form type: ${formType}`);
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw badRequest('Send the form fields as a JSON object');
  }
  const parsed = formSchema(formType).safeParse(input ?? {});
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
  // the date rules (past dates, window, period length) of the company's business date: a field error
  const dateIssue = dateRuleIssue(formType, parsed.data as Record<string, unknown>, now);
  if (dateIssue) throw new HttpError(400, dateIssue.message, { field: dateIssue.field });
  return parsed.data as Record<string, unknown>;
}

/**
 * Bodies of the spec's catalogue forms carry employee_id (and name, department, manager). Identity always comes
 * from the session; an employee_id naming someone else is refused rather than silently ignored.
 */
export function assertBodyIdentity(user: AuthUser, body: unknown): void {
  if (!body || typeof body !== 'object') return;
  assertSelfRef(user, (body as Record<string, unknown>).employee_id, 'You can only submit forms for yourself');
}

/** Runs a request write in a transaction; after the commit this instance's answers it affects are dropped at once
 * (other instances hear of it from PostgreSQL), so the writer's next read sees the change. */
async function writeRequest<T>(db: Db, fn: (c: Queryable) => Promise<T>): Promise<T> {
  const out = await db.tx(fn);
  invalidateQueues(db, scopeOfRecords(out)); // the written requests' owners and types; everything when unknown
  return out;
}

/** Validates `input` with the form type's schema and stores a request for `user` (never for someone else). */
export async function submitForm(db: Db, user: AuthUser, formType: string, input: unknown, now: Date = new Date()): Promise<RequestRecord> {
  const def = formTypeDef(formType);
  if (def && !isFormTypeEnabled(formType)) throw disabledTypeError(def.title);
  const fields = validate(formType, input, now);
  return writeRequest(db, async (c) => {
    const extra: Record<string, unknown> = {};
    if (isLeaveType(formType)) {
      // Serialise one employee's leave submissions so two at once cannot both pass the overlap check.
      await c.query('SELECT pg_advisory_xact_lock(742100, $1)', [user.id]);
      Object.assign(extra, await checkLeaveRules(c, user, fields));
    }
    // What the registry says every new request of the type starts with (IT bookkeeping, a date of today).
    Object.assign(extra, def!.initialData);
    if (def!.todayDefault && !fields[def!.todayDefault]) extra[def!.todayDefault] = businessDate(now);
    const stored = await insertRequest(c, {
      formType,
      employeeId: user.id,
      lineManagerId: user.manager_id,
      hrContactId: user.hr_contact_id,
      // The signed-in submission is the employee's signature (the spec's employee_signature / _date fields).
      data: {
        ...fields,
        ...extra,
        employee_name: fullName(user),
        department: user.department_name ?? 'Unknown',
        employee_signature: fullName(user),
        employee_signature_date: businessDate(now),
      },
      createdAt: now,
    });
    await recordEvent(c, {
      request: { pk: stored.pk, request_id: stored.request_id, form_type: formType, employee_id: user.id },
      actorId: user.id,
      eventType: 'submitted',
      field: 'status',
      newValue: stored.status,
      // Which version of its type the request follows (a type edited later keeps this request on its old version).
      ...(def!.version && def!.version > 1 ? { details: { form_type_version: def!.version } } : {}),
      at: now,
    });
    return toRecord((await loadRecordByRef(c, stored.pk))!);
  });
}

/** A request as a record, for code that already holds a client (e.g. inside a transaction). */
export async function recordOf(c: Queryable, ref: string | number): Promise<RequestRecord | undefined> {
  const row = await loadRecordByRef(c, ref);
  return row ? toRecord(row) : undefined;
}

interface LockedRequest {
  pk: number;
  request_id: string;
  form_type: string;
  employee_id: number;
  status: string;
  data: Record<string, unknown>;
}

/** Locks the request row and its approval rows (so no decision can land meanwhile) and checks ownership. */
async function lockOwnRequest(
  c: Queryable,
  user: AuthUser,
  ref: string | number,
  formType?: string,
): Promise<{ req: LockedRequest; decisions: string[] }> {
  const s = String(ref ?? '').trim();
  if (s === '') throw notFound('Request not found');
  const r = await c.query(
    `SELECT id AS pk, request_id, form_type, employee_id, status, data FROM requests
      WHERE ${/^\d{1,15}$/.test(s) ? 'id = $1::bigint' : 'request_id = upper($1)'} FOR UPDATE`,
    [s],
  );
  const req = r.rows[0] as LockedRequest | undefined;
  if (!req || (formType !== undefined && req.form_type !== formType)) throw notFound('Request not found');
  // Only the owner changes a request; to a stranger someone else's request does not exist (request policy).
  const full = await loadRecordByRef(c, req.pk);
  const refusal = full ? changeRefusal(user, full) : { status: 404, message: NOT_FOUND_MESSAGE };
  if (refusal) throw new HttpError(refusal.status, refusal.message);
  const a = await c.query('SELECT decision FROM approvals WHERE request_pk = $1 ORDER BY seq FOR UPDATE', [req.pk]);
  return { req, decisions: a.rows.map((x: { decision: string }) => x.decision) };
}

/**
 * The owner edits a request while nothing has been decided: the body is the whole form again, validated like a
 * submission (leave rules re-checked without the request itself); server-set fields are kept.
 */
export async function editRequest(
  db: Db,
  user: AuthUser,
  formType: string,
  ref: string | number,
  input: unknown,
  now: Date = new Date(),
): Promise<RequestRecord> {
  const fields = validate(formType, input, now);
  const def = formTypeDef(formType)!;
  return writeRequest(db, async (c) => {
    if (isLeaveType(formType)) await c.query('SELECT pg_advisory_xact_lock(742100, $1)', [user.id]);
    const { req, decisions } = await lockOwnRequest(c, user, ref, formType);
    if (!mayEditRequest({ ...req, decisions }))
      throw conflict('This request can no longer be edited: a decision has already been made on it');
    const extra: Record<string, unknown> = {};
    if (isLeaveType(formType)) Object.assign(extra, await checkLeaveRules(c, user, fields, req.pk));
    const kept = Object.fromEntries(Object.entries(req.data).filter(([k]) => !def.fields.some((f) => f.name === k)));
    const next = { ...kept, ...fields, ...extra };
    const today = def.todayDefault;
    if (today && !next[today]) next[today] = req.data[today] ?? businessDate(now);
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    for (const k of new Set([...def.fields.map((f) => f.name), ...Object.keys(extra)])) {
      if (JSON.stringify(req.data[k] ?? null) !== JSON.stringify(next[k] ?? null))
        changes[k] = { old: req.data[k] ?? null, new: next[k] ?? null };
    }
    if (Object.keys(changes).length > 0) {
      await c.query('UPDATE requests SET data = $2, updated_at = $3 WHERE id = $1', [req.pk, JSON.stringify(next), now]);
      // A chain defined as data applies its conditions to the new values (issue 20).
      await refreshDataChain(c, req.pk, next);
      await recordEvent(c, {
        request: { pk: req.pk, request_id: req.request_id, form_type: req.form_type, employee_id: req.employee_id },
        actorId: user.id,
        eventType: 'edited',
        details: { changes },
        at: now, // tells the current step's approvers
      });
    }
    return toRecord((await loadRecordByRef(c, req.pk))!);
  });
}

/**
 * The owner withdraws a pending request: status Cancelled, no current stage (it leaves every queue), and a
 * 'withdrawn' event. Used by the REST route and the assistant.
 */
export async function withdrawRequest(
  db: Db,
  user: AuthUser,
  ref: string | number,
  opts: { formType?: string; now?: Date } = {},
): Promise<RequestRecord> {
  const now = opts.now ?? new Date();
  return writeRequest(db, async (c) => {
    const { req } = await lockOwnRequest(c, user, ref, opts.formType);
    if (!mayWithdrawRequest(req)) {
      throw conflict(`Only pending requests can be withdrawn; ${req.request_id} is ${req.status}`);
    }
    await c.query(`UPDATE requests SET status = 'Cancelled', current_stage = NULL, updated_at = $2 WHERE id = $1`, [req.pk, now]);
    await recordEvent(c, {
      request: { pk: req.pk, request_id: req.request_id, form_type: req.form_type, employee_id: req.employee_id },
      actorId: user.id,
      eventType: 'withdrawn',
      field: 'status',
      oldValue: req.status,
      newValue: 'Cancelled',
      at: now,
    });
    return toRecord((await loadRecordByRef(c, req.pk))!);
  });
}

/** The person whose requests a list shows: the caller when no id is given, else someone the caller may view. */
export async function personFor(db: Db, caller: AuthUser, ref: string | undefined): Promise<number> {
  if (ref === undefined || String(ref).trim() === '') return caller.id;
  return assertMayViewPerson(db, caller, ref);
}

/**
 * How a list's records name their employee in `employee_id`: the employee code (the spec's records), or the numeric
 * user id when the list was asked for with it (`?employee_id=5`: the original client's form calendar asks with the
 * signed-in user's id and keeps only the records whose employee_id equals that id). Employee codes are never all
 * digits, so a list asked for by code, or for the caller without any id, keeps the codes.
 */
export type EmployeeNaming = 'code' | 'user_id';

export function namingOf(ref: string | undefined): EmployeeNaming {
  return ref !== undefined && /^\d{1,15}$/.test(ref.trim()) ? 'user_id' : 'code';
}

/** What a read of the caller's own records may add to them. */
export interface OwnRecordsOptions {
  /** How the records name their employee (default: the employee code). */
  naming?: EmployeeNaming;
  /**
   * Given: the new password of the caller's own password resets is read into their records as `new_password` (the
   * spec's clients read it there; each read is logged and the first completes the reset: it-desk/owner-password.ts).
   * Not given: never (our web reads it on demand through the reveal call).
   */
  passwords?: PasswordAccess;
}

/** Does an answer (a record, a list, or lists keyed by form type) carry a reset password? It must never be cached. */
export function carriesPassword(answer: unknown): boolean {
  const has = (r: unknown) => typeof (r as Record<string, unknown> | null)?.new_password === 'string';
  if (Array.isArray(answer)) return answer.some(has);
  if (answer === null || typeof answer !== 'object') return false;
  return has(answer) || Object.values(answer).some((v) => Array.isArray(v) && v.some(has));
}

/** Rows as records `caller` may see (the request policy), with what the options add. */
async function recordsFor(
  db: Db,
  caller: AuthUser,
  rows: RecordRow[],
  opts: OwnRecordsOptions,
  via: PasswordChannel,
): Promise<RequestRecord[]> {
  return (await recordsAndRows(db, caller, rows, opts, via)).map((x) => x.record);
}

/** The records of `rows` as `caller` may see them, each with the row it was made from (after a password read). */
async function recordsAndRows(
  db: Db,
  caller: AuthUser,
  rows: RecordRow[],
  opts: OwnRecordsOptions,
  via: PasswordChannel,
): Promise<Array<{ record: RequestRecord; row: RecordRow }>> {
  let items: Array<{ row: RecordRow; password?: string }> = rows.map((row) => ({ row }));
  if (opts.passwords) {
    const out = await readOwnPasswords(db, opts.passwords, caller, rows, via);
    items = out.rows;
    // A read is logged and the first one completes the reset: this instance's cached answers are stale now.
    if (out.read > 0) invalidateQueues(db);
  }
  return items.map(({ row, password }) => {
    const rec: Record<string, unknown> = toRecord(row);
    if (password !== undefined) rec.new_password = password;
    if (opts.naming === 'user_id') rec.employee_id = row.employee_user_id;
    return { record: withoutSensitive(caller, row, rec as RequestRecord), row };
  });
}

const USER_FORMS_SQL = prepared(`${RECORD_SELECT}
  WHERE r.id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY form_type ORDER BY created_at DESC, id DESC) AS n
                                  FROM requests WHERE employee_id = $1) x WHERE x.n <= $2)
  ORDER BY r.created_at DESC, r.id DESC`);
const USER_FORMS_OF_TYPE_SQL = prepared(
  `${RECORD_SELECT} WHERE r.employee_id = $1 AND r.form_type = $2 ORDER BY r.created_at DESC, r.id DESC LIMIT $3`,
);

/**
 * GET /api/forms/user-forms: the person's requests keyed by form type, each list newest first and bounded (for a
 * person the caller may view: see personFor). Someone else's list holds only the requests the caller may see
 * (the request policy: e.g. a line manager gets the types of their dashboard, not a report's info updates).
 */
export async function userFormsOf(
  db: Db,
  caller: AuthUser,
  personId: number,
  opts: OwnRecordsOptions = {},
): Promise<Record<string, RequestRecord[]>> {
  const r =
    personId === caller.id
      ? await db.query<RecordRow>(USER_FORMS_SQL, [personId, USER_FORMS_PER_TYPE_LIMIT])
      : await db.query<RecordRow>(
          `${RECORD_SELECT}
        WHERE r.id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY form_type ORDER BY created_at DESC, id DESC) AS n
                                        FROM requests r WHERE employee_id = $1 AND ${viewScopeSql(caller, '$3')}) x WHERE x.n <= $2)
        ORDER BY r.created_at DESC, r.id DESC`,
          [personId, USER_FORMS_PER_TYPE_LIMIT, caller.id],
        );
  const out: Record<string, RequestRecord[]> = {};
  for (const rec of await recordsFor(db, caller, r.rows, opts, 'user-forms')) (out[rec.form_type] ??= []).push(rec);
  return out;
}

/** One form type's requests of a person, newest first and bounded (leave requests, purchase requisitions); only those the caller may see. */
export async function userFormsOfType(db: Db, caller: AuthUser, personRef: string | undefined, formType: string): Promise<RequestRecord[]> {
  const personId = await personFor(db, caller, personRef);
  const r =
    personId === caller.id
      ? await db.query<RecordRow>(USER_FORMS_OF_TYPE_SQL, [personId, formType, TYPE_LIST_LIMIT])
      : await db.query<RecordRow>(
          `${RECORD_SELECT} WHERE r.employee_id = $1 AND r.form_type = $2 AND ${viewScopeSql(caller, '$4')}
        ORDER BY r.created_at DESC, r.id DESC LIMIT $3`,
          [personId, formType, TYPE_LIST_LIMIT, caller.id],
        );
  return recordsFor(db, caller, r.rows, { naming: namingOf(personRef) }, 'user-forms');
}

/** One request for anyone the request policy lets see it; to everyone else it does not exist (404). */
export async function requestDetails(db: Db, caller: AuthUser, ref: string, opts: OwnRecordsOptions = {}): Promise<RequestRecord> {
  return (await requestDetailsAndRow(db, caller, ref, opts)).record;
}

/** requestDetails, with the stored row the record was made from (for what the answer adds to it: one read). */
export async function requestDetailsAndRow(
  db: Db,
  caller: AuthUser,
  ref: string,
  opts: OwnRecordsOptions = {},
): Promise<{ record: RequestRecord; row: RecordRow }> {
  const row = await loadRecordByRef(db, ref);
  if (!row || !canViewRequest(caller, row)) throw notFound('Request not found');
  return (await recordsAndRows(db, caller, [row], opts, 'details'))[0];
}

/**
 * For the owner's details answer: whether they may still edit and withdraw the request, by the rules the edit and
 * withdraw calls apply (src/server/policies/owner-changes.ts). Nothing for anyone else.
 */
export async function ownerChangesOf(
  db: Db,
  caller: AuthUser,
  row: RecordRow,
): Promise<{ can_edit: boolean; can_withdraw: boolean } | null> {
  if (row.employee_user_id !== caller.id) return null;
  const a = await db.query<{ decision: string }>('SELECT decision FROM approvals WHERE request_pk = $1 ORDER BY seq', [row.pk]);
  const facts = { status: row.status, data: row.data, decisions: a.rows.map((x) => x.decision) };
  return { can_edit: mayEditRequest(facts), can_withdraw: mayWithdrawRequest(facts) };
}
