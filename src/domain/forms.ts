// The form types of AdminEase, defined once: title, category, icon, fields (with the zod schema built
// from them), approval chain and request-id prefix. Server validation, the web forms and the assistant's
// slot filling all read this table.
import { businessDate } from './business-time.js';
import { z } from 'zod';
import type { Condition, WireFieldType } from './form-types.js';

export type Category = 'Human Resources' | 'Finance' | 'Information Technology' | 'Facilities & Operations' | 'Legal' | 'Other';

/** Approval stages, in the order they can appear in a chain. The prefix names the flattened record fields. */
export type Stage = 'line_manager' | 'hr' | 'finance' | 'facilities_desk' | 'facilities_manager' | 'it_helpdesk';

export const STAGES: Record<Stage, { label: string; prefix: string }> = {
  line_manager: { label: 'Line Manager', prefix: 'line_manager' },
  hr: { label: 'HR', prefix: 'hr' },
  finance: { label: 'Finance', prefix: 'finance' },
  facilities_desk: { label: 'Facilities Desk', prefix: 'facilities_desk' },
  facilities_manager: { label: 'Facilities Manager', prefix: 'facilities_manager' },
  it_helpdesk: { label: 'IT Helpdesk', prefix: 'it_helpdesk' },
};

export type FieldType = 'text' | 'longtext' | 'date' | 'time' | 'integer' | 'money' | 'number' | 'enum';

export interface FieldDef {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  options?: readonly string[];
  /** The question the assistant asks when the field is missing. */
  question: string;
  min?: number;
  max?: number;
  /** Message when the field is missing (default '{label} is required'). */
  requiredMessage?: string;
  /** A short hint shown under the field on the web form. */
  help?: string;
  /** The admin API's type of a field an administrator defined ('yes/no' is a choice of Yes and No here). */
  wireType?: WireFieldType;
}

/**
 * A stage of a chain defined as data (form-types.ts): who approves ('line_manager', 'managers_manager', 'hr_contact',
 * 'group:<name>', 'person:<employee_code>'), the stage's label, and when it applies.
 */
export interface ChainStageDef {
  approver: string;
  label: string;
  when?: Condition;
}

/** An approval request goes through its chain of approvers; an IT ticket is worked by IT support (it.ts). */
export type FormKind = 'approval' | 'it-ticket';
/** The two IT ticket lifecycles (it.ts): an incident (Open / Resolved / Closed) or a password reset. */
export type ItLifecycle = 'incident' | 'password-reset';
export type CataloguePriority = 'high' | 'medium' | 'low';
/** How a details view formats a field. */
export type DetailKind = 'text' | 'long' | 'date' | 'money' | 'number' | 'time';

/** What the 'Forms & Requests' catalogue says about a type. */
export interface CatalogueTexts {
  description: string;
  estimatedTime: string;
  priority: CataloguePriority;
  /**
   * The spec's catalogue forms (FAC-AC-15, IT-PWD-16, FIN-PR-08) keep the spec's id, title, 'approvals required'
   * texts and keywords exactly; `position` is their place in the catalogue (they come first).
   */
  spec?: { id: string; position: number; title: string; requiredApprovals: readonly string[]; keywords: readonly string[] };
}

/**
 * A value a details row computes from the whole record instead of reading its field: the IT support status (the
 * stored one, else derived from the ticket's state as the spec says), or whether IT set a new password (never the
 * password itself).
 */
export type DetailValue = 'it-support-status' | 'password-set';

/** One row of a details card. */
export interface DetailFieldDef {
  name: string;
  label: string;
  kind?: DetailKind;
  /** Shown when the value is blank (else a blank field is left out). */
  emptyText?: string;
  /** Computed from the record (DetailValue) rather than read from the field `name`. */
  value?: DetailValue;
  /** Shown only on the approvers' side (approver dashboards, the IT desk); default: both sides. */
  audience?: 'approver';
}

/** A details view of a request: a titled card of fields in this order (empty values are left out). */
export interface DetailsDef {
  title: string;
  fields: readonly DetailFieldDef[];
}

export interface FormTypeDef {
  formType: string;
  title: string;
  category: Category;
  icon: string; // lucide-react icon name
  idPrefix: string;
  chain: readonly Stage[];
  fields: readonly FieldDef[];
  /** Words people use for this form (catalogue search, assistant). */
  keywords: readonly string[];
  /**
   * The money field holding the request's total in USD (read through `requestAmount`): finance rows answer it as
   * `amount_requested` whatever the type.
   */
  amountField?: string;
  /** The field saying what the request is for (read through `requestPurpose`): finance rows answer it as `purpose`. */
  purposeField?: string;
  /** Approval request (default) or IT ticket. IT tickets show read-only on the line manager's dashboard. */
  kind?: FormKind;
  /** The IT lifecycle of an IT ticket. */
  itLifecycle?: ItLifecycle;
  /** Status of a new request (default 'Pending'). */
  initialStatus?: string;
  /** Fields every new request of the type starts with (IT bookkeeping). */
  initialData?: Readonly<Record<string, unknown>>;
  /** A date field that takes the submission's business date when left blank. */
  todayDefault?: string;
  /** The submit answer's message (default 'Request submitted successfully!'). */
  successMessage?: string;
  /** Catalogue texts, priority and (for the spec's three forms) the spec's own catalogue entry. */
  catalogue: CatalogueTexts;
  /** The details card (employee and approver sides); types without one show the generic field list. */
  details?: DetailsDef;
  /**
   * How far the type's date fields may lie from today and, for two date fields (first and last day), how long
   * the period may be (DATE_WINDOWS).
   */
  dateWindow?: { what: string; back: number; ahead: number; maxDays?: number };
  /**
   * Dates before today (the company's business date) a type accepts: `true` for types that are retrospective by
   * nature (claims for something already paid or driven, incidents that already happened), or only while a field
   * has one of some values (a sick leave already taken). Every other type's date fields must be today or later
   * (bookings, trips, leave, events, settlement dates): see pastDateIssue.
   */
  allowPast?: true | { field: string; values: readonly string[] };
  /** A total computed as quantity x unit cost when left blank, and checked against them when given. */
  computedTotal?: { field: string; quantity: string; unitCost: string };
  /** The quick-select rejection reasons of the type (a key of QUICK_REJECTION_REASONS; default 'default'). */
  rejectionReasons?: string;
  /** Has its own form-type chip on the line manager's dashboard (in registry order). */
  managerChip?: boolean;
  /**
   * Fields of personal data that only the request's owner and the people who decide it see (the policy's 'see
   * sensitive fields', src/server/policies/requests.ts), beyond the names sensitive in any type (password, bank, ...).
   */
  sensitiveFields?: readonly string[];
  /**
   * How the form calendar draws a request of the type: as what, from which date field to which, with which label.
   * Types without it show on their submission date.
   */
  /**
   * A leave of absence: its period counts in working days (weekends and closed holidays excluded) and is checked
   * against the leave balance and the person's other leaves (src/server/forms/leave.ts).
   */
  leave?: boolean;
  calendar?: { kind: 'leave' | 'travel' | 'booking'; start: string; end?: string; label: (r: Record<string, unknown>) => string };
  /**
   * A chain defined as data (an administrator's type, or a built-in type whose chain was edited): new requests
   * store these stages as their approval rows; `chain` then lists no built-in stages for an admin-defined type.
   */
  stages?: readonly ChainStageDef[];
  /** False: the type is out of the catalogue and refuses new submissions (its requests stay decidable). */
  enabled?: boolean;
  /** The saved version of the type (1: the code's definition). */
  version?: number;
  /** Defined by an administrator (not one of the code's types). */
  custom?: boolean;
}

