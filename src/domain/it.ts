// IT support rules, for the IT dashboard and the employee's side of a ticket: the incident and password-reset
// lifecycles, the IT dashboard's buckets, labels and actions, and the derived IT support status texts.
// Pure: the server enforces transitions with these functions and the web displays with them.
// (status.ts imports the step boxes from here; this module uses isWithdrawn from there only inside functions.)
import { itLifecycleOf } from './forms.js';
import { WITHDRAWN_MESSAGE, isWithdrawn } from './status.js';

/**
 * Incident statuses. The lifecycle uses Open, Resolved and Closed: an incident IT is working on stays Open (with
 * its ticket number and assignee), because the original IT dashboard acts only on Open tickets. 'In Progress'
 * is still read (data of older versions, moved to Open by migration 090) but never written.
 */
export const IT_INCIDENT_STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed', 'Rejected'] as const;
export type ItIncidentStatus = (typeof IT_INCIDENT_STATUSES)[number];

export const EMPLOYEE_CONFIRMATION_STATUSES = ['Pending', 'Confirmed', 'Rejected'] as const;
export type EmployeeConfirmationStatus = (typeof EMPLOYEE_CONFIRMATION_STATUSES)[number];

/** Password-reset IT support statuses; a rejected reset reads Rejected. */
export const IT_SUPPORT_STATUSES = ['Pending Manager', 'Pending IT Action', 'Password Set', 'Completed', 'Rejected'] as const;
export type ItSupportStatus = (typeof IT_SUPPORT_STATUSES)[number];

/** The IT dashboard's status filter (default Open) and its tiles. */
export const IT_FILTERS = ['All', 'Open', 'Resolved', 'Closed'] as const;
export type ItFilter = (typeof IT_FILTERS)[number];
export type ItBucket = Exclude<ItFilter, 'All'>;
export const DEFAULT_IT_FILTER: ItFilter = 'Open';

/** Texts the employee's confirm / reject-resolution calls send when the person adds nothing of their own. */
export const DEFAULT_CONFIRMATION_NOTES = 'Employee confirmed: Problem is solved';
export const DEFAULT_REJECTION_REASON = 'Employee reported: Problem not solved';

/** Name written for an IT officer whose profile has no first and last name. */
export const IT_OFFICER_FALLBACK_NAME = 'IT Support Officer';

type Rec = Record<string, unknown>;

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
const is = (v: unknown, word: string) => text(v).toLowerCase() === word.toLowerCase();
const present = (v: unknown) => text(v) !== '';
/** The record's type works the incident lifecycle / the password-reset lifecycle (its registry entry's `itLifecycle`). */
const isIncident = (r: Rec) => itLifecycleOf(r.form_type) === 'incident';
const isReset = (r: Rec) => itLifecycleOf(r.form_type) === 'password-reset';

/**
 * The password-reset IT support status: Rejected when the request was rejected (whatever was stored before);
 * a request without one waits for its line manager. One of ItSupportStatus, or a stored status word as it is.
 */
export function itSupportStatusOf(r: Rec): string {
  if (is(r.status, 'rejected')) return 'Rejected';
  const s = text(r.it_support_status);
  return s === '' ? 'Pending Manager' : s;
}

/** True once IT has stored a new password for the request (the value itself never leaves the server unasked). */
export function hasNewPassword(r: Rec): boolean {
  return r.has_new_password === true || present(r.new_password);
}

/** Which of Open / Resolved / Closed an IT ticket (incident or password reset) falls under on the IT dashboard. */
export function itBucket(r: Rec): ItBucket {
  // A request the employee withdrew waits on nobody.
  if (isWithdrawn(r)) return 'Closed';
  if (isReset(r)) {
    if (is(r.status, 'rejected') || is(r.status, 'completed') || is(itSupportStatusOf(r), 'completed')) return 'Closed';
    if (is(itSupportStatusOf(r), 'password set')) return 'Resolved';
    return 'Open';
  }
  if (is(r.status, 'closed') || is(r.status, 'rejected')) return 'Closed';
  if (is(r.status, 'resolved')) return 'Resolved';
  return 'Open';
}

export function matchesItFilter(r: Rec, filter: ItFilter): boolean {
  return filter === 'All' || itBucket(r) === filter;
}

/** The IT dashboard's tiles: Open, Resolved, Closed and Total Tickets over the loaded tickets. */
export function itSummary(tickets: readonly Rec[]): Record<ItBucket, number> & { Total: number } {
  const out = { Open: 0, Resolved: 0, Closed: 0, Total: tickets.length };
  for (const t of tickets) out[itBucket(t)] += 1;
  return out;
}

/** The status shown in the IT table's Status column: the incident status, or the reset's IT support status. */
export function itDisplayStatus(r: Rec): string {
  if (isWithdrawn(r)) return 'Withdrawn';
  if (isReset(r)) {
    if (is(r.status, 'rejected')) return 'Rejected';
    return itSupportStatusOf(r);
  }
  return text(r.status) || 'Open';
}

