// Approval rules not already in status.ts: who approves which stage, when a stage
// may be decided, the state of a stage for queues and tiles, rejection reasons and the derived IT status
// shown read-only to line managers. Pure functions: the server enforces with them, the web displays with them.
import { FORM_TYPES, type Stage, STAGES, formKind, formTypeDef, formTypesOfKind, formTypesWithStage } from './forms.js';
import { type ApprovalStep, acknowledgementText, chainEnded, isWithdrawn, stageDecision, stepColour, WITHDRAWN_MESSAGE } from './status.js';

// Stage states live with the other status rules (status.ts); re-exported for the approver-side callers.
export { CLOSED_STAGE_TEXT, type StageState, chainEnded, stageDecision, stageState } from './status.js';

type Rec = Record<string, unknown>;

/** The five deciding roles of this part of the product (IT support works tickets elsewhere). */
export type ApproverRole = 'manager' | 'hr' | 'finance' | 'facilities_desk' | 'facilities_manager';

export const APPROVER_ROLES: readonly ApproverRole[] = ['manager', 'hr', 'finance', 'facilities_desk', 'facilities_manager'];

/** The stage each approver role decides. */
export const ROLE_STAGE: Record<ApproverRole, Stage> = {
  manager: 'line_manager',
  hr: 'hr',
  finance: 'finance',
  facilities_desk: 'facilities_desk',
  facilities_manager: 'facilities_manager',
};

/** user_type of the people who decide a role-wide stage (line manager and HR are per person). */
export const STAGE_USER_TYPE: Partial<Record<Stage, string>> = {
  hr: 'hr_staff',
  finance: 'finance_staff',
  facilities_desk: 'facilities_staff',
  facilities_manager: 'facilities_manager',
};

/** How the stages are named in sentences ('Finance can only decide after the line manager has approved'). */
export const STAGE_ACTOR: Record<Stage, { subject: string; object: string }> = {
  line_manager: { subject: 'The line manager', object: 'the line manager' },
  hr: { subject: 'HR', object: 'HR' },
  finance: { subject: 'Finance', object: 'finance' },
  facilities_desk: { subject: 'The facilities desk', object: 'the facilities desk' },
  facilities_manager: { subject: 'The facilities manager', object: 'the facilities manager' },
  it_helpdesk: { subject: 'IT support', object: 'IT support' },
};

// The lists below are derived from the registry (forms.ts) when this module loads; code that must see types
// registered later (the add-a-type test registers before loading the server) reads the functions of forms.ts.
/** Types whose chain has a finance stage. */
export const FINANCE_FORM_TYPES: readonly string[] = formTypesWithStage('finance');
/** Types whose chain has the facilities desk (and manager). */
export const FACILITIES_FORM_TYPES: readonly string[] = formTypesWithStage('facilities_desk');
/** Types whose chain has an HR stage. */
export const HR_FORM_TYPES: readonly string[] = formTypesWithStage('hr');
/** Shown on the manager's table without decision buttons ('View Only'): the IT tickets. */
export const MANAGER_VIEW_ONLY_TYPES: readonly string[] = formTypesOfKind('it-ticket');
/** The form-type chips of the line manager dashboard, in the spec's order (the registry's `managerChip`). */
export const MANAGER_CHIP_TYPES: readonly string[] = FORM_TYPES.filter((t) => t.managerChip).map((t) => t.formType);

export function isViewOnlyForManager(formType: string): boolean {
  return formKind(formType) === 'it-ticket' && formTypeDef(formType) !== undefined;
}

/** Form types that have a line-manager stage: every type whose chain contains it. */
export function hasStage(formType: string, stage: Stage): boolean {
  return formTypeDef(formType)?.chain.includes(stage) ?? false;
}

/** Types on the line manager's queue: all with a line-manager stage plus the view-only IT types. */
export function isManagerQueueType(formType: string): boolean {
  return hasStage(formType, 'line_manager') || isViewOnlyForManager(formType);
}

