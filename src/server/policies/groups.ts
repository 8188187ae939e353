// Who belongs to which approver group: the one rule for "is this person HR staff / finance / the facilities desk /
// the facilities manager / IT support". Membership is the user's user_type, never the role text (the role text
// only picks a dashboard and an assistant in src/domain/roles.ts, and is free text an administrator types).
// Every check of a group (queues, deciding a group stage, working IT tickets, the notifications and the live
// stream of a group stage, the assistant's queues) reads it here.
import { type ApproverRole, ROLE_STAGE, STAGE_USER_TYPE } from '../../domain/approvals.js';
import type { Stage } from '../../domain/forms.js';

/** The facts of a person the group rules read. */
export interface Member {
  id: number;
  user_type: string;
}

/** The user_type of the people who work each stage as a group (the line manager is per request). */
export const GROUP_USER_TYPE: Readonly<Partial<Record<Stage, string>>> = { ...STAGE_USER_TYPE, it_helpdesk: 'it_staff' };

/** Is `user` a member of the group that works `stage` (HR staff for 'hr', IT support for 'it_helpdesk')? */
export function isInStageGroup(user: Pick<Member, 'user_type'>, stage: Stage): boolean {
  const type = GROUP_USER_TYPE[stage];
  return type !== undefined && user.user_type === type;
}

/** Is `user` a member of IT support (works IT incidents and password resets)? */
export function isItStaff(user: Pick<Member, 'user_type'>): boolean {
  return isInStageGroup(user, 'it_helpdesk');
}

/** The approver queues (and the IT queue) a person works, their group's first. */
export type QueueRole = ApproverRole | 'it';

const QUEUE_NAMES: Record<Exclude<QueueRole, 'manager'>, string> = {
  hr: 'Only HR staff can use the HR queue',
  finance: 'Only finance staff can use the finance queue',
  facilities_desk: 'Only the facilities desk can use the facilities desk queue',
  facilities_manager: 'Only the facilities manager can use the facilities manager queue',
  it: 'Only IT support staff can do this',
};

/**
 * Why `user` may not work the queue of `role`, or null when they may. Anyone may ask for the line manager's queue
 * (their own team; people without reports get an empty list); the group queues are their group's.
 */
export function queueRefusal(user: Pick<Member, 'user_type'>, role: QueueRole): string | null {
  if (role === 'manager') return null;
  const stage: Stage = role === 'it' ? 'it_helpdesk' : ROLE_STAGE[role];
  return isInStageGroup(user, stage) ? null : QUEUE_NAMES[role];
}

/** The queues `user` works: their group's, plus the line manager's when people report to them. */
export function queuesOf(user: Pick<Member, 'user_type'>, hasReports: boolean): QueueRole[] {
  const out: QueueRole[] = [];
  for (const role of ['it', 'hr', 'finance', 'facilities_manager', 'facilities_desk'] as const) {
    if (queueRefusal(user, role) === null) out.push(role);
  }
  if (hasReports || user.user_type === 'line_manager') out.push('manager');
  return out;
}
