// Who may see whose personal data, and acting for oneself: the rules for person ids in queries, paths and bodies
// (employee_id, user_id, manager_id, hr_id, finance_id, ...). Identity always comes from the session; an id that
// names the caller is accepted (user id, employee code or HR id), any other id is refused with 403, never
// silently ignored (the spec's clients send these ids; a mismatch is a client bug or an attempt).
import type { Queryable } from '../db/pool.js';
import { forbidden, notFound } from '../http/errors.js';

/** The facts of the caller the person rules read (an AuthUser has them). */
export interface SelfFacts {
  id: number;
  employee_code: string;
  hr_id: string | null;
}

/** The facts of the person looked at. */
export interface PersonFacts {
  id: number;
  manager_id: number | null;
  hr_contact_id: number | null;
}

const blank = (ref: unknown) => ref === undefined || ref === null || String(ref).trim() === '';

/** True when `ref` names the caller (by user id, employee code or HR id). */
export function isSelfRef(caller: SelfFacts, ref: string | number | undefined | null): boolean {
  if (ref === undefined || ref === null) return false;
  const s = String(ref).trim();
  return s === String(caller.id) || s === caller.employee_code || (caller.hr_id !== null && s === caller.hr_id);
}

/**
 * Acting for oneself: an id in a query or body that names the actor must be the caller's own. Nothing sent is fine
 * (the session says who acts); `alsoAllowed` are fixed words some clients send instead of an id ('finance').
 * Throws 403 with `message` otherwise.
 */
export function assertSelfRef(caller: SelfFacts, ref: unknown, message: string, alsoAllowed: readonly string[] = []): void {
  if (blank(ref)) return;
  if (typeof ref === 'object') throw forbidden(message);
  const s = String(ref);
  if (isSelfRef(caller, s) || alsoAllowed.includes(s.trim().toLowerCase())) return;
  throw forbidden(message);
}

/** May `caller` see `person`'s profile, leave balance and requests list: the person, their line manager, their HR contact. */
export function canViewPerson(caller: Pick<SelfFacts, 'id'>, person: PersonFacts): boolean {
  return person.id === caller.id || person.manager_id === caller.id || person.hr_contact_id === caller.id;
}

const PERSON_REFUSED = 'You may only view your own data or that of people you approve for';

/**
 * A person named in a query or path: a numeric user id, an employee code (EMP-1001) or an HR id (HR-001).
 * Answers the user id, or undefined when nobody matches.
 */
export async function resolvePersonRef(db: Queryable, ref: string | number | undefined | null): Promise<number | undefined> {
  if (blank(ref)) return undefined;
  const s = String(ref).trim();
  if (/^\d{1,9}$/.test(s)) {
    const r = await db.query('SELECT id FROM users WHERE id = $1', [Number(s)]);
    if (r.rows[0]) return r.rows[0].id;
  }
  const r = await db.query('SELECT id FROM users WHERE employee_code = $1 OR hr_id = $1 LIMIT 1', [s]);
  return r.rows[0]?.id;
}

/**
 * canViewPerson for a person named by `ref`: answers their user id. The spec fixes a 403 for someone else's data
 * (any person the caller may not view, whether or not they exist, gets the same 403).
 */
export async function assertMayViewPerson(db: Queryable, caller: SelfFacts, ref: string | number | undefined | null): Promise<number> {
  if (isSelfRef(caller, ref)) return caller.id;
  const targetId = await resolvePersonRef(db, ref);
  if (targetId === undefined) throw forbidden(PERSON_REFUSED);
  if (targetId === caller.id) return targetId;
  const r = await db.query('SELECT id, manager_id, hr_contact_id FROM users WHERE id = $1', [targetId]);
  const person = r.rows[0] as PersonFacts | undefined;
  if (!person) throw notFound('Employee not found');
  if (canViewPerson(caller, person)) return targetId;
  throw forbidden(PERSON_REFUSED);
}
