// Status rules of requests as employees and approvers see them: buckets, badge and step colours,
// and the next-stage texts. The server writes with them and the web displays with them.
import { type Stage, STAGES, formTypeDef, itLifecycleOf } from './forms.js';
import { incidentSteps, passwordResetStep } from './it.js';

export type StatusBucket = 'Resolve' | 'Update' | 'In Progress' | 'Close' | 'Open' | 'Pending';

/** Employee dashboard bucket of a raw status (case-insensitive). */
export function statusBucket(status: string | null | undefined): StatusBucket {
  const s = (status ?? '').trim().toLowerCase();
  if (['approved', 'completed', 'closed', 'resolved'].includes(s)) return 'Resolve';
  if (s === 'updated') return 'Update';
  if (['in progress', 'assigned', 'processing'].includes(s)) return 'In Progress';
  if (['rejected', 'cancelled'].includes(s)) return 'Close';
  if (['open', 'new'].includes(s)) return 'Open';
  return 'Pending';
}

export type Colour = 'green' | 'red' | 'yellow';

/** Status badge: green for Approved, Updated, Closed, Completed; red for Rejected; yellow otherwise. */
export function statusBadgeColour(status: string | null | undefined): Colour {
  const s = (status ?? '').trim().toLowerCase();
  if (['approved', 'updated', 'closed', 'completed'].includes(s)) return 'green';
  if (s === 'rejected') return 'red';
  return 'yellow';
}

const GREEN = ['approved', 'cleared', 'resolved', 'closed', 'completed', 'complete', 'true', 'yes'];
const RED = ['rejected', 'false', 'no'];

/** Approval step / chain colour of a value (booleans included). */
export function stepColour(value: unknown): Colour {
  const s = String(value ?? '')
    .trim()
    .toLowerCase();
  if (GREEN.includes(s)) return 'green';
  if (RED.includes(s)) return 'red';
  return 'yellow';
}

/** Acknowledgement fields: true is Approved, false Rejected, anything else Pending. */
export function acknowledgementText(value: unknown): 'Approved' | 'Rejected' | 'Pending' {
  if (value === true || value === 'true') return 'Approved';
  if (value === false || value === 'false') return 'Rejected';
  return 'Pending';
}

/** Text of an approval field: missing or empty is Pending. */
export function approvalText(value: unknown): string {
  if (value === true) return 'Approved';
  if (value === false) return 'Rejected';
  const s = String(value ?? '').trim();
  return s === '' ? 'Pending' : s;
}

const is = (v: unknown, word: string) =>
  String(v ?? '')
    .trim()
    .toLowerCase() === word;
const pendingLike = (v: unknown) => String(v ?? '').trim() === '' || is(v, 'pending');
const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

type Rec = Record<string, unknown>;

// ---- status filter, display and summary on the employee's dashboard ---------------------------