const f = (
  name: string,
  label: string,
  type: FieldType,
  question: string,
  opts: Partial<Pick<FieldDef, 'required' | 'options' | 'min' | 'max' | 'requiredMessage' | 'help'>> = {},
): FieldDef => ({ name, label, type, question, required: opts.required ?? true, ...opts });

export const LEAVE_TYPES = ['Annual', 'Sick', 'Casual', 'Unpaid', 'Maternity', 'Paternity', 'Bereavement', 'Compensatory'] as const;
export const PASSWORD_SYSTEMS = ['Email', 'ERP', 'CRM', 'VPN', 'Other'] as const;
export const RESET_REASONS = ['Forgotten Password', 'Locked Account', 'Security Concern', 'Other'] as const;
export const ACCESS_REQUEST_TYPES = ['New Access Card', 'Temporary Access', 'Extended Access Hours', 'Other'] as const;
export const INFO_UPDATE_TYPES = [
  'Address',
  'Phone Number',
  'Emergency Contact',
  'Bank Details',
  'Name',
  'Marital Status',
  'Other',
] as const;
export const PRIORITIES = ['Low', 'Medium', 'High'] as const;

const LM: readonly Stage[] = ['line_manager'];
const LM_FIN: readonly Stage[] = ['line_manager', 'finance'];
const FAC: readonly Stage[] = ['facilities_desk', 'facilities_manager'];

