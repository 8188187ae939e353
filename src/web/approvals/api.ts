// Calls of the approver dashboards with the exact paths and payloads the existing clients use, plus the bulk,
// summary and history endpoints. Ids sent as manager_id / hr_id are the signed-in user's own.
import { ApiError, api } from '../api/client';
import { displayName, type User } from '../api/types';
import type { ApproverRole, HistoryEntry } from '../../domain/approvals';
import { itLifecycleOf } from '../../domain/forms';

/** A flattened request record as the approver queues answer it. */
export type QueueRecord = Record<string, unknown> & {
  id: number;
  request_id: string;
  form_id: string;
  form_type: string;
  status: string;
  employee_id: string;
  employee_name: string;
  department: string;
  created_at: string;
  current_stage: string | null;
  next_stage?: string;
  actionable?: boolean;
  view_only?: boolean;
  /** Working days a row still waiting on this dashboard has waited, and whether that is past its type's limit. */
  waiting_days?: number;
  overdue?: boolean;
  stage_state?: string;
  /** The request's version as shown: decisions send it back, and get 409 if the request changed meanwhile. */
  version?: number;
};

export interface QueueSummary {
  total_pending: number;
  total_approved: number;
  total_rejected: number;
  awaiting_action?: number;
  forms_by_type: Record<string, number>;
}

export interface QueueEnvelope {
  success: boolean;
  forms: QueueRecord[];
  summary: QueueSummary;
}

export interface LeaveBalance {
  annual_leave_total?: number;
  annual_leave_used: number;
  unpaid_leave_used: number;
}

export interface BulkResult {
  form_id: string;
  ok: boolean;
  status: number;
  error?: string;
  record?: QueueRecord;
}

export type Decision = 'Approved' | 'Rejected';

/** An item of the generic queue (GET /api/approvals/queue, docs/forms.md). */
export interface OtherQueueItem {
  form_id: string;
  request_id: string;
  form_type: string;
  title: string;
  form_type_version?: number;
  requester: { employee_id: string; name: string; department: string };
  submitted: string;
  summary: string;
  stage: string;
  stage_label: string;
  version: number;
  record?: Record<string, unknown>;
}

/** A generic queue item as a row of the one queue table: waiting on the caller, so decidable. */
export function otherQueueRow(item: OtherQueueItem): QueueRecord {
  const rec = item.record ?? {};
  return {
    ...rec,
    id: typeof rec.id === 'number' ? rec.id : 0,
    request_id: item.request_id,
    form_id: item.form_id,
    form_type: item.form_type,
    form_title: item.title,
    status: typeof rec.status === 'string' ? rec.status : 'Pending',
    employee_id: item.requester.employee_id,
    employee_name: item.requester.name,
    department: item.requester.department,
    created_at: item.submitted,
    current_stage: item.stage,
    stage: item.stage,
    stage_label: item.stage_label,
    summary: item.summary,
    version: item.version,
    actionable: true,
    stage_state: 'Pending',
  };
}

function pick(rec: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => rec[k] !== undefined).map((k) => [k, rec[k]]));
}

/**
 * Who the dashboard decides as: one of the spec's approver roles, or 'other' for the generic queue of form types
 * beyond the spec's tables (issue 20: admin-defined types, chains with a manager's manager, a group or a person).
 */
export type QueueRole = ApproverRole | 'other';

/** The line manager's identity for the queue: profile.manager_id, else the user id. */
export const managerIdOf = (user: User) => String(user.profile?.manager_id ?? user.id);
/** HR's identity: its hr_id, else the user id. */
export const hrIdOf = (user: User) => String(user.profile?.hr_id ?? user.id);

/**
 * Rows per part of a queue the dashboards load: everything still waiting (up to this many) plus as many of
 * the newest others. The API's default is smaller; the dashboards compute some tiles from the rows.
 */
export const DASHBOARD_QUEUE_LIMIT = 200;

/** A decision on the caller's stage of a request of the generic queue (POST /api/approvals/decide). */
function decideOther(rec: { request_id: string; version?: number; stage?: unknown }, status: Decision, reason: string) {
  return api.post<{ success: boolean; form: QueueRecord }>('/api/approvals/decide', {
    form_id: rec.request_id,
    stage: typeof rec.stage === 'string' && rec.stage ? rec.stage : undefined,
    decision: status,
    reason: status === 'Rejected' ? reason : '',
    version: rec.version,
  });
}

