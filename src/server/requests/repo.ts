// The core of every request: storing a new one with its approval rows, loading requests, and flattening
// them into the record shape the spec's clients read (line_manager_approval, *_signature, *_date,
// *_rejected_reason, ...). Features (forms, approvals, IT desk, assistant) build on these functions.
import { businessDate } from '../../domain/business-time.js';
import { type Stage, STAGES, formTypeDef, initialStatusOf, itLifecycleOf } from '../../domain/forms.js';
import { itSupportStatusOf } from '../../domain/it.js';
import { nextStageFor } from '../../domain/status.js';
import { type Queryable, prepared } from '../db/pool.js';
import { dataNextStage } from '../../domain/approvals.js';
import { resolveDataChain } from '../form-types/chain.js';
import { HttpError, badRequest, notFound } from '../http/errors.js';

/** Fields kept in `data` that no API answer may show as they are. */
export const SECRET_FIELDS = ['new_password_enc'];

export interface NewRequest {
  formType: string;
  employeeId: number;
  lineManagerId: number | null;
  hrContactId: number | null;
  /** Validated form fields plus server-set fields (employee_name, total_days, ...). */
  data: Record<string, unknown>;
  status?: string;
  createdAt?: Date;
}

export interface StoredRequest {
  pk: number;
  request_id: string;
  form_type: string;
  employee_id: number;
  status: string;
  current_stage: string | null;
}

/** Status of a new request: its registry entry's `initialStatus` (IT incidents start Open, the rest Pending). */
export function initialStatus(formType: string): string {
  return initialStatusOf(formType);
}

/** Inserts the request and one Pending approval row per stage of its chain. Call inside a transaction. */
export async function insertRequest(c: Queryable, r: NewRequest): Promise<StoredRequest> {
  const def = formTypeDef(r.formType);
  if (!def) throw badRequest(`Unknown form type: ${r.formType}`);
  // A chain defined as data is resolved now: the request keeps the stages (and the people) it was submitted with.
  const stages = def.stages ? await resolveDataChain(c, def, r) : null;
  const firstStage = stages ? (stages.find((s) => s.decision === 'Pending')?.stage ?? null) : (def.chain[0] ?? null);
  const status = r.status ?? (stages && firstStage === null ? 'Approved' : initialStatus(r.formType));
  const createdAt = r.createdAt ?? new Date();
  const ins = await c.query(
    `WITH n AS (SELECT nextval(pg_get_serial_sequence('requests', 'id')) AS id)
     INSERT INTO requests (id, request_id, form_type, employee_id, line_manager_id, hr_contact_id, status, current_stage, data, created_at, updated_at, form_type_version)
     SELECT n.id, $1 || '-' || lpad(n.id::text, greatest(6, length(n.id::text)), '0'), $2, $3, $4, $5, $6, $7, $8, $9, $9, $10 FROM n
     RETURNING id AS pk, request_id, form_type, employee_id, status, current_stage`,
    [
      def.idPrefix,
      r.formType,
      r.employeeId,
      r.lineManagerId,
      r.hrContactId,
      status,
      firstStage,
      JSON.stringify(r.data),
      createdAt,
      def.version ?? 1,
    ],
  );
  const stored = ins.rows[0] as StoredRequest;
  if (stages) {
    await c.query(
      `INSERT INTO approvals (request_pk, stage, seq, decision, approver, approver_ids, stage_label, condition)
       SELECT $1, s.stage, s.seq, s.decision, s.approver, s.approver_ids, s.stage_label, s.condition
         FROM jsonb_to_recordset($2::jsonb) AS s(stage text, seq smallint, decision text, approver text, approver_ids integer[], stage_label text, condition jsonb)`,
      [stored.pk, JSON.stringify(stages)],
    );
  } else if (def.chain.length > 0) {
    await c.query(
      `INSERT INTO approvals (request_pk, stage, seq) SELECT $1, s.stage, s.seq FROM unnest($2::text[]) WITH ORDINALITY AS s(stage, seq)`,
      [stored.pk, def.chain],
    );
  }
  return stored;
}

