// Moving the pending steps of requests to another approver when the organisation changes (a new line manager or HR
// contact, an approver offboarded): the request's line_manager_id or hr_contact_id (what queues, counters and the
// request policy read) is changed for the requests whose step has not been taken yet, with a 'reassigned' history
// row on each. Separation of duties holds: nobody receives a step of their own request, nor a step of a request
// on which they decided another step (the whole change is refused instead, naming the requests).
import { MANAGER_VIEW_ONLY_TYPES } from '../../domain/approvals.js';
import type { Queryable } from '../db/pool.js';
import { conflict } from '../http/errors.js';
import { decidedOtherStepSql } from '../policies/requests.js';

export type MovableStage = 'line_manager' | 'hr';

interface Named {
  id: number;
  first_name: string;
  last_name: string;
  employee_code: string;
}

export interface MoveInput {
  actorId: number;
  stage: MovableStage;
  /** Whose requests: one employee's, or those waiting on one approver (optionally not those of some employees). */
  where: { employeeId: number } | { approverId: number; exceptEmployees?: number[] };
  to: Named;
  people: ReadonlyMap<number, Named>;
  /** Why, in the history row ('manager changed', 'deactivated', ...). */
  reason: string;
  now: Date;
}

export interface MovedStep {
  request_id: string;
  stage: MovableStage;
  from: string | null;
  to: string;
}

const COLUMN: Record<MovableStage, string> = { line_manager: 'line_manager_id', hr: 'hr_contact_id' };
const LABEL: Record<MovableStage, string> = { line_manager: 'line manager', hr: 'HR' };

/** The requests of `where` whose `stage` still waits (not decided; for the manager's IT items: not acknowledged). */
function waitingSql(stage: MovableStage, where: MoveInput['where']): { sql: string; params: unknown[] } {
  const col = COLUMN[stage];
  const params: unknown[] = [];
  const conds = ['r.current_stage IS NOT NULL'];
  if ('employeeId' in where) {
    params.push(where.employeeId);
    conds.push(`r.employee_id = $${params.length}`);
  } else {
    params.push(where.approverId);
    conds.push(`r.${col} = $${params.length}`);
    if (where.exceptEmployees?.length) {
      params.push(where.exceptEmployees);
      conds.push(`NOT (r.employee_id = ANY($${params.length}::int[]))`);
    }
  }
  const pending = `EXISTS (SELECT 1 FROM approvals a WHERE a.request_pk = r.id AND a.stage = '${stage}' AND a.decision = 'Pending')`;
  conds.push(
    stage === 'line_manager'
      ? `(${pending} OR (r.form_type IN (${MANAGER_VIEW_ONLY_TYPES.map((t) => `'${t}'`).join(', ')})
            AND coalesce(r.data->>'line_manager_acknowledgement', 'false') <> 'true'))`
      : pending,
  );
  return { sql: conds.join(' AND '), params };
}

/** Moves the waiting `stage` of the requests of `where` to `to`, with a history row on each; answers what moved. */
export async function moveStages(c: Queryable, m: MoveInput): Promise<MovedStep[]> {
  const col = COLUMN[m.stage];
  const { sql, params } = waitingSql(m.stage, m.where);
  const n = params.length;
  const refused = await c.query(
    `SELECT r.request_id FROM requests r
      WHERE ${sql} AND r.${col} IS DISTINCT FROM $${n + 1}
        AND (r.employee_id = $${n + 1}
             OR ${decidedOtherStepSql('r.id', `$${n + 1}`, `$${n + 2}`, 'a')})
      ORDER BY r.id LIMIT 20`,
    [...params, m.to.id, m.stage],
  );
  if (refused.rows.length) {
    const ids = refused.rows.map((r) => r.request_id).join(', ');
    throw conflict(
      `${m.to.first_name} ${m.to.last_name} (${m.to.employee_code}) cannot take the ${LABEL[m.stage]} step of ${ids}: it is their own request or they decided another step of it (separation of duties)`,
    );
  }
  const moved = await c.query(
    `WITH target AS (
       SELECT r.id, r.request_id, r.${col} AS old_id FROM requests r
        WHERE ${sql} AND r.${col} IS DISTINCT FROM $${n + 1}
        FOR UPDATE
     )
     UPDATE requests r SET ${col} = $${n + 1}, updated_at = $${n + 2}
       FROM target t WHERE r.id = t.id
     RETURNING r.id, t.request_id, t.old_id`,
    [...params, m.to.id, m.now],
  );
  if (moved.rows.length === 0) return [];
  const name = (id: number | null) => {
    const p = id === null ? undefined : m.people.get(id);
    return p ? `${p.first_name} ${p.last_name}` : null;
  };
  const code = (id: number | null) => (id === null ? null : (m.people.get(id)?.employee_code ?? null));
  const events = moved.rows.map((r) => ({
    request_pk: r.id,
    old_value: name(r.old_id),
    new_value: `${m.to.first_name} ${m.to.last_name}`,
    details: { from: code(r.old_id), to: m.to.employee_code, reason: m.reason },
  }));
  await c.query(
    `INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details, created_at)
     SELECT x.request_pk, $2, 'reassigned', $3, $4, x.old_value, x.new_value, x.details, $5
       FROM json_to_recordset($1::json) AS x(request_pk bigint, old_value text, new_value text, details jsonb)`,
    [JSON.stringify(events), m.actorId, m.stage, col, m.now],
  );
  return moved.rows.map((r) => ({ request_id: r.request_id, stage: m.stage, from: code(r.old_id), to: m.to.employee_code }));
}
