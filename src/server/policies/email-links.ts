// Who may use an approver's Approve / Reject link from an e-mail, and when (issue 22). A link is bound to one
// approver, one request, one stage of it and the request's version the e-mail showed; it works once, until it
// expires. Beyond that the decision is the decision service's (permission, chain, separation of duty): the same
// rules as the dashboards, checked here first so the confirmation page can say why before anyone clicks.
import { checkStageDecidable } from '../../domain/approvals.js';
import { STAGES, type Stage } from '../../domain/forms.js';
import { isWithdrawn } from '../../domain/status.js';
import type { AuthUser } from '../people/service.js';
import { type RecordRow, toRecord } from '../requests/repo.js';
import { decideRefusal } from './requests.js';

/** Why a link cannot be used (the page explains each; nothing changes). */
export type EmailLinkProblem = 'invalid' | 'used' | 'expired' | 'wrong_person' | 'decided' | 'changed' | 'not_allowed';

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

const stageLabel = (stage: string) => (STAGES as Record<string, { label: string } | undefined>)[stage]?.label ?? stage;

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
  const stage = link.stage as Stage;
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
      `This request has already been decided at the ${stageLabel(stage)} step (${approval.decision}${by}); nothing was changed.`,
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
  const state = checkStageDecidable(toRecord(row), stage);
  if (!state.ok) return refuse(409, 'decided', state.message ?? 'This step cannot be decided now; nothing was changed.');
  return null;
}