/** Options of the employee dashboard's status filter, in the spec's order. */
export const STATUS_FILTERS = ['All', 'Pending', 'Approved', 'Rejected', 'Open', 'Close', 'Resolve', 'Update', 'In Progress'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The status as shown: a missing status is Pending. */
export function displayStatus(status: string | null | undefined): string {
  return blank(status) ? 'Pending' : String(status).trim();
}

/**
 * Whether a raw status passes the status filter. Pending, Approved and Rejected match the raw status
 * (case-insensitive, missing = Pending); the other options match the status bucket.
 */
export function matchesStatusFilter(filter: StatusFilter, status: string | null | undefined): boolean {
  if (filter === 'All') return true;
  if (filter === 'Pending' || filter === 'Approved' || filter === 'Rejected') {
    return displayStatus(status).toLowerCase() === filter.toLowerCase();
  }
  return statusBucket(status) === filter;
}

/** Count of each status filter option over a list of raw statuses. */
export function statusFilterCounts(statuses: ReadonlyArray<string | null | undefined>): Record<StatusFilter, number> {
  const counts = Object.fromEntries(STATUS_FILTERS.map((f) => [f, 0])) as Record<StatusFilter, number>;
  for (const s of statuses) for (const f of STATUS_FILTERS) if (matchesStatusFilter(f, s)) counts[f] += 1;
  return counts;
}

/**
 * The employee dashboard's summary tiles. Each tile is the status filter option of the same name, so the Pending tile
 * and 'Pending (n)' in the filter are one number; Total is the filter's All.
 */
export function employeeSummary(statuses: ReadonlyArray<string | null | undefined>): {
  pending: number;
  approved: number;
  rejected: number;
  total: number;
} {
  const c = statusFilterCounts(statuses);
  return { pending: c.Pending, approved: c.Approved, rejected: c.Rejected, total: c.All };
}

/** Why nobody may act on a withdrawn request any more (decisions, acknowledgements, IT actions). */
export const WITHDRAWN_MESSAGE = 'This request has been withdrawn by the employee';

/** Withdrawn by the employee (status Cancelled): nothing in it waits on anyone any more. */
export function isWithdrawn(r: Rec): boolean {
  return is(r.status, 'cancelled') || is(r.status, 'withdrawn');
}

/** Summary counting: approved and rejected by name, everything else counts as pending. */
export function summaryKey(status: string | null | undefined): 'approved' | 'rejected' | 'pending' {
  if (is(status, 'approved')) return 'approved';
  if (is(status, 'rejected')) return 'rejected';
  return 'pending';
}

// ---- rejection reason -------------------------------------------------------------------------

/** Rejection-reason fields in the order the details modal reads them; any other *_rejected_reason is the fallback. */
export const REJECTION_REASON_FIELDS = [
  'line_manager_rejected_reason',
  'department_head_rejected_reason',
  'hr_rejected_reason',
  'finance_rejected_reason',
  'facilities_desk_rejected_reason',
  'facilities_manager_rejected_reason',
  'it_helpdesk_rejected_reason',
] as const;

/** The first non-blank rejection reason of a record, or null. */
export function rejectionReasonOf(r: Rec): string | null {
  for (const k of REJECTION_REASON_FIELDS) if (!blank(r[k])) return String(r[k]).trim();
  for (const k of Object.keys(r)) if (k.endsWith('_rejected_reason') && !blank(r[k])) return String(r[k]).trim();
  return null;
}

// ---- stage states and the approval steps (the 'Approval Status' boxes) --------------------------

/** Decision value of a stage on a flattened record: 'Pending' when missing. */
export function stageDecision(r: Rec, stage: Stage): string {
  return approvalText(r[`${STAGES[stage].prefix}_approval`]);
}

const ENDED_STATUSES = ['rejected', 'cancelled', 'withdrawn'];

/** The chain ended (the request was rejected or withdrawn): stages still pending will never be decided. */
export function chainEnded(r: Rec): boolean {
  return ENDED_STATUSES.includes(
    String(r.status ?? '')
      .trim()
      .toLowerCase(),
  );
}

/**
 * State of one stage for queues, filters, tiles and step boxes: its decision, or 'Closed' when it is still
 * pending but will never be decided (the request was rejected or withdrawn, or an earlier stage rejected it).
 * 'Pending', 'Approved', 'Rejected' or 'Closed'; any other stored decision word passes through as it is.
 */
export type StageState = string;

export function stageState(r: Rec, stage: Stage): StageState {
  const d = stageDecision(r, stage);
  if (!pendingLike(d)) return d;
  if (chainEnded(r)) return 'Closed';
  const chain = formTypeDef(String(r.form_type ?? ''))?.chain ?? [];
  const idx = chain.indexOf(stage);
  return chain.slice(0, Math.max(idx, 0)).some((s) => is(stageDecision(r, s), 'rejected')) ? 'Closed' : 'Pending';
}

/** Text of a stage box that will never be decided (neutral, not a yellow 'Pending'). */
export const CLOSED_STAGE_TEXT = 'No Further Action';

/** Step colours: the spec's three plus grey for a stage the chain never reached. */
export type StepColour = Colour | 'grey';

export interface ApprovalStep {
  /** The chain stage of the box (absent on clearance, acknowledgement and IT boxes). */
  stage?: Stage;
  label: string;
  /** The text in the box (Approved, Rejected, Pending, Completed, Assigned, No Further Action, ...). */
  value: string;
  colour: StepColour;
  /** Who decided and when, when known. */
  signer?: string | null;
  date?: string | null;
}

/** Who reads the boxes: the employee in their details modal, or an approver in a dashboard's details modal. */
export interface ApprovalStepsOptions {
  audience?: 'employee' | 'approver';
}

/** The approval chain (stages) of a form type; types outside the table have the line manager only. */
export function chainOf(formType: unknown): readonly Stage[] {
  const t = String(formType ?? '');
  return formTypeDef(t === 'employee-info-update' ? 'info-update' : t)?.chain ?? ['line_manager'];
}

const CLEARANCE_FIELDS: Array<[string, string]> = [
  ['line_manager_clearance', 'Line Manager Clearance'],
  ['it_clearance', 'IT Clearance'],
  ['finance_clearance', 'Finance Clearance'],
  ['admin_clearance', 'Admin Clearance'],
];

function stageStep(r: Rec, stage: Stage, audience: 'employee' | 'approver'): ApprovalStep {
  const p = STAGES[stage].prefix;
  const state = stageState(r, stage);
  const closed = state === 'Closed';
  const managerDecision = audience === 'approver' && stage === 'line_manager' && chainOf(r.form_type).includes('finance');
  return {
    stage,
    label: managerDecision ? 'Manager Decision' : STAGES[stage].label,
    value: closed ? CLOSED_STAGE_TEXT : state,
    colour: closed ? 'grey' : stepColour(state),
    signer: blank(r[`${p}_signature`]) ? null : String(r[`${p}_signature`]),
    date: blank(r[`${p}_date`]) ? null : String(r[`${p}_date`]),
  };
}

/** Exit-clearance clearance fields: true is Approved, false and missing show Pending (not Rejected). */
export function clearanceText(value: unknown): 'Approved' | 'Pending' {
  return value === true || is(value, 'true') || is(value, 'approved') || is(value, 'cleared') ? 'Approved' : 'Pending';
}

/**
 * The 'Approval Status' step boxes of a request record, in chain order, for the employee's and the approvers'
 * details modals: green approved-like, red rejected, yellow pending, and a grey 'No Further Action' for a stage
 * the chain never reached (rejected earlier or withdrawn). Approvers read the finance chain's first box as
 * 'Manager Decision', as the finance dashboard labels it.
 */
export function approvalSteps(r: Rec, { audience = 'employee' }: ApprovalStepsOptions = {}): ApprovalStep[] {
  const type = String(r.form_type ?? '');
  // IT's two kinds of request have their own boxes (rules in it.ts).
  const it = itLifecycleOf(type);
  if (it === 'password-reset') return [passwordResetStep(r)].map((x) => ({ ...x, colour: stepColour(x.value) }));
  if (it === 'incident') {
    return incidentSteps(r).map((x, i) => ({
      ...x,
      colour: stepColour(x.value),
      signer: i === 0 && !blank(r.it_helpdesk_assigned_to) ? String(r.it_helpdesk_assigned_to) : null,
    }));
  }
  const chain = chainOf(type);
  const steps = chain.map((stage) => stageStep(r, stage, audience));
  if (type === 'exit-clearance') {
    for (const [field, label] of CLEARANCE_FIELDS) {
      if (field in r) {
        const value = clearanceText(r[field]);
        steps.push({ label, value, colour: stepColour(value) });
      }
    }
  }
  if ('line_manager_acknowledgement' in r && !chain.includes('line_manager')) {
    const value = acknowledgementText(r.line_manager_acknowledgement);
    steps.unshift({ label: 'Line Manager Acknowledgement', value, colour: stepColour(value) });
  }
  return steps;
}

// ---- next stage -------------------------------------------------------------------------------

/**
 * Generic Next Stage: 'Awaiting Manager Approval' while the manager is pending, 'HR Review' once the manager
 * approved and HR is pending, 'Completed' once HR approved, else 'Processing'. A chain without an HR stage
 * (most types: line manager only) is Completed once the manager approved.
 */
export function genericNextStage(r: Rec): string {
  const chain = chainOf(r.form_type);
  if (!chain.includes('line_manager')) return infoUpdateNextStageHrOnly(r);
  if (pendingLike(r.line_manager_approval)) return 'Awaiting Manager Approval';
  const hasHr = chain.includes('hr');
  if (!hasHr) return is(r.line_manager_approval, 'approved') ? 'Completed' : 'Processing';
  if (is(r.line_manager_approval, 'approved') && pendingLike(r.hr_approval)) return 'HR Review';
  if (is(r.hr_approval, 'approved')) return 'Completed';
  return 'Processing';
}

function infoUpdateNextStageHrOnly(r: Rec): string {
  if (pendingLike(r.hr_approval)) return 'HR Review';
  if (is(r.hr_approval, 'approved')) return 'Completed';
  return 'Processing';
}

/** Facilities chain (desk then manager). */
export function facilitiesNextStage(r: Rec): string {
  if (is(r.facilities_desk_approval, 'rejected') || is(r.facilities_manager_approval, 'rejected')) return 'Rejected - No Further Action';
  if (pendingLike(r.facilities_desk_approval)) return 'Facilities Desk';
  if (pendingLike(r.facilities_manager_approval)) return 'Facilities Manager';
  return 'Completed';
}

/** Finance chain (line manager then finance). */
export function financeNextStage(r: Rec): string {
  if (pendingLike(r.line_manager_approval)) return 'Awaiting Manager Approval';
  if (is(r.line_manager_approval, 'approved') && pendingLike(r.finance_approval)) return 'Finance Review';
  if (is(r.finance_approval, 'approved')) return 'Completed';
  return 'Processing';
}

/** IT incident next stage. */
export function itIncidentNextStage(r: Rec): string {
  if (is(r.status, 'closed')) return 'Completed';
  if (is(r.status, 'rejected')) return 'Rejected';
  if (is(r.status, 'in progress')) return 'IT Working on Resolution';
  if (String(r.it_helpdesk_ticket_number ?? '').trim() !== '') return 'IT Processing';
  return 'Awaiting IT Support';
}

/** Password reset next stage. A rejected request is Rejected even if its IT status reads Completed. */
export function passwordResetNextStage(r: Rec): string {
  if (is(r.status, 'completed')) return 'Password Reset Completed';
  if (is(r.status, 'rejected') || String(r.it_helpdesk_rejected_reason ?? '').trim() !== '') return 'Rejected';
  if (is(r.it_support_status, 'completed')) return 'Password Reset Completed';
  if (r.has_new_password === true || String(r.new_password ?? '').trim() !== '') return 'Password Set - Awaiting Employee';
  return 'Awaiting IT Support';
}

/** Next Stage text of any request record (the approver dashboards' wording). */
export function nextStageFor(r: Rec): string {
  if (isWithdrawn(r)) return 'Withdrawn';
  // Which wording applies follows from the type's registry entry: its IT lifecycle, or its chain.
  const it = itLifecycleOf(r.form_type);
  if (it === 'incident') return itIncidentNextStage(r);
  if (it === 'password-reset') return passwordResetNextStage(r);
  const chain = chainOf(r.form_type);
  if (chain.includes('facilities_desk')) return facilitiesNextStage(r);
  if (chain.includes('finance')) return financeNextStage(r);
  if (Object.keys(r).some((k) => k.endsWith('_approval') && is(r[k], 'rejected'))) return 'Rejected - No Further Action';
  return genericNextStage(r);
}

/**
 * Next Stage as the employee's details modal words it: the info update shows the stage names ('HR',
 * 'Completed', 'Rejected - No Further Action'; its chain is HR only: 'Employee info updates are decided by HR
 * only' in docs/decisions.md);
 * every other type reads as nextStageFor.
 */
export function employeeNextStage(r: Rec): string {
  if (r.form_type === 'info-update' || r.form_type === 'employee-info-update') {
    if (isWithdrawn(r)) return 'Withdrawn';
    if (is(r.hr_approval, 'rejected')) return 'Rejected - No Further Action';
    if (pendingLike(r.hr_approval)) return 'HR';
    return 'Completed';
  }
  return nextStageFor(r);
}