export const approvalsApi = {
  managerQueue: (user: User) =>
    api.get<QueueRecord[]>('/api/manager/queue', { query: { manager_id: managerIdOf(user), limit: DASHBOARD_QUEUE_LIMIT } }),
  hrQueue: (user: User) => api.get<QueueRecord[]>('/api/hr/queue', { query: { hr_id: hrIdOf(user), limit: DASHBOARD_QUEUE_LIMIT } }),
  financeQueue: () => api.get<QueueEnvelope>('/api/finance/queue', { query: { limit: DASHBOARD_QUEUE_LIMIT } }),
  deskQueue: () => api.get<QueueRecord[]>('/api/facilities-desk/queue', { query: { limit: DASHBOARD_QUEUE_LIMIT } }),
  facilitiesManagerQueue: () => api.get<QueueEnvelope>('/api/facilities-manager/queue', { query: { limit: DASHBOARD_QUEUE_LIMIT } }),
  /** Every request of a chain defined as data whose current stage the caller may decide now (issue 20). */
  otherQueue: async (): Promise<QueueRecord[]> => {
    const body = await api.get<{ items?: OtherQueueItem[] } | OtherQueueItem[]>('/api/approvals/queue');
    return (Array.isArray(body) ? body : (body.items ?? [])).map(otherQueueRow);
  },

  details(role: QueueRole, rec: Pick<QueueRecord, 'request_id' | 'form_type'> & Record<string, unknown>) {
    // The generic queue has no details call of its own: the request's details (the request policy lets its approvers
    // see it), with what the queue row knows about the caller's stage.
    if (role === 'other')
      return api
        .get<QueueRecord>(`/api/forms/details/${encodeURIComponent(rec.request_id)}`)
        .then((d): QueueRecord => ({ ...d, ...pick(rec, ['actionable', 'stage', 'stage_label', 'stage_state', 'version']) }));
    const path = {
      manager: '/api/manager/form-details',
      hr: '/api/hr/form-details',
      finance: '/api/finance/form-details',
      facilities_desk: '/api/facilities-desk/form-details',
      facilities_manager: '/api/facilities-manager/form-details',
    }[role];
    // The facilities manager's details call names the id request_id; every other role's names it form_id.
    const idKey = role === 'facilities_manager' ? 'request_id' : 'form_id';
    return api.get<QueueRecord>(path, { query: { [idKey]: rec.request_id, form_type: rec.form_type } });
  },

  decide(
    role: QueueRole,
    user: User,
    rec: Pick<QueueRecord, 'request_id' | 'form_type' | 'version'> & { stage?: unknown },
    status: Decision,
    reason: string,
  ) {
    const name = displayName(user);
    const rejection_reason = status === 'Rejected' ? reason : '';
    // The version the screen showed: the decision applies to that content or is refused (409) if it changed.
    const version = rec.version;
    switch (role) {
      case 'other':
        return decideOther(rec, status, rejection_reason);
      case 'manager':
        return api.post<{ success: boolean; form: QueueRecord }>('/api/manager/update-status', {
          form_id: rec.request_id,
          form_type: rec.form_type,
          status,
          manager_id: managerIdOf(user),
          manager_name: name,
          comments: '',
          rejection_reason,
          version,
        });
      case 'hr':
        return api.post<{ success: boolean; form: QueueRecord }>('/api/hr/update-status', {
          form_id: rec.request_id,
          form_type: rec.form_type,
          status,
          hr_id: hrIdOf(user),
          hr_name: name,
          rejection_reason,
          version,
        });
      case 'finance':
        return api.post<{ success: boolean; form: QueueRecord }>('/api/finance/update-status', {
          form_id: rec.request_id,
          approval: status,
          finance_id: String(user.id),
          comments: '',
          session_id: '',
          finance_name: name || `Finance_${user.id}`,
          rejection_reason,
          version,
        });
      case 'facilities_desk':
        return api.post<{ success: boolean; form: QueueRecord }>('/api/facilities-desk/update-status', {
          form_id: rec.request_id,
          form_type: rec.form_type,
          status,
          facilities_id: String(user.id),
          facilities_name: name,
          comments: '',
          rejection_reason,
          version,
        });
      case 'facilities_manager':
        return api.post<{ success: boolean; form: QueueRecord }>('/api/facilities-manager/update-status', {
          form_id: rec.request_id,
          form_type: rec.form_type,
          status,
          manager_id: String(user.id),
          manager_name: name,
          comments: '',
          rejection_reason,
          version,
        });
    }
  },

  // Opening an IT item acknowledges it (a view, not a decision on its content): no version is sent, so IT's work
  // on the ticket meanwhile does not turn the acknowledgement into a conflict.
  acknowledge(user: User, rec: Pick<QueueRecord, 'request_id' | 'form_type'>) {
    const path =
      itLifecycleOf(rec.form_type) === 'password-reset'
        ? '/api/manager/acknowledge-password-reset'
        : '/api/manager/acknowledge-it-incident';
    return api.post<{ success: boolean }>(path, { form_id: rec.request_id, manager_id: managerIdOf(user) });
  },

  leaveBalance(role: ApproverRole, employeeId: string) {
    const base = role === 'hr' ? '/api/hr/employee-leave-balance/' : '/api/manager/employee-leave-balance/';
    return api.get<LeaveBalance>(`${base}${encodeURIComponent(employeeId)}`);
  },

  async bulk(role: QueueRole, items: Array<{ form_id: string; decision: Decision; reason?: string; version?: number; stage?: string }>) {
    // The generic queue's stages are decided one by one (the bulk call decides the spec's roles).
    if (role === 'other') {
      const results: BulkResult[] = [];
      for (const it of items) {
        try {
          const res = await decideOther({ request_id: it.form_id, version: it.version, stage: it.stage }, it.decision, it.reason ?? '');
          results.push({ form_id: it.form_id, ok: true, status: 200, record: res.form });
        } catch (err) {
          results.push({
            form_id: it.form_id,
            ok: false,
            status: err instanceof ApiError ? err.status : 0,
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
      const succeeded = results.filter((r) => r.ok).length;
      return { success: succeeded === results.length, succeeded, failed: results.length - succeeded, results };
    }
    return api.post<{ success: boolean; succeeded: number; failed: number; results: BulkResult[] }>('/api/approvals/bulk', { role, items });
  },

  history: (requestId: string) =>
    api.get<{ request_id: string; events: HistoryEntry[] }>(`/api/requests/${encodeURIComponent(requestId)}/history`),
};
