// What an e-mail says about a request, in words a person reads: its type, who asked, the amount or the dates,
// what it is for, and a decision with who made it (on whose behalf, when the decision carries it) and the reason.
// Read from the request record and its decision event; the templates (templates.tsx) only lay it out.
import { type Stage, formTypeDef, requestAmount, requestPurpose } from '../../domain/forms.js';
import { formatDate, formatUsd } from '../../domain/format.js';
import { approvalFieldLabel, formTypeLabel, stageApprovalField } from '../../domain/notifications.js';
import { requestPath } from '../../domain/web-routes.js';
import type { RequestFacts } from '../../domain/email.js';
import type { Queryable } from '../db/pool.js';

export type { RequestFacts };
import type { RecordRow } from '../requests/repo.js';

/** 'Line Manager Approval': a stage as the notifications name it. */
export const stageApprovalLabel = (stage: Stage) => approvalFieldLabel(stageApprovalField(stage));

/** A stage's approval label on a request: a stage of a chain defined as data by its own label, else the built-in's. */
export function requestStageApprovalLabel(req: Pick<RecordRow, 'approvals'>, stage: string): string {
  const own = req.approvals.find((a) => a.stage === stage && a.approver)?.stage_label;
  return own ? `${own} Approval` : stageApprovalLabel(stage as Stage);
}

const isBlank = (v: unknown) => v === null || v === undefined || String(v).trim() === '';

/** The dates of a request: its first two date fields with values ('from to', or one day). */
function datesOf(formType: string, data: Record<string, unknown>): RequestFacts['dates'] {
  const fields = (formTypeDef(formType)?.fields ?? []).filter((f) => f.type === 'date' && !isBlank(data[f.name])).slice(0, 2);
  if (fields.length === 0) return null;
  const [a, b] = fields.map((f) => formatDate(String(data[f.name])));
  if (fields.length === 1 || a === b) return { label: fields[0].label, text: a };
  return { label: 'Dates', text: `${a} to ${b}` };
}

export function describeRequest(row: Pick<RecordRow, 'request_id' | 'form_type' | 'employee_name' | 'data' | 'status'>): RequestFacts {
  const data = row.data ?? {};
  const amount = requestAmount(row.form_type, data);
  return {
    request_id: row.request_id,
    form_type: row.form_type,
    type_label: formTypeLabel(row.form_type),
    employee_name: row.employee_name,
    amount: amount === null ? null : formatUsd(amount),
    dates: datesOf(row.form_type, data),
    purpose: requestPurpose(row.form_type, data),
    status: row.status,
    path: requestPath(row.request_id),
  };
}

export interface DecisionFacts {
  decision: string;
  stage_label: string;
  /** Who decided (the signer), or null when unknown. */
  decided_by: string | null;
  /** Whom the decider stood in for (delegation), when the decision records it. */
  on_behalf_of: string | null;
  reason: string | null;
  comments: string | null;
  via_email: boolean;
}

/** A name from a delegation field: a string, or an object with a name. */
function nameOf(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const name = o.name ?? o.full_name ?? (o.first_name ? `${String(o.first_name)} ${String(o.last_name ?? '')}` : null);
    return typeof name === 'string' && name.trim() ? name.trim() : null;
  }
  return null;
}

/** The decision of `stage` as stored (the approval and its latest decision event), or null while it is pending. */
export async function loadDecision(c: Queryable, row: RecordRow, stage: Stage): Promise<DecisionFacts | null> {
  const approval = row.approvals.find((a) => a.stage === stage) as (RecordRow['approvals'][number] & Record<string, unknown>) | undefined;
  if (!approval || approval.decision === 'Pending') return null;
  const ev = await c.query(
    `SELECT details FROM request_events WHERE request_pk = $1 AND event_type = 'decision' AND stage = $2 ORDER BY id DESC LIMIT 1`,
    [row.pk, stage],
  );
  const details = (ev.rows[0]?.details ?? {}) as Record<string, unknown>;
  const onBehalf =
    nameOf(approval.on_behalf_of_name) ??
    nameOf(approval.on_behalf_of) ??
    nameOf(details.on_behalf_of_name) ??
    nameOf(details.on_behalf_of);
  return {
    decision: approval.decision,
    stage_label: stageApprovalLabel(stage),
    decided_by: approval.signer_name ?? (typeof details.signer_name === 'string' ? details.signer_name : null),
    on_behalf_of: onBehalf,
    reason: isBlank(approval.rejection_reason) ? null : String(approval.rejection_reason).trim(),
    comments: isBlank(approval.comments) ? null : String(approval.comments).trim(),
    via_email: details.via === 'email',
  };
}
