// People administration (issue 18): one planner checks every change to people against the whole organisation
// (unique e-mail and code, known department, manager and HR contact who may hold that role, no reporting cycles),
// for one person (create, edit) or a whole CSV file at once (managers may be rows of the same file); then one
// transaction applies the plan in a few set-based statements, moves the pending stages of people whose manager or
// HR contact changed (with a history row on each request) and writes the audit log. Admin changes to people are
// serialised by a transaction-level advisory lock, so a plan is checked against the organisation it is applied to.
import { isIsoDate } from '../../domain/business-time.js';
import { USER_TYPES, canBeHrContact, canManage } from '../../domain/people.js';
import { adminRoleMismatch, chatbotForRole, dashboardForRole } from '../../domain/roles.js';
import { invalidateQueues } from '../approvals/queue-cache.js';
import type { Db, Queryable } from '../db/pool.js';
import { HttpError, badRequest, conflict, notFound } from '../http/errors.js';
import { isActiveAdministrator, lastAdministratorRefusal } from '../policies/admin.js';
import { writeAudit } from './audit.js';
import { SPEC_ANNUAL_LEAVE, defaultAnnualLeave } from '../settings/service.js';
import { moveStages } from './reassign.js';

/** Serialises administrator changes to people and departments (pg_advisory_xact_lock key). */
export const ORG_LOCK = 742118;

/** The password hash of a person who has not set a password yet: no argon2 hash, so no password matches it. */
export const NO_PASSWORD = '!no-password';

export interface OrgPerson {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  employee_code: string;
  department_code: string | null;
  role: string;
  user_type: string;
  hr_id: string | null;
  manager_id: number | null;
  hr_contact_id: number | null;
  join_date: string | null;
  annual_leave_total: number;
  active: boolean;
  deactivated_at: Date | null;
}

/** A person's fields as given (JSON or a CSV row); manager and hr_contact name a person by e-mail or code. */
export interface PersonFields {
  email?: string;
  first_name?: string;
  last_name?: string;
  employee_code?: string;
  department?: string | null;
  role?: string;
  user_type?: string;
  hr_id?: string | null;
  manager?: string | null;
  hr_contact?: string | null;
  join_date?: string | null;
  annual_leave_total?: number;
  active?: boolean;
}

export interface PlanInput {
  /** The CSV line (1 for a single change). */
  line: number;
  /** create: a new person; update: the person with this code (PATCH); upsert: by the row's employee_code (CSV). */
  mode: 'create' | 'update' | 'upsert';
  key?: string;
  fields: PersonFields;
}

export type RowAction = 'create' | 'update' | 'unchanged' | 'error';

export interface PlannedRow {
  line: number;
  action: RowAction;
  employee_code: string;
  errors: string[];
  /** What kind of refusal (the status of a single change): a taken key, an unknown person, or bad input. */
  refusal?: 'conflict' | 'not_found' | 'invalid';
  before?: OrgPerson;
  after?: OrgPerson;
}

export interface Org {
  people: Map<number, OrgPerson>;
  departments: Map<string, string>;
  /** The company's default annual leave allowance (leave policy): a new person's when none is given. */
  defaultAnnualLeave?: number;
}

const SELECT_ORG = `SELECT id, email, first_name, last_name, employee_code, department_code, role, user_type, hr_id, manager_id,
       hr_contact_id, to_char(join_date, 'YYYY-MM-DD') AS join_date, annual_leave_total, active, deactivated_at FROM users`;

export async function loadOrg(c: Queryable): Promise<Org> {
  // One after the other: `c` is often a transaction's client, which runs one statement at a time (pg queues
  // overlapping calls on one client and deprecates it).
  const people = await c.query<OrgPerson>(SELECT_ORG);
  const departments = await c.query('SELECT code, name FROM departments');
  const allowance = await defaultAnnualLeave(c);
  return {
    people: new Map(people.rows.map((p) => [p.id, p])),
    departments: new Map(departments.rows.map((d) => [d.code, d.name])),
    defaultAnnualLeave: allowance,
  };
}

const nameOf = (p: Pick<OrgPerson, 'first_name' | 'last_name' | 'employee_code'>) => `${p.first_name} ${p.last_name} (${p.employee_code})`;
const lower = (s: string) => s.trim().toLowerCase();