/**
 * Normalises free-text form types by keyword: leave; meeting room/booking; travel; petty/cash; exit/clearance;
 * IT incident/ticket.
 */
export function normaliseFormType(text: string | null | undefined): string {
  const raw = String(text ?? '').trim();
  const s = raw.toLowerCase();
  if (formTypeDef(s)) return s;
  if (s === 'employee-info-update' || /info(rmation)?[\s_-]*update/.test(s)) return 'info-update';
  if (s.includes('password')) return 'password-reset';
  if (s.includes('leave')) return 'leave-request';
  if (s.includes('meeting') || s.includes('booking')) return 'meeting-room';
  if (s.includes('travel')) return 'travel-request';
  if (s.includes('petty') || s.includes('cash')) return 'petty-cash';
  if (s.includes('exit') || s.includes('clearance')) return 'exit-clearance';
  if (s.includes('incident') || s.includes('ticket')) return 'it-incident';
  if (s.includes('purchase') || s.includes('requisition')) return 'purchase-requisition';
  if (s.includes('facility') || s.includes('access card')) return 'facility-access';
  return raw;
}

const lower = (v: unknown) =>
  String(v ?? '')
    .trim()
    .toLowerCase();
const pendingLike = (v: unknown) => lower(v) === '' || lower(v) === 'pending';

export interface DecisionCheck {
  ok: boolean;
  /** HTTP status the server answers when refused (409 state conflicts). */
  status?: number;
  message?: string;
}

/**
 * May `stage` of this request be decided now? Previous stages approved, this stage pending, the chain not
 * ended. Messages are shown to people as they are (dashboards and the assistant).
 */
export function checkStageDecidable(rec: Rec, stage: Stage): DecisionCheck {
  const formType = String(rec.form_type ?? '');
  const chain = formTypeDef(formType)?.chain ?? [];
  const idx = chain.indexOf(stage);
  if (idx < 0)
    return {
      ok: false,
      status: 400,
      message: `A ${formTypeDef(formType)?.title ?? formType} request has no ${STAGES[stage].label} approval step`,
    };
  const own = stageDecision(rec, stage);
  if (!pendingLike(own)) return { ok: false, status: 409, message: 'This request has already been decided' };
  if (isWithdrawn(rec)) return { ok: false, status: 409, message: WITHDRAWN_MESSAGE };
  for (let i = 0; i < idx; i += 1) {
    const prev = chain[i];
    const d = stageDecision(rec, prev);
    if (lower(d) === 'rejected') {
      return {
        ok: false,
        status: 409,
        message: `This request was already rejected by ${STAGE_ACTOR[prev].object}; no further action is needed`,
      };
    }
    if (lower(d) !== 'approved') {
      return {
        ok: false,
        status: 409,
        message: `${STAGE_ACTOR[stage].subject} can only decide after ${STAGE_ACTOR[prev].object} has approved`,
      };
    }
  }
  if (chainEnded(rec)) return { ok: false, status: 409, message: 'This request is already closed' };
  return { ok: true };
}

/** The web's rule for showing Approve/Reject (same as the server's, minus identity). */
export function stageActionable(rec: Rec, stage: Stage): boolean {
  return checkStageDecidable(rec, stage).ok;
}

/** Finance may act only when the line manager approved and finance is empty or Pending. */
export const financeActionable = (rec: Rec) => stageActionable(rec, 'finance');
/** The facilities manager may act only when the desk approved and the manager is pending. */
export const facilitiesManagerActionable = (rec: Rec) => stageActionable(rec, 'facilities_manager');

export const REJECTION_REASON_MAX = 300;

/**
 * Checks a decision's reason. Rejections need a non-empty trimmed reason of at most 300 characters; HR may
 * send an empty one (its dashboard sends an empty string when none is given). Answers an error message or null.
 */