/**
 * A moment as the ISO text the records carry ('2026-03-04T10:20:30.123Z', as Date's toISOString writes it), made
 * by PostgreSQL: parsing every row's timestamps into Dates only to write them back costed a list more than its
 * decisions' rules.
 */
const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Select list for records: request, employee, department, line manager and the approvals as JSON. */
export const RECORD_SELECT = `
  SELECT r.id AS pk, r.xmin::text AS version, r.revision, r.request_id, r.form_type, r.employee_id AS employee_user_id, r.line_manager_id, r.hr_contact_id,
         r.status, r.current_stage, r.data, ${isoSql('r.created_at')} AS created_at, ${isoSql('r.updated_at')} AS updated_at, r.form_type_version,
         e.employee_code, e.first_name || ' ' || e.last_name AS employee_name, d.name AS department,
         m.first_name || ' ' || m.last_name AS manager_name,
         (SELECT coalesce(json_agg(json_build_object(
                   'stage', a.stage, 'decision', a.decision, 'signer_id', a.signer_id, 'signer_name', a.signer_name,
                   'decided_at', a.decided_at, 'rejection_reason', a.rejection_reason, 'comments', a.comments,
                   'approver', a.approver, 'approver_ids', a.approver_ids, 'stage_label', a.stage_label, 'condition', a.condition,
                   'on_behalf_of_id', a.on_behalf_of_id, 'on_behalf_of_name', a.on_behalf_of_name, 'decided_as', a.decided_as,
                   'escalated_to_id', a.escalated_to_id) ORDER BY a.seq), '[]'::json)
            FROM approvals a WHERE a.request_pk = r.id) AS approvals
    FROM requests r
    JOIN users e ON e.id = r.employee_id
    LEFT JOIN departments d ON d.code = e.department_code
    LEFT JOIN users m ON m.id = r.line_manager_id`;

export interface ApprovalRow {
  stage: Stage;
  decision: string;
  signer_id: number | null;
  signer_name: string | null;
  decided_at: string | null;
  rejection_reason: string | null;
  comments: string | null;
  /** A stage of a chain defined as data: its approver, the people resolved at submission, its label and condition. */
  approver?: string | null;
  approver_ids?: number[] | null;
  stage_label?: string | null;
  condition?: unknown;
  /** Decided by a delegate or after an escalation (docs/delegation.md): for whom, and how. */
  on_behalf_of_id?: number | null;
  on_behalf_of_name?: string | null;
  decided_as?: 'delegate' | 'escalation' | null;
  /** An overdue stage escalated to this person (they may decide it too). */
  escalated_to_id?: number | null;
}

export interface RecordRow {
  pk: number;
  /** The row version (xmin): a write conditioned on it fails if anyone changed the request since it was read. */
  version: string;
  /** The request's version as people see it (the `version` of records): grows on every change (migration 082). */
  revision: number;
  request_id: string;
  form_type: string;
  employee_user_id: number;
  line_manager_id: number | null;
  hr_contact_id: number | null;
  status: string;
  current_stage: string | null;
  data: Record<string, unknown>;
  /** ISO text, UTC ('2026-03-04T10:20:30.123Z'). */
  created_at: string;
  updated_at: string;
  /** The version of its type the request was submitted with. */
  form_type_version?: number;
  employee_code: string;
  employee_name: string;
  department: string | null;
  manager_name: string | null;
  approvals: ApprovalRow[];
}

export type RequestRecord = Record<string, unknown> & {
  id: number;
  request_id: string;
  form_type: string;
  status: string;
  employee_id: string;
  employee_user_id: number;
};

// decided_at comes from json_build_object as PostgreSQL's text form ('2026-03-04T10:20:30.123+00:00'); the
// decision's date is the organisation's calendar day of that moment.
const dateOnly = (v: string | Date | null) => (!v ? null : businessDate(v));

/**
 * Who signed each step of a record (user ids, null when undecided), kept under a symbol: never serialised, but
 * copied with the record, so views of a record can tell who already decided a step of it.
 */
