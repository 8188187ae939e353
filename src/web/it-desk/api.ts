// The IT desk's calls (the IT dashboard's queue, details and saves; the employee's confirm / reject-resolution
// calls) and their answer shapes.
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../api/client';
import { DASHBOARD_QUEUE_LIMIT } from '../approvals/api';

/** A row of GET /api/it-support/queue (an IT incident or a password reset), also the form-details answer. */
export interface ItTicket {
  id: number;
  request_id: string;
  form_id: string;
  form_type: string; // 'it-incident' or 'password-reset'
  employee_id: string;
  employee_user_id: number;
  employee_name: string;
  department: string;
  created_at: string;
  status: string;
  next_stage?: string;
  it_queue_status: 'Open' | 'Resolved' | 'Closed';
  display_status: string;
  derived_it_support_status?: string;
  it_support_status?: string;
  // incident
  affected_system?: string | null;
  incident_date?: string | null;
  incident_description?: string | null;
  employee_system_number?: string | null;
  contact_info?: string | null;
  it_helpdesk_ticket_number?: string | null;
  it_helpdesk_assigned_to?: string | null;
  it_resolution_notes?: string | null;
  it_resolution_date?: string | null;
  employee_confirmation_status?: string | null;
  employee_confirmation_notes?: string | null;
  employee_rejection_reason?: string | null;
  // password reset
  system_for_reset?: string | null;
  reset_reason?: string | null;
  has_new_password?: boolean;
  it_helpdesk_reset_by?: string | null;
  it_helpdesk_date?: string | null;
  it_helpdesk_rejected_reason?: string | null;
  line_manager_acknowledgement?: boolean | null;
  /** The ticket's version as shown: IT's changes send it back, and get 409 if the ticket changed meanwhile. */
  version?: number;
  [key: string]: unknown;
}

export const IT_QUEUE_KEY = ['it-support', 'queue'] as const;

/**
 * The dashboard filters and counts its tiles over the loaded tickets, so it asks for the open tickets (up to this
 * many) plus as many of the newest finished ones, like the other approver dashboards; the API's default is 50.
 */
export const IT_DASHBOARD_QUEUE_LIMIT = DASHBOARD_QUEUE_LIMIT;

export function useItQueue() {
  return useQuery({
    queryKey: IT_QUEUE_KEY,
    queryFn: ({ signal }) => api.get<ItTicket[]>('/api/it-support/queue', { query: { limit: IT_DASHBOARD_QUEUE_LIMIT }, signal }),
    // The spec loads the queue once and on Refresh; changes we make invalidate it.
    staleTime: Infinity,
  });
}

export const fetchItFormDetails = (formId: string, formType: string, signal?: AbortSignal) =>
  api.get<ItTicket>('/api/it-support/form-details', { query: { form_id: formId, form_type: formType }, signal });

export interface SaveTicketBody {
  form_id: string;
  it_helpdesk_ticket_number: string;
  it_resolution_notes: string | null;
  it_helpdesk_assigned_to: string;
  version?: number;
}
export const saveTicketDetails = (body: SaveTicketBody) =>
  api.post<{ success: boolean; status: string; ticket: ItTicket }>('/api/it-support/save-ticket-details', body);

export const closeItTicket = (formId: string, version?: number) =>
  api.post<{ success: boolean; ticket: ItTicket }>('/api/it-support/close-ticket', { form_id: formId, version });

export interface SavePasswordBody {
  form_id: string;
  it_helpdesk_reset_by: string;
  new_password: string;
  version?: number;
}
export const savePasswordResetDetails = (body: SavePasswordBody) =>
  api.post<{ success: boolean; it_support_status: string }>('/api/it-support/save-password-reset-details', body);

export interface ConfirmationAnswer {
  success: boolean;
  form_id: string;
  it_helpdesk_ticket_number: string | null;
  status: string;
  employee_confirmation_status: string;
  ticket: ItTicket;
}
export const confirmProblemSolved = (formId: string, employeeId: string, notes: string) =>
  api.post<ConfirmationAnswer>('/api/user-confirmation/confirm-problem-solved', {
    form_id: formId,
    employee_id: employeeId,
    confirmation_notes: notes,
  });
export const rejectResolution = (formId: string, employeeId: string, reason: string) =>
  api.post<ConfirmationAnswer>('/api/user-confirmation/reject-resolution', {
    form_id: formId,
    employee_id: employeeId,
    rejection_reason: reason,
  });

export interface RevealedPassword {
  form_id: string;
  system_for_reset: string | null;
  new_password: string;
  it_support_status: string;
  status: string;
}
export const revealNewPassword = (formId: string) => api.post<RevealedPassword>('/api/password-reset/reveal-password', { form_id: formId });

export interface PasswordSavedAnswer {
  success: boolean;
  changed: boolean;
  form_id: string;
  new_password_erased_at: string;
  new_password_erased_reason: string | null;
}
/** The owner saved the password they read: the server erases it. */
export const confirmPasswordSaved = (formId: string) =>
  api.post<PasswordSavedAnswer>('/api/password-reset/confirm-password-saved', { form_id: formId });

/**
 * The server's `error` text of a failed call ('' when the answer had none: shown as 'Unknown error'), or null
 * when the call never got an answer (a network failure, which has its own message in the spec).
 */
export function serverError(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const body = err.body as { error?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.error === 'string' ? body.error : '';
}
