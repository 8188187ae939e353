// Who may use an approver's Approve / Reject link from an e-mail, and when (issue 22). A link is bound to one
// approver, one request, one stage of it and the request's version the e-mail showed; it works once, until it
// expires. Beyond that the decision is the decision service's (permission, chain, separation of duty): the same
// rules as the dashboards, checked here first so the confirmation page can say why before anyone clicks.
import { STAGES } from '../../domain/forms.js';
import { stageKeyLabel } from '../../domain/form-types.js';
import { isWithdrawn } from '../../domain/status.js';
import type { AuthUser } from '../people/service.js';
import type { RecordRow } from '../requests/repo.js';
import { PASSWORD_CHANGE_REQUIRED } from './accounts.js';
import { decideRefusal, stageStateCheck } from './requests.js';

/** Why a link cannot be used (the page explains each; nothing changes). */
export type EmailLinkProblem = 'invalid' | 'used' | 'expired' | 'wrong_person' | 'decided' | 'changed' | 'not_allowed' | 'password_change';

export interface EmailLinkRefusal {
  status: number;
  code: EmailLinkProblem;
  message: string;
}

/** The stored facts of a link (its row in email_action_links). */
export interface EmailLinkFacts {
  approver_id: number;
  stage: string;
  revision: number;
  expires_at: Date;
  used_at: Date | null;
  used_decision: string | null;
}

export const INVALID_LINK_MESSAGE =
  'This link is not valid: it may have been cut short or changed. Open the request in AdminEase to decide there.';

const refuse = (status: number, code: EmailLinkProblem, message: string): EmailLinkRefusal => ({ status, code, message });

/** A stage's label: a data-defined stage's own (from the request's row), else the built-in stage's name. */
const stageLabel = (row: RecordRow, stage: string) =>
  row.approvals.find((a) => a.stage === stage)?.stage_label ||
  (STAGES as Record<string, { label: string } | undefined>)[stage]?.label ||
  stageKeyLabel(stage);

/**
 * Why `link` cannot decide now, or null when it can. `sessionUserId` is whoever is signed in on this browser (null:
 * nobody): a link is bound to its approver, so somebody else's session refuses it. `approver` is the link's approver
 * when their account is active, `row` the request (undefined when it is gone).
 */
export function emailLinkRefusal(
  link: EmailLinkFacts,
  now: Date,
  sessionUserId: number | null,
  approver: AuthUser | undefined,
  row: RecordRow | undefined,
): EmailLinkRefusal | null {
  if (link.used_at) {
    const how = link.used_decision ? ` (the request was ${link.used_decision.toLowerCase()} with it)` : '';
    return refuse(409, 'used', `This link was already used${how}. A link from an e-mail works once; nothing was changed.`);
  }
  if (new Date(link.expires_at).getTime() <= now.getTime()) {
    return refuse(410, 'expired', 'This link has expired. Open the request in AdminEase to decide there; nothing was changed.');
  }
  if (sessionUserId !== null && sessionUserId !== link.approver_id) {
    return refuse(
      403,
      'wrong_person',
      'This link was sent to another approver, and you are signed in as someone else. Only the person it was sent to can use it; nothing was changed.',
    );
  }
  if (!approver || !row) return refuse(404, 'invalid', INVALID_LINK_MESSAGE);
  // An approver who must change their password (a forced change, a first sign-in) decides nothing until they have,
  // as on the web (http/edge.ts answers every other call with PASSWORD_CHANGE_REQUIRED).
  if (approver.must_change_password) {
    return refuse(
      403,
      'password_change',
      `${PASSWORD_CHANGE_REQUIRED} Sign in to AdminEase and change it, then open the request there to decide; nothing was changed.`,
    );
  }
  const stage = link.stage;
  const approval = row.approvals.find((a) => a.stage === stage);
  if (isWithdrawn({ status: row.status })) {
    return refuse(409, 'decided', 'This request was withdrawn by its owner, so there is nothing to decide; nothing was changed.');
  }
  if (!approval) return refuse(404, 'invalid', INVALID_LINK_MESSAGE);
  if (approval.decision !== 'Pending') {
    const by = approval.signer_name ? ` by ${approval.signer_name}` : '';
    return refuse(
      409,
      'decided',
      `This request has already been decided at the ${stageLabel(row, stage)} step (${approval.decision}${by}); nothing was changed.`,
    );
  }
  if (row.status === 'Rejected' || row.status === 'Approved') {
    return refuse(409, 'decided', `This request has already been decided (${row.status}); nothing was changed.`);
  }
  if (Number(row.revision) !== Number(link.revision)) {
    return refuse(
      409,
      'changed',
      'This request was changed after this e-mail was sent. Open it in AdminEase and look at it again before you decide; nothing was changed.',
    );
  }
  const person = decideRefusal(approver, row, stage);
  if (person) return refuse(403, 'not_allowed', person.message);
  // The request's state by the same rule as decideStage (a chain defined as data by its own stages).
  const state = stageStateCheck(row, stage);
  if (!state.ok) return refuse(409, 'decided', state.message ?? 'This step cannot be decided now; nothing was changed.');
  return null;
}