export const SIGNERS = Symbol('signers');

export function signersOf(rec: RequestRecord): ReadonlyArray<{ stage: Stage; signer_id: number | null }> {
  return ((rec as Record<symbol, unknown>)[SIGNERS] as Array<{ stage: Stage; signer_id: number | null }> | undefined) ?? [];
}

/**
 * The version a write was decided on (a decision's `version`, or its If-Match header) must be the stored one:
 * otherwise the request changed after the caller looked at it, and the write is refused with 409. No version
 * (older clients): not checked.
 */
export function assertVersion(row: Pick<RecordRow, 'revision'>, expected: number | null | undefined): void {
  if (expected === null || expected === undefined) return;
  if (Number(expected) !== Number(row.revision)) {
    throw new HttpError(409, 'This request was changed after you opened it. Please look at it again before you decide.', {
      code: 'version_changed',
      current_version: Number(row.revision),
    });
  }
}

/**
 * The fields a decided (or pending) stage adds to a record: `<prefix>_approval`, `_signature`, `_date`,
 * `_rejected_reason`, and when there are some `_comments`, `_decided_as`, `_on_behalf_of`.
 */
type StageWriter = (rec: Record<string, unknown>, a: ApprovalRow, date: string | null) => void;

/** The stage fields under names computed at run time: the stages of chains defined as data. */
const writeStageFields =
  (p: string): StageWriter =>
  (rec, a, date) => {
    rec[`${p}_approval`] = a.decision;
    rec[`${p}_signature`] = a.signer_name;
    rec[`${p}_date`] = date;
    rec[`${p}_rejected_reason`] = a.rejection_reason ?? '';
    if (a.comments) rec[`${p}_comments`] = a.comments;
    // Added to the spec's fields: a decision made for someone else (a delegate's, or after an escalation).
    if (a.decided_as) rec[`${p}_decided_as`] = a.decided_as;
    if (a.on_behalf_of_name) rec[`${p}_on_behalf_of`] = a.on_behalf_of_name;
  };

/**
 * The same fields of each built-in stage, written by a function made once that spells their names out
 * (`rec.hr_approval = ...`). Why: V8 keeps an object whose properties are added under literal names in its fast
 * form, but more than a dozen added under computed names (`rec[name] = ...`) turn it into a dictionary, which costs
 * about three times as much to build and twice as much to serialise, for every record of every list and queue
 * (bench/README.md, 2026-11-29). The prefixes are the registry's constants, checked to be plain names.
 */