const REGISTRY: FormTypeDef[] = [
  {
    formType: 'leave-request',
    title: 'Leave Request',
    category: 'Human Resources',
    icon: 'CalendarDays',
    idPrefix: 'LR',
    chain: ['line_manager', 'hr'],
    catalogue: {
      description: 'Apply for annual, sick, casual or other leave; working days are counted for you.',
      estimatedTime: '3-5 min',
      priority: 'high',
    },
    details: {
      title: 'Leave Details',
      fields: [
        { name: 'leave_type', label: 'Leave Type' },
        { name: 'start_date', label: 'Start Date', kind: 'date' },
        { name: 'end_date', label: 'End Date', kind: 'date' },
        { name: 'total_days', label: 'Total Days', kind: 'number' },
        { name: 'reason', label: 'Reason', kind: 'long' },
      ],
    },
    leave: true,
    dateWindow: { what: 'A leave', back: 366, ahead: 731, maxDays: 366 },
    allowPast: { field: 'leave_type', values: ['Sick'] },
    rejectionReasons: 'leave',
    managerChip: true,
    calendar: {
      kind: 'leave',
      start: 'start_date',
      end: 'end_date',
      label: (r) => `${r.leave_type ? `${String(r.leave_type)} leave` : 'Leave'}`,
    },
    keywords: ['leave', 'vacation', 'holiday', 'time off', 'day off', 'sick', 'absence'],
    fields: [
      f('leave_type', 'Leave type', 'enum', 'What type of leave is it (Annual, Sick, Casual, Unpaid, ...)?', { options: LEAVE_TYPES }),
      f('start_date', 'Start date', 'date', 'From which date?', { help: 'Your first day of leave.' }),
      f('end_date', 'End date', 'date', 'Until which date (last day of leave)?', {
        help: 'Your last day of leave. Weekends and office holidays in between are not counted.',
      }),
      f('reason', 'Reason', 'longtext', 'What is the reason for the leave?', { max: 500 }),
    ],
  },
  {
    formType: 'travel-request',
    title: 'Travel Request',
    category: 'Human Resources',
    icon: 'Plane',
    idPrefix: 'TR',
    chain: LM_FIN,
    amountField: 'total_estimated_cost',
    purposeField: 'travel_purpose',
    catalogue: {
      description: 'Plan a business trip with destination, dates, purpose and estimated cost.',
      estimatedTime: '10-15 min',
      priority: 'medium',
    },
    details: {
      title: 'Travel Details',
      fields: [
        { name: 'destination', label: 'Destination' },
        { name: 'departure_date', label: 'Departure Date', kind: 'date' },
        { name: 'return_date', label: 'Return Date', kind: 'date' },
        { name: 'total_estimated_cost', label: 'Estimated Cost', kind: 'money' },
        { name: 'travel_purpose', label: 'Purpose', kind: 'long' },
        { name: 'travel_notes', label: 'Notes', kind: 'long' },
      ],
    },
    dateWindow: { what: 'A trip', back: 366, ahead: 731, maxDays: 366 },
    rejectionReasons: 'travel',
    managerChip: true,
    calendar: {
      kind: 'travel',
      start: 'departure_date',
      end: 'return_date',
      label: (r) => `Travel${r.destination ? ` to ${String(r.destination)}` : ''}`,
    },
    keywords: ['travel', 'trip', 'flight', 'business trip', 'journey'],
    fields: [
      f('destination', 'Destination', 'text', 'Where are you travelling to?'),
      f('departure_date', 'Departure date', 'date', 'When do you leave?'),
      f('return_date', 'Return date', 'date', 'When do you come back?'),
      f('travel_purpose', 'Purpose', 'longtext', 'What is the purpose of the trip?', { max: 500 }),
      f('total_estimated_cost', 'Estimated cost (USD)', 'money', 'What is the estimated total cost in USD?', {
        help: 'Travel, stay and allowances together; Finance approves it after your line manager.',
      }),
      f('travel_notes', 'Notes', 'longtext', 'Any notes?', { required: false, max: 1000 }),
    ],
  },
  {
    formType: 'info-update',
    title: 'Employee Info Update',
    category: 'Human Resources',
    icon: 'UserPen',
    idPrefix: 'IU',
    chain: ['hr'],
    // The old and new personal data (bank account, address, phone ...).
    sensitiveFields: ['old_information', 'new_information'],
    catalogue: {
      description: 'Update your address, phone number, emergency contact or bank details on record.',
      estimatedTime: '3-5 min',
      priority: 'low',
    },
    details: {
      title: 'Information Update',
      fields: [
        { name: 'update_type', label: 'Update Type' },
        { name: 'new_information', label: 'New Information', kind: 'long' },
        { name: 'old_information', label: 'Current Information', kind: 'long' },
      ],
    },
    keywords: ['update info', 'personal details', 'address', 'phone', 'bank details', 'information'],
    fields: [
      f(
        'update_type',
        'What to update',
        'enum',
        'What would you like to update (Address, Phone Number, Emergency Contact, Bank Details, Name, Marital Status, Other)?',
        { options: INFO_UPDATE_TYPES },
      ),
      f('new_information', 'New information', 'longtext', 'What is the new information?', { max: 1000 }),
      f('old_information', 'Current information', 'longtext', 'What is the current information?', { required: false, max: 1000 }),
    ],
  },
  {
    formType: 'expense-reimbursement',
    title: 'Expense Reimbursement',
    category: 'Human Resources',
    icon: 'Receipt',
    idPrefix: 'EXP',
    chain: LM,
    amountField: 'total_amount',
    purposeField: 'description',
    catalogue: { description: 'Claim back business expenses you paid yourself.', estimatedTime: '10-15 min', priority: 'medium' },
    details: {
      title: 'Expense Details',
      fields: [
        { name: 'total_amount', label: 'Total Amount', kind: 'money' },
        { name: 'expense_period', label: 'Expense Period' },
        { name: 'bank_account', label: 'Bank Account' },
        { name: 'description', label: 'Description', kind: 'long' },
      ],
    },
    rejectionReasons: 'expense',
    keywords: ['expense', 'reimbursement', 'claim', 'receipt'],
    fields: [
      f('expense_period', 'Expense period', 'text', 'Which period do the expenses cover (e.g. March 2027)?'),
      f('total_amount', 'Total amount (USD)', 'money', 'What is the total amount in USD?'),
      f('description', 'Description', 'longtext', 'What were the expenses for?', { max: 1000 }),
      f('bank_account', 'Bank account', 'text', 'Which bank account should be credited?', { required: false }),
    ],
  },
  {
    formType: 'it-access',
    title: 'IT Access Request',
    category: 'Human Resources',
    icon: 'KeyRound',
    idPrefix: 'ITA',
    chain: LM,
    catalogue: { description: 'Request new, changed or removed access to company systems.', estimatedTime: '5-10 min', priority: 'medium' },
    details: {
      title: 'IT Access Details',
      fields: [
        { name: 'access_type', label: 'Access Type' },
        { name: 'request_type', label: 'Request Type' },
        { name: 'requested_systems', label: 'Requested Systems' },
        { name: 'access_level', label: 'Access Level' },
        { name: 'business_justification', label: 'Business Justification', kind: 'long' },
      ],
    },
    rejectionReasons: 'it-access',
    keywords: ['access', 'permission', 'system access', 'account'],
    fields: [
      f('access_type', 'Access type', 'enum', 'Is this new access, a change, or a removal?', {
        options: ['New Access', 'Modify Access', 'Remove Access'],
      }),
      f('requested_systems', 'Systems', 'text', 'Which systems do you need access to?'),
      f('access_level', 'Access level', 'enum', 'Which access level (Read, Write, Admin)?', { options: ['Read', 'Write', 'Admin'] }),
      f('business_justification', 'Business justification', 'longtext', 'Why do you need this access?', { max: 1000 }),
    ],
  },
  {
    formType: 'employee-onboarding',
    title: 'Employee Onboarding',
    category: 'Human Resources',
    icon: 'UserPlus',
    idPrefix: 'ONB',
    chain: LM,
    catalogue: {
      description: 'Prepare the start of a new hire: position, start date and equipment.',
      estimatedTime: '10-15 min',
      priority: 'medium',
    },
    keywords: ['onboarding', 'new hire', 'new joiner'],
    fields: [
      f('new_hire_name', 'New hire name', 'text', 'What is the name of the new hire?'),
      f('position', 'Position', 'text', 'Which position will they hold?'),
      f('start_date', 'Start date', 'date', 'When do they start?'),
      f('equipment_needed', 'Equipment needed', 'longtext', 'What equipment will they need?', { required: false, max: 1000 }),
    ],
  },
  {
    formType: 'exit-clearance',
    title: 'Exit Clearance',
    category: 'Human Resources',
    icon: 'LogOut',
    idPrefix: 'EXT',
    chain: LM,
    catalogue: { description: 'Start the clearance process before your last working day.', estimatedTime: '10-15 min', priority: 'low' },
    keywords: ['exit', 'clearance', 'resignation', 'leaving the company'],
    fields: [
      f('last_working_day', 'Last working day', 'date', 'What is your last working day?'),
      f('reason', 'Reason for leaving', 'longtext', 'What is the reason for leaving?', { max: 1000 }),
    ],
  },
  {
    formType: 'petty-cash',
    title: 'Petty Cash',
    category: 'Finance',
    icon: 'Wallet',
    idPrefix: 'PC',
    chain: LM_FIN,
    amountField: 'amount_requested',
    purposeField: 'purpose',
    catalogue: {
      description: 'Request a small cash advance and settle it by an agreed date.',
      estimatedTime: '3-5 min',
      priority: 'medium',
    },
    details: {
      title: 'Petty Cash Details',
      fields: [
        { name: 'amount_requested', label: 'Amount Requested (USD)', kind: 'money' },
        { name: 'expected_settlement_date', label: 'Expected Settlement', kind: 'date' },
        { name: 'purpose', label: 'Purpose', kind: 'long' },
        { name: 'cash_issued_by', label: 'Cash Issued By' },
        { name: 'cash_issued_date', label: 'Cash Issued Date', kind: 'date' },
      ],
    },
    rejectionReasons: 'petty-cash',
    managerChip: true,
    keywords: ['petty cash', 'cash', 'advance', 'small purchase'],
    fields: [
      f('amount_requested', 'Amount requested (USD)', 'money', 'How much do you need, in USD?', { min: 0.01 }),
      f('expected_settlement_date', 'Expected settlement date', 'date', 'By which date will you settle it?'),
      f('purpose', 'Purpose', 'longtext', 'What is the cash for?', { max: 500 }),
    ],
  },
  {
    formType: 'purchase-requisition',
    title: 'Purchase Requisition',
    category: 'Finance',
    icon: 'ShoppingCart',
    idPrefix: 'PR',
    chain: LM_FIN,
    amountField: 'estimated_total',
    purposeField: 'purpose_of_purchase',
    catalogue: {
      spec: {
        id: 'FIN-PR-08',
        position: 3,
        title: 'Purchase Requisition Form',
        requiredApprovals: ['Department Head', 'Finance Officer'],
        keywords: ['purchase', 'requisition', 'buy', 'order', 'procurement', 'vendor', 'finance'],
      },
      description: 'Request the purchase of goods or services, with quantity, unit cost and the purpose of the purchase.',
      estimatedTime: '10-15 min',
      priority: 'medium',
    },
    details: {
      title: 'Requisition Details',
      fields: [
        { name: 'item_description', label: 'Item Description', kind: 'long' },
        { name: 'quantity', label: 'Quantity', kind: 'number' },
        { name: 'unit_cost', label: 'Unit Cost', kind: 'money' },
        { name: 'estimated_total', label: 'Estimated Total (USD)', kind: 'money' },
        { name: 'purpose_of_purchase', label: 'Purpose of Purchase', kind: 'long' },
      ],
    },
    rejectionReasons: 'expense',
    managerChip: true,
    successMessage: 'Purchase requisition submitted successfully!',
    computedTotal: { field: 'estimated_total', quantity: 'quantity', unitCost: 'unit_cost' },
    keywords: ['purchase', 'requisition', 'buy', 'order', 'procurement'],
    fields: [
      f('item_description', 'Item description', 'longtext', 'What would you like to purchase?', { max: 1000 }),
      f('quantity', 'Quantity', 'integer', 'How many?', { min: 1 }),
      f('unit_cost', 'Unit cost (USD)', 'money', 'What is the cost per unit in USD?'),
      f('estimated_total', 'Estimated total (USD)', 'money', 'What is the estimated total in USD?', { required: false }),
      f('purpose_of_purchase', 'Purpose of purchase', 'longtext', 'What is the purchase for?', { max: 1000 }),
    ],
  },
  {
    formType: 'medical-claim',
    title: 'Medical Claim',
    category: 'Finance',
    icon: 'HeartPulse',
    idPrefix: 'MED',
    chain: LM,
    allowPast: true,
    amountField: 'claim_amount',
    purposeField: 'description',
    catalogue: { description: 'Claim medical treatment costs covered by the company plan.', estimatedTime: '5-10 min', priority: 'medium' },
    rejectionReasons: 'expense',
    keywords: ['medical', 'health', 'doctor', 'hospital'],
    fields: [
      f('treatment_date', 'Treatment date', 'date', 'When was the treatment?'),
      f('provider', 'Provider', 'text', 'Which doctor or hospital?'),
      f('claim_amount', 'Claim amount (USD)', 'money', 'How much are you claiming, in USD?'),
      f('description', 'Description', 'longtext', 'What was the treatment?', { max: 1000 }),
    ],
  },
  {
    formType: 'mileage-claim',
    title: 'Mileage Claim',
    category: 'Finance',
    icon: 'Car',
    idPrefix: 'MIL',
    chain: LM,
    allowPast: true,
    amountField: 'amount_claimed',
    purposeField: 'purpose',
    catalogue: {
      description: 'Claim the distance you drove your own vehicle on company business.',
      estimatedTime: '3-5 min',
      priority: 'low',
    },
    rejectionReasons: 'expense',
    keywords: ['mileage', 'kilometres', 'miles', 'driving'],
    fields: [
      f('travel_date', 'Travel date', 'date', 'When did you drive?'),
      f('distance_km', 'Distance (km)', 'number', 'How many kilometres?', { min: 0.1 }),
      f('purpose', 'Purpose', 'longtext', 'What was the trip for?', { max: 500 }),
      f('amount_claimed', 'Amount claimed (USD)', 'money', 'How much are you claiming, in USD?'),
    ],
  },
  {
    formType: 'it-incident',
    title: 'IT Incident',
    category: 'Information Technology',
    icon: 'MonitorX',
    idPrefix: 'INC',
    chain: ['it_helpdesk'],
    allowPast: true,
    catalogue: { description: 'Report a broken system, device or service to IT support.', estimatedTime: '3-5 min', priority: 'high' },
    details: {
      title: 'Incident Details',
      fields: [
        { name: 'incident_date', label: 'Incident Date', kind: 'date' },
        { name: 'affected_system', label: 'Affected System' },
        { name: 'employee_system_number', label: 'System Number' },
        { name: 'incident_description', label: 'Description', kind: 'long' },
        { name: 'contact_info', label: 'Contact' },
        { name: 'it_helpdesk_ticket_number', label: 'Ticket Number' },
        { name: 'it_helpdesk_assigned_to', label: 'Assigned To' },
        { name: 'it_resolution_date', label: 'Resolved On', kind: 'date' },
        { name: 'it_resolution_notes', label: 'Resolution Notes', kind: 'long' },
        { name: 'employee_confirmation_status', label: 'Employee Confirmation', emptyText: 'Pending', audience: 'approver' },
        { name: 'it_support_status', label: 'IT Support Status', value: 'it-support-status', audience: 'approver' },
      ],
    },
    kind: 'it-ticket',
    itLifecycle: 'incident',
    initialStatus: 'Open',
    initialData: { employee_confirmation_status: 'Pending' },
    todayDefault: 'incident_date',
    managerChip: true,
    keywords: ['it issue', 'incident', 'broken', 'not working', 'error', 'laptop', 'vpn', 'ticket'],
    fields: [
      f('affected_system', 'Affected system', 'text', 'Which system is affected (e.g. VPN, Email, Laptop)?', {
        help: 'For example VPN, Email or your laptop.',
      }),
      f('incident_description', 'Description', 'longtext', 'Please describe the problem.', { max: 2000 }),
      f('incident_date', 'Incident date', 'date', 'When did it start?', { required: false }),
      f('employee_system_number', 'System number', 'text', 'What is your computer/system number?', { required: false }),
      f('contact_info', 'Contact info', 'text', 'How can IT reach you?', { required: false }),
    ],
  },
  {
    formType: 'password-reset',
    title: 'Password Reset',
    category: 'Information Technology',
    icon: 'LockKeyhole',
    idPrefix: 'PWD',
    chain: ['it_helpdesk'],
    catalogue: {
      spec: {
        id: 'IT-PWD-16',
        position: 2,
        title: 'Password Reset Request Form',
        requiredApprovals: ['Line Manager', 'IT Helpdesk'],
        keywords: ['password', 'reset', 'locked', 'locked out', 'login', 'forgot', 'account', 'it'],
      },
      description: 'Ask the IT helpdesk to reset your password for Email, ERP, CRM, VPN or another system.',
      estimatedTime: '3-5 min',
      priority: 'high',
    },
    details: {
      title: 'Password Reset Details',
      fields: [
        { name: 'system_for_reset', label: 'System' },
        { name: 'reset_reason', label: 'Reason' },
        { name: 'it_support_status', label: 'IT Support Status', value: 'it-support-status' },
        { name: 'it_helpdesk_reset_by', label: 'Reset By' },
        { name: 'it_helpdesk_date', label: 'Reset Date', kind: 'date' },
        { name: 'has_new_password', label: 'New Password', value: 'password-set', audience: 'approver' },
      ],
    },
    kind: 'it-ticket',
    itLifecycle: 'password-reset',
    initialStatus: 'Pending',
    initialData: { it_support_status: 'Pending Manager' },
    rejectionReasons: 'password-reset',
    managerChip: true,
    successMessage: 'Password reset request submitted successfully!',
    keywords: ['password', 'reset', 'locked', 'login', 'forgot'],
    fields: [
      f('system_for_reset', 'System', 'enum', 'Which system needs the reset (Email, ERP, CRM, VPN, Other)?', {
        options: PASSWORD_SYSTEMS,
        requiredMessage: 'Please select a system',
      }),
      f('reset_reason', 'Reason', 'enum', 'Why do you need the reset (Forgotten Password, Locked Account, Security Concern, Other)?', {
        options: RESET_REASONS,
        requiredMessage: 'Please select a reason for reset',
      }),
    ],
  },
  {
    formType: 'meeting-room',
    title: 'Meeting Room Booking',
    category: 'Facilities & Operations',
    icon: 'DoorOpen',
    idPrefix: 'MR',
    chain: FAC,
    catalogue: { description: 'Book a meeting room for a date and time slot.', estimatedTime: '2-3 min', priority: 'medium' },
    details: {
      title: 'Booking Details',
      fields: [
        { name: 'room_requested', label: 'Room' },
        { name: 'booking_date', label: 'Date', kind: 'date' },
        { name: 'start_time', label: 'Start Time', kind: 'time' },
        { name: 'end_time', label: 'End Time', kind: 'time' },
        { name: 'participants_count', label: 'Participants', kind: 'number' },
      ],
    },
    dateWindow: { what: 'A booking', back: 366, ahead: 731 },
    rejectionReasons: 'meeting-room',
    calendar: {
      kind: 'booking',
      start: 'booking_date',
      label: (r) =>
        [r.room_requested ?? 'Meeting room', r.start_time && r.end_time ? `${String(r.start_time)}-${String(r.end_time)}` : null]
          .filter(Boolean)
          .join(' '),
    },
    keywords: ['meeting room', 'room', 'booking', 'conference room', 'board room'],
    fields: [
      f('room_requested', 'Room', 'text', 'Which room would you like?', { help: 'The room name, e.g. Board Room or Room 4B.' }),
      f('booking_date', 'Date', 'date', 'On which date?'),
      f('start_time', 'Start time', 'time', 'From what time?'),
      f('end_time', 'End time', 'time', 'Until what time?'),
      f('participants_count', 'Participants', 'integer', 'How many participants?', { min: 1, max: 500 }),
    ],
  },
  {
    formType: 'facility-access',
    title: 'Facility Access',
    category: 'Facilities & Operations',
    icon: 'Building2',
    idPrefix: 'FA',
    chain: FAC,
    catalogue: {
      spec: {
        id: 'FAC-AC-15',
        position: 1,
        title: 'Facility Access Booking Form',
        requiredApprovals: ['Line Manager', 'Security Officer'],
        keywords: ['facility', 'access', 'access card', 'badge', 'building', 'after hours', 'booking', 'security'],
      },
      description: 'Request a new access card, temporary access or extended access hours to company facilities.',
      estimatedTime: '5-10 min',
      priority: 'medium',
    },
    details: {
      title: 'Access Details',
      fields: [
        { name: 'access_request_type', label: 'Request Type' },
        { name: 'facilities_requested', label: 'Facilities Requested' },
        { name: 'justification', label: 'Justification', kind: 'long' },
        { name: 'manager', label: 'Manager', emptyText: 'N/A' },
      ],
    },
    rejectionReasons: 'facility-access',
    successMessage: 'Form submitted successfully!',
    keywords: ['facility', 'access card', 'badge', 'building access', 'after hours'],
    fields: [
      f(
        'access_request_type',
        'Request type',
        'enum',
        'Which kind of access (New Access Card, Temporary Access, Extended Access Hours, Other)?',
        { options: ACCESS_REQUEST_TYPES },
      ),
      f('facilities_requested', 'Facilities requested', 'text', 'Which facilities do you need access to?'),
      f('justification', 'Justification', 'longtext', 'Why do you need this access?', { max: 1000 }),
    ],
  },
  {
    formType: 'transport-request',
    title: 'Transport Request',
    category: 'Facilities & Operations',
    icon: 'Bus',
    idPrefix: 'TPT',
    chain: LM,
    catalogue: { description: 'Request a company cab or shuttle for a trip.', estimatedTime: '3-5 min', priority: 'low' },
    calendar: { kind: 'booking', start: 'travel_date', label: (r) => `Transport${r.destination ? ` to ${String(r.destination)}` : ''}` },
    keywords: ['transport', 'cab', 'taxi', 'pickup', 'shuttle'],
    fields: [
      f('pickup_location', 'Pickup location', 'text', 'Where should you be picked up?'),
      f('destination', 'Destination', 'text', 'Where to?'),
      f('travel_date', 'Date', 'date', 'On which date?'),
      f('travel_time', 'Time', 'time', 'At what time?'),
      f('passengers', 'Passengers', 'integer', 'How many passengers?', { min: 1, max: 60 }),
    ],
  },
  {
    formType: 'maintenance-request',
    title: 'Maintenance Request',
    category: 'Facilities & Operations',
    icon: 'Wrench',
    idPrefix: 'MNT',
    chain: LM,
    catalogue: { description: 'Report something in the building that needs repair.', estimatedTime: '3-5 min', priority: 'medium' },
    keywords: ['maintenance', 'repair', 'fix', 'leak', 'air conditioning'],
    fields: [
      f('location', 'Location', 'text', 'Where is the problem?'),
      f('issue_description', 'Issue', 'longtext', 'What needs fixing?', { max: 1000 }),
      f('urgency', 'Urgency', 'enum', 'How urgent is it (Low, Medium, High)?', { options: PRIORITIES }),
    ],
  },
  {
    formType: 'safety-incident',
    title: 'Safety Incident',
    category: 'Facilities & Operations',
    icon: 'TriangleAlert',
    idPrefix: 'SAF',
    chain: LM,
    allowPast: true,
    catalogue: { description: 'Report an accident, injury or hazard at work.', estimatedTime: '5-10 min', priority: 'high' },
    keywords: ['safety', 'accident', 'injury', 'hazard'],
    fields: [
      f('incident_date', 'Incident date', 'date', 'When did it happen?'),
      f('location', 'Location', 'text', 'Where did it happen?'),
      f('incident_description', 'Description', 'longtext', 'What happened?', { max: 2000 }),
      f('severity', 'Severity', 'enum', 'How severe (Low, Medium, High, Critical)?', { options: ['Low', 'Medium', 'High', 'Critical'] }),
    ],
  },
  {
    formType: 'nda-request',
    title: 'NDA Request',
    category: 'Legal',
    icon: 'FileLock',
    idPrefix: 'NDA',
    chain: LM,
    catalogue: { description: 'Request a non-disclosure agreement with another party.', estimatedTime: '5-10 min', priority: 'low' },
    keywords: ['nda', 'non-disclosure', 'confidentiality'],
    fields: [
      f('counterparty', 'Counterparty', 'text', 'Who is the other party?'),
      f('purpose', 'Purpose', 'longtext', 'What is the NDA for?', { max: 1000 }),
      f('effective_date', 'Effective date', 'date', 'From which date should it apply?'),
    ],
  },
  {
    formType: 'contract-approval',
    title: 'Contract Approval',
    category: 'Legal',
    icon: 'FileSignature',
    idPrefix: 'CON',
    chain: LM,
    amountField: 'contract_value',
    purposeField: 'summary',
    catalogue: { description: 'Get a contract with a vendor or partner approved.', estimatedTime: '10-15 min', priority: 'medium' },
    keywords: ['contract', 'agreement', 'vendor contract'],
    fields: [
      f('counterparty', 'Counterparty', 'text', 'Who is the other party?'),
      f('contract_title', 'Contract title', 'text', 'What is the contract called?'),
      f('contract_value', 'Contract value (USD)', 'money', 'What is the contract value in USD?'),
      f('start_date', 'Start date', 'date', 'When does it start?'),
      f('summary', 'Summary', 'longtext', 'Summarise the contract.', { max: 2000 }),
    ],
  },
  {
    formType: 'equipment-request',
    title: 'Equipment Request',
    category: 'Other',
    icon: 'Laptop',
    idPrefix: 'EQ',
    chain: LM,
    amountField: 'estimated_cost',
    purposeField: 'justification',
    catalogue: { description: 'Request a laptop, monitor, headset or other equipment.', estimatedTime: '5-10 min', priority: 'medium' },
    details: {
      title: 'Equipment Details',
      fields: [
        { name: 'equipment_type', label: 'Equipment Type' },
        { name: 'quantity', label: 'Quantity', kind: 'number' },
        { name: 'estimated_cost', label: 'Estimated Cost', kind: 'money' },
        { name: 'priority', label: 'Priority' },
        { name: 'equipment_description', label: 'Description', kind: 'long' },
        { name: 'justification', label: 'Justification', kind: 'long' },
      ],
    },
    keywords: ['equipment', 'laptop', 'monitor', 'keyboard', 'hardware', 'headset'],
    fields: [
      f('equipment_type', 'Equipment type', 'text', 'What equipment do you need?'),
      f('quantity', 'Quantity', 'integer', 'How many?', { min: 1, max: 1000 }),
      f('estimated_cost', 'Estimated cost (USD)', 'money', 'What is the estimated cost in USD?'),
      f('priority', 'Priority', 'enum', 'What priority (Low, Medium, High)?', { options: PRIORITIES }),
      f('justification', 'Justification', 'longtext', 'Why do you need it?', { max: 1000 }),
    ],
  },
  {
    formType: 'training-request',
    title: 'Training Request',
    category: 'Other',
    icon: 'GraduationCap',
    idPrefix: 'TRG',
    chain: LM,
    amountField: 'training_cost',
    purposeField: 'justification',
    catalogue: { description: 'Request a training course, workshop or certification.', estimatedTime: '5-10 min', priority: 'low' },
    details: {
      title: 'Training Details',
      fields: [
        { name: 'training_program', label: 'Training Program' },
        { name: 'training_type', label: 'Training Type' },
        { name: 'training_provider', label: 'Provider' },
        { name: 'training_duration', label: 'Duration' },
        { name: 'start_date', label: 'Start Date', kind: 'date' },
        { name: 'end_date', label: 'End Date', kind: 'date' },
        { name: 'training_cost', label: 'Cost', kind: 'money' },
        { name: 'estimated_cost', label: 'Estimated Cost', kind: 'money' },
        { name: 'training_description', label: 'Description', kind: 'long' },
        { name: 'justification', label: 'Justification', kind: 'long' },
      ],
    },
    calendar: {
      kind: 'leave',
      start: 'start_date',
      end: 'end_date',
      label: (r) => `Training${r.training_program ? `: ${String(r.training_program)}` : ''}`,
    },
    keywords: ['training', 'course', 'certification', 'workshop', 'learning'],
    fields: [
      f('training_program', 'Training program', 'text', 'Which training or course?'),
      f('training_provider', 'Provider', 'text', 'Who provides it?'),
      f('start_date', 'Start date', 'date', 'When does it start?'),
      f('end_date', 'End date', 'date', 'When does it end?'),
      f('training_cost', 'Cost (USD)', 'money', 'How much does it cost in USD?'),
      f('justification', 'Justification', 'longtext', 'How will it help your work?', { max: 1000 }),
    ],
  },
  {
    formType: 'event-participation',
    title: 'Event Participation',
    category: 'Other',
    icon: 'Ticket',
    idPrefix: 'EVT',
    chain: LM,
    amountField: 'estimated_cost',
    purposeField: 'justification',
    catalogue: { description: 'Request to attend a conference, summit or other event.', estimatedTime: '5-10 min', priority: 'low' },
    keywords: ['event', 'conference', 'summit', 'meetup', 'participation'],
    fields: [
      f('event_name', 'Event', 'text', 'Which event?'),
      f('event_date', 'Event date', 'date', 'When is it?'),
      f('location', 'Location', 'text', 'Where is it?'),
      f('estimated_cost', 'Estimated cost (USD)', 'money', 'What is the estimated cost in USD?'),
      f('justification', 'Justification', 'longtext', 'Why should you attend?', { max: 1000 }),
    ],
  },
];

