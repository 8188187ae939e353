// The delegation API of the web app (docs/delegation.md): out of office, items decided for others, overdue items.
import { api } from '../api/client';
import type { CoveringItem, OutOfOfficeAnswer as OutOfOffice, OutOfOfficeInput, OverdueItem } from '../../domain/delegation';

export type { CoveringItem, OutOfOffice, OutOfOfficeInput, OverdueItem };

/** The self-service calls, or the administrator's for one person (employee code). */
export function outOfOfficeApi(employeeCode?: string) {
  const path = employeeCode ? `/api/admin/people/${encodeURIComponent(employeeCode)}/out-of-office` : '/api/me/out-of-office';
  return {
    get: () => api.get<OutOfOffice>(path),
    set: (input: OutOfOfficeInput) => api.put<OutOfOffice>(path, input),
    clear: () => api.delete<OutOfOffice>(path),
  };
}

export const coveringItems = () => api.get<{ items: CoveringItem[] }>('/api/me/covering');
export const overdueItems = () => api.get<{ items: OverdueItem[]; total: number }>('/api/admin/overdue');

/** Decides one item through the bulk endpoint (no dashboard role: the stage waiting on the person decided for). */
export async function decideCovered(item: CoveringItem, decision: 'Approved' | 'Rejected', reason?: string) {
  const res = await api.post<{ results: Array<{ ok: boolean; error?: string }> }>('/api/approvals/bulk', {
    items: [{ form_id: item.form_id, decision, version: item.version, ...(reason ? { rejection_reason: reason } : {}) }],
  });
  const r = res.results[0];
  if (!r?.ok) throw new Error(r?.error ?? 'The decision was not saved');
}

/** '3 Dec 2026' from YYYY-MM-DD. */
export function dayLabel(iso: string | null): string {
  if (!iso) return '';
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]} ${y}`;
}

export interface ReminderSetting {
  form_type: string;
  title: string;
  remind_after_days: number;
  escalate_after_days: number;
  custom: boolean;
}

export const reminderSettings = () => api.get<{ form_types: ReminderSetting[] }>('/api/admin/reminder-settings');
export const saveReminderSetting = (formType: string, remind: number, escalate: number) =>
  api.put<ReminderSetting>(`/api/admin/reminder-settings/${encodeURIComponent(formType)}`, {
    remind_after_days: remind,
    escalate_after_days: escalate,
  });
