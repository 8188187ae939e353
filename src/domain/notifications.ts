// Approval-change notifications (shown in the employee's bell and in the 'Form Approval Updates' dialog):
// the change type of a new value, readable labels of approval fields, and the titles of the notifications.
import { formTitle } from './forms.js';

export const CHANGE_TYPES = ['approved', 'rejected', 'pending', 'completed', 'in_progress', 'other'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** A notification as the form-state API and the live stream answer it. */
export interface FormNotification {
  id: number;
  title: string;
  form_type: string | null;
  form_id: string | null;
  approval_field: string | null;
  old_value: string | null;
  new_value: string | null;
  change_type: ChangeType;
  /** ISO time of the change. */
  timestamp: string;
  read: boolean;
}

/**
 * The approval fields a notification may name (the spec's clients know only these): the five approval stages, the
 * line manager's acknowledgement, and `status` for everything else, IT's status changes included.
 */
export const APPROVAL_FIELDS = [
  'line_manager_approval',
  'hr_approval',
  'finance_approval',
  'facilities_desk_approval',
  'facilities_manager_approval',
  'status',
  'line_manager_acknowledgement',
] as const;
export type ApprovalField = (typeof APPROVAL_FIELDS)[number];

/** The approval field a notification names for a change of the record field `field` (IT fields and others: status). */
export function notificationField(field: string | null | undefined): ApprovalField {
  return (APPROVAL_FIELDS as readonly string[]).includes(field ?? '') ? (field as ApprovalField) : 'status';
}

/** The approval field of a stage's own decision (the IT helpdesk's work is its status). */
export function stageApprovalField(stage: string): ApprovalField {
  return notificationField(`${stage}_approval`);
}

/** The change type of a field's new value. */
export function changeTypeOf(newValue: unknown): ChangeType {
  const v = String(newValue ?? '')
    .trim()
    .toLowerCase();
  if (['approved', 'true', 'yes', 'confirmed', 'acknowledged', 'cleared'].includes(v)) return 'approved';
  if (['rejected', 'false', 'no', 'cancelled'].includes(v)) return 'rejected';
  if (['completed', 'complete', 'closed', 'resolved', 'password set'].includes(v)) return 'completed';
  if (['in progress', 'assigned', 'processing', 'it processing', 'pending it action', 'details filled'].includes(v)) return 'in_progress';
  if (['pending', 'open', 'new', 'submitted', 'pending manager', ''].includes(v)) return 'pending';
  return 'other';
}

const FIELD_LABELS: Record<string, string> = {
  line_manager_approval: 'Line Manager Approval',
  hr_approval: 'HR Approval',
  finance_approval: 'Finance Approval',
  facilities_desk_approval: 'Facilities Desk Approval',
  facilities_manager_approval: 'Facilities Manager Approval',
  it_helpdesk_approval: 'IT Helpdesk',
  line_manager_acknowledgement: 'Line Manager Acknowledgement',
  status: 'Status',
  it_support_status: 'IT Support Status',
  it_helpdesk_ticket_number: 'IT Ticket Number',
  it_helpdesk_assigned_to: 'IT Assignee',
  employee_confirmation_status: 'Employee Confirmation',
};

/** '{approval stage}' of the dialog line: 'Line Manager Approval', 'Status', ... (unknown fields humanised). */
export function approvalFieldLabel(field: string | null | undefined): string {
  if (!field) return 'Status';
  return (
    FIELD_LABELS[field] ??
    field
      .split('_')
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join(' ')
  );
}

/** A stored value as people read it: booleans of acknowledgements as Approved/Rejected, nothing as 'not set'. */
export function displayValue(field: string | null | undefined, value: string | null | undefined): string {
  const v = value == null ? '' : String(value).trim();
  if (field && /acknowledgement|clearance|confirmation/.test(field)) {
    if (v === 'true') return 'Approved';
    if (v === 'false') return 'Rejected';
  }
  return v === '' ? 'not set' : v;
}

/** The line under each update in the 'Form Approval Updates' dialog: '{approval stage} changed from {old} to {new}'. */
export function changeLine(n: Pick<FormNotification, 'approval_field' | 'old_value' | 'new_value'>): string {
  const label = approvalFieldLabel(n.approval_field);
  const blank = (v: string | null | undefined) => v == null || String(v).trim() === '';
  // A value that was not there before reads 'set to', one removed reads 'cleared': never a raw 'None'.
  if (blank(n.old_value) && !blank(n.new_value)) return `${label} set to ${displayValue(n.approval_field, n.new_value)}`;
  if (!blank(n.old_value) && blank(n.new_value)) return `${label} cleared (was ${displayValue(n.approval_field, n.old_value)})`;
  return `${label} changed from ${displayValue(n.approval_field, n.old_value)} to ${displayValue(n.approval_field, n.new_value)}`;
}

/** '{form type label}' of the dialog's group headings ('Leave Request Updates'). */
export function formTypeLabel(formType: string | null | undefined): string {
  if (!formType) return 'Other';
  if (formType === 'employee-info-update') return formTitle('info-update');
  return formTitle(formType);
}

const STAGE_WORDS: Record<string, string> = {
  line_manager: 'your line manager',
  hr: 'HR',
  finance: 'Finance',
  facilities_desk: 'the Facilities Desk',
  facilities_manager: 'the Facilities Manager',
  it_helpdesk: 'IT Support',
};

/** Title of the owner's notification about a change on their request. */
export function ownerTitle(input: {
  formType: string;
  requestId: string;
  field: string | null;
  stage: string | null;
  newValue: string | null;
}): string {
  const what = `${formTypeLabel(input.formType)} ${input.requestId}`;
  const by = input.stage ? (STAGE_WORDS[input.stage] ?? approvalFieldLabel(input.stage)) : null;
  const value = displayValue(input.field, input.newValue);
  const field = input.field ?? 'status';
  if (field.endsWith('_approval')) {
    const t = changeTypeOf(input.newValue);
    if (t === 'approved' || t === 'rejected' || t === 'completed') return `${what} ${value.toLowerCase()}${by ? ` by ${by}` : ''}`;
    return `${what}: ${approvalFieldLabel(field)} is ${value}`;
  }
  if (field.endsWith('_acknowledgement'))
    return `${what} ${value === 'Approved' ? 'acknowledged' : value.toLowerCase()} by your line manager`;
  if (field === 'status') return `${what} is now ${value}`;
  if (field === 'it_helpdesk_ticket_number') return `${what}: IT ticket ${value}`;
  if (field === 'it_helpdesk_assigned_to') return `${what} assigned to ${value}`;
  return `${what}: ${approvalFieldLabel(field)} is ${value}`;
}

const ACTION_WORDS: Record<string, string> = {
  line_manager: 'your approval',
  hr: 'HR review',
  finance: 'finance review',
  facilities_desk: 'the facilities desk',
  facilities_manager: 'your approval',
  it_helpdesk: 'IT support',
};

/** Title of an approver's notification that a request reached their stage. */
export function approverTitle(input: {
  formType: string;
  requestId: string;
  employeeName: string;
  stage: string;
  acknowledgement?: boolean;
}): string {
  const what = `${formTypeLabel(input.formType)} ${input.requestId} from ${input.employeeName}`;
  if (input.acknowledgement) return `${what} awaits your acknowledgement`;
  return `${what} awaits ${ACTION_WORDS[input.stage] ?? 'your action'}`;
}