const literalStageWriter = (p: string): StageWriter => {
  if (!/^[a-z][a-z_]*$/.test(p)) throw new Error(`stage prefix ${p} is not a plain name`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- made once per built-in stage from its constant prefix
  return new Function(
    'rec',
    'a',
    'date',
    `rec.${p}_approval = a.decision;
     rec.${p}_signature = a.signer_name;
     rec.${p}_date = date;
     rec.${p}_rejected_reason = a.rejection_reason ?? '';
     if (a.comments) rec.${p}_comments = a.comments;
     if (a.decided_as) rec.${p}_decided_as = a.decided_as;
     if (a.on_behalf_of_name) rec.${p}_on_behalf_of = a.on_behalf_of_name;`,
  ) as StageWriter;
};
const STAGE_WRITERS = new Map<string, StageWriter>(Object.entries(STAGES).map(([stage, s]) => [stage, literalStageWriter(s.prefix)]));

/** A copy of the stored fields without the secret ones (a spread keeps the copy in V8's fast form: see above). */
function dataFields(data: Record<string, unknown>): Record<string, unknown> {
  if (!SECRET_FIELDS.some((k) => k in data)) return { ...data };
  const out: Record<string, unknown> = {};
  for (const k in data) if (!SECRET_SET.has(k)) out[k] = data[k];
  return out;
}

/** The flattened record of the spec's clients. */
export function toRecord(row: RecordRow): RequestRecord {
  // Built with literal property names after one spread (no `delete`, no computed names): see literalStageWriter.
  const rec: Record<string, unknown> = dataFields(row.data ?? {});
  const approvals = row.approvals;
  // First: a symbol key is a computed name, and added to a record that already has many fields it would make it slow.
  // The approval rows themselves (each has its stage and signer_id; nothing changes them after loading).
  if (approvals) (rec as Record<symbol, unknown>)[SIGNERS] = approvals;
  rec.id = row.pk;
  rec.request_id = row.request_id;
  rec.form_id = row.request_id;
  rec.form_type = row.form_type;
  rec.title = formTypeDef(row.form_type)?.title ?? row.form_type;
  rec.employee_id = row.employee_code;
  rec.employee_user_id = row.employee_user_id;
  rec.employee_name = row.employee_name;
  rec.department = row.department ?? 'Unknown';
  rec.line_manager = row.manager_name;
  rec.manager = row.manager_name ?? 'N/A';
  rec.status = row.status;
  // A password reset's IT support status as every screen reads it (a rejected one reads Rejected).
  if (itLifecycleOf(row.form_type) === 'password-reset') rec.it_support_status = itSupportStatusOf(rec);
  rec.current_stage = row.current_stage;
  rec.created_at = row.created_at;
  rec.updated_at = row.updated_at;
  if (approvals) {
    for (let i = 0; i < approvals.length; i += 1) {
      const a = approvals[i];
      (STAGE_WRITERS.get(a.stage) ?? writeStageFields(a.stage))(rec, a, dateOnly(a.decided_at));
    }
  }
  const dataChain = approvals?.some((a) => a.approver) ?? false;
  if (dataChain) {
    // A chain defined as data: every stage in order, with its label, approver and whether it applied.
    rec.approval_chain = approvals.map((a) => ({
      stage: a.stage,
      label: a.stage_label ?? a.stage,
      approver: a.approver ?? null,
      condition: a.condition ?? null,
      decision: a.decision,
      signer_name: a.signer_name,
      date: dateOnly(a.decided_at),
      rejection_reason: a.rejection_reason ?? '',
    }));
  }
  rec.form_type_version = row.form_type_version ?? 1;
  rec.next_stage = dataChain ? dataNextStage(rec, approvals) : nextStageFor(rec);
  // Added to the spec's fields: what an approver's decision sends back to say which content it approves.
  rec.version = row.revision;
  return rec as RequestRecord;
}

const SECRET_SET = new Set(SECRET_FIELDS);

/** One request by id or human id; `reserve` also takes an event id (prepared: planning costs more than running). */
const reserving = (where: string) =>
  prepared(`SELECT x.*, nextval('request_events_id_seq') AS reserved_event_id FROM (${RECORD_SELECT} WHERE ${where}) x`);
const BY_REF = {
  plain: { id: prepared(`${RECORD_SELECT} WHERE r.id = $1`), requestId: prepared(`${RECORD_SELECT} WHERE r.request_id = $1`) },
  reserve: { id: reserving('r.id = $1'), requestId: reserving('r.request_id = $1') },
};

/**
 * A request by its human id (LR-000123) or numeric id. With `reserveEventId`, the same round trip also takes
 * an id from the event sequence (`reserved_event_id`) for a write that will record an event.
 */
export async function loadRecordByRef(
  c: Queryable,
  ref: string | number,
  opts: { reserveEventId?: boolean } = {},
): Promise<(RecordRow & { reserved_event_id?: string }) | undefined> {
  const s = String(ref ?? '').trim();
  if (s === '') return undefined;
  const byId = /^\d{1,15}$/.test(s);
  const sql = BY_REF[opts.reserveEventId ? 'reserve' : 'plain'][byId ? 'id' : 'requestId'];
  const r = await c.query(sql, [byId ? Number(s) : s.toUpperCase()]);
  return r.rows[0];
}

export async function requireRecordByRef(c: Queryable, ref: string | number): Promise<RecordRow> {
  const row = await loadRecordByRef(c, ref);
  if (!row) throw notFound('Request not found');
  return row;
}