export function rejectionReasonError(decision: string, reason: string | null | undefined, stage: Stage): string | null {
  const text = String(reason ?? '');
  if (text.trim().length > REJECTION_REASON_MAX) return `The rejection reason can have at most ${REJECTION_REASON_MAX} characters`;
  if (decision !== 'Rejected') return null;
  if (text.trim() === '' && stage !== 'hr') return 'Please give a reason for the rejection';
  return null;
}

// ---- quick-select rejection reasons -------------------------------------------------------------

export type ReasonSet =
  'leave' | 'travel' | 'expense' | 'petty-cash' | 'it-access' | 'facility-access' | 'password-reset' | 'meeting-room' | 'default';

export const QUICK_REJECTION_REASONS: Record<ReasonSet, readonly string[]> = {
  leave: [
    'Insufficient leave balance for the requested days',
    'Overlaps a critical project deadline; please choose other dates',
    'Too many team members are already on leave on these dates',
    'Please apply with more notice, as per the leave policy',
    'Supporting documents are missing (e.g. medical certificate)',
  ],
  travel: [
    'The trip can be replaced by a video call',
    'The estimated cost exceeds the travel budget',
    'Please book through the corporate travel desk and resubmit',
    'The business purpose is not clear enough; please add detail',
    'Dates clash with key deliverables; please reschedule',
  ],
  expense: [
    'Receipts or invoices are missing',
    'The amount exceeds the approved budget or policy limit',
    'This item is not covered by the expense policy',
    'The business purpose is not clear enough; please add detail',
    'Please get a quote from an approved vendor first',
  ],
  'petty-cash': [
    'Amount exceeds the petty cash limit; use a purchase requisition',
    'An earlier advance has not been settled yet',
    'The purpose is not clear enough; please add detail',
    'This expense should go through expense reimbursement',
    'The settlement date is too far away',
  ],
  'it-access': [
    'The requested access level is higher than the role needs',
    'Please get approval from the system owner first',
    'The business justification is not sufficient',
    'The same access can be given through an existing group',
    'Access requests for this system are frozen during the audit',
  ],
  // Facility access and password resets have their own reasons: IT-access texts (system owners, access levels)
  // do not fit a building pass or a password.
  'facility-access': [
    'The requested areas are not needed for your role',
    'Please get approval from the area owner first',
    'The access period is longer than needed; please shorten it',
    'Access to this area is restricted during the requested hours',
    'Your existing pass already covers these areas',
  ],
  'password-reset': [
    'Please use the self-service reset for this system',
    'The request could not be verified; please contact IT in person',
    'The account is disabled; please ask your line manager to reactivate it first',
    'This system is retired; please use single sign-on',
    'A reset for this system is already in progress',
  ],
  'meeting-room': [
    'The room is already booked for that time',
    'The room is too small for the number of participants',
    'The room is reserved for a priority meeting at that time',
    'Please book a smaller room for this group size',
    'Requested outside office hours; please choose another slot',
  ],
  default: [
    'Incomplete information; please add the missing details and resubmit',
    'Does not comply with company policy',
    'Budget is not available for this request',
    'Please discuss this with me before resubmitting',
    'Duplicate of an earlier request',
  ],
};

/** Which quick-reason set a form type uses: its registry entry's `rejectionReasons` (five reasons per set), else the default set. */
export function reasonSetFor(formType: string): ReasonSet {
  const set = formTypeDef(normaliseFormType(formType))?.rejectionReasons;
  return set !== undefined && set in QUICK_REJECTION_REASONS ? (set as ReasonSet) : 'default';
}

export function quickRejectionReasons(formType: string): readonly string[] {
  return QUICK_REJECTION_REASONS[reasonSetFor(formType)];
}

// ---- what the line manager sees of IT items ----------------------------------------------------

/**
 * IT support status of an it-incident or password-reset, as derived for the manager's view-only details: In Progress,
 * Closed, Completed or Rejected from the status; 'Details Filled' when the ticket number and incident description
 * (or a new password and who reset it) exist; else Pending.
 */