// ---- incidents --------------------------------------------------------------------------------

/** An incident IT may still work on (Fill/Update Details): Open (or In Progress, stored by older versions). */
export function isOpenIncident(r: Rec): boolean {
  return isIncident(r) && (is(r.status, 'open') || is(r.status, 'in progress'));
}

/** The label of the fill/update button of an open incident, or null when the ticket is not open. */
export function incidentActionLabel(r: Rec): 'Fill Details' | 'Update Details' | 'Update Resolution' | null {
  if (!isOpenIncident(r)) return null;
  if (!present(r.it_helpdesk_ticket_number)) return 'Fill Details';
  if (is(r.status, 'open') && is(r.employee_confirmation_status, 'rejected')) return 'Update Resolution';
  return 'Update Details';
}

/** Resolved and waiting for the reporting employee to confirm or reject. */
export function awaitsEmployeeConfirmation(r: Rec): boolean {
  return (
    isIncident(r) &&
    is(r.status, 'resolved') &&
    present(r.it_helpdesk_ticket_number) &&
    !is(r.employee_confirmation_status, 'confirmed') &&
    !is(r.employee_confirmation_status, 'rejected')
  );
}

/** Employee side: 'Confirm Resolution' / 'Report Unresolved' are offered (resolved with ticket and notes, unconfirmed). */
export function employeeMayRespond(r: Rec): boolean {
  return awaitsEmployeeConfirmation(r) && present(r.it_resolution_notes);
}

/**
 * Resolved and confirmed by the employee but not closed: only data of older versions (the employee's confirmation
 * now closes the ticket, and migration 090 closed those rows); IT may close it.
 */
export function mayCloseTicket(r: Rec): boolean {
  return isIncident(r) && is(r.status, 'resolved') && is(r.employee_confirmation_status, 'confirmed');
}

/** Employee-side notice after the employee rejected the resolution and the ticket went back to Open. */
export function awaitingItUpdate(r: Rec): boolean {
  return isIncident(r) && is(r.status, 'open') && is(r.employee_confirmation_status, 'rejected');
}

export interface TicketSaveInput {
  ticketNumber: string;
  resolutionNotes: string | null;
}

export type TicketSavePlan =
  | { ok: true; status: 'Open' | 'Resolved'; employeeConfirmationStatus: string; resolved: boolean }
  | { ok: false; code: 400 | 409; error: string };

/**
 * What saving IT ticket details does: a ticket number alone keeps an open incident Open (assigned, 'IT
 * Processing'), where IT can update it again; a ticket number with resolution notes makes it Resolved and asks
 * the employee to confirm (confirmation Pending). Only open incidents can be saved.
 */
export function planTicketSave(r: Rec, input: TicketSaveInput): TicketSavePlan {
  const ticketNumber = text(input.ticketNumber);
  if (ticketNumber === '') return { ok: false, code: 400, error: 'IT Ticket Number is required' };
  if (!isOpenIncident(r)) {
    if (isWithdrawn(r)) return { ok: false, code: 409, error: WITHDRAWN_MESSAGE };
    if (is(r.status, 'resolved')) {
      return {
        ok: false,
        code: 409,
        error: is(r.employee_confirmation_status, 'confirmed')
          ? 'The employee has confirmed this ticket is solved; it can only be closed now'
          : 'This ticket is resolved and waiting for the employee to confirm it',
      };
    }
    return { ok: false, code: 409, error: `This ticket is ${text(r.status) || 'not open'}; only open tickets can be updated` };
  }
  const notes = text(input.resolutionNotes);
  if (notes === '') {
    // Still being worked on: an earlier 'Rejected' stays visible until a new resolution is offered.
    return { ok: true, status: 'Open', employeeConfirmationStatus: text(r.employee_confirmation_status) || 'Pending', resolved: false };
  }
  return { ok: true, status: 'Resolved', employeeConfirmationStatus: 'Pending', resolved: true };
}

/** Why the employee may not confirm or reject now, or null when they may. */
export function employeeResponseRefusal(r: Rec): string | null {
  if (!isIncident(r)) return 'Only IT incidents can be confirmed';
  if (!is(r.status, 'resolved')) return `This ticket is ${text(r.status) || 'open'}, not resolved; there is nothing to confirm yet`;
  if (is(r.employee_confirmation_status, 'confirmed')) return 'You have already confirmed this resolution';
  if (is(r.employee_confirmation_status, 'rejected')) return 'You have already reported this resolution as unresolved';
  return null;
}

// ---- password resets ----------------------------------------------------------------------------

/** 'Set New Password' is offered (and allowed) only while the reset waits for IT. */
export function maySetPassword(r: Rec): boolean {
  return isReset(r) && !is(r.status, 'rejected') && !isWithdrawn(r) && is(itSupportStatusOf(r), 'pending it action');
}

