// The form types of AdminEase, defined once: title, category, icon, fields (with the zod schema built
// from them), approval chain and request-id prefix. Server validation, the web forms and the assistant's
// slot filling all read this table.
import { z } from 'zod';

export type Category =
  | 'Human Resources'
  | 'Finance'
  | 'Information Technology'
  | 'Facilities & Operations'
  | 'Legal'
  | 'Other';

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
}

const f = (
  name: string,
  label: string,
  type: FieldType,
  question: string,
  opts: Partial<Pick<FieldDef, 'required' | 'options' | 'min' | 'max' | 'requiredMessage'>> = {},
): FieldDef => ({ name, label, type, question, required: opts.required ?? true, ...opts });

export const LEAVE_TYPES = ['Annual', 'Sick', 'Casual', 'Unpaid', 'Maternity', 'Paternity', 'Bereavement', 'Compensatory'] as const;
export const PASSWORD_SYSTEMS = ['Email', 'ERP', 'CRM', 'VPN', 'Other'] as const;
export const RESET_REASONS = ['Forgotten Password', 'Locked Account', 'Security Concern', 'Other'] as const;
export const ACCESS_REQUEST_TYPES = ['New Access Card', 'Temporary Access', 'Extended Access Hours', 'Other'] as const;
export const INFO_UPDATE_TYPES = ['Address', 'Phone Number', 'Emergency Contact', 'Bank Details', 'Name', 'Marital Status', 'Other'] as const;
export const PRIORITIES = ['Low', 'Medium', 'High'] as const;

const LM: readonly Stage[] = ['line_manager'];
const LM_FIN: readonly Stage[] = ['line_manager', 'finance'];
const FAC: readonly Stage[] = ['facilities_desk', 'facilities_manager'];

