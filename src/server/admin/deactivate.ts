// Offboarding (issue 18): a deactivated person can no longer sign in and every session of theirs ends at once on
// every instance (the revocation signals each token, migration 060); their own open requests are withdrawn or kept,
// as the administrator chooses; everything that waits on them (their reports, the people they are HR contact for,
// the steps of requests waiting on them) goes to the person named in reassign_to, each request with a history row.
// Nothing is deleted: history keeps their name. Reactivation is PATCH active=true (people.ts).
import type { AuditAction } from '../../domain/audit-actions.js';
import { canBeHrContact, canManage } from '../../domain/people.js';
import type { AppContext } from '../http/context.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { isActiveAdministrator, lastAdministratorRefusal } from '../policies/admin.js';
import { type OrgPerson, type PersonJson, personJson, withOrg } from './people.js';
import { type MovedStep, moveDataChainStages, moveEscalations, moveStages } from './reassign.js';

const DEACTIVATE_ACTION: AuditAction = 'person.deactivate';

export interface DeactivateInput {
  code: string;
  reassignTo?: string | null;
  pendingRequests: 'withdraw' | 'keep';
}

export interface DeactivateResult {
  person: PersonJson;
  withdrawn: string[];
  reassigned: MovedStep[];
  reports_moved: string[];
  hr_contacts_moved: string[];
  sessions_ended: number;
}

const label = (p: OrgPerson) => `${p.first_name} ${p.last_name} (${p.employee_code})`;

