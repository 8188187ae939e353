// People: loading users, the user shape the API returns, resolving a person reference from a query
// (src/server/policies/people.ts holds the rule of who may see whose personal data).
import type { Queryable } from '../db/pool.js';
import type { Cover, CoverPeriod } from '../policies/cover.js';

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
  /** An administrator asked for a new password: nothing else is allowed until it is changed (accounts). */
  must_change_password: boolean;
  /** Everyone who named this person their delegate while away (all periods, chains followed; policies/cover.ts). */
  cover_periods?: CoverPeriod[];
  /** Of those, the ones active today (set by the edge from the app clock): the request policy reads these. */
  covers?: Cover[];
}

export const fullName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`;

/** The select of an AuthUser (u = the user), for queries that load one alongside something else. */
export const USER_SELECT = `
  SELECT u.id, u.email, u.first_name, u.last_name, u.role, u.user_type, u.department_code, d.name AS department_name,
         u.employee_code, u.hr_id, u.manager_id, m.first_name || ' ' || m.last_name AS manager_name,
         u.hr_contact_id, h.first_name || ' ' || h.last_name AS hr_contact_name, u.join_date, u.annual_leave_total,
         u.must_change_password,
         (SELECT coalesce(json_agg(json_build_object('id', c.covered_id, 'user_type', c.user_type, 'name', c.name, 'path', c.path,
                                                     'starts_on', c.starts_on, 'ends_on', c.ends_on)), '[]'::json)
            FROM cover_chain(u.id) c) AS cover_periods
    FROM users u
    LEFT JOIN departments d ON d.code = u.department_code
    LEFT JOIN users m ON m.id = u.manager_id
    LEFT JOIN users h ON h.id = u.hr_contact_id`;

export async function loadUser(db: Queryable, id: number): Promise<AuthUser | undefined> {
  const r = await db.query(`${USER_SELECT} WHERE u.id = $1`, [id]);
  return r.rows[0];
}

/** A person by e-mail with what sign-in checks: the password hash and whether the account is active (not offboarded). */
export async function loadUserByEmail(
  db: Queryable,
  email: string,
): Promise<(AuthUser & { password_hash: string; account_active: boolean }) | undefined> {
  const r = await db.query(
    `${USER_SELECT.replace('SELECT u.id,', 'SELECT u.password_hash, u.active AS account_active, u.id,')} WHERE lower(u.email) = lower($1)`,
    [email],
  );
  return r.rows[0];
}

// The person rules (who may see whose data, ids that must be the caller's own) are the policy module's.
export { assertMayViewPerson, isSelfRef, resolvePersonRef } from '../policies/people.js';

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
    /** True while an administrator's demand for a new password stands (the web shows the change screen first). */
    must_change_credentials: u.must_change_password === true,
  };
}