export function derivedItSupportStatus(rec: Rec): string {
  const st = lower(rec.status);
  if (st === 'in progress') return 'In Progress';
  if (st === 'closed') return 'Closed';
  if (st === 'completed') return 'Completed';
  if (st === 'rejected') return 'Rejected';
  const has = (k: string) => String(rec[k] ?? '').trim() !== '';
  if (has('it_helpdesk_ticket_number') && has('incident_description')) return 'Details Filled';
  if ((has('new_password') || rec.has_new_password === true) && has('it_helpdesk_reset_by')) return 'Details Filled';
  return 'Pending';
}

/** The manager has acknowledged an IT item (line_manager_acknowledgement true). */
export function isAcknowledged(rec: Rec): boolean {
  return acknowledgementText(rec.line_manager_acknowledgement) === 'Approved';
}

// ---- what the line manager sees of IT items as boxes -----------------------------------------------

/** View-only IT items on the manager's details: the acknowledgement and the derived IT support status. */
export function managerItSteps(rec: Rec): ApprovalStep[] {
  const ack = acknowledgementText(rec.line_manager_acknowledgement);
  const it = derivedItSupportStatus(rec);
  const signer = String(rec.line_manager_signature ?? '').trim();
  return [
    { stage: 'line_manager', label: 'Manager Acknowledgement', value: ack, colour: stepColour(ack), signer: signer || null, date: null },
    {
      stage: 'it_helpdesk',
      label: 'IT Support',
      value: it,
      colour: it === 'Details Filled' ? 'yellow' : stepColour(it),
      signer: null,
      date: null,
    },
  ];
}

// ---- audit history --------------------------------------------------------------------------------

