// Resolving a chain defined as data when a request is submitted (issue 20): which stages apply (their conditions
// on the request's fields) and who decides each, so the request keeps the chain and the people it was submitted
// with. Stages whose condition is false are stored as 'Not required'.
import { NOT_REQUIRED } from '../../domain/approvals.js';
import { BUILTIN_GROUPS, conditionHolds, parseApprover, stageKeys } from '../../domain/form-types.js';
import type { ChainStageDef, FormTypeDef } from '../../domain/forms.js';
import type { Queryable } from '../db/pool.js';
import { conflict } from '../http/errors.js';

export interface ResolvedStage {
  stage: string;
  seq: number;
  decision: 'Pending' | typeof NOT_REQUIRED;
  approver: string;
  /** The people who decide it (null: a built-in group, decided by whoever has the group's user_type). */
  approver_ids: number[] | null;
  stage_label: string;
  condition: unknown;
}

/** The stages of a new request of a type whose chain is defined as data; refuses (409) a stage nobody could decide. */
export async function resolveDataChain(
  c: Queryable,
  def: FormTypeDef,
  r: { employeeId: number; lineManagerId: number | null; data: Record<string, unknown> },
): Promise<ResolvedStage[]> {
  const stages = def.stages ?? [];
  return resolveStages(c, stages, stageKeys(stages), r);
}

async function resolveStages(
  c: Queryable,
  stages: readonly ChainStageDef[],
  keys: readonly string[],
  r: { employeeId: number; lineManagerId: number | null; data: Record<string, unknown> },
): Promise<ResolvedStage[]> {
  const out: ResolvedStage[] = [];
  for (let i = 0; i < stages.length; i += 1) {
    const s = stages[i];
    const applies = !s.when || conditionHolds(s.when, r.data);
    const row: ResolvedStage = {
      stage: keys[i],
      seq: i + 1,
      decision: applies ? 'Pending' : NOT_REQUIRED,
      approver: s.approver,
      approver_ids: null,
      stage_label: s.label,
      condition: s.when ?? null,
    };
    if (applies) row.approver_ids = await approversOf(c, s.approver, s.label, r);
    out.push(row);
  }
  return out;
}

async function approversOf(
  c: Queryable,
  spec: string,
  label: string,
  r: { employeeId: number; lineManagerId: number | null },
): Promise<number[] | null> {
  const a = parseApprover(spec);
  if (!a) throw conflict(`The ${label} step names an approver that is not valid; please ask an administrator`);
  const one = (id: number | null | undefined, missing: string): number[] => {
    if (id === null || id === undefined) throw conflict(missing);
    if (id === r.employeeId) throw conflict(`You would approve the ${label} step of your own request; please ask an administrator`);
    return [id];
  };
  switch (a.kind) {
    case 'line_manager':
      return one(r.lineManagerId, 'This request needs your line manager, but none is on record for you; please ask an administrator');
    case 'managers_manager': {
      const m =
        r.lineManagerId === null
          ? undefined
          : (
              await c.query('SELECT u.manager_id FROM users u JOIN users mm ON mm.id = u.manager_id WHERE u.id = $1 AND mm.active', [
                r.lineManagerId,
              ])
            ).rows[0]?.manager_id;
      return one(m, "This request needs your manager's manager, but none is on record; please ask an administrator");
    }
    case 'hr_contact': {
      // The requester's own HR contact (the built-in HR step), active.
      const h = (
        await c.query('SELECT u.hr_contact_id FROM users u JOIN users h ON h.id = u.hr_contact_id WHERE u.id = $1 AND h.active', [
          r.employeeId,
        ])
      ).rows[0]?.hr_contact_id;
      return one(h, 'This request needs your HR contact, but none is on record for you; please ask an administrator');
    }
    case 'person': {
      const p = await c.query('SELECT id FROM users WHERE upper(employee_code) = $1 AND active', [a.code]);
      return one(p.rows[0]?.id, `The ${label} step names someone who is no longer active; please ask an administrator`);
    }
    case 'group': {
      if (BUILTIN_GROUPS[a.name]) return null;
      const m = await c.query(
        `SELECT m.user_id FROM approver_group_members m JOIN users u ON u.id = m.user_id
          WHERE m.group_name = $1 AND u.active AND m.user_id <> $2 ORDER BY m.user_id`,
        [a.name, r.employeeId],
      );
      if (m.rows.length === 0) throw conflict(`Nobody in the ${label} group can decide this request; please ask an administrator`);
      return m.rows.map((x) => Number(x.user_id));
    }
  }
}

/**
 * After the owner edited a request nothing has decided yet, its own chain (the stages it was submitted with, not the
 * type's current ones) is resolved again on the new values: a condition that now holds makes its stage wait (with
 * its approvers), one that no longer holds makes it 'Not required'. Call inside the edit's transaction.
 */
export async function refreshDataChain(c: Queryable, pk: number, data: Record<string, unknown>): Promise<void> {
  const rows = (
    await c.query(
      `SELECT a.stage, a.approver, a.stage_label, a.condition, r.employee_id, r.line_manager_id
         FROM approvals a JOIN requests r ON r.id = a.request_pk WHERE a.request_pk = $1 AND a.approver IS NOT NULL ORDER BY a.seq`,
      [pk],
    )
  ).rows as Array<{
    stage: string;
    approver: string;
    stage_label: string;
    condition: ChainStageDef['when'] | null;
    employee_id: number;
    line_manager_id: number | null;
  }>;
  if (rows.length === 0) return;
  const stages = rows.map((x) => ({ approver: x.approver, label: x.stage_label, ...(x.condition ? { when: x.condition } : {}) }));
  const resolved = await resolveStages(
    c,
    stages,
    rows.map((x) => x.stage),
    { employeeId: rows[0].employee_id, lineManagerId: rows[0].line_manager_id, data },
  );
  for (const s of resolved) {
    await c.query('UPDATE approvals SET decision = $3, approver_ids = $4 WHERE request_pk = $1 AND stage = $2', [
      pk,
      s.stage,
      s.decision,
      s.approver_ids,
    ]);
  }
  const first = resolved.find((s) => s.decision === 'Pending')?.stage ?? null;
  await c.query('UPDATE requests SET current_stage = $2, status = $3 WHERE id = $1', [pk, first, first ? 'Pending' : 'Approved']);
}
