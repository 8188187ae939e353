// The generic approver queue (issue 20): every request whose current stage, in a chain defined as data, the caller
// may decide now, whatever its type: the types beyond the spec's tables have no dashboard of their own. Who may
// decide is the request policy's rule (dataQueueScopeSql / isDataStageApprover); deciding goes through decideStage.
import { formTitle, formTypeDef } from '../../domain/forms.js';
import type { Queryable } from '../db/pool.js';
import type { AuthUser } from '../people/service.js';
import { dataQueueScopeSql, withoutSensitive } from '../policies/requests.js';
import { RECORD_SELECT, type RecordRow, toRecord } from '../requests/repo.js';

export const DATA_QUEUE_LIMIT = 200;

export interface DataQueueItem {
  form_id: string;
  request_id: string;
  form_type: string;
  title: string;
  form_type_version: number;
  requester: { employee_id: string; name: string; department: string };
  submitted: string;
  summary: string;
  stage: string;
  stage_label: string;
  /** The request's version (send it back with the decision). */
  version: number;
  record: Record<string, unknown>;
}

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

/** 'Amount (USD): 7200 · Purpose: Team offsite': the first three filled fields of the type, in form order. */
export function requestSummary(formType: string, values: Record<string, unknown>): string {
  const fields = formTypeDef(formType)?.fields ?? [];
  return fields
    .filter((f) => !blank(values[f.name]))
    .slice(0, 3)
    .map((f) => {
      const v = String(values[f.name]);
      return `${f.label}: ${v.length > 60 ? `${v.slice(0, 59)}…` : v}`;
    })
    .join(' · ');
}

/** GET /api/approvals/queue: oldest first, at most DATA_QUEUE_LIMIT. */
export async function dataQueueFor(db: Queryable, user: AuthUser): Promise<DataQueueItem[]> {
  const r = await db.query(
    `${RECORD_SELECT} WHERE ${dataQueueScopeSql(user, '$1')} ORDER BY r.created_at, r.id LIMIT ${DATA_QUEUE_LIMIT}`,
    [user.id],
  );
  return (r.rows as RecordRow[]).map((row) => {
    const rec = withoutSensitive(user, row, toRecord(row));
    const stage = row.approvals.find((a) => a.stage === row.current_stage);
    return {
      form_id: row.request_id,
      request_id: row.request_id,
      form_type: row.form_type,
      title: formTitle(row.form_type),
      form_type_version: row.form_type_version ?? 1,
      requester: { employee_id: row.employee_code, name: row.employee_name, department: row.department ?? 'Unknown' },
      submitted: new Date(row.created_at).toISOString(),
      summary: requestSummary(row.form_type, rec),
      stage: row.current_stage ?? '',
      stage_label: stage?.stage_label ?? row.current_stage ?? '',
      version: row.revision,
      record: rec,
    };
  });
}