/** Every form type, in registry order (the catalogue's and the chips' order). */
export const FORM_TYPES: readonly FormTypeDef[] = REGISTRY;
export const FORM_TYPE_IDS: readonly string[] = REGISTRY.map((t) => t.formType);
const BY_TYPE = new Map(REGISTRY.map((t) => [t.formType, t]));

const FORM_TYPE_NAME = /^[a-z][a-z-]{1,48}$/;

/**
 * Adds a form type to the registry: the one step a new type needs (plus a migration when its queue needs its own
 * index). Lists derived at module load (queue scopes, catalogue) include it only when it is registered before the
 * modules deriving them are loaded, so register at start-up, before importing the server (the add-a-type test does).
 */
export function registerFormType(def: FormTypeDef): FormTypeDef {
  if (!FORM_TYPE_NAME.test(def.formType)) throw new Error(`Form type names are lower-case words with dashes: ${def.formType}`);
  if (BY_TYPE.has(def.formType)) throw new Error(`Form type ${def.formType} is already registered`);
  if (REGISTRY.some((t) => t.idPrefix === def.idPrefix)) throw new Error(`Request-id prefix ${def.idPrefix} is already used`);
  if (def.chain.length === 0 || def.chain.some((s) => !(s in STAGES)))
    throw new Error(`Form type ${def.formType} needs a chain of known stages`);
  if ((def.kind === 'it-ticket') !== (def.itLifecycle !== undefined))
    throw new Error('An IT ticket names its IT lifecycle (and only an IT ticket)');
  const names = new Set(def.fields.map((fd) => fd.name));
  for (const k of [def.amountField, def.purposeField, def.todayDefault, def.computedTotal?.field]) {
    if (k !== undefined && !names.has(k)) throw new Error(`Form type ${def.formType} names a field it does not have: ${k}`);
  }
  REGISTRY.push(def);
  (FORM_TYPE_IDS as string[]).push(def.formType);
  BY_TYPE.set(def.formType, def);
  CODE_DEFS.set(def.formType, def);
  return def;
}