export const FORM_TYPES: readonly FormTypeDef[] = [
  {
    formType: 'leave-request', title: 'Leave Request', category: 'Human Resources', icon: 'CalendarDays', idPrefix: 'LR',
    chain: ['line_manager', 'hr'], keywords: ['leave', 'vacation', 'holiday', 'time off', 'day off', 'sick', 'absence'],
    fields: [
      f('leave_type', 'Leave type', 'enum', 'What type of leave is it (Annual, Sick, Casual, Unpaid, ...)?', { options: LEAVE_TYPES }),
      f('start_date', 'Start date', 'date', 'From which date?'),
      f('end_date', 'End date', 'date', 'Until which date (last day of leave)?'),
      f('reason', 'Reason', 'longtext', 'What is the reason for the leave?', { max: 500 }),
    ],
  },
  {
    formType: 'travel-request', title: 'Travel Request', category: 'Human Resources', icon: 'Plane', idPrefix: 'TR',
    chain: LM_FIN, amountField: 'total_estimated_cost', purposeField: 'travel_purpose',
    keywords: ['travel', 'trip', 'flight', 'business trip', 'journey'],
    fields: [
      f('destination', 'Destination', 'text', 'Where are you travelling to?'),
      f('departure_date', 'Departure date', 'date', 'When do you leave?'),
      f('return_date', 'Return date', 'date', 'When do you come back?'),
      f('travel_purpose', 'Purpose', 'longtext', 'What is the purpose of the trip?', { max: 500 }),
      f('total_estimated_cost', 'Estimated cost (USD)', 'money', 'What is the estimated total cost in USD?'),
      f('travel_notes', 'Notes', 'longtext', 'Any notes?', { required: false, max: 1000 }),
    ],
  },
  {
    formType: 'info-update', title: 'Employee Info Update', category: 'Human Resources', icon: 'UserPen', idPrefix: 'IU',
    chain: ['hr'], keywords: ['update info', 'personal details', 'address', 'phone', 'bank details', 'information'],
    fields: [
      f('update_type', 'What to update', 'enum', 'What would you like to update (Address, Phone Number, Emergency Contact, Bank Details, Name, Marital Status, Other)?', { options: INFO_UPDATE_TYPES }),
      f('new_information', 'New information', 'longtext', 'What is the new information?', { max: 1000 }),
      f('old_information', 'Current information', 'longtext', 'What is the current information?', { required: false, max: 1000 }),
    ],
  },
  {
    formType: 'expense-reimbursement', title: 'Expense Reimbursement', category: 'Human Resources', icon: 'Receipt', idPrefix: 'EXP',
    chain: LM, amountField: 'total_amount', purposeField: 'description',
    keywords: ['expense', 'reimbursement', 'claim', 'receipt'],
    fields: [
      f('expense_period', 'Expense period', 'text', 'Which period do the expenses cover (e.g. March 2027)?'),
      f('total_amount', 'Total amount (USD)', 'money', 'What is the total amount in USD?'),
      f('description', 'Description', 'longtext', 'What were the expenses for?', { max: 1000 }),
      f('bank_account', 'Bank account', 'text', 'Which bank account should be credited?', { required: false }),
    ],
  },
  {
    formType: 'it-access', title: 'IT Access Request', category: 'Human Resources', icon: 'KeyRound', idPrefix: 'ITA',
    chain: LM, keywords: ['access', 'permission', 'system access', 'account'],
    fields: [
      f('access_type', 'Access type', 'enum', 'Is this new access, a change, or a removal?', { options: ['New Access', 'Modify Access', 'Remove Access'] }),
      f('requested_systems', 'Systems', 'text', 'Which systems do you need access to?'),
      f('access_level', 'Access level', 'enum', 'Which access level (Read, Write, Admin)?', { options: ['Read', 'Write', 'Admin'] }),
      f('business_justification', 'Business justification', 'longtext', 'Why do you need this access?', { max: 1000 }),
    ],
  },
  {
    formType: 'employee-onboarding', title: 'Employee Onboarding', category: 'Human Resources', icon: 'UserPlus', idPrefix: 'ONB',
    chain: LM, keywords: ['onboarding', 'new hire', 'new joiner'],
    fields: [
      f('new_hire_name', 'New hire name', 'text', 'What is the name of the new hire?'),
      f('position', 'Position', 'text', 'Which position will they hold?'),
      f('start_date', 'Start date', 'date', 'When do they start?'),
      f('equipment_needed', 'Equipment needed', 'longtext', 'What equipment will they need?', { required: false, max: 1000 }),
    ],
  },
  {
    formType: 'exit-clearance', title: 'Exit Clearance', category: 'Human Resources', icon: 'LogOut', idPrefix: 'EXT',
    chain: LM, keywords: ['exit', 'clearance', 'resignation', 'leaving the company'],
    fields: [
      f('last_working_day', 'Last working day', 'date', 'What is your last working day?'),
      f('reason', 'Reason for leaving', 'longtext', 'What is the reason for leaving?', { max: 1000 }),
    ],
  },
  {
    formType: 'petty-cash', title: 'Petty Cash', category: 'Finance', icon: 'Wallet', idPrefix: 'PC',
    chain: LM_FIN, amountField: 'amount_requested', purposeField: 'purpose',
    keywords: ['petty cash', 'cash', 'advance', 'small purchase'],
    fields: [
      f('amount_requested', 'Amount requested (USD)', 'money', 'How much do you need, in USD?', { min: 0.01 }),
      f('expected_settlement_date', 'Expected settlement date', 'date', 'By which date will you settle it?'),
      f('purpose', 'Purpose', 'longtext', 'What is the cash for?', { max: 500 }),
    ],
  },
  {
    formType: 'purchase-requisition', title: 'Purchase Requisition', category: 'Finance', icon: 'ShoppingCart', idPrefix: 'PR',
    chain: LM_FIN, amountField: 'estimated_total', purposeField: 'purpose_of_purchase',
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
    formType: 'medical-claim', title: 'Medical Claim', category: 'Finance', icon: 'HeartPulse', idPrefix: 'MED',
    chain: LM, amountField: 'claim_amount', purposeField: 'description',
    keywords: ['medical', 'health', 'doctor', 'hospital'],
    fields: [
      f('treatment_date', 'Treatment date', 'date', 'When was the treatment?'),
      f('provider', 'Provider', 'text', 'Which doctor or hospital?'),
      f('claim_amount', 'Claim amount (USD)', 'money', 'How much are you claiming, in USD?'),
      f('description', 'Description', 'longtext', 'What was the treatment?', { max: 1000 }),
    ],
  },
  {
    formType: 'mileage-claim', title: 'Mileage Claim', category: 'Finance', icon: 'Car', idPrefix: 'MIL',
    chain: LM, amountField: 'amount_claimed', purposeField: 'purpose',
    keywords: ['mileage', 'kilometres', 'miles', 'driving'],
    fields: [
      f('travel_date', 'Travel date', 'date', 'When did you drive?'),
      f('distance_km', 'Distance (km)', 'number', 'How many kilometres?', { min: 0.1 }),
      f('purpose', 'Purpose', 'longtext', 'What was the trip for?', { max: 500 }),
      f('amount_claimed', 'Amount claimed (USD)', 'money', 'How much are you claiming, in USD?'),
    ],
  },
  {
    formType: 'it-incident', title: 'IT Incident', category: 'Information Technology', icon: 'MonitorX', idPrefix: 'INC',
    chain: ['it_helpdesk'], keywords: ['it issue', 'incident', 'broken', 'not working', 'error', 'laptop', 'vpn', 'ticket'],
    fields: [
      f('affected_system', 'Affected system', 'text', 'Which system is affected (e.g. VPN, Email, Laptop)?'),
      f('incident_description', 'Description', 'longtext', 'Please describe the problem.', { max: 2000 }),
      f('incident_date', 'Incident date', 'date', 'When did it start?', { required: false }),
      f('employee_system_number', 'System number', 'text', 'What is your computer/system number?', { required: false }),
      f('contact_info', 'Contact info', 'text', 'How can IT reach you?', { required: false }),
    ],
  },
  {
    formType: 'password-reset', title: 'Password Reset', category: 'Information Technology', icon: 'LockKeyhole', idPrefix: 'PWD',
    chain: ['it_helpdesk'], keywords: ['password', 'reset', 'locked', 'login', 'forgot'],
    fields: [
      f('system_for_reset', 'System', 'enum', 'Which system needs the reset (Email, ERP, CRM, VPN, Other)?', { options: PASSWORD_SYSTEMS, requiredMessage: 'Please select a system' }),
      f('reset_reason', 'Reason', 'enum', 'Why do you need the reset (Forgotten Password, Locked Account, Security Concern, Other)?', { options: RESET_REASONS, requiredMessage: 'Please select a reason for reset' }),
    ],
  },
  {
    formType: 'meeting-room', title: 'Meeting Room Booking', category: 'Facilities & Operations', icon: 'DoorOpen', idPrefix: 'MR',
    chain: FAC, keywords: ['meeting room', 'room', 'booking', 'conference room', 'board room'],
    fields: [
      f('room_requested', 'Room', 'text', 'Which room would you like?'),
      f('booking_date', 'Date', 'date', 'On which date?'),
      f('start_time', 'Start time', 'time', 'From what time?'),
      f('end_time', 'End time', 'time', 'Until what time?'),
      f('participants_count', 'Participants', 'integer', 'How many participants?', { min: 1, max: 500 }),
    ],
  },
  {
    formType: 'facility-access', title: 'Facility Access', category: 'Facilities & Operations', icon: 'Building2', idPrefix: 'FA',
    chain: FAC, keywords: ['facility', 'access card', 'badge', 'building access', 'after hours'],
    fields: [
      f('access_request_type', 'Request type', 'enum', 'Which kind of access (New Access Card, Temporary Access, Extended Access Hours, Other)?', { options: ACCESS_REQUEST_TYPES }),
      f('facilities_requested', 'Facilities requested', 'text', 'Which facilities do you need access to?'),
      f('justification', 'Justification', 'longtext', 'Why do you need this access?', { max: 1000 }),
    ],
  },
  {
    formType: 'transport-request', title: 'Transport Request', category: 'Facilities & Operations', icon: 'Bus', idPrefix: 'TPT',
    chain: LM, keywords: ['transport', 'cab', 'taxi', 'pickup', 'shuttle'],
    fields: [
      f('pickup_location', 'Pickup location', 'text', 'Where should you be picked up?'),
      f('destination', 'Destination', 'text', 'Where to?'),
      f('travel_date', 'Date', 'date', 'On which date?'),
      f('travel_time', 'Time', 'time', 'At what time?'),
      f('passengers', 'Passengers', 'integer', 'How many passengers?', { min: 1, max: 60 }),
    ],
  },
  {
    formType: 'maintenance-request', title: 'Maintenance Request', category: 'Facilities & Operations', icon: 'Wrench', idPrefix: 'MNT',
    chain: LM, keywords: ['maintenance', 'repair', 'fix', 'leak', 'air conditioning'],
    fields: [
      f('location', 'Location', 'text', 'Where is the problem?'),
      f('issue_description', 'Issue', 'longtext', 'What needs fixing?', { max: 1000 }),
      f('urgency', 'Urgency', 'enum', 'How urgent is it (Low, Medium, High)?', { options: PRIORITIES }),
    ],
  },
  {
    formType: 'safety-incident', title: 'Safety Incident', category: 'Facilities & Operations', icon: 'TriangleAlert', idPrefix: 'SAF',
    chain: LM, keywords: ['safety', 'accident', 'injury', 'hazard'],
    fields: [
      f('incident_date', 'Incident date', 'date', 'When did it happen?'),
      f('location', 'Location', 'text', 'Where did it happen?'),
      f('incident_description', 'Description', 'longtext', 'What happened?', { max: 2000 }),
      f('severity', 'Severity', 'enum', 'How severe (Low, Medium, High, Critical)?', { options: ['Low', 'Medium', 'High', 'Critical'] }),
    ],
  },
  {
    formType: 'nda-request', title: 'NDA Request', category: 'Legal', icon: 'FileLock', idPrefix: 'NDA',
    chain: LM, keywords: ['nda', 'non-disclosure', 'confidentiality'],
    fields: [
      f('counterparty', 'Counterparty', 'text', 'Who is the other party?'),
      f('purpose', 'Purpose', 'longtext', 'What is the NDA for?', { max: 1000 }),
      f('effective_date', 'Effective date', 'date', 'From which date should it apply?'),
    ],
  },
  {
    formType: 'contract-approval', title: 'Contract Approval', category: 'Legal', icon: 'FileSignature', idPrefix: 'CON',
    chain: LM, amountField: 'contract_value', purposeField: 'summary',
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
    formType: 'equipment-request', title: 'Equipment Request', category: 'Other', icon: 'Laptop', idPrefix: 'EQ',
    chain: LM, amountField: 'estimated_cost', purposeField: 'justification',
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
    formType: 'training-request', title: 'Training Request', category: 'Other', icon: 'GraduationCap', idPrefix: 'TRG',
    chain: LM, amountField: 'training_cost', purposeField: 'justification',
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
    formType: 'event-participation', title: 'Event Participation', category: 'Other', icon: 'Ticket', idPrefix: 'EVT',
    chain: LM, amountField: 'estimated_cost', purposeField: 'justification',
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

export const FORM_TYPE_IDS = FORM_TYPES.map((t) => t.formType);
const BY_TYPE = new Map(FORM_TYPES.map((t) => [t.formType, t]));

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
  return name.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()).trim();
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
  if (blankValue(raw) && formType === 'purchase-requisition' && !blankValue(values.quantity) && !blankValue(values.unit_cost)) {
    raw = requisitionTotal(values.quantity, values.unit_cost);
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
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'must be a real calendar date');

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
        .max(fd.max ?? (fd.type === 'text' ? 200 : 2000), `${label} is too long (at most ${fd.max ?? (fd.type === 'text' ? 200 : 2000)} characters)`);
    case 'date':
      return z
        .string({ error: missingOr(`${label} must be a date as YYYY-MM-DD`) })
        .trim()
        .min(1, required)
        .regex(ISO_DATE, `${label} must be a date as YYYY-MM-DD`)
        .refine((s) => !ISO_DATE.test(s) || realDate(s), `${label} must be a real calendar date`);
    case 'time':
      return z.string({ error: missingOr(`${label} must be a time as HH:MM`) }).trim().min(1, required).regex(HHMM, `${label} must be a time as HH:MM`);
    case 'integer': {
      let s = z.number({ error: missingOr(`${label} must be a whole number`) }).int(`${label} must be a whole number`);
      if (fd.min !== undefined) s = s.min(fd.min, `${label} must be at least ${fd.min}`);
      return z.preprocess(toNumberInput, s.max(fd.max ?? 1_000_000, `${label} is too large`));
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

export const DATE_WINDOWS: Readonly<Record<string, DateWindow>> = {
  'leave-request': { fields: ['start_date', 'end_date'], what: 'A leave', back: 366, ahead: 731, maxDays: 366 },
  'travel-request': { fields: ['departure_date', 'return_date'], what: 'A trip', back: 366, ahead: 731, maxDays: 366 },
  'meeting-room': { fields: ['booking_date'], what: 'A booking', back: 366, ahead: 731 },
};

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** The length rule of a form type's period ('A leave can be at most 366 days long'); needs no clock. */
function periodLengthError(formType: string, v: Record<string, unknown>): string | null {
  const w = DATE_WINDOWS[formType];
  if (!w?.maxDays || w.fields.length !== 2) return null;
  const [a, b] = w.fields.map((k) => v[k]);
  if (typeof a !== 'string' || typeof b !== 'string' || !ISO_DATE.test(a) || !ISO_DATE.test(b)) return null;
  const days = dayNumber(b) - dayNumber(a) + 1;
  return days > w.maxDays ? `${w.what} can be at most ${w.maxDays} days long` : null;
}

/**
 * The window rule of a form type's dates relative to `today` (YYYY-MM-DD or a Date): not more than `back` days
 * ago, not more than `ahead` days ahead, and the period's length. Answers a message or null. Constant work.
 */
export function dateWindowError(formType: string, v: Record<string, unknown>, today: string | Date): string | null {
  const w = DATE_WINDOWS[formType];
  if (!w) return null;
  const t = dayNumber(typeof today === 'string' ? today : today.toISOString());
  const labels = new Map((BY_TYPE.get(formType)?.fields ?? []).map((fd) => [fd.name, fd.label] as const));
  for (const k of w.fields) {
    const d = v[k];
    if (typeof d !== 'string' || !ISO_DATE.test(d)) continue;
    const n = dayNumber(d);
    if (Number.isNaN(n)) continue;
    const label = labels.get(k) ?? k;
    if (n < t - w.back) return `${label} can be at most ${Math.round(w.back / 365)} year in the past`;
    if (n > t + w.ahead) return `${label} can be at most ${Math.round(w.ahead / 365)} years ahead`;
  }
  return periodLengthError(formType, v);
}

/** Cross-field rules that every channel (API, web, assistant) applies. */
export function crossFieldErrors(formType: string, v: Record<string, unknown>): string | null {
  const s = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const pairs: Array<[string, string, string]> = [
    ['start_date', 'end_date', 'End date cannot be before start date'],
    ['departure_date', 'return_date', 'Return date cannot be before departure date'],
  ];
  for (const [a, b, msg] of pairs) {
    const x = s(a), y = s(b);
    if (x && y && y < x) return msg;
  }
  const tooLong = periodLengthError(formType, v);
  if (tooLong) return tooLong;
  if (formType === 'meeting-room' || formType === 'transport-request') {
    const st = s('start_time'), en = s('end_time');
    if (st && en && en <= st) return 'End time must be after start time';
  }
  if (formType === 'purchase-requisition') {
    const q = Number(v.quantity), u = Number(v.unit_cost), t = v.estimated_total;
    if (t !== undefined && t !== null && Math.abs(Number(t) - requisitionTotal(q, u)) > 0.01) {
      return 'Estimated total must equal quantity x unit cost';
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
      const err = crossFieldErrors(formType, v as Record<string, unknown>);
      if (err) ctx.addIssue({ code: 'custom', message: err });
    })
    .transform((v) => {
      const out = v as Record<string, unknown>;
      if (formType === 'purchase-requisition' && (out.estimated_total === undefined || out.estimated_total === null)) {
        out.estimated_total = requisitionTotal(out.quantity, out.unit_cost);
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
  if (path && !/^[A-Z]/.test(msg) && !msg.includes(path) && !msg.toLowerCase().includes(path.replace(/_/g, ' '))) return `${def?.label ?? path}: ${msg}`;
  return msg;
}
