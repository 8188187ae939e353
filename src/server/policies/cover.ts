// Deciding for someone else: delegation while away and escalation of overdue stages (docs/delegation.md). The request
// policy (requests.ts) calls these as extra clauses of "who may decide a stage": besides the stage's own approvers,
//   - a delegate, while the approver is out of office, decides what waits on the approver (chains of delegation are
//     followed to three hops, never through the requester), and
//   - the person an overdue stage escalated to (the approver's manager, a group lead or an administrator).
// Separation of duties holds for both: nobody decides their own request nor a second step of one, and the person
// decided for must be someone who could have decided it themselves (not separated from it either).
import { businessDate } from '../../domain/business-time.js';

/** Someone `user` decides for today: they (or a chain through them) set `user` as their delegate. */
export interface Cover {
  id: number;
  user_type: string;
  name: string;
  /** The chain of people from the one who named `user` to the covered person (the covered one last). */
  path: readonly number[];
}

/** A stored delegation as the session's user carries it (all periods; activeCovers picks today's). */
export interface CoverPeriod extends Cover {
  starts_on: string;
  ends_on: string;
}

/** How a decision is made for someone else. */
export interface ActingFor {
  kind: 'delegate' | 'escalation';
  /** The approver decided for (the covered person; for an escalation, null when the stage is a group's). */
  id: number | null;
  name: string | null;
}

/** The covers of a delegate that are active on business date `today` (periods inclusive). */
export function activeCovers(periods: readonly CoverPeriod[] | null | undefined, today: string): Cover[] {
  return (periods ?? [])
    .filter((p) => p.starts_on <= today && today <= p.ends_on)
    .map((p) => ({ id: p.id, user_type: p.user_type, name: p.name, path: p.path }));
}

/** The same for the app clock's moment. */
export function activeCoversAt(periods: readonly CoverPeriod[] | null | undefined, now: Date): Cover[] {
  return activeCovers(periods, businessDate(now));
}

interface Person {
  id: number;
  role: string;
  user_type: string;
  covers?: readonly Cover[];
}

interface Facts {
  employee_user_id: number;
  approvals?: ReadonlyArray<{ stage: string; decision: string; escalated_to_id?: number | null }> | null;
}

/**
 * Through whom `user` may decide `stage` when it is not theirs: an escalation of the stage to them, else the first
 * person they cover who is that stage's own approver (`ownRight`) and not separated from it (`duty`). Null: nobody.
 * The chain never passes through the requester, so a request never comes back to the person who made it.
 */
export function actingForRule<R extends Facts>(
  user: Person,
  req: R,
  stage: string,
  ownRight: (who: Person, req: R, stage: never) => boolean,
  duty: (who: Pick<Person, 'id'>, req: R, stage: never) => string | null,
): ActingFor | null {
  if (user.id === req.employee_user_id) return null;
  const approval = (req.approvals ?? []).find((a) => a.stage === stage);
  if (approval && approval.decision === 'Pending' && approval.escalated_to_id === user.id) {
    return { kind: 'escalation', id: null, name: null };
  }
  // A delegate acts on what waits: a stage already decided (or a request whose stages are unknown here) is not theirs
  // to see or decide, so covering someone never opens their decided history or its sensitive fields.
  if (approval?.decision !== 'Pending') return null;
  for (const c of user.covers ?? []) {
    if (c.id === req.employee_user_id || c.path.includes(req.employee_user_id)) continue;
    const covered: Person = { id: c.id, role: '', user_type: c.user_type };
    if (ownRight(covered, req, stage as never) && duty(covered, req, stage as never) === null) {
      return { kind: 'delegate', id: c.id, name: c.name };
    }
  }
  return null;
}

/** The ids `user` covers today (for SQL scopes of queues). */
export function coveredIds(user: { covers?: readonly Cover[] }): number[] {
  return [...new Set((user.covers ?? []).map((c) => c.id))];
}