/** The code's own definition of each built-in type (what an administrator's edits start from). */
const CODE_DEFS = new Map(REGISTRY.map((t) => [t.formType, t]));

/** The code's definition of a built-in type, whatever an administrator changed since; undefined for their own types. */
export function codeFormTypeDef(formType: string): FormTypeDef | undefined {
  return CODE_DEFS.get(formType);
}

/**
 * Puts a type as stored in the database into the registry (form-types/registry-sync.ts): replaces the entry of
 * that type in place (a built-in type keeps its place in the catalogue) or adds it at the end.
 */
export function putFormTypeDef(def: FormTypeDef): void {
  const at = REGISTRY.findIndex((t) => t.formType === def.formType);
  if (at >= 0) REGISTRY[at] = def;
  else {
    REGISTRY.push(def);
    (FORM_TYPE_IDS as string[]).push(def.formType);
  }
  BY_TYPE.set(def.formType, def);
  schemaCache.delete(def.formType);
}

/** May new requests of the type be submitted (known and not disabled by an administrator)? */
export function isFormTypeEnabled(formType: string): boolean {
  const def = BY_TYPE.get(formType);
  return def !== undefined && def.enabled !== false;
}

// ---- lists derived from the registry --------------------------------------------------------------

/** The types whose chain has `stage`, in registry order (finance, facilities, HR lists and queue scopes). */
export function formTypesWithStage(stage: Stage): string[] {
  return REGISTRY.filter((t) => t.chain.includes(stage)).map((t) => t.formType);
}