/** The compared fields of a person (what makes a row 'unchanged'). */
const COMPARED: readonly (keyof OrgPerson)[] = [
  'email',
  'first_name',
  'last_name',
  'employee_code',
  'department_code',
  'role',
  'user_type',
  'hr_id',
  'manager_id',
  'hr_contact_id',
  'join_date',
  'annual_leave_total',
  'active',
];

/**
 * Checks `inputs` against `org` and each other, in order. Answers one row per input; nothing is written. New people
 * get negative ids until they are stored.
 */
export function plan(org: Org, inputs: readonly PlanInput[]): PlannedRow[] {
  const work = new Map<number, OrgPerson>([...org.people].map(([id, p]) => [id, { ...p }]));
  const byCode = new Map<string, number>();
  const byEmail = new Map<string, number>();
  const byHrId = new Map<string, number>();
  for (const p of work.values()) {
    byCode.set(p.employee_code, p.id);
    byEmail.set(lower(p.email), p.id);
    if (p.hr_id) byHrId.set(p.hr_id, p.id);
  }
  const rows: PlannedRow[] = [];
  const refs: Array<{ row: PlannedRow; id: number; input: PlanInput }> = [];
  let nextTemp = -1;
  const claimed = new Map<number, number>(); // people already changed by an earlier row, with its line
  // Who holds a key, and on which line of this file when an earlier row gave it to them (so the file can be fixed).
  const holder = (id: number) => `${nameOf(work.get(id)!)}${claimed.has(id) ? ` on line ${claimed.get(id)} of this file` : ''}`;

  // 1. each row on its own: its person, its fields, its keys
  for (const input of inputs) {
    const f = input.fields;
    const row: PlannedRow = { line: input.line, action: 'error', employee_code: f.employee_code ?? input.key ?? '', errors: [] };
    rows.push(row);
    const fail = (msg: string, refusal: PlannedRow['refusal'] = 'invalid') => {
      row.errors.push(msg);
      if (!row.refusal || refusal === 'conflict' || refusal === 'not_found') row.refusal = refusal;
    };
    const lookupCode = input.mode === 'update' ? input.key : f.employee_code;
    const existingId = lookupCode === undefined ? undefined : byCode.get(lookupCode);
    if (input.mode === 'update' && existingId === undefined) {
      fail(`No person has the employee code ${input.key}`, 'not_found');
      continue;
    }
    if (input.mode === 'create' && existingId !== undefined) {
      fail(`Employee code ${f.employee_code} is already used by ${holder(existingId)}`, 'conflict');
      continue;
    }
    const existing = existingId === undefined ? undefined : work.get(existingId)!;
    if (existing && claimed.has(existing.id)) {
      fail(
        `Employee code ${existing.employee_code} appears on an earlier line of this file (line ${claimed.get(existing.id)})`,
        'conflict',
      );
      continue;
    }
    if (!existing) {
      for (const k of ['email', 'first_name', 'last_name', 'employee_code', 'role', 'user_type'] as const)
        if (f[k] === undefined || f[k] === '') fail(`${k} is required for a new person`);
      if (row.errors.length) continue;
    }
    const before = existing ? org.people.get(existing.id) : undefined;
    const id = existing?.id ?? nextTemp--;
    const draft: OrgPerson = {
      ...(existing ?? {
        id,
        email: '',
        first_name: '',
        last_name: '',
        employee_code: '',
        department_code: null,
        role: '',
        user_type: 'employee',
        hr_id: null,
        manager_id: null,
        hr_contact_id: null,
        join_date: null,
        annual_leave_total: org.defaultAnnualLeave ?? SPEC_ANNUAL_LEAVE,
        active: true,
        deactivated_at: null,
      }),
    };
    if (f.email !== undefined) draft.email = f.email.trim();
    if (f.first_name !== undefined) draft.first_name = f.first_name.trim();
    if (f.last_name !== undefined) draft.last_name = f.last_name.trim();
    if (f.employee_code !== undefined) draft.employee_code = f.employee_code.trim();
    if (f.department !== undefined) draft.department_code = f.department === null || f.department === '' ? null : f.department.trim();
    if (f.role !== undefined) draft.role = f.role.trim();
    if (f.user_type !== undefined) draft.user_type = f.user_type.trim();
    if (f.join_date !== undefined) draft.join_date = f.join_date || null;
    if (f.annual_leave_total !== undefined) draft.annual_leave_total = f.annual_leave_total;
    if (f.hr_id !== undefined) draft.hr_id = f.hr_id === null || f.hr_id === '' ? null : f.hr_id.trim();
    else if (!existing && draft.user_type === 'hr_staff') draft.hr_id = draft.employee_code; // HR endpoints name HR staff by it
    if (f.active !== undefined) {
      if (f.active === false && (existing?.active ?? true))
        fail(`To deactivate ${existing ? nameOf(existing) : 'a person'}, use their deactivate action (it reassigns what waits on them)`);
      draft.active = f.active;
      if (f.active && existing && !existing.active) draft.deactivated_at = null;
    }

    if (draft.department_code !== null && !org.departments.has(draft.department_code)) fail(`Unknown department ${draft.department_code}`);
    if (!(USER_TYPES as readonly string[]).includes(draft.user_type))
      fail(`Unknown user type '${draft.user_type}'; use one of ${USER_TYPES.join(', ')}`);
    const mismatch = adminRoleMismatch(draft.role, draft.user_type);
    if (mismatch) fail(mismatch);
    if (draft.join_date !== null && !isIsoDate(draft.join_date)) fail(`join_date must be a date (YYYY-MM-DD), not '${draft.join_date}'`);
    if (/^\d+$/.test(draft.employee_code)) fail('An employee code cannot be only digits (numbers name user ids)');
    const emailOwner = byEmail.get(lower(draft.email));
    if (emailOwner !== undefined && emailOwner !== id) fail(`E-mail ${draft.email} is already used by ${holder(emailOwner)}`, 'conflict');
    const codeOwner = byCode.get(draft.employee_code);
    if (codeOwner !== undefined && codeOwner !== id)
      fail(`Employee code ${draft.employee_code} is already used by ${holder(codeOwner)}`, 'conflict');
    const hrOwner = draft.hr_id ? byHrId.get(draft.hr_id) : undefined;
    if (hrOwner !== undefined && hrOwner !== id) fail(`HR id ${draft.hr_id} is already used by ${holder(hrOwner)}`, 'conflict');
    row.employee_code = draft.employee_code;
    if (row.errors.length) continue;

    // the row's keys now belong to it (later rows see them)
    if (existing) {
      if (byCode.get(existing.employee_code) === id) byCode.delete(existing.employee_code);
      if (byEmail.get(lower(existing.email)) === id) byEmail.delete(lower(existing.email));
      if (existing.hr_id && byHrId.get(existing.hr_id) === id) byHrId.delete(existing.hr_id);
    }
    byCode.set(draft.employee_code, id);
    byEmail.set(lower(draft.email), id);
    if (draft.hr_id) byHrId.set(draft.hr_id, id);
    work.set(id, draft);
    row.before = before;
    row.after = draft;
    row.action = 'update'; // settled below
    claimed.set(id, input.line);
    refs.push({ row, id, input });
  }

  // 2. references: managers and HR contacts, by code or e-mail, also among the rows of this file
  const resolve = (ref: string) => byCode.get(ref.trim()) ?? byEmail.get(lower(ref));
  for (const { row, id, input } of refs) {
    const draft = work.get(id)!;
    for (const [field, column, label] of [
      ['manager', 'manager_id', 'manager'],
      ['hr_contact', 'hr_contact_id', 'HR contact'],
    ] as const) {
      const ref = input.fields[field];
      if (ref === undefined) continue;
      if (ref === null || ref.trim() === '') {
        draft[column] = null;
        continue;
      }
      const target = resolve(ref);
      if (target === undefined) row.errors.push(`Unknown ${label} ${ref}`);
      else if (target === id) row.errors.push(`A person cannot be their own ${label}`);
      else draft[column] = target;
    }
  }

  // 3. who may hold those roles, with every row's new role known; and nobody loses a role people rely on
  const reports = new Map<number, number>();
  const hrOf = new Map<number, number>();
  for (const p of work.values()) {
    // lines that already exist (a new line is checked on its own row, above)
    const was = org.people.get(p.id);
    if (p.manager_id !== null && was?.manager_id === p.manager_id) reports.set(p.manager_id, (reports.get(p.manager_id) ?? 0) + 1);
    if (p.hr_contact_id !== null && was?.hr_contact_id === p.hr_contact_id) hrOf.set(p.hr_contact_id, (hrOf.get(p.hr_contact_id) ?? 0) + 1);
  }
  for (const { row, id } of refs) {
    const draft = work.get(id)!;
    const before = row.before;
    if (draft.manager_id !== null && draft.manager_id !== before?.manager_id) {
      const m = work.get(draft.manager_id)!;
      if (!m.active) row.errors.push(`${nameOf(m)} is deactivated and cannot be a line manager`);
      else if (!canManage(m.role, m.user_type))
        row.errors.push(`${nameOf(m)} cannot be a line manager: the role '${m.role}' opens no approver dashboard`);
    }
    if (draft.hr_contact_id !== null && draft.hr_contact_id !== before?.hr_contact_id) {
      const h = work.get(draft.hr_contact_id)!;
      if (!h.active) row.errors.push(`${nameOf(h)} is deactivated and cannot be an HR contact`);
      else if (!canBeHrContact(h.role, h.user_type))
        row.errors.push(`${nameOf(h)} cannot be an HR contact: the role '${h.role}' is not on the HR dashboard`);
    }
    if ((reports.get(id) ?? 0) > 0 && !canManage(draft.role, draft.user_type))
      row.errors.push(
        `${reports.get(id)} people report to ${nameOf(draft)}; the role '${draft.role}' cannot be a line manager (move them first)`,
      );
    if ((hrOf.get(id) ?? 0) > 0 && !canBeHrContact(draft.role, draft.user_type))
      row.errors.push(
        `${nameOf(draft)} is the HR contact of ${hrOf.get(id)} people; the role '${draft.role}' is not on the HR dashboard (move them first)`,
      );
  }

  // 4. no reporting cycles
  for (const { row, id } of refs) {
    const chain: OrgPerson[] = [work.get(id)!];
    let at = work.get(id)!.manager_id;
    const seen = new Set<number>([id]);
    while (at !== null) {
      const p = work.get(at)!;
      chain.push(p);
      if (at === id) {
        row.errors.push(`Reporting cycle: ${chain.map((x) => x.employee_code).join(' reports to ')}`);
        break;
      }
      if (seen.has(at)) break; // a cycle above this person, reported on its own rows
      seen.add(at);
      at = p.manager_id;
    }
  }

  // 5. the organisation keeps an active administrator
  const administratorsAfter = [...work.values()].filter(isActiveAdministrator).length;
  for (const { row, id } of refs) {
    const was = org.people.get(id);
    if (!was || !isActiveAdministrator(was) || isActiveAdministrator(work.get(id)!)) continue;
    const refusal = lastAdministratorRefusal(nameOf(was), administratorsAfter);
    if (!refusal) continue;
    if (!row.errors.length) row.refusal = 'conflict';
    row.errors.push(refusal);
  }

  for (const { row, id } of refs) {
    if (row.errors.length) {
      row.action = 'error';
      row.refusal ??= 'invalid';
      continue;
    }
    const after = work.get(id)!;
    row.after = after;
    row.action = !row.before ? 'create' : COMPARED.every((k) => row.before![k] === after[k]) ? 'unchanged' : 'update';
  }
  return rows;
}

