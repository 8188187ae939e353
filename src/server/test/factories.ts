// Test factories: people of any kind and requests of any form type in a given state, made in the test's own
// database so a test states what it needs instead of relying on the demo organisation's people and records.
// People are rows like the ones the seed writes (same columns, an argon2id hash of DEMO_PASSWORD, so they can
// sign in); requests are submitted and decided through the real services (submitForm, decideStage) and the IT
// steps through the real HTTP endpoints, so every row, approval, history event and notification is what the
// application itself would have written.
import { type Stage, formTypeDef } from '../../domain/forms.js';
import { invalidateQueues } from '../approvals/queue-cache.js';
import { decideStage } from '../approvals/service.js';
import { sampleInput } from '../approvals/test-helpers.js';
import { hashPassword } from '../auth/service.js';
import { recordOf, submitForm } from '../forms/service.js';
import { type AuthUser, loadUser } from '../people/service.js';
import type { RequestRecord } from '../requests/repo.js';
import { type ApiClient, DEMO_PASSWORD, type TestApp } from './harness.js';

/** The kinds of people the application tells apart (each picks a dashboard, an assistant and a stage). */
export const PERSON_KINDS = {
  employee: { role: 'Employee', user_type: 'employee', department: 'ENG' },
  line_manager: { role: 'Department Manager', user_type: 'line_manager', department: 'ENG' },
  hr: { role: 'HR Officer', user_type: 'hr_staff', department: 'HR' },
  finance: { role: 'Finance Officer', user_type: 'finance_staff', department: 'FIN' },
  it: { role: 'IT Support Officer', user_type: 'it_staff', department: 'IT' },
  facilities_desk: { role: 'Facilities Desk Coordinator', user_type: 'facilities_staff', department: 'OPS' },
  facilities_manager: { role: 'Facilities Manager', user_type: 'facilities_manager', department: 'OPS' },
  admin: { role: 'System Administrator', user_type: 'admin', department: 'EXE' },
} as const;
export type PersonKind = keyof typeof PERSON_KINDS;

/** Department names of the codes the kinds use; a code not listed here gets a name made from it. */
const DEPARTMENT_NAMES: Record<string, string> = {
  ENG: 'Engineering',
  HR: 'Human Resources',
  FIN: 'Finance',
  IT: 'Information Technology',
  OPS: 'Operations & Facilities',
  EXE: 'Executive Office',
};

export interface PersonSpec {
  kind?: PersonKind;
  /** Overrides the kind's role name (the dashboard and assistant follow the role name or the user type). */
  role?: string;
  user_type?: string;
  /** A department code; created when the database does not have it. */
  department?: string;
  manager?: Person | null;
  hr_contact?: Person | null;
  first_name?: string;
  last_name?: string;
  email?: string;
  employee_code?: string;
  /** HR staff get an HR id by default (the HR endpoints name themselves by it). */
  hr_id?: string | null;
  join_date?: string;
  annual_leave_total?: number;
}

export interface Person {
  id: number;
  email: string;
  employee_code: string;
  hr_id: string | null;
  first_name: string;
  last_name: string;
  name: string;
  role: string;
  user_type: string;
  department: string;
  manager_id: number | null;
  hr_contact_id: number | null;
}

/** How far a request has come. 'pending' waits at its first stage; { pendingAt } after the stages before it approved. */
export type RequestState =
  | 'pending'
  | { pendingAt: Stage }
  | 'approved'
  | { rejectedAt: Stage; reason?: string }
  // IT incidents
  | 'it-taken' // IT saved a ticket number, still Open
  | 'it-resolved' // resolved, waiting for the employee's confirmation
  | 'it-reopened' // the employee said it is not solved: Open again
  | 'it-closed' // the employee confirmed: Closed
  // password resets
  | 'reset-pending-it' // the line manager acknowledged
  | 'reset-password-set'; // IT set the new password

export interface RequestSpec {
  owner: Person;
  formType: string;
  state?: RequestState;
  /** Fields of the form; valid sample input of the type by default (one fresh future working day for dates). */
  input?: Record<string, unknown>;
}

export interface Factories {
  person(spec?: PersonSpec): Promise<Person>;
  /** An employee with a new line manager and a new HR contact of their own (nobody else reports to them). */
  team(spec?: PersonSpec): Promise<{ employee: Person; manager: Person; hr: Person }>;
  /** The person who decides `stage` of `owner`'s requests (their manager or HR contact; one shared person per factory for the desks). */
  approverFor(owner: Person, stage: Stage): Promise<Person>;
  request(spec: RequestSpec): Promise<RequestRecord>;
  /** A signed-in API client of `person` (one sign-in per person, reused). */
  login(person: Person): Promise<ApiClient>;
  authUser(person: Person): Promise<AuthUser>;
}