export interface HistoryEventIn {
  event_type: string;
  stage: string | null;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  actor_name: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

export interface HistoryEntry extends HistoryEventIn {
  /** Milliseconds the stage waited for this decision (since submission or the previous decision). */
  waited_ms: number | null;
  /** 'Approved by Priya Sharma (Line Manager)' */
  summary: string;
}

/** Human text of a wait: '45 min', '3 h 20 min', '2 d 4 h'. */
export function formatWait(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  const min = Math.floor(ms / 60_000);
  if (min < 1) return 'under a minute';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

function stageLabel(stage: string | null): string {
  return stage && stage in STAGES ? STAGES[stage as Stage].label : (stage ?? '');
}

/** The audit history of a request from its events (oldest first), with how long each decided stage waited. */
export function buildHistory(events: readonly HistoryEventIn[]): HistoryEntry[] {
  let waitingSince: number | null = null;
  return events.map((e) => {
    const at = Date.parse(e.created_at);
    let waited: number | null = null;
    const who = e.actor_name ?? 'System';
    let summary: string;
    switch (e.event_type) {
      case 'submitted':
        waitingSince = at;
        summary = `Submitted by ${who}${e.details?.form_type_version ? ` (form version ${String(e.details.form_type_version)})` : ''}`;
        break;
      case 'decision': {
        waited = waitingSince === null ? null : at - waitingSince;
        waitingSince = at;
        const reason = String(e.details?.rejection_reason ?? '').trim();
        // Decided for someone else: by a delegate on behalf of the approver away, or after an escalation.
        const behalf = e.details?.on_behalf_of ? ` on behalf of ${String(e.details.on_behalf_of)}` : '';
        const escalated = e.details?.decided_as === 'escalation' ? ' after escalation' : '';
        const label = typeof e.details?.stage_label === 'string' ? e.details.stage_label : stageLabel(e.stage);
        summary = `${e.new_value ?? 'Decided'} by ${who}${behalf}${escalated} (${label})${reason ? `: ${reason}` : ''}`;
        if (e.details?.via === 'email') summary += ' (decided from e-mail)';
        break;
      }
      case 'reminder':
        summary = `Reminder sent: the ${stageLabel(e.stage)} step has waited ${String(e.details?.working_days ?? '?')} working days`;
        break;
      case 'escalated':
        summary = `Escalated to ${e.new_value ?? 'nobody'}: the ${stageLabel(e.stage)} step has waited ${String(e.details?.working_days ?? '?')} working days`;
        break;
      case 'status_change':
        summary = `Status changed from ${e.old_value ?? 'none'} to ${e.new_value ?? 'none'}`;
        break;
      case 'acknowledged':
        summary = `Acknowledged by ${who}`;
        break;
      case 'edited':
        summary = `Edited by ${who}`;
        break;
      case 'withdrawn':
        summary = `Withdrawn by ${who}`;
        break;
      case 'reassigned': // the organisation changed (issue 18): the step waits on someone else now
        summary = `${typeof e.details?.stage_label === 'string' ? e.details.stage_label : stageLabel(e.stage)} step reassigned from ${e.old_value ?? 'nobody'} to ${e.new_value ?? 'nobody'}${e.actor_name ? ` by ${who}` : ''}${e.details?.reason ? ` (${String(e.details.reason)})` : ''}`;
        break;
      default:
        summary = `${e.event_type.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase())}${e.actor_name ? ` by ${who}` : ''}`;
    }
    return { ...e, waited_ms: waited, summary };
  });
}

// ---- chains defined as data (issue 20) -----------------------------------------------------------

/** A stage row of a request whose chain was defined as data (approval rows in chain order). */
export interface DataStageRow {
  stage: string;
  decision: string;
  stage_label?: string | null;
}

/** The decision of a stage whose condition did not hold: it is skipped and shown as this. */
export const NOT_REQUIRED = 'Not required';

const labelOf = (a: DataStageRow) => a.stage_label || a.stage;

/**
 * May `stage` of a request with a data-defined chain be decided now? Its row pending, every earlier stage approved
 * or not required, the chain not ended (the same rule as checkStageDecidable, over the request's own stages).
 */
export function checkDataStageDecidable(rec: Rec, rows: readonly DataStageRow[], stage: string): DecisionCheck {
  const idx = rows.findIndex((a) => a.stage === stage);
  if (idx < 0) return { ok: false, status: 400, message: `This request has no ${stage} approval step` };
  const own = rows[idx];
  if (own.decision === NOT_REQUIRED)
    return { ok: false, status: 409, message: `The ${labelOf(own)} step is not required for this request` };
  if (!pendingLike(own.decision)) return { ok: false, status: 409, message: 'This request has already been decided' };
  if (isWithdrawn(rec)) return { ok: false, status: 409, message: WITHDRAWN_MESSAGE };
  for (const prev of rows.slice(0, idx)) {
    if (prev.decision === NOT_REQUIRED) continue;
    if (lower(prev.decision) === 'rejected')
      return { ok: false, status: 409, message: `This request was already rejected by ${labelOf(prev)}; no further action is needed` };
    if (lower(prev.decision) !== 'approved')
      return { ok: false, status: 409, message: `${labelOf(own)} can only decide after ${labelOf(prev)} has approved` };
  }
  if (chainEnded(rec)) return { ok: false, status: 409, message: 'This request is already closed' };
  return { ok: true };
}

/** The stage after `stage` that waits on a decision (stages not required are skipped), or null at the chain's end. */
export function nextDataStage(rows: readonly DataStageRow[], stage: string): string | null {
  const idx = rows.findIndex((a) => a.stage === stage);
  return rows.slice(idx + 1).find((a) => a.decision !== NOT_REQUIRED)?.stage ?? null;
}

/** What a data-defined chain waits on, in the words of nextStageFor ('Finance Review', 'Completed'). */
export function dataNextStage(rec: Rec, rows: readonly DataStageRow[]): string {
  if (isWithdrawn(rec)) return 'Withdrawn';
  if (rows.some((a) => lower(a.decision) === 'rejected')) return 'Rejected - No Further Action';
  const waiting = rows.find((a) => pendingLike(a.decision));
  return waiting ? `${labelOf(waiting)} Review` : 'Completed';
}