/** The refusal of a single change as an HTTP error: 409 for a taken key, 404 for an unknown person, else 400. */
export function refusalOf(row: PlannedRow): HttpError {
  const msg = row.errors.join('; ');
  if (row.refusal === 'not_found') return notFound(msg);
  if (row.refusal === 'conflict') return conflict(msg);
  return badRequest(msg);
}

/** The audit and API form of a stored or planned person, with references as employee codes. */
export function personJson(p: OrgPerson, people: ReadonlyMap<number, OrgPerson>, departments: ReadonlyMap<string, string>) {
  const m = p.manager_id === null ? undefined : people.get(p.manager_id);
  const h = p.hr_contact_id === null ? undefined : people.get(p.hr_contact_id);
  return {
    email: p.email,
    first_name: p.first_name,
    last_name: p.last_name,
    employee_code: p.employee_code,
    department: p.department_code,
    department_name: p.department_code === null ? null : (departments.get(p.department_code) ?? null),
    role: p.role,
    user_type: p.user_type,
    hr_id: p.hr_id,
    manager: m?.employee_code ?? null,
    manager_name: m ? `${m.first_name} ${m.last_name}` : null,
    hr_contact: h?.employee_code ?? null,
    hr_contact_name: h ? `${h.first_name} ${h.last_name}` : null,
    join_date: p.join_date,
    annual_leave_total: Number(p.annual_leave_total),
    active: p.active,
    deactivated_at: p.deactivated_at ? new Date(p.deactivated_at).toISOString() : null,
    dashboard: dashboardForRole(p.role, p.user_type),
    assistant: chatbotForRole(p.role, p.user_type),
  };
}
export type PersonJson = ReturnType<typeof personJson>;

