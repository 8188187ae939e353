// Shared fixtures of the hardening tests: one demo account per role, every API route of the app (from the
// route catalogue of the observability plugin), who may see whom (to find another person's data in a body),
// and a checksum of the stored requests to prove that bad input changed nothing.
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/pool.js';
import { formTypesWithStage } from '../../domain/forms.js';

export const ROLE_ACCOUNTS = {
  employee: 'alex.johnson@adminease.test',
  manager: 'priya.sharma@adminease.test',
  hr: 'meera.iyer@adminease.test',
  finance: 'arjun.mehta@adminease.test',
  it: 'lena.fischer@adminease.test',
  desk: 'sofia.rossi@adminease.test',
  facmgr: 'kenji.watanabe@adminease.test',
} as const;
export type RoleKey = keyof typeof ROLE_ACCOUNTS;

/**
 * Form types a role works on for every employee, whatever the reporting lines: finance, IT support, the facilities
 * desk and the facilities manager serve the whole company; line managers and HR only their own people.
 */
export const ROLE_WIDE_TYPES: Record<RoleKey, string[]> = {
  employee: [],
  manager: [],
  hr: [],
  finance: formTypesWithStage('finance'),
  it: formTypesWithStage('it_helpdesk'),
  desk: formTypesWithStage('facilities_desk'),
  facmgr: formTypesWithStage('facilities_manager'),
};

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
}

/** Every route under /api and /ai that needs a session, once per method. */
export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  const seen = new Set<string>();
  const out: ApiRoute[] = [];
  for (const r of app.metrics.routes) {
    if (!(r.url.startsWith('/api/') || r.url.startsWith('/ai/'))) continue;
    if (r.public) continue;
    const k = `${r.method} ${r.url}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ method: r.method as ApiRoute['method'], url: r.url });
  }
  return out.sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
}

export interface Person {
  id: number;
  email: string;
  code: string;
  hr_id: string | null;
  first_name: string;
  last_name: string;
  user_type: string;
  manager_id: number | null;
  hr_contact_id: number | null;
}

export async function loadPeople(db: Queryable): Promise<Person[]> {
  return (
    await db.query(
      'SELECT id, email, employee_code AS code, hr_id, first_name, last_name, user_type, manager_id, hr_contact_id FROM users ORDER BY id',
    )
  ).rows;
}

export interface Visibility {
  /** Employee codes, HR ids and emails the caller may meet in an answer. */
  ids: Set<string>;
  /** Full names the caller may meet (people in scope, their managers and HR contacts, approvers who sign). */
  names: Set<string>;
  /** People the caller may not see at all (another person's data). */
  strangers: Person[];
}

/**
 * Whom a caller may see: self, own line manager and HR contact, the people they manage or are HR contact
 * for, and the employees of requests in their role-wide scope; names also of those people's managers and HR
 * contacts and of every approver (signatures on decisions).
 */
export async function visibilityOf(db: Queryable, people: Person[], caller: Person, role: RoleKey): Promise<Visibility> {
  const byId = new Map(people.map((p) => [p.id, p]));
  const inScope = new Set<number>([caller.id]);
  if (caller.manager_id) inScope.add(caller.manager_id);
  if (caller.hr_contact_id) inScope.add(caller.hr_contact_id);
  for (const p of people) if (p.manager_id === caller.id || p.hr_contact_id === caller.id) inScope.add(p.id);
  const related = await db.query(
    `SELECT DISTINCT employee_id FROM requests WHERE line_manager_id = $1 OR hr_contact_id = $1 OR form_type = ANY($2)`,
    [caller.id, ROLE_WIDE_TYPES[role]],
  );
  for (const r of related.rows) inScope.add(r.employee_id);
  const ids = new Set<string>();
  const names = new Set<string>();
  const addPerson = (p: Person | undefined, withIds: boolean) => {
    if (!p) return;
    names.add(`${p.first_name} ${p.last_name}`);
    if (withIds) {
      ids.add(p.code);
      ids.add(p.email);
      if (p.hr_id) ids.add(p.hr_id);
    }
  };
  for (const id of inScope) {
    const p = byId.get(id);
    addPerson(p, true);
    addPerson(p?.manager_id ? byId.get(p.manager_id) : undefined, true);
    addPerson(p?.hr_contact_id ? byId.get(p.hr_contact_id) : undefined, true);
  }
  for (const p of people) if (p.user_type !== 'employee') addPerson(p, false);
  const strangers = people.filter((p) => !ids.has(p.code));
  return { ids, names, strangers };
}

const ID_PATTERN = /\b(?:EMP-\d{4}|MGR-\d{3}|HR-\d{3}|FIN-\d{3}|IT-\d{3}|OPS-\d{3})\b|[a-z]+\.[a-z]+@adminease\.test/g;

/** Identifiers and names of people the caller may not see that appear in `text`. */
export function foreignData(text: string, people: Person[], v: Visibility): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(ID_PATTERN))
    if (!v.ids.has(m[0]) && people.some((p) => p.code === m[0] || p.email === m[0] || p.hr_id === m[0])) found.add(m[0]);
  for (const p of people) {
    const name = `${p.first_name} ${p.last_name}`;
    if (!v.names.has(name) && text.includes(name)) found.add(name);
  }
  return [...found];
}

/** A fingerprint of everything stored about requests and people: equal before and after means unchanged. */
export async function storedChecksum(db: Queryable): Promise<string> {
  const r = await db.query(`SELECT
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM requests t) AS requests,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.request_pk, t.stage), '')) FROM approvals t) AS approvals,
      (SELECT count(*) FROM request_events) AS events,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM users t) AS users`);
  const x = r.rows[0];
  return `${x.requests}/${x.approvals}/${x.events}/${x.users}`;
}

/** Percent-encodes any string, lone surrogates included (as the UTF-8 of U+FFFD, like a browser). */
export function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

/** Fills the `:name` parameters of a route template. */
export function fillPath(url: string, params: Record<string, string>): string {
  return url.replace(/:([a-zA-Z]+)/g, (_m, name: string) => encodeSegment(params[name] ?? 'x'));
}
