// People: loading users, the user shape the API returns, resolving a person reference from a query
// (user id, employee code or HR id) and the rule of who may see whose personal data.
import type { Queryable } from '../db/pool.js';
import { forbidden, notFound } from '../http/errors.js';

export interface AuthUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  user_type: string;
  department_code: string | null;
  department_name: string | null;
  employee_code: string;
  hr_id: string | null;
  manager_id: number | null;
  manager_name: string | null;
  hr_contact_id: number | null;
  hr_contact_name: string | null;
  join_date: string | null;
  annual_leave_total: number;
}

export const fullName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`;

/** The select of an AuthUser (u = the user), for queries that load one alongside something else. */
export const USER_SELECT = `
  SELECT u.id, u.email, u.first_name, u.last_name, u.role, u.user_type, u.department_code, d.name AS department_name,
         u.employee_code, u.hr_id, u.manager_id, m.first_name || ' ' || m.last_name AS manager_name,
         u.hr_contact_id, h.first_name || ' ' || h.last_name AS hr_contact_name, u.join_date, u.annual_leave_total
    FROM users u
    LEFT JOIN departments d ON d.code = u.department_code
    LEFT JOIN users m ON m.id = u.manager_id
    LEFT JOIN users h ON h.id = u.hr_contact_id`;

export async function loadUser(db: Queryable, id: number): Promise<AuthUser | undefined> {
  const r = await db.query(`${USER_SELECT} WHERE u.id = $1`, [id]);
  return r.rows[0];
}

export async function loadUserByEmail(db: Queryable, email: string): Promise<(AuthUser & { password_hash: string }) | undefined> {
  const r = await db.query(`${USER_SELECT.replace('SELECT u.id,', 'SELECT u.password_hash, u.id,')} WHERE lower(u.email) = lower($1)`, [email]);
  return r.rows[0];
}

/**
 * A person named in a query or path: a numeric user id, an employee code (EMP-1001) or an HR id (HR-001).
 * Answers the user id, or undefined when nobody matches.
 */
export async function resolvePersonRef(db: Queryable, ref: string | number | undefined | null): Promise<number | undefined> {
  if (ref === undefined || ref === null || String(ref).trim() === '') return undefined;
  const s = String(ref).trim();
  if (/^\d{1,9}$/.test(s)) {
    const r = await db.query('SELECT id FROM users WHERE id = $1', [Number(s)]);
    if (r.rows[0]) return r.rows[0].id;
  }
  const r = await db.query('SELECT id FROM users WHERE employee_code = $1 OR hr_id = $1 LIMIT 1', [s]);
  return r.rows[0]?.id;
}

/** True when `ref` names the caller (by user id, employee code or HR id). */
export function isSelfRef(caller: AuthUser, ref: string | number | undefined | null): boolean {
  if (ref === undefined || ref === null) return false;
  const s = String(ref).trim();
  return s === String(caller.id) || s === caller.employee_code || (caller.hr_id !== null && s === caller.hr_id);
}

/**
 * Who may see another person's profile, leave balance and requests: the person, their line manager,
 * their HR contact. Throws 403 otherwise, 404 when the person does not exist (only to those who could see it).
 */
export async function assertMayViewPerson(db: Queryable, caller: AuthUser, ref: string | number | undefined | null): Promise<number> {
  if (isSelfRef(caller, ref)) return caller.id;
  const targetId = await resolvePersonRef(db, ref);
  if (targetId === undefined) throw forbidden('You may only view your own data or that of people you approve for');
  if (targetId === caller.id) return targetId;
  const r = await db.query('SELECT manager_id, hr_contact_id FROM users WHERE id = $1', [targetId]);
  const t = r.rows[0];
  if (!t) throw notFound('Employee not found');
  if (t.manager_id === caller.id || t.hr_contact_id === caller.id) return targetId;
  throw forbidden('You may only view your own data or that of people you approve for');
}

/** The user object of the login answer and of GET /api/auth/me. */
export function toApiUser(u: AuthUser) {
  const isLineManager = u.user_type === 'line_manager';
  return {
    id: u.id,
    email: u.email,
    role: u.role,
    user_type: u.user_type,
    department_code: u.department_code,
    department: { department_code: u.department_code, department_name: u.department_name },
    profile: {
      first_name: u.first_name,
      last_name: u.last_name,
      employee_code: u.employee_code,
      employee_id: u.employee_code,
      hr_id: u.hr_id,
      manager_id: isLineManager ? u.employee_code : null,
    },
    firstName: u.first_name,
    lastName: u.last_name,
    manager_name: u.manager_name,
    managerName: u.manager_name,
  };
}