export async function deactivatePerson(ctx: AppContext, actorId: number, input: DeactivateInput, now: Date): Promise<DeactivateResult> {
  const ended: string[] = [];
  const out = await withOrg(ctx.db, async (c, org) => {
    const find = (ref: string) =>
      [...org.people.values()].find((p) => p.employee_code === ref.trim() || p.email.toLowerCase() === ref.trim().toLowerCase());
    const x = find(input.code);
    if (!x || x.employee_code !== input.code) throw notFound(`No person has the employee code ${input.code}`);
    if (!x.active) throw conflict(`${label(x)} is already deactivated`);
    if (isActiveAdministrator(x)) {
      const others = [...org.people.values()].filter((p) => p.id !== x.id && isActiveAdministrator(p)).length;
      const refusal = lastAdministratorRefusal(label(x), others);
      if (refusal) throw conflict(refusal);
    }
    if (x.id === actorId) throw conflict('You cannot deactivate yourself; another administrator can');

    const reports = [...org.people.values()].filter((p) => p.manager_id === x.id);
    const hrFor = [...org.people.values()].filter((p) => p.hr_contact_id === x.id);
    const waiting = await c.query(
      `SELECT count(*) FILTER (WHERE r.line_manager_id = $1)::int AS lm, count(*) FILTER (WHERE r.hr_contact_id = $1)::int AS hr
         FROM requests r
        WHERE r.current_stage IS NOT NULL AND (r.line_manager_id = $1 OR r.hr_contact_id = $1) AND r.employee_id <> $1`,
      [x.id],
    );
    const managerDuties = reports.length > 0 || waiting.rows[0].lm > 0;
    const hrDuties = hrFor.length > 0 || waiting.rows[0].hr > 0;

    let r: OrgPerson | undefined;
    if (input.reassignTo) {
      r = find(input.reassignTo);
      if (!r) throw badRequest(`Unknown person in reassign_to: ${input.reassignTo}`);
      if (r.id === x.id) throw badRequest('reassign_to must be someone else than the person deactivated');
      if (!r.active) throw badRequest(`${label(r)} is deactivated and cannot take over`);
      if (managerDuties && !canManage(r.role, r.user_type))
        throw badRequest(`${label(r)} cannot take over ${label(x)}'s team: the role '${r.role}' cannot be a line manager`);
      if (hrDuties && !canBeHrContact(r.role, r.user_type))
        throw badRequest(`${label(r)} cannot take over ${label(x)}'s HR work: the role '${r.role}' is not on the HR dashboard`);
    } else if (managerDuties || hrDuties) {
      throw badRequest(
        `reassign_to is required: ${reports.length} people report to ${label(x)}, ${hrFor.length} have them as HR contact, ${waiting.rows[0].lm + waiting.rows[0].hr} request steps wait on them`,
      );
    }

    // The successor's own line: if they reported to x (or had x as HR contact), they now report to x's own manager
    // (HR contact): nobody manages themselves, and their own requests never come to them.
    const rNewManager = r && r.manager_id === x.id ? x.manager_id : r?.manager_id;
    const rNewHr = r && r.hr_contact_id === x.id ? x.hr_contact_id : r?.hr_contact_id;
    if (r && r.manager_id === x.id && rNewManager === null)
      throw badRequest(
        `${label(r)} reports to ${label(x)}, who has no manager to take ${label(r)} over; choose another person or give ${label(r)} a manager first`,
      );
    if (r && r.hr_contact_id === x.id && (rNewHr === null || rNewHr === r.id))
      throw badRequest(
        `${label(r)} has ${label(x)} as HR contact and would be left without one; give ${label(r)} another HR contact first`,
      );
    // Moving the team below the successor must not make a reporting cycle (the successor inside x's team, deeper).
    if (r) {
      let at: number | null | undefined = rNewManager;
      const seen = new Set<number>([r.id]);
      while (at !== null && at !== undefined && !seen.has(at)) {
        seen.add(at);
        const p = org.people.get(at)!;
        if (p.manager_id === x.id && p.id !== r.id)
          throw conflict(
            `${label(r)} reports (through ${label(p)}) to ${label(x)}: moving ${label(x)}'s team under them would make a reporting cycle`,
          );
        at = p.manager_id;
      }
    }

    // 1. their own open requests
    let withdrawn: string[] = [];
    if (input.pendingRequests === 'withdraw') {
      const w = await c.query(
        `WITH target AS (SELECT id, request_id, status FROM requests WHERE employee_id = $1 AND status IN ('Pending', 'Open') FOR UPDATE)
         UPDATE requests r SET status = 'Cancelled', current_stage = NULL, updated_at = $2 FROM target t WHERE r.id = t.id
         RETURNING r.id, t.request_id, t.status`,
        [x.id, now],
      );
      withdrawn = w.rows.map((row) => row.request_id);
      if (w.rows.length)
        await c.query(
          `INSERT INTO request_events (request_pk, actor_id, event_type, field, old_value, new_value, details, created_at)
           SELECT x.id, $2, 'withdrawn', 'status', x.status, 'Cancelled', $3::jsonb, $4 FROM json_to_recordset($1::json) AS x(id bigint, status text)`,
          [JSON.stringify(w.rows), actorId, JSON.stringify({ reason: 'deactivated', employee: x.employee_code }), now],
        );
    }

    // 2. people and steps waiting on them
    const people = new Map(org.people);
    const reassigned: MovedStep[] = [];
    if (r) {
      if (r.manager_id === x.id || r.hr_contact_id === x.id) {
        await c.query('UPDATE users SET manager_id = $2, hr_contact_id = $3 WHERE id = $1', [r.id, rNewManager, rNewHr]);
        people.set(r.id, { ...r, manager_id: rNewManager ?? null, hr_contact_id: rNewHr ?? null });
        // the successor's own waiting steps go to their new manager / HR contact
        if (r.manager_id === x.id && rNewManager)
          reassigned.push(
            ...(await moveStages(c, {
              actorId,
              stage: 'line_manager',
              where: { employeeId: r.id },
              to: people.get(rNewManager)!,
              people,
              reason: `${x.first_name} ${x.last_name} deactivated`,
              now,
            })),
          );
        if (r.hr_contact_id === x.id && rNewHr)
          reassigned.push(
            ...(await moveStages(c, {
              actorId,
              stage: 'hr',
              where: { employeeId: r.id },
              to: people.get(rNewHr)!,
              people,
              reason: `${x.first_name} ${x.last_name} deactivated`,
              now,
            })),
          );
      }
      await c.query('UPDATE users SET manager_id = $2 WHERE manager_id = $1', [x.id, r.id]);
      await c.query('UPDATE users SET hr_contact_id = $2 WHERE hr_contact_id = $1', [x.id, r.id]);
      for (const stage of ['line_manager', 'hr'] as const)
        reassigned.push(
          ...(await moveStages(c, {
            actorId,
            stage,
            where: { approverId: x.id, exceptEmployees: [r.id, x.id] },
            to: r,
            people,
            reason: `${x.first_name} ${x.last_name} deactivated`,
            now,
          })),
        );
    }

    // stages of data-defined chains resolved to them (a named person, a manager's manager, a group member)
    reassigned.push(
      ...(await moveDataChainStages(c, { actorId, from: x, to: r, people, reason: `${x.first_name} ${x.last_name} deactivated`, now })),
    );

    // overdue stages escalated to them
    reassigned.push(...(await moveEscalations(c, { actorId, from: x, to: r, reason: `${x.first_name} ${x.last_name} deactivated`, now })));

    // 3. the account: no sign-in, no session (each revocation is signalled to every instance)
    await c.query('UPDATE users SET active = false, deactivated_at = $2 WHERE id = $1', [x.id, now]);
    const s = await c.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING token_hash', [
      x.id,
      now,
    ]);
    ended.push(...s.rows.map((row) => row.token_hash));
    await c.query('UPDATE ai_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [x.id, now]);

    const after = { ...x, active: false, deactivated_at: now };
    people.set(x.id, after);
    const result = {
      withdrawn,
      reassigned,
      reports_moved: reports.filter((p) => p.id !== r?.id).map((p) => p.employee_code),
      hr_contacts_moved: hrFor.filter((p) => p.id !== r?.id).map((p) => p.employee_code),
      sessions_ended: s.rows.length,
    };
    await c.query(
      `INSERT INTO admin_audit (at, actor_id, action, target_type, target_id, before, after) VALUES ($1, $2, $6, 'person', $3, $4, $5)`,
      [
        now,
        actorId,
        x.employee_code,
        JSON.stringify(personJson(x, org.people, org.departments)),
        JSON.stringify({
          ...personJson(after, people, org.departments),
          reassign_to: r?.employee_code ?? null,
          pending_requests: input.pendingRequests,
          ...result,
        }),
        DEACTIVATE_ACTION,
      ],
    );
    return { person: personJson(after, people, org.departments), ...result };
  });
  // This instance at once (the database signal reaches the others, and this one again, right after the commit).
  for (const hash of ended) {
    ctx.sessions?.drop(hash);
    for (const fn of ctx.sessionEnded ?? []) fn(hash);
  }
  return out;
}
