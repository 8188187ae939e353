// Moving the pending steps of requests to another approver when the organisation changes (a new line manager or HR
// contact, an approver offboarded): the request's line_manager_id or hr_contact_id (what queues, counters and the
// request policy read) is changed for the requests whose step has not been taken yet, with a 'reassigned' history
// row on each. Separation of duties holds: nobody receives a step of their own request, nor a step of a request
// on which they decided another step (the whole change is refused instead, naming the requests).
import { MANAGER_VIEW_ONLY_TYPES } from '../../domain/approvals.js';
import type { Queryable } from '../db/pool.js';
import { badRequest, conflict } from '../http/errors.js';
import { decidedOtherStepSql, notAcknowledgedSql } from '../policies/requests.js';

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
  /** line_manager, hr, or the key of a data-defined chain's stage (issue 20). */
  stage: string;
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
            AND ${notAcknowledgedSql()}))`
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
  // A data-defined chain's line-manager stages keep whom they were resolved to (approvals.approver_ids, which the
  // request policy reads): they follow too.
  if (m.stage === 'line_manager')
    await c.query(
      `UPDATE approvals SET approver_ids = ARRAY[$2::int] WHERE request_pk = ANY($1::bigint[]) AND approver = 'line_manager' AND decision = 'Pending'`,
      [moved.rows.map((r) => r.id), m.to.id],
    );
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

/**
 * Waiting stages of data-defined chains (issue 20) resolved to `from` (a named person, the manager's manager, a group
 * member) on open requests: `from` leaves a stage that others can still decide; a stage only `from` could decide
 * goes to `to`, with a history row. Refused (409, naming the requests) when `to` is the request's own employee or
 * decided another step of it; and when no `to` is given but a stage needs one (`to` undefined).
 */
export async function moveDataChainStages(
  c: Queryable,
  m: { actorId: number; from: Named; to: Named | undefined; people: ReadonlyMap<number, Named>; reason: string; now: Date },
): Promise<MovedStep[]> {
  const waiting = `FROM approvals a JOIN requests r ON r.id = a.request_pk
       WHERE a.approver IS NOT NULL AND a.decision = 'Pending' AND r.current_stage IS NOT NULL AND a.approver_ids @> ARRAY[$1::int]`;
  const sole = (
    await c.query(
      `SELECT a.request_pk, a.stage, a.stage_label, r.request_id, r.employee_id ${waiting} AND cardinality(a.approver_ids) = 1 ORDER BY r.id`,
      [m.from.id],
    )
  ).rows;
  if (sole.length && !m.to)
    throw badRequest(
      `reassign_to is required: ${sole.length} request step${sole.length > 1 ? 's wait' : ' waits'} on ${m.from.first_name} ${m.from.last_name} alone (${[...new Set(sole.map((x) => x.request_id))].slice(0, 10).join(', ')})`,
    );
  // others still decide these: the person just leaves the stage
  await c.query(
    `UPDATE approvals a SET approver_ids = array_remove(a.approver_ids, $1::int) FROM requests r
      WHERE r.id = a.request_pk AND a.approver IS NOT NULL AND a.decision = 'Pending' AND r.current_stage IS NOT NULL
        AND a.approver_ids @> ARRAY[$1::int] AND cardinality(a.approver_ids) > 1`,
    [m.from.id],
  );
  if (!sole.length || !m.to) return [];
  const to = m.to;
  const refused = (
    await c.query(
      `SELECT DISTINCT r.request_id FROM requests r
        WHERE r.id = ANY($1::bigint[])
          AND (r.employee_id = $2 OR EXISTS (SELECT 1 FROM approvals a WHERE a.request_pk = r.id AND (a.signer_id = $2 OR a.on_behalf_of_id = $2)))
        LIMIT 20`,
      [sole.map((x) => x.request_pk), to.id],
    )
  ).rows;
  if (refused.length)
    throw conflict(
      `${to.first_name} ${to.last_name} (${to.employee_code}) cannot take a step of ${refused.map((x) => x.request_id).join(', ')}: it is their own request or they decided another step of it (separation of duties)`,
    );
  await c.query(
    `UPDATE approvals a SET approver_ids = ARRAY[$2::int] FROM requests r
      WHERE r.id = a.request_pk AND a.approver IS NOT NULL AND a.decision = 'Pending' AND r.current_stage IS NOT NULL
        AND a.approver_ids = ARRAY[$1::int]`,
    [m.from.id, to.id],
  );
  await c.query('UPDATE requests SET updated_at = $2 WHERE id = ANY($1::bigint[])', [sole.map((x) => x.request_pk), m.now]);
  const from = `${m.from.first_name} ${m.from.last_name}`;
  const events = sole.map((x) => ({
    request_pk: x.request_pk,
    stage: x.stage,
    details: {
      from: m.from.employee_code,
      to: to.employee_code,
      reason: m.reason,
      ...(x.stage_label ? { stage_label: x.stage_label } : {}),
    },
  }));
  await c.query(
    `INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details, created_at)
     SELECT x.request_pk, $2, 'reassigned', x.stage, 'approver', $3, $4, x.details, $5
       FROM json_to_recordset($1::json) AS x(request_pk bigint, stage text, details jsonb)`,
    [JSON.stringify(events), m.actorId, from, `${to.first_name} ${to.last_name}`, m.now],
  );
  return sole.map((x) => ({ request_id: x.request_id, stage: x.stage, from: m.from.employee_code, to: to.employee_code }));
}

/**
 * Overdue stages escalated to `from` (migration 151: who may decide besides the approvers): the escalation goes to
 * `to` with a history row, or, where `to` may not take it (their own request, or they decided another step of it) or
 * no `to` is given, is cleared so the reminder sweep escalates the stage again to someone active.
 */
export async function moveEscalations(
  c: Queryable,
  m: { actorId: number; from: Named; to: Named | undefined; reason: string; now: Date },
): Promise<MovedStep[]> {
  const rows = (
    await c.query(
      `SELECT a.request_pk, a.stage, a.stage_label, r.request_id,
              ($2::int IS NOT NULL AND r.employee_id <> $2
               AND NOT EXISTS (SELECT 1 FROM approvals y WHERE y.request_pk = r.id AND (y.signer_id = $2 OR y.on_behalf_of_id = $2))) AS may_take
         FROM approvals a JOIN requests r ON r.id = a.request_pk
        WHERE a.escalated_to_id = $1 AND a.decision = 'Pending' AND r.current_stage IS NOT NULL
        ORDER BY r.id
        FOR UPDATE OF a`,
      [m.from.id, m.to?.id ?? null],
    )
  ).rows as Array<{ request_pk: number; stage: string; stage_label: string | null; request_id: string; may_take: boolean }>;
  if (!rows.length) return [];
  const taken = rows.filter((x) => x.may_take);
  const cleared = rows.filter((x) => !x.may_take);
  if (taken.length && m.to)
    await c.query(
      `UPDATE approvals a SET escalated_to_id = $3 FROM json_to_recordset($1::json) AS x(request_pk bigint, stage text)
        WHERE a.request_pk = x.request_pk AND a.stage = x.stage AND a.escalated_to_id = $2`,
      [JSON.stringify(taken.map((x) => ({ request_pk: x.request_pk, stage: x.stage }))), m.from.id, m.to.id],
    );
  if (cleared.length)
    await c.query(
      `UPDATE approvals a SET escalated_to_id = NULL, escalated_at = NULL FROM json_to_recordset($1::json) AS x(request_pk bigint, stage text)
        WHERE a.request_pk = x.request_pk AND a.stage = x.stage AND a.escalated_to_id = $2`,
      [JSON.stringify(cleared.map((x) => ({ request_pk: x.request_pk, stage: x.stage }))), m.from.id],
    );
  const from = `${m.from.first_name} ${m.from.last_name}`;
  const events = rows.map((x) => ({
    request_pk: x.request_pk,
    stage: x.stage,
    new_value: x.may_take && m.to ? `${m.to.first_name} ${m.to.last_name}` : null,
    details: {
      from: m.from.employee_code,
      to: x.may_take && m.to ? m.to.employee_code : null,
      reason: `${m.reason}; escalation`,
      ...(x.stage_label ? { stage_label: x.stage_label } : {}),
    },
  }));
  await c.query(
    `INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details, created_at)
     SELECT x.request_pk, $2, 'reassigned', x.stage, 'escalated_to', $3, x.new_value, x.details, $4
       FROM json_to_recordset($1::json) AS x(request_pk bigint, stage text, new_value text, details jsonb)`,
    [JSON.stringify(events), m.actorId, from, m.now],
  );
  return taken.map((x) => ({ request_id: x.request_id, stage: x.stage, from: m.from.employee_code, to: m.to!.employee_code }));
}