/** The types of a kind, in registry order. */
export function formTypesOfKind(kind: FormKind): string[] {
  return REGISTRY.filter((t) => formKind(t.formType) === kind).map((t) => t.formType);
}

/** A type's kind: approval request (the default) or IT ticket. */
export function formKind(formType: string): FormKind {
  return BY_TYPE.get(formType)?.kind ?? 'approval';
}

/** The IT lifecycle of an IT ticket type, or null for anything else. */
export function itLifecycleOf(formType: unknown): ItLifecycle | null {
  return BY_TYPE.get(String(formType ?? ''))?.itLifecycle ?? null;
}

/** The type whose IT lifecycle is this one (the IT desk works exactly one type per lifecycle). */
export function itTicketType(lifecycle: ItLifecycle): string {
  const t = REGISTRY.find((d) => d.itLifecycle === lifecycle);
  if (!t) throw new Error(`No form type has the IT lifecycle ${lifecycle}`);
  return t.formType;
}

/** Status of a new request of the type. */
export function initialStatusOf(formType: string): string {
  return BY_TYPE.get(formType)?.initialStatus ?? 'Pending';
}

export const DEFAULT_SUBMIT_MESSAGE = 'Request submitted successfully!';

/** The message of a successful submission of the type. */
export function successMessageOf(formType: string): string {
  return BY_TYPE.get(formType)?.successMessage ?? DEFAULT_SUBMIT_MESSAGE;
}

/** The chain in the product's words ('Line Manager', 'Finance'), as the catalogue's 'approvals required' shows it. */
export function chainInWords(formType: string): string[] {
  const def = BY_TYPE.get(formType);
  if (def?.stages) return def.stages.map((s) => s.label);
  return (def?.chain ?? []).map((s) => STAGES[s].label);
}

/** The leave types (registry entries with `leave`): one balance and no overlap between any of them. */
export function leaveFormTypes(): string[] {
  return REGISTRY.filter((t) => t.leave === true).map((t) => t.formType);
}

/** The type is a leave of absence (working days, leave balance and overlap rules). */
export function isLeaveType(formType: unknown): boolean {
  return BY_TYPE.get(String(formType ?? ''))?.leave === true;
}

/** A type's details card, or null when its details view is the generic field list. */
export function detailsOf(formType: string): DetailsDef | null {
  return BY_TYPE.get(formType)?.details ?? null;
}

/** The date fields a type's date window applies to: its date fields, in form order. */
function windowFields(def: FormTypeDef): string[] {
  return def.fields.filter((fd) => fd.type === 'date').map((fd) => fd.name);
}

export function formTypeDef(formType: string): FormTypeDef | undefined {
  return BY_TYPE.get(formType);
}

export function isFormType(formType: string): boolean {
  return BY_TYPE.has(formType);
}

export function formTitle(formType: string): string {
  return BY_TYPE.get(formType)?.title ?? humanise(formType);
}