/** Why IT may not set a password now, or null when it may. */
export function setPasswordRefusal(r: Rec): string | null {
  if (!isReset(r)) return 'Only password reset requests take a new password';
  if (maySetPassword(r)) return null;
  if (is(r.status, 'rejected')) return 'This password reset request was rejected';
  if (isWithdrawn(r)) return WITHDRAWN_MESSAGE;
  const s = itSupportStatusOf(r);
  if (is(s, 'pending manager')) return "This password reset is waiting for the line manager's acknowledgement";
  if (is(s, 'password set')) return 'A new password has already been set for this request';
  if (is(s, 'completed')) return 'This password reset is already completed';
  return `This password reset is ${s}; a new password can only be set while it is Pending IT Action`;
}

// ---- derived texts ------------------------------------------------------------------------------

/**
 * The IT support status shown in the line manager's view-only details: In Progress,
 * Closed, Completed, Rejected from the status; 'Details Filled' when the ticket number and incident
 * description (or new password and resetting agent) exist; otherwise Pending.
 */
export function derivedItSupportStatus(r: Rec): string {
  for (const s of ['In Progress', 'Closed', 'Completed', 'Rejected']) if (is(r.status, s)) return s;
  if (isReset(r) && is(itSupportStatusOf(r), 'completed')) return 'Completed';
  if (present(r.it_helpdesk_ticket_number) && present(r.incident_description)) return 'Details Filled';
  if (hasNewPassword(r) && present(r.it_helpdesk_reset_by)) return 'Details Filled';
  return 'Pending';
}

/** Employee-side incident steps: 'IT Support Assignment' and 'IT Support Resolution' (Open shown as Pending). */
export function incidentSteps(r: Rec): Array<{ label: string; value: string }> {
  const status = text(r.status) || 'Open';
  return [
    { label: 'IT Support Assignment', value: present(r.it_helpdesk_assigned_to) ? 'Assigned' : 'Pending' },
    { label: 'IT Support Resolution', value: is(status, 'open') ? 'Pending' : status },
  ];
}

/** Employee-side password-reset chain box 'IT Helpdesk': Completed, Rejected (a reason exists), else Pending. */
export function passwordResetStep(r: Rec): { label: string; value: 'Completed' | 'Rejected' | 'Pending' } {
  const value =
    is(r.status, 'completed') || is(itSupportStatusOf(r), 'completed')
      ? 'Completed'
      : present(r.it_helpdesk_rejected_reason)
        ? 'Rejected'
        : 'Pending';
  return { label: 'IT Helpdesk', value };
}

/**
 * Messages an employee sees after confirming or rejecting an IT resolution. The employee's confirmation closes the
 * ticket, so the confirmation says it is closed (the original portal's 'IT Support can now close this ticket' would
 * contradict the 'Ticket is closed' shown beside it).
 */
export const CONFIRMED_CLOSED_LINE = 'The ticket is now closed.';
export const confirmationMessages = {
  confirmed: (ticket: string) => `✅ Problem confirmed as solved!\n\nTicket: ${ticket}\n\n${CONFIRMED_CLOSED_LINE}`,
  rejected: (ticket: string) => `❌ Resolution rejected!\n\nTicket: ${ticket}\n\nIT Support will continue working on this ticket.`,
  failed: (action: 'confirm' | 'reject', error?: string | null) => `❌ Failed to ${action} resolution:\n${text(error) || 'Unknown error'}`,
  network: (action: 'confirm' | 'reject') => `❌ Failed to ${action} resolution. Please try again.`,
  noUser: '❌ User information not available',
} as const;

/**
 * The IT dashboard's alerts. Saving ticket details says what happens next: with resolution notes the ticket is
 * Resolved and waits for the employee's confirmation (which closes it); without, it stays Open. IT has no Close
 * button, so the original portal's 'The Close button is now available.' is not used.
 */
export const itAlerts = {
  loadFailed: 'Failed to load IT tickets',
  ticketSaved: (resolved: boolean) =>
    resolved
      ? 'Ticket details saved successfully! The employee can now confirm the resolution, which closes the ticket.'
      : 'Ticket details saved successfully! The ticket stays open until you add resolution notes.',
  ticketSaveFailed: (error?: string | null) => `Failed to save details: ${text(error) || 'Unknown error'}`,
  ticketSaveNetwork: 'Failed to save ticket details. Please try again.',
  passwordSaved: 'Password reset details saved successfully!',
  passwordSaveFailed: (error?: string | null) => `Failed to save password reset details: ${text(error) || 'Unknown error'}`,
  passwordSaveNetwork: 'Error saving password reset details',
  ticketNumberRequired: 'IT Ticket Number is required',
  noTicketSelected: 'No ticket selected',
  passwordRequired: 'New password is required',
  noResetSelected: 'No password reset request selected',
  empty: 'No tickets found for this filter.',
} as const;
