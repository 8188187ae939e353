// React Query hooks of the employee's forms API. Query keys start with 'forms' so one invalidation
// (Refresh, a submission, a live update) refreshes every list: queryClient.invalidateQueries({ queryKey: FORMS_KEY }).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { FormRecord, LeaveBalance, SubmitResult, UserFormsByType } from './types';

export const FORMS_KEY = ['forms'] as const;

/** The spec caches the user-forms list for 30 s; Refresh bypasses it. */
const LIST_STALE_MS = 30_000;

export function useUserForms(employeeCode: string | null | undefined) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'user-forms', employeeCode],
    queryFn: ({ signal }) => api.get<UserFormsByType>('/api/forms/user-forms', { query: { employee_id: employeeCode }, signal }),
    // The forms list loads only if the profile has an employee_code.
    enabled: Boolean(employeeCode),
    staleTime: LIST_STALE_MS,
  });
}

export function useLeaveRequests(employeeCode: string | null | undefined) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'leave-requests', employeeCode],
    queryFn: ({ signal }) => api.get<FormRecord[]>('/api/forms/leave-requests', { query: { employee_id: employeeCode }, signal }),
    enabled: Boolean(employeeCode),
    staleTime: LIST_STALE_MS,
  });
}

export function usePurchaseRequisitions(employeeCode: string | null | undefined) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'purchase-requisitions', employeeCode],
    queryFn: ({ signal }) =>
      api.get<FormRecord[]>('/api/purchase-requisition/user-forms', { query: { employee_id: employeeCode }, signal }),
    enabled: Boolean(employeeCode),
    staleTime: LIST_STALE_MS,
  });
}

export function useFormDetails(id: string | number | null | undefined) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'details', String(id)],
    queryFn: ({ signal }) => api.get<FormRecord>(`/api/forms/details/${encodeURIComponent(String(id))}`, { signal }),
    enabled: id !== null && id !== undefined && String(id) !== '',
    staleTime: 0,
  });
}

export function useLeaveBalance(userId: string | number | null | undefined, enabled = true) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'leave-balance', String(userId)],
    queryFn: ({ signal }) => api.get<LeaveBalance>(`/api/forms/employee-leave-balance/${encodeURIComponent(String(userId))}`, { signal }),
    enabled: enabled && userId !== null && userId !== undefined && String(userId) !== '',
    staleTime: LIST_STALE_MS,
  });
}

/** Re-fetches every forms list now, ignoring the cache (the Refresh button). */
export function useRefreshForms() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: FORMS_KEY });
}

/** POST a form; on success every forms list reloads. */
export function useSubmitForm(path: (body: Record<string, unknown>) => string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => api.post<SubmitResult>(path(body), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: FORMS_KEY }),
  });
}

/** Withdraw one's own pending request. */
export function useWithdrawRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (r: Pick<FormRecord, 'form_type' | 'request_id'>) =>
      api.post<FormRecord>(`/api/forms/${encodeURIComponent(r.form_type)}/${encodeURIComponent(r.request_id)}/withdraw`, {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: FORMS_KEY }),
  });
}