export function humanise(name: string): string {
  return name
    .replace(/[-_]+/g, ' ')
    .replace(/\b\w/g, (c) => c.toUpperCase())
    .trim();
}

/** A requisition's total: quantity x unit cost, to the cent. */
export function requisitionTotal(quantity: unknown, unitCost: unknown): number {
  return Math.round(Number(quantity) * Number(unitCost) * 100) / 100;
}

const blankValue = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * A request's total in USD, read from its type's amount field (`amountField` of the registry); a requisition
 * stored without its total counts quantity x unit cost. Null when the type has no total or the value is not a number.
 */
export function requestAmount(formType: string, values: Record<string, unknown>): number | null {
  const field = BY_TYPE.get(formType)?.amountField;
  if (!field) return null;
  let raw = values[field];
  const total = BY_TYPE.get(formType)?.computedTotal;
  if (blankValue(raw) && total?.field === field && !blankValue(values[total.quantity]) && !blankValue(values[total.unitCost])) {
    raw = requisitionTotal(values[total.quantity], values[total.unitCost]);
  }
  if (blankValue(raw)) return null;
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  return Number.isFinite(n) ? n : null;
}

/** What a request is for, read from its type's purpose field (`purposeField` of the registry); null when none. */
export function requestPurpose(formType: string, values: Record<string, unknown>): string | null {
  const field = BY_TYPE.get(formType)?.purposeField;
  const raw = field ? values[field] : undefined;
  return blankValue(raw) ? null : String(raw).trim();
}

// ---- validation -------------------------------------------------------------------------------

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const isoDate = z
  .string()
  .regex(ISO_DATE, 'must be a date as YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'must be a real calendar date',
  );

export const money = z.coerce
  .number({ message: 'must be a number' })
  .finite('must be a number')
  .min(0, 'must be 0 or more')
  .max(100_000_000, 'is too large')
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'must have at most 2 decimals');

const realDate = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
};
const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const decimalsOk = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/** Numbers arrive as JSON numbers or numeric strings (HTML inputs); blank means missing. */
const toNumberInput = (v: unknown) => (isBlank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v);

/** The longest text a text or long-text field takes: its own max, else 200 (text) or 2000 (long text). */
export function textMaxLength(fd: Pick<FieldDef, 'type' | 'max'>): number {
  return fd.max ?? (fd.type === 'text' ? 200 : 2000);
}

function fieldSchema(fd: FieldDef): z.ZodTypeAny {
  const label = fd.label;
  const required = fd.requiredMessage ?? `${label} is required`;
  const missingOr = (otherwise: string) => (iss: { input?: unknown }) => (isBlank(iss.input) ? required : otherwise);
  switch (fd.type) {
    case 'text':
    case 'longtext':
      return z
        .string({ error: missingOr(`${label} must be text`) })
        .trim()
        .min(1, required)
        .max(textMaxLength(fd), `${label} is too long (at most ${textMaxLength(fd)} characters)`);
    case 'date':
      return z
        .string({ error: missingOr(`${label} must be a date as YYYY-MM-DD`) })
        .trim()
        .min(1, required)
        .regex(ISO_DATE, `${label} must be a date as YYYY-MM-DD`)
        .refine((s) => !ISO_DATE.test(s) || realDate(s), `${label} must be a real calendar date`);
    case 'time':
      return z
        .string({ error: missingOr(`${label} must be a time as HH:MM`) })
        .trim()
        .min(1, required)
        .regex(HHMM, `${label} must be a time as HH:MM`);
    case 'integer': {
      let s = z.number({ error: missingOr(`${label} must be a whole number`) }).int(`${label} must be a whole number`);
      if (fd.min !== undefined) s = s.min(fd.min, `${label} must be at least ${fd.min}`);
      // A bound of the registry is said as one ('Participants must be at most 500'); without one, only absurd numbers are refused.
      return z.preprocess(
        toNumberInput,
        fd.max !== undefined ? s.max(fd.max, `${label} must be at most ${fd.max}`) : s.max(1_000_000, `${label} is too large`),
      );
    }
    case 'money': {
      const min = fd.min ?? 0;
      const s = z
        .number({ error: missingOr(`${label} must be a number`) })
        .finite(`${label} must be a number`)
        .min(min, min === 0 ? `${label} must be 0 or more` : `${label} must be at least ${min}`)
        .max(100_000_000, `${label} is too large`)
        .refine(decimalsOk, `${label} must have at most 2 decimals`);
      return z.preprocess(toNumberInput, s);
    }
    case 'number': {
      let s = z.number({ error: missingOr(`${label} must be a number`) }).finite(`${label} must be a number`);
      if (fd.min !== undefined) s = s.min(fd.min, `${label} must be at least ${fd.min}`);
      return z.preprocess(toNumberInput, s.max(fd.max ?? 1_000_000, `${label} is too large`));
    }
    case 'enum':
      return z.enum(fd.options as [string, ...string[]], { error: missingOr(`${label} must be one of: ${fd.options!.join(', ')}`) });
  }
}

/**
 * How far the dates of a leave, a trip and a room booking may lie (in days from today) and how long the period
 * may be. Checked before anything counts days, so an absurd range (0001-01-01 to 9999-12-31) is refused at once.
 */
export interface DateWindow {
  /** The date fields: a period's first and last day, or one day. */
  fields: readonly string[];
  /** Noun for messages ('A leave'). */
  what: string;
  /** Days back from today the earliest date may lie. */
  back: number;
  /** Days ahead of today the latest date may lie. */
  ahead: number;
  /** Longest period in days, first and last day included (periods only). */
  maxDays?: number;
}

/** The date window of a form type (its registry entry's `dateWindow` over its date fields), or null. */
export function dateWindowOf(formType: string): DateWindow | null {
  const def = BY_TYPE.get(formType);
  if (!def?.dateWindow) return null;
  return { fields: windowFields(def), ...def.dateWindow };
}

/** The date windows of the registered types (derived from the registry when this module loads). */
export const DATE_WINDOWS: Readonly<Record<string, DateWindow>> = Object.fromEntries(
  REGISTRY.filter((t) => t.dateWindow).map((t) => [t.formType, dateWindowOf(t.formType)!]),
);

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** The length rule of a form type's period ('A leave can be at most 366 days long'); needs no clock. */
function periodLengthError(formType: string, v: Record<string, unknown>): string | null {
  const w = dateWindowOf(formType);
  if (!w?.maxDays || w.fields.length !== 2) return null;
  const [a, b] = w.fields.map((k) => v[k]);
  if (typeof a !== 'string' || typeof b !== 'string' || !ISO_DATE.test(a) || !ISO_DATE.test(b)) return null;
  const days = dayNumber(b) - dayNumber(a) + 1;
  return days > w.maxDays ? `${w.what} can be at most ${w.maxDays} days long` : null;
}

/**
 * The window rule of a form type's dates relative to `today` (YYYY-MM-DD, or a moment whose business date is taken): not more than `back` days
 * ago, not more than `ahead` days ahead, and the period's length. Answers a message or null. Constant work.
 */
export function dateWindowError(formType: string, v: Record<string, unknown>, today: string | Date): string | null {
  return dateRuleIssue(formType, v, today)?.message ?? null;
}

/** A date rule broken by a form's values: the field it concerns (for a field error) and the message. */
export interface DateRuleIssue {
  field: string;
  message: string;
}

/**
 * Whether a form's values may carry dates before today: the registry's `allowPast` (a type retrospective by
 * nature, or a value such as leave type Sick). A conditional rule whose field is still blank is undecided and
 * allows it for now (the assistant asks the leave type later; the server's schema requires it anyway).
 */
