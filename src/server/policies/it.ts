// Who may do what on the IT items (IT incidents and password resets): work a ticket (IT support), acknowledge it
// (the owner's line manager) and answer its resolution (the employee who reported it). The state rules (which
// status allows which step) are the domain's (src/domain/it.ts); these are the person rules.
import { isViewOnlyForManager } from '../../domain/approvals.js';
import { itLifecycleOf } from '../../domain/forms.js';
import { isWithdrawn } from '../../domain/status.js';
import { isItStaff } from './groups.js';
import {
  type DutyFacts,
  NOT_FOUND_MESSAGE,
  type Refusal,
  STAGE_VIEW_TYPES,
  type Viewer,
  acknowledgementGatesIt,
  canViewRequest,
  managerAcknowledged,
  separationOfDutiesRefusal,
} from './requests.js';

export { isItStaff } from './groups.js';

/** The IT types: those whose chain has the IT helpdesk stage. */
const isItType = (formType: string) => STAGE_VIEW_TYPES.it_helpdesk.includes(formType);

/** The IT facts the rules read beyond the request's people: its stage and its stored fields. */
export type ItFacts = DutyFacts & { current_stage?: string | null; status?: string | null };

/**
 * Why `user` may not work this IT item (save ticket details, close it, set a reset password), or null: a member of
 * IT support (403, before anything about the item is read), an IT item they may see (404 otherwise, like a missing
 * one) and no duty separating them from it (their own ticket, a reset they acknowledged as line manager: 403).
 */
export function workTicketRefusal(user: Viewer, req: ItFacts): Refusal | null {
  if (!isItStaff(user)) return { status: 403, message: 'Only IT support staff can do this' };
  if (!isItType(req.form_type) || !canViewRequest(user, req)) return { status: 404, message: NOT_FOUND_MESSAGE };
  const duty = separationOfDutiesRefusal(user, req, 'it_helpdesk');
  return duty ? { status: 403, message: duty } : null;
}

/** May `user` work this IT item now: the person rule and the item still at the IT helpdesk. */
export function canWorkItTicket(user: Viewer, req: ItFacts): boolean {
  return workTicketRefusal(user, req) === null && req.current_stage === 'it_helpdesk';
}

/**
 * Why `user` may not acknowledge this IT item as line manager, or null: an item the manager sees (404 otherwise)
 * whose owner reports to them (403). A second acknowledgement changes nothing (the service answers so).
 */
export function acknowledgeRefusal(user: Viewer, req: ItFacts): Refusal | null {
  if (!isViewOnlyForManager(req.form_type) || !canViewRequest(user, req)) return { status: 404, message: NOT_FOUND_MESSAGE };
  if (req.line_manager_id !== user.id) return { status: 403, message: "Only the employee's line manager can acknowledge this request" };
  return null;
}

/** May `user` acknowledge this IT item now: the person rule and the item not withdrawn. */
export function canAcknowledge(user: Viewer, req: ItFacts): boolean {
  return acknowledgeRefusal(user, req) === null && !isWithdrawn({ status: req.status ?? '' });
}

/**
 * Does this IT item wait for its line manager's acknowledgement before IT works it: a type the acknowledgement
 * sends on to IT (a password reset), the owner has a line manager (without one it goes to IT directly) and they have
 * not acknowledged it yet. Who is told it waits (the line manager) and when IT is told instead follow this rule.
 */
export function awaitsAcknowledgement(req: Pick<ItFacts, 'form_type' | 'line_manager_id' | 'data'>): boolean {
  return acknowledgementGatesIt(req.form_type) && req.line_manager_id !== null && !managerAcknowledged(req);
}

/** Why `user` may not confirm or reject the resolution of this incident, or null: only the employee who reported it. */
export function answerResolutionRefusal(user: Viewer, req: ItFacts): Refusal | null {
  if (itLifecycleOf(req.form_type) !== 'incident' || !canViewRequest(user, req)) return { status: 404, message: NOT_FOUND_MESSAGE };
  if (req.employee_user_id !== user.id) {
    return { status: 403, message: 'Only the employee who reported this incident may confirm or reject its resolution' };
  }
  return null;
}