let passwordHash: Promise<string> | undefined;
let serial = 0;

/** A unique suffix for codes and e-mails across test files running at the same time on one server. */
function unique(): string {
  serial += 1;
  return `${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}${serial}`;
}

/** Factories writing to `t`'s database and acting through `t`'s app at `t`'s clock. */
export function factories(t: TestApp): Factories {
  const clients = new Map<number, Promise<ApiClient>>();
  const desks = new Map<Stage, Promise<Person>>();

  async function person(spec: PersonSpec = {}): Promise<Person> {
    const kind = PERSON_KINDS[spec.kind ?? 'employee'];
    const id = unique();
    const first = spec.first_name ?? 'Test';
    const last = spec.last_name ?? `Person${id}`;
    const userType = spec.user_type ?? kind.user_type;
    const department = spec.department ?? kind.department;
    const hrId = spec.hr_id !== undefined ? spec.hr_id : userType === 'hr_staff' ? `HRF-${id}` : null;
    await t.db.query('INSERT INTO departments (code, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      department,
      DEPARTMENT_NAMES[department] ?? `${department} Department`,
    ]);
    passwordHash ??= hashPassword(DEMO_PASSWORD);
    const r = await t.db.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, department_code, employee_code, hr_id, join_date,
                          manager_id, hr_contact_id, annual_leave_total)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING id, email, employee_code, hr_id, first_name, last_name, role, user_type, department_code, manager_id, hr_contact_id`,
      [
        spec.email ?? `person.${id}@factory.test`,
        await passwordHash,
        first,
        last,
        spec.role ?? kind.role,
        userType,
        department,
        spec.employee_code ?? `F-${id}`,
        hrId,
        spec.join_date ?? '2022-04-01',
        spec.manager?.id ?? null,
        spec.hr_contact?.id ?? null,
        spec.annual_leave_total ?? 12,
      ],
    );
    const row = r.rows[0];
    return { ...row, department: row.department_code, name: `${row.first_name} ${row.last_name}` };
  }

  async function team(spec: PersonSpec = {}) {
    const [manager, hr] = await Promise.all([person({ kind: 'line_manager' }), person({ kind: 'hr' })]);
    const employee = await person({ ...spec, manager, hr_contact: hr });
    return { employee, manager, hr };
  }

  async function approverFor(owner: Person, stage: Stage): Promise<Person> {
    const byId = async (id: number | null, what: string) => {
      if (id === null) throw new Error(`factories: ${owner.email} has no ${what}`);
      const r = await t.db.query(
        'SELECT id, email, employee_code, hr_id, first_name, last_name, role, user_type, department_code, manager_id, hr_contact_id FROM users WHERE id = $1',
        [id],
      );
      const row = r.rows[0];
      return { ...row, department: row.department_code, name: `${row.first_name} ${row.last_name}` } as Person;
    };
    switch (stage) {
      case 'line_manager':
        return byId(owner.manager_id, 'line manager');
      case 'hr':
        return byId(owner.hr_contact_id, 'HR contact');
      default: {
        const kind = stage === 'it_helpdesk' ? 'it' : stage;
        if (!desks.has(stage)) desks.set(stage, person({ kind }));
        return desks.get(stage)!;
      }
    }
  }

  function login(p: Person): Promise<ApiClient> {
    if (!clients.has(p.id)) clients.set(p.id, t.login(p.email));
    return clients.get(p.id)!;
  }

  async function authUser(p: Person): Promise<AuthUser> {
    const u = await loadUser(t.db, p.id);
    if (!u) throw new Error(`factories: no user ${p.id}`);
    return u;
  }

  async function decide(rec: RequestRecord, owner: Person, stage: Stage, decision: 'Approved' | 'Rejected', reason?: string) {
    const approver = await authUser(await approverFor(owner, stage));
    return decideStage(t.db, approver, { ref: rec.request_id, stage, decision, reason: reason ?? null }, t.clock.now());
  }

  async function itCall(path: string, body: Record<string, unknown>, as: Person): Promise<void> {
    const res = await (await login(as)).post(path, body);
    if (res.status !== 200) throw new Error(`factories: ${path} answered ${res.status} ${res.text}`);
  }

  async function request({ owner, formType, state = 'pending', input }: RequestSpec): Promise<RequestRecord> {
    const def = formTypeDef(formType);
    if (!def) throw new Error(`factories: unknown form type ${formType}`);
    let rec = await submitForm(t.db, await authUser(owner), formType, input ?? sampleInput(formType), t.clock.now());
    const needType = (type: string) => {
      if (formType !== type) throw new Error(`factories: state ${JSON.stringify(state)} is for ${type}`);
    };

    if (state === 'pending') return rec;
    if (state === 'approved' || typeof state === 'object') {
      const s = state as 'approved' | { pendingAt?: Stage; rejectedAt?: Stage; reason?: string };
      const stop = s === 'approved' ? def.chain.length : def.chain.indexOf((s.pendingAt ?? s.rejectedAt)!);
      if (stop < 0) throw new Error(`factories: ${formType} has no stage ${JSON.stringify(state)}`);
      if (def.chain.slice(0, stop).includes('it_helpdesk')) throw new Error('factories: IT steps are states of their own (it-*, reset-*)');
      for (const stage of def.chain.slice(0, stop)) rec = await decide(rec, owner, stage, 'Approved');
      if (s !== 'approved' && s.rejectedAt)
        rec = await decide(rec, owner, s.rejectedAt, 'Rejected', s.reason ?? 'Not approved in this test');
      return rec;
    }
    const it = await approverFor(owner, 'it_helpdesk');
    const ticket = { form_id: rec.request_id, it_helpdesk_ticket_number: `TICKET-${unique()}`, it_helpdesk_assigned_to: it.name };
    switch (state) {
      case 'it-taken':
        needType('it-incident');
        await itCall('/api/it-support/save-ticket-details', ticket, it);
        break;
      case 'it-resolved':
      case 'it-reopened':
      case 'it-closed':
        needType('it-incident');
        await itCall('/api/it-support/save-ticket-details', { ...ticket, it_resolution_notes: 'Fixed in a test' }, it);
        if (state === 'it-reopened')
          await itCall(
            '/api/user-confirmation/reject-resolution',
            { form_id: rec.request_id, rejection_reason: 'Employee reported: Problem not solved' },
            owner,
          );
        if (state === 'it-closed')
          await itCall(
            '/api/user-confirmation/confirm-problem-solved',
            { form_id: rec.request_id, confirmation_notes: 'Employee confirmed: Problem is solved' },
            owner,
          );
        break;
      case 'reset-pending-it':
      case 'reset-password-set':
        needType('password-reset');
        if (owner.manager_id !== null)
          await itCall('/api/manager/acknowledge-password-reset', { form_id: rec.request_id }, await approverFor(owner, 'line_manager'));
        if (state === 'reset-password-set')
          await itCall('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: `Reset#${unique()}` }, it);
        break;
    }
    invalidateQueues(t.db);
    return (await recordOf(t.db, rec.request_id))!;
  }

  return { person, team, approverFor, request, login, authUser };
}

