// The owner's changes to their own request: when it may still be edited and when it may be withdrawn. The edit and
// withdraw services (src/server/forms/service.ts) refuse with these rules, and the owner's details answer carries
// them as `can_edit` / `can_withdraw`, so the web shows its buttons from the server's own decision.
import { NOT_REQUIRED } from '../../domain/approvals.js';

/** The statuses of a request still in progress (a new approval request, a new IT ticket). */
export const OPEN_STATUSES: readonly string[] = ['Pending', 'Open'];

export interface ChangeFacts {
  status: string;
  data: Record<string, unknown>;
  /** The decisions of its approval rows, in chain order. */
  decisions: readonly string[];
}

/** Nothing decided yet: every approval row Pending, the status still the initial one and no IT work recorded. */
export function mayEditRequest(r: ChangeFacts): boolean {
  return (
    OPEN_STATUSES.includes(r.status) &&
    r.decisions.every((d) => d === 'Pending' || d === NOT_REQUIRED) &&
    !r.data.it_helpdesk_ticket_number &&
    !r.data.new_password_enc &&
    !r.data.line_manager_acknowledgement
  );
}

/** A request may be withdrawn while it is Pending or Open, also after a first stage approved or IT started on it. */
export function mayWithdrawRequest(r: Pick<ChangeFacts, 'status'>): boolean {
  return OPEN_STATUSES.includes(r.status);
}
