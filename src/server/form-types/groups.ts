// Named groups of approvers (issue 20): a chain stage 'group:<name>' is decided by a built-in group (membership is
// the user_type: hr, finance, it, facilities_desk, facilities_manager) or by a group an administrator defines
// here with its members. A request keeps the members its stage had when it was submitted (form-types/chain.ts).
import { BUILTIN_GROUPS } from '../../domain/form-types.js';
import { writeAudit } from '../admin/audit.js';
import type { Db, Queryable } from '../db/pool.js';
import { badRequest, conflict, notFound } from '../http/errors.js';

export interface GroupInput {
  name?: string;
  title: string;
  members: string[];
}

export interface GroupView {
  name: string;
  title: string;
  builtin: boolean;
  /** Built-in groups: the user_type that makes someone a member. */
  user_type?: string;
  members: Array<{ employee_code: string; name: string; email: string }>;
}

async function membersOf(c: Queryable, where: string, param: string) {
  const r = await c.query(
    `SELECT u.employee_code, u.first_name || ' ' || u.last_name AS name, u.email FROM users u
      WHERE u.active AND ${where} ORDER BY u.last_name, u.first_name, u.employee_code`,
    [param],
  );
  return r.rows as GroupView['members'];
}

export async function getGroup(c: Queryable, name: string): Promise<GroupView> {
  const builtin = BUILTIN_GROUPS[name];
  if (builtin) {
    return {
      name,
      title: builtin.title,
      builtin: true,
      user_type: builtin.userType,
      members: await membersOf(c, 'u.user_type = $1', builtin.userType),
    };
  }
  const g = await c.query('SELECT name, title FROM approver_groups WHERE name = $1', [name]);
  if (!g.rows[0]) throw notFound(`Unknown group: ${name}`);
  const members = await membersOf(c, 'u.id IN (SELECT user_id FROM approver_group_members WHERE group_name = $1)', name);
  return { name, title: g.rows[0].title, builtin: false, members };
}

export async function listGroups(c: Queryable): Promise<GroupView[]> {
  const out: GroupView[] = [];
  for (const name of Object.keys(BUILTIN_GROUPS)) out.push(await getGroup(c, name));
  const r = await c.query('SELECT name FROM approver_groups ORDER BY name');
  for (const row of r.rows) out.push(await getGroup(c, row.name));
  return out;
}

/** The user ids of the members (400 naming any employee code that is not an active person). */
async function memberIds(c: Queryable, codes: readonly string[]): Promise<number[]> {
  const wanted = [...new Set(codes.map((x) => x.trim().toUpperCase()))];
  if (wanted.length === 0) return [];
  const r = await c.query('SELECT id, upper(employee_code) AS code FROM users WHERE upper(employee_code) = ANY($1::text[]) AND active', [
    wanted,
  ]);
  const found = new Map(r.rows.map((x) => [x.code as string, Number(x.id)]));
  const missing = wanted.filter((x) => !found.has(x));
  if (missing.length) throw badRequest(`Unknown person: no active employee has the code ${missing.join(', ')}`);
  return wanted.map((x) => found.get(x)!);
}

async function setMembers(c: Queryable, name: string, ids: readonly number[]) {
  await c.query('DELETE FROM approver_group_members WHERE group_name = $1', [name]);
  if (ids.length) await c.query('INSERT INTO approver_group_members (group_name, user_id) SELECT $1, unnest($2::int[])', [name, ids]);
}

export async function createGroup(db: Db, actorId: number, input: GroupInput & { name: string }): Promise<GroupView> {
  return db.tx(async (c) => {
    if (BUILTIN_GROUPS[input.name]) throw conflict(`${input.name} is a built-in group`);
    const taken = await c.query('SELECT 1 FROM approver_groups WHERE name = $1', [input.name]);
    if (taken.rows[0]) throw conflict(`A group named ${input.name} already exists`);
    const ids = await memberIds(c, input.members);
    await c.query('INSERT INTO approver_groups (name, title) VALUES ($1, $2)', [input.name, input.title]);
    await setMembers(c, input.name, ids);
    const view = await getGroup(c, input.name);
    await writeAudit(c, { actorId, action: 'group.create', targetType: 'group', targetId: input.name, after: view });
    return view;
  });
}

export async function updateGroup(db: Db, actorId: number, name: string, input: GroupInput): Promise<GroupView> {
  return db.tx(async (c) => {
    if (BUILTIN_GROUPS[name])
      throw badRequest(`${name} is a built-in group: its members are the people whose user type is ${BUILTIN_GROUPS[name].userType}`);
    if (input.name !== undefined && input.name !== name) throw badRequest('A group cannot be renamed; change its title');
    const before = await getGroup(c, name);
    const ids = await memberIds(c, input.members);
    await c.query('UPDATE approver_groups SET title = $2, updated_at = now() WHERE name = $1', [name, input.title]);
    await setMembers(c, name, ids);
    const view = await getGroup(c, name);
    await writeAudit(c, { actorId, action: 'group.update', targetType: 'group', targetId: name, before, after: view });
    return view;
  });
}
