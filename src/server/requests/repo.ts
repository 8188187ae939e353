// The core of every request: storing a new one with its approval rows, loading requests, and flattening
// them into the record shape the spec's clients read (line_manager_approval, *_signature, *_date,
// *_rejected_reason, ...). Features (forms, approvals, IT desk, assistant) build on these functions.
import { type Stage, STAGES, formTypeDef } from '../../domain/forms.js';
import { nextStageFor } from '../../domain/status.js';
import type { Queryable } from '../db/pool.js';
import { badRequest, notFound } from '../http/errors.js';

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

export interface StoredRequest { pk: number; request_id: string; form_type: string; employee_id: number; status: string; current_stage: string | null }

export function initialStatus(formType: string): string {
  return formType === 'it-incident' ? 'Open' : 'Pending';
}

/** Inserts the request and one Pending approval row per stage of its chain. Call inside a transaction. */
export async function insertRequest(c: Queryable, r: NewRequest): Promise<StoredRequest> {
  const def = formTypeDef(r.formType);
  if (!def) throw badRequest(`Unknown form type: ${r.formType}`);
  const status = r.status ?? initialStatus(r.formType);
  const createdAt = r.createdAt ?? new Date();
  const ins = await c.query(
    `WITH n AS (SELECT nextval(pg_get_serial_sequence('requests', 'id')) AS id)
     INSERT INTO requests (id, request_id, form_type, employee_id, line_manager_id, hr_contact_id, status, current_stage, data, created_at, updated_at)
     SELECT n.id, $1 || '-' || lpad(n.id::text, greatest(6, length(n.id::text)), '0'), $2, $3, $4, $5, $6, $7, $8, $9, $9 FROM n
     RETURNING id AS pk, request_id, form_type, employee_id, status, current_stage`,
    [def.idPrefix, r.formType, r.employeeId, r.lineManagerId, r.hrContactId, status, def.chain[0] ?? null, JSON.stringify(r.data), createdAt],
  );
  const stored = ins.rows[0] as StoredRequest;
  if (def.chain.length > 0) {
    await c.query(
      `INSERT INTO approvals (request_pk, stage, seq) SELECT $1, s.stage, s.seq FROM unnest($2::text[]) WITH ORDINALITY AS s(stage, seq)`,
      [stored.pk, def.chain],
    );
  }
  return stored;
}

/** Select list for records: request, employee, department, line manager and the approvals as JSON. */
export const RECORD_SELECT = `
  SELECT r.id AS pk, r.xmin::text AS version, r.request_id, r.form_type, r.employee_id AS employee_user_id, r.line_manager_id, r.hr_contact_id,
         r.status, r.current_stage, r.data, r.created_at, r.updated_at,
         e.employee_code, e.first_name || ' ' || e.last_name AS employee_name, d.name AS department,
         m.first_name || ' ' || m.last_name AS manager_name,
         (SELECT coalesce(json_agg(json_build_object(
                   'stage', a.stage, 'decision', a.decision, 'signer_id', a.signer_id, 'signer_name', a.signer_name,
                   'decided_at', a.decided_at, 'rejection_reason', a.rejection_reason, 'comments', a.comments) ORDER BY a.seq), '[]'::json)
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
}

export interface RecordRow {
  pk: number;
  /** The row version (xmin): a write conditioned on it fails if anyone changed the request since it was read. */
  version: string;
  request_id: string;
  form_type: string;
  employee_user_id: number;
  line_manager_id: number | null;
  hr_contact_id: number | null;
  status: string;
  current_stage: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
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

const dateOnly = (v: string | Date | null) => (v ? new Date(v).toISOString().slice(0, 10) : null);

/** The flattened record of the spec's clients. */
export function toRecord(row: RecordRow): RequestRecord {
  const data = { ...row.data };
  for (const k of SECRET_FIELDS) delete data[k];
  const rec: Record<string, unknown> = {
    ...data,
    id: row.pk,
    request_id: row.request_id,
    form_id: row.request_id,
    form_type: row.form_type,
    title: formTypeDef(row.form_type)?.title ?? row.form_type,
    employee_id: row.employee_code,
    employee_user_id: row.employee_user_id,
    employee_name: row.employee_name,
    department: row.department ?? 'Unknown',
    line_manager: row.manager_name,
    manager: row.manager_name ?? 'N/A',
    status: row.status,
    current_stage: row.current_stage,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
  for (const a of row.approvals ?? []) {
    const p = STAGES[a.stage]?.prefix ?? a.stage;
    rec[`${p}_approval`] = a.decision;
    rec[`${p}_signature`] = a.signer_name;
    rec[`${p}_date`] = dateOnly(a.decided_at);
    rec[`${p}_rejected_reason`] = a.rejection_reason ?? '';
    if (a.comments) rec[`${p}_comments`] = a.comments;
  }
  rec.next_stage = nextStageFor(rec);
  return rec as RequestRecord;
}

/** A request by its human id (LR-000123) or numeric id. */
export async function loadRecordByRef(c: Queryable, ref: string | number): Promise<RecordRow | undefined> {
  const s = String(ref ?? '').trim();
  if (s === '') return undefined;
  const r = /^\d{1,15}$/.test(s)
    ? await c.query(`${RECORD_SELECT} WHERE r.id = $1`, [Number(s)])
    : await c.query(`${RECORD_SELECT} WHERE r.request_id = $1`, [s.toUpperCase()]);
  return r.rows[0];
}

export async function requireRecordByRef(c: Queryable, ref: string | number): Promise<RecordRow> {
  const row = await loadRecordByRef(c, ref);
  if (!row) throw notFound('Request not found');
  return row;
}