/**
 * A fingerprint of everything a request write can touch (requests, approvals, the event log, notifications,
 * assistant sessions and chat, users; or only the tables named): equal fingerprints before and after a refused call
 * show it changed nothing.
 */
export async function stateFingerprint(t: Pick<TestApp, 'db'>, only?: readonly string[]): Promise<Record<string, string>> {
  // table -> its columns (all of them unless listed) and an order that makes the text stable
  const tables: Array<[string, string, string]> = [
    ['requests', 'x.*', 'x.id'],
    ['approvals', 'x.*', 'x.request_pk, x.stage'],
    ['request_events', 'x.*', 'x.id'],
    ['notifications', 'x.*', 'x.id'],
    ['ai_sessions', 'x.*', 'x.session_id'],
    ['chat_messages', 'x.*', 'x.id'],
    ['form_types', 'x.*', 'x.form_type'],
    ['approver_group_members', 'x.*', 'x.group_name, x.user_id'],
    ['users', '(x.id, x.email, x.role, x.user_type, x.manager_id, x.hr_contact_id, x.annual_leave_total, x.preferences)', 'x.id'],
  ];
  const out: Record<string, string> = {};
  for (const [name, cols, order] of tables) {
    if (only && !only.includes(name)) continue;
    const cast = cols === 'x.*' ? 'x::text' : `${cols}::text`;
    const r = await t.db.query(
      `SELECT count(*)::int AS n, coalesce(md5(string_agg(${cast}, '|' ORDER BY ${order})), '') AS h FROM ${name} x`,
    );
    out[name] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  return out;
}