export function allowsPastDates(formType: string, v: Record<string, unknown>): boolean {
  const allow = BY_TYPE.get(formType)?.allowPast;
  if (!allow) return false;
  if (allow === true) return true;
  const value = v[allow.field];
  return isBlank(value) || allow.values.includes(String(value));
}

/**
 * The past-date rule: a date field before `today` (YYYY-MM-DD, the company's business date) on a type that does
 * not allow past dates (allowsPastDates). Answers the first such field with 'Start date cannot be in the past'.
 */
export function pastDateIssue(formType: string, v: Record<string, unknown>, today: string | Date): DateRuleIssue | null {
  const def = BY_TYPE.get(formType);
  if (!def || allowsPastDates(formType, v)) return null;
  const t = typeof today === 'string' ? today : businessDate(today);
  for (const fd of def.fields) {
    if (fd.type !== 'date') continue;
    const d = v[fd.name];
    if (typeof d !== 'string' || !ISO_DATE.test(d) || !realDate(d)) continue;
    if (d.slice(0, 10) < t) return { field: fd.name, message: `${fd.label} cannot be in the past (today is ${t})` };
  }
  return null;
}

/**
 * Every date rule of a form's values relative to `today`: the past-date rule (pastDateIssue), then the type's
 * window (not more than `back` days ago nor `ahead` days ahead) and the period's length. Constant work.
 */
export function dateRuleIssue(formType: string, v: Record<string, unknown>, today: string | Date): DateRuleIssue | null {
  const past = pastDateIssue(formType, v, today);
  if (past) return past;
  const w = dateWindowOf(formType);
  if (!w) return null;
  const t = dayNumber(typeof today === 'string' ? today : businessDate(today));
  const labels = new Map((BY_TYPE.get(formType)?.fields ?? []).map((fd) => [fd.name, fd.label] as const));
  for (const k of w.fields) {
    const d = v[k];
    if (typeof d !== 'string' || !ISO_DATE.test(d)) continue;
    const n = dayNumber(d);
    if (Number.isNaN(n)) continue;
    const label = labels.get(k) ?? k;
    if (n < t - w.back) return { field: k, message: `${label} can be at most ${Math.round(w.back / 365)} year in the past` };
    if (n > t + w.ahead) return { field: k, message: `${label} can be at most ${Math.round(w.ahead / 365)} years ahead` };
  }
  const long = periodLengthError(formType, v);
  return long ? { field: w.fields[w.fields.length - 1], message: long } : null;
}

/** Period pairs (first day, last day) whose last day may not come before the first. */
const DATE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['start_date', 'end_date'],
  ['departure_date', 'return_date'],
];

const shiftDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The earliest and latest date a date field may take (YYYY-MM-DD), for date pickers: the type's window around
 * `today` (DATE_WINDOWS), and for a period's last day not before its first day nor past the longest period.
 * The same bounds the server checks; undefined where nothing bounds the field.
 */
export function dateInputBounds(
  formType: string,
  field: string,
  values: Record<string, unknown>,
  today: string,
): { min?: string; max?: string } {
  const w = DATE_WINDOWS[formType];
  let min = w?.fields.includes(field) ? shiftDays(today, -w.back) : undefined;
  let max = w?.fields.includes(field) ? shiftDays(today, w.ahead) : undefined;
  // the past-date rule (pastDateIssue): today at the earliest
  const isDate = BY_TYPE.get(formType)?.fields.some((fd) => fd.name === field && fd.type === 'date');
  if (isDate && !allowsPastDates(formType, values) && (!min || today > min)) min = today;
  const pair = DATE_PAIRS.find(([, last]) => last === field);
  const first = pair ? values[pair[0]] : undefined;
  if (pair && typeof first === 'string' && ISO_DATE.test(first) && realDate(first)) {
    if (!min || first > min) min = first;
    if (w?.maxDays && w.fields[1] === field) {
      const longest = shiftDays(first, w.maxDays - 1);
      if (!max || longest < max) max = longest;
    }
  }
  return { ...(min ? { min } : {}), ...(max ? { max } : {}) };
}

/** Cross-field rules that every channel (API, web, assistant) applies. */
export function crossFieldErrors(formType: string, v: Record<string, unknown>): string | null {
  const s = (k: string) => (typeof v[k] === 'string' ? v[k] : undefined);
  const pairs: Array<[string, string, string]> = [
    ['start_date', 'end_date', 'End date cannot be before start date'],
    ['departure_date', 'return_date', 'Return date cannot be before departure date'],
  ];
  for (const [a, b, msg] of pairs) {
    const x = s(a),
      y = s(b);
    if (x && y && y < x) return msg;
  }
  const tooLong = periodLengthError(formType, v);
  if (tooLong) return tooLong;
  const def = BY_TYPE.get(formType);
  const fieldNames = new Set(def?.fields.map((fd) => fd.name));
  if (fieldNames.has('start_time') && fieldNames.has('end_time')) {
    const st = s('start_time'),
      en = s('end_time');
    if (st && en && en <= st) return 'End time must be after start time';
  }
  const total = def?.computedTotal;
  if (total) {
    const q = Number(v[total.quantity]),
      u = Number(v[total.unitCost]),
      t = v[total.field];
    if (t !== undefined && t !== null && Math.abs(Number(t) - requisitionTotal(q, u)) > 0.01) {
      const word = (name: string) => (def.fields.find((fd) => fd.name === name)?.label ?? name).replace(/ \(USD\)$/, '');
      return `${word(total.field)} must equal ${word(total.quantity).toLowerCase()} x ${word(total.unitCost).toLowerCase()}`;
    }
  }
  return null;
}

const schemaCache = new Map<string, z.ZodTypeAny>();

/** The zod schema of a form type's employee-entered fields. Unknown keys are dropped. */
export function formSchema(formType: string): z.ZodTypeAny {
  const cached = schemaCache.get(formType);
  if (cached) return cached;
  const def = BY_TYPE.get(formType);
  if (!def) throw new Error(`Unknown form type ${formType}`);
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const fd of def.fields) {
    const s = fieldSchema(fd);
    shape[fd.name] = fd.required ? s : z.preprocess((v) => (isBlank(v) ? undefined : v), s.optional());
  }
  const schema = z
    .object(shape)
    .superRefine((v, ctx) => {
      const err = crossFieldErrors(formType, v);
      if (err) ctx.addIssue({ code: 'custom', message: err });
    })
    .transform((v) => {
      const out = v as Record<string, unknown>;
      const total = def.computedTotal;
      if (total && (out[total.field] === undefined || out[total.field] === null)) {
        out[total.field] = requisitionTotal(out[total.quantity], out[total.unitCost]);
      }
      for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === null) delete out[k];
      return out;
    });
  schemaCache.set(formType, schema);
  return schema;
}

/** First readable message of a zod error, for `{error}` bodies. */
export function firstIssueMessage(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'Invalid input';
  const path = issue.path.join('.');
  const msg = issue.message;
  const def = path ? FORM_TYPES.flatMap((t) => t.fields).find((fd) => fd.name === path) : undefined;
  // zod's own messages ('Invalid input: expected string, received undefined') are replaced by readable ones.
  if (/^Invalid input/.test(msg) || (issue.code === 'invalid_type' && /^Invalid/.test(msg))) {
    const missing = /received (undefined|null)/.test(msg);
    const name = def?.label ?? path;
    if (name) return missing ? `${name} is required` : `${name} is invalid`;
    return 'Invalid input';
  }
  if (path && !/^[A-Z]/.test(msg) && !msg.includes(path) && !msg.toLowerCase().includes(path.replace(/_/g, ' ')))
    return `${def?.label ?? path}: ${msg}`;
  return msg;
}
