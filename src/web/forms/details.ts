// What the form-details modal and the history screens show of a record: the details card of each form type,
// the generic field list of the others (with the spec's hidden fields and Yes/No booleans) and value formatting.
import { humanise } from '../../domain/forms';
import { formatDate, formatUsd } from '../format';
import type { FormRecord } from './types';

export type FieldKind = 'text' | 'long' | 'date' | 'money' | 'number' | 'time';
export type CardField = readonly [name: string, label: string, kind?: FieldKind];

export interface DetailCard {
  title: string;
  fields: readonly CardField[];
}

/** The details card per form type; types without one show the generic field list. */
export const DETAIL_CARDS: Record<string, DetailCard> = {
  'leave-request': {
    title: 'Leave Details',
    fields: [['leave_type', 'Leave Type'], ['start_date', 'Start Date', 'date'], ['end_date', 'End Date', 'date'], ['total_days', 'Total Days', 'number'], ['reason', 'Reason', 'long']],
  },
  'petty-cash': {
    title: 'Petty Cash Details',
    fields: [
      ['amount_requested', 'Amount Requested', 'money'], ['expected_settlement_date', 'Expected Settlement', 'date'], ['purpose', 'Purpose', 'long'],
      ['cash_issued_by', 'Cash Issued By'], ['cash_issued_date', 'Cash Issued Date', 'date'],
    ],
  },
  'expense-reimbursement': {
    title: 'Expense Details',
    fields: [['total_amount', 'Total Amount', 'money'], ['expense_period', 'Expense Period'], ['bank_account', 'Bank Account'], ['description', 'Description', 'long']],
  },
  'travel-request': {
    title: 'Travel Details',
    fields: [
      ['destination', 'Destination'], ['departure_date', 'Departure Date', 'date'], ['return_date', 'Return Date', 'date'],
      ['total_estimated_cost', 'Estimated Cost', 'money'], ['travel_purpose', 'Purpose', 'long'], ['travel_notes', 'Notes', 'long'],
    ],
  },
  'equipment-request': {
    title: 'Equipment Details',
    fields: [
      ['equipment_type', 'Equipment Type'], ['quantity', 'Quantity', 'number'], ['estimated_cost', 'Estimated Cost', 'money'], ['priority', 'Priority'],
      ['equipment_description', 'Description', 'long'], ['justification', 'Justification', 'long'],
    ],
  },
  'training-request': {
    title: 'Training Details',
    fields: [
      ['training_program', 'Training Program'], ['training_type', 'Training Type'], ['training_provider', 'Provider'], ['training_duration', 'Duration'],
      ['start_date', 'Start Date', 'date'], ['end_date', 'End Date', 'date'], ['training_cost', 'Cost', 'money'], ['estimated_cost', 'Estimated Cost', 'money'],
      ['training_description', 'Description', 'long'], ['justification', 'Justification', 'long'],
    ],
  },
  'it-access': {
    title: 'IT Access Details',
    fields: [
      ['access_type', 'Access Type'], ['request_type', 'Request Type'], ['requested_systems', 'Requested Systems'], ['access_level', 'Access Level'],
      ['business_justification', 'Business Justification', 'long'],
    ],
  },
  'it-incident': {
    title: 'Incident Details',
    fields: [
      ['incident_date', 'Incident Date', 'date'], ['affected_system', 'Affected System'], ['employee_system_number', 'System Number'],
      ['incident_description', 'Description', 'long'], ['contact_info', 'Contact'], ['it_helpdesk_assigned_to', 'Assigned To'],
      // ticket number, resolution and the employee's answer: the IT desk's ItIncidentResolution card
    ],
  },
  'info-update': {
    title: 'Information Update',
    fields: [['update_type', 'Update Type'], ['new_information', 'New Information', 'long'], ['old_information', 'Current Information', 'long']],
  },
  'facility-access': {
    title: 'Access Details',
    fields: [['access_request_type', 'Request Type'], ['facilities_requested', 'Facilities Requested'], ['justification', 'Justification', 'long'], ['manager', 'Manager']],
  },
  'password-reset': {
    title: 'Password Reset Details',
    fields: [
      ['system_for_reset', 'System'], ['reset_reason', 'Reason'], ['it_support_status', 'IT Support Status'], ['it_helpdesk_reset_by', 'Reset By'],
      ['it_helpdesk_date', 'Reset Date', 'date'],
    ],
  },
  'purchase-requisition': {
    title: 'Requisition Details',
    fields: [
      ['item_description', 'Item Description', 'long'], ['quantity', 'Quantity', 'number'], ['unit_cost', 'Unit Cost', 'money'],
      ['estimated_total', 'Estimated Total', 'money'], ['purpose_of_purchase', 'Purpose of Purchase', 'long'],
    ],
  },
  'meeting-room': {
    title: 'Booking Details',
    fields: [
      ['room_requested', 'Room'], ['booking_date', 'Date', 'date'], ['start_time', 'Start Time', 'time'], ['end_time', 'End Time', 'time'],
      ['participants_count', 'Participants', 'number'],
    ],
  },
};

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A value as text: booleans Yes/No, money as 'USD $x.xx', dates in the app's format. */
export function formatValue(value: unknown, kind: FieldKind = 'text'): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (blank(value)) return '';
  if (kind === 'money') return formatUsd(value as number | string);
  if (kind === 'date') return formatDate(String(value));
  if (Array.isArray(value)) return value.map((v) => formatValue(v)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The non-empty fields of a type's details card, formatted ('Manager' defaults to 'N/A' for facility access). */
export function cardRows(r: FormRecord, card: DetailCard): Array<{ name: string; label: string; value: string; kind: FieldKind }> {
  const rows = [];
  for (const [name, label, kind = 'text'] of card.fields) {
    let v = r[name];
    if (name === 'manager' && r.form_type === 'facility-access' && blank(v)) v = 'N/A';
    const text = formatValue(v, kind);
    if (text !== '') rows.push({ name, label, value: text, kind });
  }
  return rows;
}

/** Fields the generic list never shows (employee-side §2 form-details modal), plus the server's bookkeeping. */
const HIDDEN = new Set([
  'id', 'form_id', 'employee_id', 'created_at', 'updated_at', 'employee_name', 'department', 'status', 'line_manager', 'request_id', 'manager',
  // shown elsewhere in the modal or internal
  'form_type', 'title', 'employee_user_id', 'current_stage', 'next_stage', 'has_new_password', 'success', 'message',
  'formType', 'icon', 'category', 'submissionNumber', 'totalSubmissions', 'version',
]);
const STAGE_PREFIXES = ['line_manager', 'department_head', 'hr', 'finance', 'facilities_desk', 'facilities_manager', 'it_helpdesk', 'it', 'procurement'];

export function isHiddenGenericField(name: string): boolean {
  if (HIDDEN.has(name)) return true;
  if (/signature/.test(name)) return true;
  if (/(approval|acknowledgement|confirmation|clearance|verification)/.test(name)) return true;
  if (name.endsWith('_rejected_reason') || name.endsWith('_comments')) return true;
  // the decision dates and ids of the approval steps are shown in the steps
  if (STAGE_PREFIXES.some((p) => name === `${p}_date` || name === `${p}_id`)) return true;
  return false;
}

/** Remaining fields sorted by name with humanised labels, hiding the spec's fields and empty values; booleans Yes/No. */
export function genericRows(r: FormRecord): Array<{ name: string; label: string; value: string }> {
  return Object.keys(r)
    .filter((k) => !isHiddenGenericField(k) && !blank(r[k]))
    .sort((a, b) => a.localeCompare(b))
    .map((k) => ({ name: k, label: humanise(k), value: formatValue(r[k], /(_date|_day)$/.test(k) ? 'date' : 'text') }))
    .filter((row) => row.value !== '');
}

/** Keys the web adds to records (submissions.ts) or the submit answer carries; not fields of the request. */
const DERIVED = new Set(['title', 'success', 'message', 'has_new_password', 'formType', 'icon', 'category', 'submissionNumber', 'totalSubmissions']);

/** Every field of a record for the generic history's 'Record #n' cards (ids included), sorted by name. */
export function allRows(r: FormRecord): Array<{ label: string; value: string }> {
  return Object.keys(r)
    .filter((k) => !DERIVED.has(k) && !blank(r[k]))
    .sort((a, b) => a.localeCompare(b))
    .map((k) => ({ label: humanise(k), value: formatValue(r[k]) }));
}
