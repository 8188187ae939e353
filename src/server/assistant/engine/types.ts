// Shapes shared by the assistant engine, its skills and the chat routes: one turn's context, the
// conversation state kept in ai_sessions.state, and a reply (text, suggestions, approval actions).
import type { Db } from '../../db/pool.js';
import type { AuthUser } from '../../people/service.js';

export const DEFAULT_SUGGESTIONS = ['Request leave', 'Book meeting room', 'Report IT issue', 'Update info'] as const;
export const ASSISTANT_NAME = 'Chief Smile Officer';
/** The pointing-down emoji that makes the chat panel show 'Go to Approval Panel'. */
export const POINT_DOWN = '👇';

export interface ApprovalButton {
  label: 'Approve' | 'Reject' | 'View';
  action: 'approve' | 'reject' | 'view';
  request_id: string;
  /** What the chat panel sends when the button is pressed (the assistant then confirms as usual). */
  message: string;
  style: 'success' | 'danger' | 'secondary';
}

export interface ApprovalAction {
  request_id: string;
  form_type: string;
  title: string;
  employee_name: string;
  summary: string;
  buttons: ApprovalButton[];
}

export interface Reply {
  text: string;
  suggestions: string[];
  approvalActions: ApprovalAction[];
  showApprovalAction: boolean;
  /** What the engine understood (logged with the chat message, useful in tests). */
  intent: string;
  /** The request this reply created, decided or withdrew. */
  requestId?: string;
}

export interface PendingForm {
  kind: 'form';
  formType: string;
  fields: Record<string, unknown>;
  /** The field whose question was asked last. */
  asking?: string;
  /** The summary was shown; waiting for yes / no. */
  confirm?: boolean;
  /** How many times the current question was asked without a usable answer. */
  retries?: number;
}

export interface PendingWithdraw {
  kind: 'withdraw';
  requestId: string;
}

export interface PendingDecision {
  kind: 'decide';
  requestId: string;
  decision: 'Approved' | 'Rejected';
  /** 'reason': the rejection reason was asked; 'confirm': waiting for yes / no. */
  step: 'reason' | 'confirm';
  reason?: string;
  /** The request's version in the summary shown: the decision applies to that content only (else 409). */
  version?: number;
}

export interface PendingChoice {
  kind: 'choose';
  purpose: 'withdraw' | 'approve' | 'reject' | 'details';
  options: string[];
  reason?: string;
}

/**
 * An open question of the conversation. `shown` is set once the reply that asks it has gone out to the user;
 * only an answer to a question that was shown can continue it (or confirm it), never the message whose own
 * turn opened it.
 */
export type Pending = (PendingForm | PendingWithdraw | PendingDecision | PendingChoice) & { shown?: boolean };

export interface SessionState {
  pending?: Pending;
  /** Request ids named in the last reply, for 'approve it' or 'the second one'. */
  lastRefs?: string[];
  greeted?: boolean;
  turns?: number;
  /** The intent of the last answered question, for follow-ups ('and my petty cash?'). */
  lastIntent?: string;
  /** The last reply asked 'check on your request, or request a new one?'. */
  clarify?: { formType: string; requestId: string };
}

export interface TurnContext {
  db: Db;
  user: AuthUser;
  now: Date;
  state: SessionState;
}

export function reply(text: string, extra: Partial<Reply> = {}): Reply {
  return {
    text,
    suggestions: extra.suggestions ?? [...DEFAULT_SUGGESTIONS],
    approvalActions: extra.approvalActions ?? [],
    showApprovalAction: extra.showApprovalAction ?? false,
    intent: extra.intent ?? 'unknown',
    requestId: extra.requestId,
  };
}