/** The audited form of a person (without the derived fields). */
function auditForm(p: OrgPerson, people: ReadonlyMap<number, OrgPerson>, departments: ReadonlyMap<string, string>) {
  const {
    department_name: _d,
    manager_name: _m,
    hr_contact_name: _h,
    dashboard: _b,
    assistant: _a,
    ...rest
  } = personJson(p, people, departments);
  return rest;
}

export interface ApplyResult {
  rows: readonly PlannedRow[];
  /** Stored ids of the planned rows' people (temporary ids of new people mapped). */
  ids: Map<number, number>;
  moved: number;
}

/**
 * Applies the planned rows (all valid) inside transaction `c`: new people, changed fields, then managers and HR
 * contacts (new people have ids by then), then pending stages of people whose manager or HR contact changed, and one
 * audit row per created or changed person.
 */
export async function applyPlan(c: Queryable, actorId: number, org: Org, rows: readonly PlannedRow[], now: Date): Promise<ApplyResult> {
  const ids = new Map<number, number>();
  const creates = rows.filter((r) => r.action === 'create');
  const updates = rows.filter((r) => r.action === 'update');
  const cols = (p: OrgPerson) => ({
    email: p.email,
    first_name: p.first_name,
    last_name: p.last_name,
    employee_code: p.employee_code,
    department_code: p.department_code,
    role: p.role,
    user_type: p.user_type,
    hr_id: p.hr_id,
    join_date: p.join_date,
    annual_leave_total: p.annual_leave_total,
    active: p.active,
  });
  const RECORD = `x(id int, email text, first_name text, last_name text, employee_code text, department_code text, role text,
                    user_type text, hr_id text, join_date date, annual_leave_total numeric, active boolean)`;
  try {
    if (creates.length) {
      const r = await c.query(
        `INSERT INTO users (email, password_hash, first_name, last_name, employee_code, department_code, role, user_type, hr_id, join_date,
                            annual_leave_total, active, created_at)
         SELECT x.email, $2, x.first_name, x.last_name, x.employee_code, x.department_code, x.role, x.user_type, x.hr_id, x.join_date,
                x.annual_leave_total, x.active, $3
           FROM json_to_recordset($1::json) AS ${RECORD}
         RETURNING id, employee_code`,
        [JSON.stringify(creates.map((r) => cols(r.after!))), NO_PASSWORD, now],
      );
      const byCode = new Map<string, number>(r.rows.map((x) => [x.employee_code, x.id]));
      for (const row of creates) ids.set(row.after!.id, byCode.get(row.after!.employee_code)!);
    }
    for (const row of [...updates, ...rows.filter((r) => r.action === 'unchanged')]) ids.set(row.after!.id, row.after!.id);
    if (updates.length) {
      await c.query(
        `UPDATE users u SET email = x.email, first_name = x.first_name, last_name = x.last_name, employee_code = x.employee_code,
                department_code = x.department_code, role = x.role, user_type = x.user_type, hr_id = x.hr_id, join_date = x.join_date,
                annual_leave_total = x.annual_leave_total, active = x.active,
                deactivated_at = CASE WHEN x.active THEN NULL ELSE u.deactivated_at END
           FROM json_to_recordset($1::json) AS ${RECORD}
          WHERE u.id = x.id`,
        [JSON.stringify(updates.map((r) => ({ ...cols(r.after!), id: r.after!.id })))],
      );
    }
    const lines = [...creates, ...updates].filter(
      (r) => !r.before || r.before.manager_id !== r.after!.manager_id || r.before.hr_contact_id !== r.after!.hr_contact_id,
    );
    if (lines.length) {
      await c.query(
        `UPDATE users u SET manager_id = x.manager_id, hr_contact_id = x.hr_contact_id
           FROM json_to_recordset($1::json) AS x(id int, manager_id int, hr_contact_id int) WHERE u.id = x.id`,
        [
          JSON.stringify(
            lines.map((r) => ({
              id: real(r.after!.id),
              manager_id: real(r.after!.manager_id),
              hr_contact_id: real(r.after!.hr_contact_id),
            })),
          ),
        ],
      );
    }
  } catch (err) {
    // Another writer took an e-mail, code or HR id between the plan and the write (outside the admin lock).
    if ((err as { code?: string }).code === '23505')
      throw conflict('An e-mail, employee code or HR id is already in use; reload and try again');
    throw err;
  }

  // The organisation as stored now, for names in history and audit rows.
  const people = new Map(org.people);
  for (const row of [...creates, ...updates]) {
    const p = {
      ...row.after!,
      id: real(row.after!.id)!,
      manager_id: real(row.after!.manager_id),
      hr_contact_id: real(row.after!.hr_contact_id),
    };
    people.set(p.id, p);
  }
  function real(id: number | null): number | null {
    return id === null ? null : id < 0 ? (ids.get(id) ?? null) : id;
  }

  // Pending stages follow a changed manager or HR contact (a person without one keeps theirs where they are).
  let moved = 0;
  for (const row of updates) {
    const b = row.before!;
    const a = row.after!;
    for (const [stage, from, to] of [
      ['line_manager', b.manager_id, real(a.manager_id)],
      ['hr', b.hr_contact_id, real(a.hr_contact_id)],
    ] as const) {
      if (to === null || from === to) continue;
      moved += (
        await moveStages(c, {
          actorId,
          stage,
          where: { employeeId: a.id },
          to: people.get(to)!,
          people,
          reason: stage === 'line_manager' ? 'manager changed' : 'HR contact changed',
          now,
        })
      ).length;
    }
  }

  const audit = [...creates, ...updates].map((row) => {
    const id = real(row.after!.id)!;
    return {
      action: row.before ? (row.before.active === false && row.after!.active ? 'person.reactivate' : 'person.update') : 'person.create',
      target_id: people.get(id)!.employee_code,
      before: row.before ? auditForm(row.before, org.people, org.departments) : null,
      after: auditForm(people.get(id)!, people, org.departments),
    };
  });
  if (audit.length) {
    await c.query(
      `INSERT INTO admin_audit (at, actor_id, action, target_type, target_id, before, after)
       SELECT $2, $3, x.action, 'person', x.target_id, x.before, x.after FROM json_to_recordset($1::json) AS x(action text, target_id text, before jsonb, after jsonb)`,
      [JSON.stringify(audit), now, actorId],
    );
  }
  return { rows, ids, moved };
}

/** Runs `fn` in a transaction holding the organisation lock, with the organisation as it is inside it. */
export async function withOrg<T>(db: Db, fn: (c: Queryable, org: Org) => Promise<T>): Promise<T> {
  const out = await db.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [ORG_LOCK]);
    return fn(c, await loadOrg(c));
  });
  invalidateQueues(db);
  return out;
}

/** Creates or changes one person: the person after, or the refusal (nothing written). */
export async function savePerson(db: Db, actorId: number, input: PlanInput, now: Date): Promise<PersonJson> {
  return withOrg(db, async (c, org) => {
    const [row] = plan(org, [input]);
    if (row.action === 'error') throw refusalOf(row);
    const { ids } = await applyPlan(c, actorId, org, [row], now);
    const after = await loadOrg(c);
    return personJson(after.people.get(ids.get(row.after!.id)!)!, after.people, after.departments);
  });
}

export { writeAudit };
