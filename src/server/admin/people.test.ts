// People administration over the API: create and edit with their rules (unique keys, managers who may manage, no
// cycles), pending steps that follow a new manager, offboarding (sessions end on every instance, requests withdrawn
// or kept, waiting steps reassigned with history), departments and the role preview; every change audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDb } from '../db/pool.js';
import { type Factories, type Person, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, DEMO_PASSWORD, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
let admin: ApiClient;
let adminPerson: Person;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  adminPerson = await f.person({ kind: 'admin' });
  admin = await f.login(adminPerson);
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const uniq = () => `${Date.now().toString(36)}${(n += 1)}`;

async function auditOf(code: string) {
  return (await t.db.query('SELECT action, before, after, actor_id FROM admin_audit WHERE target_id = $1 ORDER BY id', [code])).rows;
}

async function stored(code: string) {
  return (await t.db.query('SELECT * FROM users WHERE employee_code = $1', [code])).rows[0];
}

async function eventsOf(requestId: string) {
  return (
    await t.db.query(
      `SELECT e.event_type, e.stage, e.old_value, e.new_value, e.details, e.actor_id FROM request_events e JOIN requests r ON r.id = e.request_pk
        WHERE r.request_id = $1 ORDER BY e.id`,
      [requestId],
    )
  ).rows;
}

describe('create and edit people', () => {
  it('creates a person with a manager and HR contact named by e-mail or code, audited, and shows what the role gets', async () => {
    const { manager, hr } = await f.team();
    const code = `N-${uniq()}`;
    const res = await admin.post('/api/admin/people', {
      email: `${code.toLowerCase()}@example.test`,
      first_name: 'Nora',
      last_name: 'New',
      employee_code: code,
      department: 'ENG',
      role: 'Software Engineer',
      user_type: 'employee',
      manager: manager.email.toUpperCase(),
      hr_contact: hr.employee_code,
      join_date: '2026-01-05',
      annual_leave_total: 14.5,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      employee_code: code,
      department: 'ENG',
      manager: manager.employee_code,
      manager_name: manager.name,
      hr_contact: hr.employee_code,
      join_date: '2026-01-05',
      annual_leave_total: 14.5,
      active: true,
      dashboard: 'employee',
      assistant: 'employee',
    });
    const row = await stored(code);
    expect({ manager_id: row.manager_id, hr_contact_id: row.hr_contact_id, active: row.active }).toEqual({
      manager_id: manager.id,
      hr_contact_id: hr.id,
      active: true,
    });
    // no password can sign in until the person sets one
    expect((await t.anonymous.post('/api/auth/login', { email: row.email, password: DEMO_PASSWORD })).status).toBe(401);
    const audit = await auditOf(code);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'person.create',
      before: null,
      actor_id: adminPerson.id,
      after: { manager: manager.employee_code },
    });

    expect((await admin.get(`/api/admin/people/${code}`)).body.email).toBe(row.email);
    const listed = await admin.get(`/api/admin/people?q=${encodeURIComponent(code.toLowerCase())}&department=eng&active=true`);
    expect(listed.body.total).toBe(1);
    expect(listed.body.people[0].employee_code).toBe(code);
    expect((await admin.get(`/api/admin/people?q=${code}&active=false`)).body.total).toBe(0);
  });

  it('refuses a taken e-mail or code with 409 and changes nothing', async () => {
    const existing = await f.person();
    const other = await f.person();
    const before = await stateFingerprint(t, ['users']);
    const sameEmail = await admin.post('/api/admin/people', {
      email: existing.email.toUpperCase(),
      first_name: 'A',
      last_name: 'B',
      employee_code: `D-${uniq()}`,
      role: 'Employee',
      user_type: 'employee',
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error).toContain(`is already used by ${existing.name}`);
    const sameCode = await admin.post('/api/admin/people', {
      email: `x.${uniq()}@example.test`,
      first_name: 'A',
      last_name: 'B',
      employee_code: existing.employee_code,
      role: 'Employee',
      user_type: 'employee',
    });
    expect(sameCode.status).toBe(409);
    const patch = await admin.patch(`/api/admin/people/${other.employee_code}`, { email: existing.email });
    expect(patch.status).toBe(409);
    expect(await stateFingerprint(t, ['users'])).toEqual(before);
    expect(await auditOf(other.employee_code)).toEqual([]);
  });

  it('refuses bad input with 400: unknown department or user type, admin role without admin type, a bad date, unknown keys', async () => {
    const base = {
      email: `b.${uniq()}@example.test`,
      first_name: 'B',
      last_name: 'C',
      employee_code: `B-${uniq()}`,
      role: 'Employee',
      user_type: 'employee',
    };
    for (const [patch, msg] of [
      [{ department: 'NOPE' }, 'Unknown department NOPE'],
      [{ user_type: 'wizard' }, "Unknown user type 'wizard'"],
      [{ role: 'System Administrator' }, "needs the user type 'admin'"],
      [{ join_date: '2024-02-30' }, 'join_date'],
      [{ salary: 1 }, 'salary'],
      [{ employee_code: '12345' }, 'only digits'],
    ] as const) {
      const res = await admin.post('/api/admin/people', { ...base, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error).toContain(msg);
    }
    expect(await stored(base.employee_code)).toBeUndefined();
  });

  it('accepts only a manager who may manage and is active, and never a reporting cycle', async () => {
    const { employee, manager } = await f.team();
    const plain = await f.person();
    const byEmployee = await admin.patch(`/api/admin/people/${employee.employee_code}`, { manager: plain.employee_code });
    expect(byEmployee.status).toBe(400);
    expect(byEmployee.body.error).toContain('cannot be a line manager');
    const self = await admin.patch(`/api/admin/people/${manager.employee_code}`, { manager: manager.employee_code });
    expect(self.body.error).toContain('cannot be their own manager');
    // manager (line_manager) -> boss; boss's manager set to manager: a cycle
    const boss = await f.person({ kind: 'line_manager' });
    expect((await admin.patch(`/api/admin/people/${manager.employee_code}`, { manager: boss.employee_code })).status).toBe(200);
    const cycle = await admin.patch(`/api/admin/people/${boss.employee_code}`, { manager: manager.employee_code });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error).toBe(
      `Reporting cycle: ${boss.employee_code} reports to ${manager.employee_code} reports to ${boss.employee_code}`,
    );
    expect((await stored(boss.employee_code)).manager_id).toBeNull();
    // a manager with reports cannot become someone who may not manage
    const demote = await admin.patch(`/api/admin/people/${manager.employee_code}`, { role: 'Employee', user_type: 'employee' });
    expect(demote.status).toBe(400);
    expect(demote.body.error).toContain('people report to');
    // an HR contact must be on the HR dashboard
    const badHr = await admin.patch(`/api/admin/people/${employee.employee_code}`, { hr_contact: boss.email });
    expect(badHr.body.error).toContain('cannot be an HR contact');
    expect((await admin.get('/api/admin/people/NOBODY-X')).status).toBe(404);
    expect((await admin.patch('/api/admin/people/NOBODY-X', { first_name: 'X' })).status).toBe(404);
  });

  it("moves the person's pending line-manager steps to the new manager, with a history row, and not the decided ones", async () => {
    const { employee, manager } = await f.team();
    const pending = await f.request({ owner: employee, formType: 'leave-request' });
    const decided = await f.request({ owner: employee, formType: 'meeting-room', state: 'approved' });
    const newManager = await f.person({ kind: 'line_manager' });
    const res = await admin.patch(`/api/admin/people/${employee.employee_code}`, { manager: newManager.employee_code });
    expect(res.status, res.text).toBe(200);
    expect(res.body.manager).toBe(newManager.employee_code);
    const lm = async (id: string) =>
      (await t.db.query('SELECT line_manager_id FROM requests WHERE request_id = $1', [id])).rows[0].line_manager_id;
    expect(await lm(pending.request_id)).toBe(newManager.id);
    expect(await lm(decided.request_id)).toBe(manager.id);
    const events = await eventsOf(pending.request_id);
    expect(events.at(-1)).toMatchObject({
      event_type: 'reassigned',
      stage: 'line_manager',
      old_value: manager.name,
      new_value: newManager.name,
      actor_id: adminPerson.id,
      details: { from: manager.employee_code, to: newManager.employee_code, reason: 'manager changed' },
    });
    // it is in the new manager's queue, no longer in the old one's, and the history says why
    const queue = async (p: Person) =>
      ((await (await f.login(p)).get('/api/manager/queue?status=pending', { 'cache-control': 'no-cache' })).body as any[]).map(
        (r) => r.request_id,
      );
    expect(await queue(newManager)).toContain(pending.request_id);
    expect(await queue(manager)).not.toContain(pending.request_id);
    const history = await (await f.login(newManager)).get(`/api/requests/${pending.request_id}/history`);
    expect(JSON.stringify(history.body)).toContain(`Line Manager step reassigned from ${manager.name} to ${newManager.name}`);
    const audit = await auditOf(employee.employee_code);
    expect(audit.at(-1)).toMatchObject({
      action: 'person.update',
      before: { manager: manager.employee_code },
      after: { manager: newManager.employee_code },
    });
  });
});

/** A second server instance on the same database, with its own session cache. */
async function secondInstance() {
  const db = createDb(t.url, 3);
  const config = { ...loadConfig({ ...process.env, ADMINEASE_DEMO: '1' }), databaseUrl: t.url, logLevel: 'silent' };
  const app = await buildApp({ db, config, clock: t.clock, logger: false });
  await app.ready();
  return {
    me: async (token: string) =>
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

describe('deactivate and reactivate', () => {
  it("ends every session at once on every instance, reassigns the team and the waiting steps with history, withdraws the person's requests", async () => {
    const { employee, manager, hr } = await f.team();
    const boss = await f.person({ kind: 'line_manager' });
    await t.db.query('UPDATE users SET manager_id = $2, hr_contact_id = $3 WHERE id = $1', [manager.id, boss.id, hr.id]);
    const successor = await f.person({ kind: 'line_manager' });
    const waiting = await f.request({ owner: employee, formType: 'leave-request' });
    const own = await f.request({ owner: { ...manager, manager_id: boss.id, hr_contact_id: hr.id }, formType: 'meeting-room' });
    const session = await f.login(manager);
    const other = await secondInstance();
    try {
      expect(await other.me(session.token)).toBe(200); // cached on the other instance now
      const res = await admin.post(`/api/admin/people/${manager.employee_code}/deactivate`, {
        reassign_to: successor.email,
        pending_requests: 'withdraw',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        person: { employee_code: manager.employee_code, active: false },
        withdrawn: [own.request_id],
        reassigned: [{ request_id: waiting.request_id, stage: 'line_manager', from: manager.employee_code, to: successor.employee_code }],
        reports_moved: [employee.employee_code],
        sessions_ended: 1,
      });
      // this instance at once; the other as soon as PostgreSQL's signal arrives (milliseconds)
      expect((await session.get('/api/auth/me')).status).toBe(401);
      const until = Date.now() + 3000;
      let status = await other.me(session.token);
      while (status !== 401 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 10));
        status = await other.me(session.token);
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
    expect((await t.anonymous.post('/api/auth/login', { email: manager.email, password: DEMO_PASSWORD })).status).toBe(401);
    expect((await stored(employee.employee_code)).manager_id).toBe(successor.id);
    const req = (await t.db.query('SELECT line_manager_id FROM requests WHERE request_id = $1', [waiting.request_id])).rows[0];
    expect(req.line_manager_id).toBe(successor.id);
    expect((await eventsOf(waiting.request_id)).at(-1)).toMatchObject({ event_type: 'reassigned', new_value: successor.name });
    const ownRow = (await t.db.query('SELECT status, current_stage FROM requests WHERE request_id = $1', [own.request_id])).rows[0];
    expect(ownRow).toEqual({ status: 'Cancelled', current_stage: null });
    expect((await eventsOf(own.request_id)).at(-1)).toMatchObject({
      event_type: 'withdrawn',
      actor_id: adminPerson.id,
      details: { reason: 'deactivated' },
    });
    // nothing deleted: the person is there, inactive, and history keeps their name
    const row = await stored(manager.employee_code);
    expect(row.active).toBe(false);
    expect(row.deactivated_at).not.toBeNull();
    expect((await auditOf(manager.employee_code)).at(-1)).toMatchObject({
      action: 'person.deactivate',
      after: { active: false, reassign_to: successor.employee_code },
    });
    expect((await admin.post(`/api/admin/people/${manager.employee_code}/deactivate`, { pending_requests: 'keep' })).status).toBe(409);

    // reactivation: PATCH active=true; signing in works again, old sessions stay ended
    const back = await admin.patch(`/api/admin/people/${manager.employee_code}`, { active: true });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ active: true, deactivated_at: null });
    expect((await auditOf(manager.employee_code)).at(-1)).toMatchObject({ action: 'person.reactivate' });
    expect((await t.login(manager.email)).token).toBeTruthy();
    expect((await session.get('/api/auth/me')).status).toBe(401);
  });

  it('keeps the pending requests when asked, needs a successor who may take the work, and never sends anyone their own request', async () => {
    const { employee: deputy, manager, hr } = await f.team({ kind: 'line_manager' });
    const boss = await f.person({ kind: 'line_manager' });
    await t.db.query('UPDATE users SET manager_id = $2 WHERE id = $1', [manager.id, boss.id]);
    const teammate = await f.person({ manager, hr_contact: hr });
    const deputyOwn = await f.request({ owner: deputy, formType: 'leave-request' });
    const teammateReq = await f.request({ owner: teammate, formType: 'leave-request' });
    const managerOwn = await f.request({ owner: { ...manager, manager_id: boss.id, hr_contact_id: null }, formType: 'meeting-room' });

    const plain = await f.person();
    const before = await stateFingerprint(t);
    expect((await admin.post(`/api/admin/people/${manager.employee_code}/deactivate`, { pending_requests: 'keep' })).body.error).toContain(
      'reassign_to is required',
    );
    const byEmployee = await admin.post(`/api/admin/people/${manager.employee_code}/deactivate`, {
      reassign_to: plain.employee_code,
      pending_requests: 'keep',
    });
    expect(byEmployee.status).toBe(400);
    expect(byEmployee.body.error).toContain('cannot be a line manager');
    expect(
      (await admin.post(`/api/admin/people/${manager.employee_code}/deactivate`, { reassign_to: 'x', pending_requests: 'maybe' })).status,
    ).toBe(400);
    expect((await admin.post(`/api/admin/people/${adminPerson.employee_code}/deactivate`, { pending_requests: 'keep' })).status).toBe(409);
    expect(await stateFingerprint(t)).toEqual(before);

    // the deputy (one of the team) takes over: the team moves to them, their own request goes to the boss
    const res = await admin.post(`/api/admin/people/${manager.employee_code}/deactivate`, {
      reassign_to: deputy.employee_code,
      pending_requests: 'keep',
    });
    expect(res.status, res.text).toBe(200);
    const lm = async (id: string) => (await t.db.query('SELECT line_manager_id, status FROM requests WHERE request_id = $1', [id])).rows[0];
    expect(await lm(deputyOwn.request_id)).toMatchObject({ line_manager_id: boss.id, status: 'Pending' });
    expect(await lm(teammateReq.request_id)).toMatchObject({ line_manager_id: deputy.id });
    expect(await lm(managerOwn.request_id)).toMatchObject({ status: 'Pending' });
    expect((await stored(deputy.employee_code)).manager_id).toBe(boss.id);
    expect((await stored(teammate.employee_code)).manager_id).toBe(deputy.id);
    expect(res.body.withdrawn).toEqual([]);
  });
});

describe('deactivating an HR contact', () => {
  it("moves the people they were HR contact for and their waiting HR steps to the successor, with history, into the successor's queue", async () => {
    const hrContact = await f.person({ kind: 'hr' });
    const successor = await f.person({ kind: 'hr' });
    const { employee: first, manager } = await f.team();
    await t.db.query('UPDATE users SET hr_contact_id = $2 WHERE id = $1', [first.id, hrContact.id]);
    const firstNow = { ...first, hr_contact_id: hrContact.id };
    const second = await f.person({ manager, hr_contact: hrContact });
    const atHr = await f.request({ owner: firstNow, formType: 'leave-request', state: { pendingAt: 'hr' } });
    const atManager = await f.request({ owner: second, formType: 'leave-request' });
    const decided = await f.request({ owner: second, formType: 'leave-request', state: 'approved' });
    const hrOf = async (id: string) =>
      (await t.db.query('SELECT hr_contact_id FROM requests WHERE request_id = $1', [id])).rows[0].hr_contact_id;
    expect(await hrOf(atHr.request_id)).toBe(hrContact.id);

    const res = await admin.post(`/api/admin/people/${hrContact.employee_code}/deactivate`, {
      reassign_to: successor.email,
      pending_requests: 'keep',
    });
    expect(res.status, res.text).toBe(200);
    expect([...res.body.hr_contacts_moved].sort()).toEqual([first.employee_code, second.employee_code].sort());
    expect(res.body.reports_moved).toEqual([]);
    expect(res.body.reassigned).toContainEqual({
      request_id: atHr.request_id,
      stage: 'hr',
      from: hrContact.employee_code,
      to: successor.employee_code,
    });

    // the people now have the named successor as HR contact (their manager unchanged)
    for (const p of [first, second]) {
      const row = await stored(p.employee_code);
      expect(row.hr_contact_id).toBe(successor.id);
      expect(row.manager_id).toBe(manager.id);
      expect((await admin.get(`/api/admin/people/${p.employee_code}`)).body).toMatchObject({
        hr_contact: successor.employee_code,
        hr_contact_name: successor.name,
      });
    }
    // the waiting HR step moved, with a history row by the administrator; a decided request stays where it was
    expect(await hrOf(atHr.request_id)).toBe(successor.id);
    expect(await hrOf(decided.request_id)).toBe(hrContact.id);
    expect((await eventsOf(atHr.request_id)).at(-1)).toMatchObject({
      event_type: 'reassigned',
      stage: 'hr',
      old_value: hrContact.name,
      new_value: successor.name,
      actor_id: adminPerson.id,
      details: { from: hrContact.employee_code, to: successor.employee_code },
    });
    const history = await (await f.login(successor)).get(`/api/requests/${atHr.request_id}/history`);
    expect(history.status, history.text).toBe(200);
    expect(JSON.stringify(history.body)).toContain(`HR step reassigned from ${hrContact.name} to ${successor.name}`);
    // the successor's HR queue shows it; a request still at its line manager reaches the successor once approved
    const queue = async () =>
      ((await (await f.login(successor)).get('/api/hr/queue?status=pending', { 'cache-control': 'no-cache' })).body as any[]).map(
        (r) => r.request_id,
      );
    expect(await queue()).toContain(atHr.request_id);
    expect(await hrOf(atManager.request_id)).toBe(successor.id);
    expect(await queue()).not.toContain(atManager.request_id);
    const approve = await (
      await f.login(manager)
    ).post('/api/manager/update-status', {
      form_id: atManager.request_id,
      form_type: 'leave-request',
      status: 'Approved',
    });
    expect(approve.status, approve.text).toBe(200);
    expect(await queue()).toContain(atManager.request_id);
  });
});

describe('nobody sees a password', () => {
  /** Every key of a JSON value, nested ones included. */
  const keysOf = (v: unknown): string[] =>
    v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [...(Array.isArray(v) ? [] : [k]), ...keysOf(x)]) : [];

  it('no person answer holds a password or its hash, and a password in create or edit is refused with 400, nothing changed', async () => {
    const { employee } = await f.team();
    const stored = (await t.db.query('SELECT password_hash FROM users WHERE id = $1', [employee.id])).rows[0].password_hash as string;
    expect(stored).toMatch(/^\$argon2id\$/);
    const s = uniq();
    const created = await admin.post('/api/admin/people', {
      email: `pw.${s}@example.test`,
      first_name: 'Pat',
      last_name: 'Word',
      employee_code: `PW-${s}`,
      role: 'Software Engineer',
      user_type: 'employee',
    });
    expect(created.status, created.text).toBe(201);
    const answers = [
      created,
      await admin.get(`/api/admin/people/${employee.employee_code}`),
      await admin.get(`/api/admin/people?q=${encodeURIComponent(employee.email)}`),
      await admin.patch(`/api/admin/people/${employee.employee_code}`, { annual_leave_total: 14 }),
    ];
    for (const a of answers) {
      expect(a.status, a.text).toBeLessThan(300);
      expect(keysOf(a.body).filter((k) => /pass|hash|secret|token/i.test(k))).toEqual([]);
      expect(a.text).not.toContain(stored);
      expect(a.text).not.toContain('argon2');
    }
    const exported = await admin.get('/api/admin/people/export.csv');
    expect(exported.text.split(/\r?\n/)[0]).not.toMatch(/pass|hash/i);
    expect(exported.text).not.toContain('argon2');

    // a password (or its hash) is not a field an administrator may send
    const before = await stateFingerprint(t);
    for (const field of ['password', 'password_hash']) {
      const create = await admin.post('/api/admin/people', {
        email: `pw2.${s}@example.test`,
        first_name: 'Pat',
        last_name: 'Two',
        employee_code: `PW2-${s}`,
        role: 'Software Engineer',
        user_type: 'employee',
        [field]: 'correct-Horse-7-battery',
      });
      expect(create.status, create.text).toBe(400);
      const edit = await admin.patch(`/api/admin/people/${employee.employee_code}`, { [field]: 'correct-Horse-7-battery' });
      expect(edit.status, edit.text).toBe(400);
      const both = await admin.patch(`/api/admin/people/${employee.employee_code}`, { annual_leave_total: 20, [field]: 'x' });
      expect(both.status, both.text).toBe(400);
    }
    expect(await stateFingerprint(t)).toEqual(before);
    expect((await t.db.query('SELECT password_hash FROM users WHERE id = $1', [employee.id])).rows[0].password_hash).toBe(stored);
  });
});

describe('departments and the role preview', () => {
  it('creates, lists with head count and renames departments, audited; refuses duplicates', async () => {
    const code = `Q${uniq()}`.slice(0, 12).toUpperCase();
    const created = await admin.post('/api/admin/departments', { code: code.toLowerCase(), name: `Quality ${code}` });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ code, name: `Quality ${code}`, head_count: 0, inactive_count: 0 });
    expect((await admin.post('/api/admin/departments', { code, name: 'Other' })).status).toBe(409);
    await f.person({ department: code });
    const listed = (await admin.get('/api/admin/departments')).body.departments.find((d: any) => d.code === code);
    expect(listed.head_count).toBe(1);
    const renamed = await admin.patch(`/api/admin/departments/${code}`, { name: 'Quality Assurance X' });
    expect(renamed.body.name).toBe('Quality Assurance X');
    expect((await t.db.query('SELECT name FROM departments WHERE code = $1', [code])).rows[0].name).toBe('Quality Assurance X');
    expect((await admin.patch('/api/admin/departments/NOPE', { name: 'Z' })).status).toBe(404);
    expect((await admin.post('/api/admin/departments', { code: 'bad code!', name: 'Z' })).status).toBe(400);
    expect((await auditOf(code)).map((a) => a.action)).toEqual(['department.create', 'department.rename']);
  });

  it('previews what a role gets before saving', async () => {
    const preview = async (role: string, type: string) =>
      (await admin.get(`/api/admin/roles/preview?role=${encodeURIComponent(role)}&user_type=${type}`)).body;
    expect(await preview('Team Lead', 'line_manager')).toMatchObject({
      dashboard: 'line_manager',
      assistant: 'manager',
      can_manage: true,
      problem: null,
    });
    expect(await preview('Software Engineer', 'employee')).toMatchObject({
      dashboard: 'employee',
      assistant: 'employee',
      can_manage: false,
    });
    expect(await preview('System Administrator', 'admin')).toMatchObject({
      dashboard: 'admin',
      assistant: 'admin',
      can_manage: false,
      problem: null,
    });
    expect((await preview('System Administrator', 'employee')).problem).toContain("needs the user type 'admin'");
  });
});

describe('the last active administrator', () => {
  const demote = { user_type: 'employee', role: 'Analyst' };
  const importCsv = (client: ApiClient, csv: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/people/import',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'text/csv' },
      payload: csv,
    });

  it('cannot be deactivated or lose the admin user type (409, nothing changed); a deactivated administrator does not count', async () => {
    // every other active administrator stops being one (allowed while one remains); the actor is then the last
    const others = await t.db.query(`SELECT employee_code FROM users WHERE user_type = 'admin' AND active AND id <> $1`, [adminPerson.id]);
    for (const { employee_code } of others.rows) {
      const res = await admin.patch(`/api/admin/people/${employee_code}`, demote);
      expect(res.status, res.text).toBe(200);
    }
    const retired = await f.person({ kind: 'admin' });
    expect((await admin.post(`/api/admin/people/${retired.employee_code}/deactivate`, { pending_requests: 'keep' })).status).toBe(200);

    const before = await stateFingerprint(t);
    const patch = await admin.patch(`/api/admin/people/${adminPerson.employee_code}`, demote);
    expect(patch.status).toBe(409);
    expect(patch.body.error).toBe(
      `${adminPerson.first_name} ${adminPerson.last_name} (${adminPerson.employee_code}) is the last active administrator and cannot be deactivated or stop being an administrator; make another person an administrator first`,
    );
    const deactivate = await admin.post(`/api/admin/people/${adminPerson.employee_code}/deactivate`, { pending_requests: 'keep' });
    expect(deactivate.status).toBe(409);
    expect(deactivate.body.error).toContain('is the last active administrator');
    const imported = await importCsv(admin, `employee_code,user_type,role\n${adminPerson.employee_code},employee,Analyst\n`);
    expect(imported.statusCode).toBe(400);
    expect(imported.json().rows[0].errors.join(' ')).toContain('is the last active administrator');
    expect(await stateFingerprint(t)).toEqual(before);
    expect((await stored(adminPerson.employee_code)).user_type).toBe('admin');
  });

  it('may stop being an administrator once another active one exists', async () => {
    const successor = await f.person({ kind: 'admin' });
    const res = await admin.patch(`/api/admin/people/${adminPerson.employee_code}`, demote);
    expect(res.status, res.text).toBe(200);
    const next = await f.login(successor);
    const back = await next.patch(`/api/admin/people/${adminPerson.employee_code}`, { user_type: 'admin', role: 'System Administrator' });
    expect(back.status, back.text).toBe(200);
    expect((await next.patch(`/api/admin/people/${successor.employee_code}`, demote)).status).toBe(200);
  });
});

describe('the people list', () => {
  it('searches name, e-mail and code (any part, any case) and filters by department, role and active, paged', async () => {
    const s = uniq();
    const dept = `L${s}`.slice(0, 10).toUpperCase();
    const a = await f.person({ first_name: 'Zelda', last_name: `Quist${s}`, department: dept, role: 'Data Analyst' });
    const b = await f.person({ first_name: 'Yann', last_name: `Quist${s}`, department: dept, role: 'Employee' });
    const c = await f.person({ first_name: 'Xavi', last_name: `Other${s}`, department: dept, role: 'Data Analyst' });
    const codes = async (query: string) =>
      ((await admin.get(`/api/admin/people?${query}`)).body.people as Array<{ employee_code: string }>).map((p) => p.employee_code).sort();

    expect(await codes(`q=${encodeURIComponent(`zelda quist${s}`.toUpperCase())}`)).toEqual([a.employee_code]);
    expect(await codes(`q=quist${s}`)).toEqual([a.employee_code, b.employee_code].sort());
    expect(await codes(`q=${encodeURIComponent(c.email.slice(0, 12).toUpperCase())}`)).toContain(c.employee_code);
    expect(await codes(`q=${b.employee_code.toLowerCase()}`)).toEqual([b.employee_code]);
    expect(await codes(`department=${dept.toLowerCase()}`)).toEqual([a.employee_code, b.employee_code, c.employee_code].sort());
    expect(await codes(`department=${dept}&role=data%20analyst`)).toEqual([a.employee_code, c.employee_code].sort());
    // a % or _ in the search is text, not a pattern
    expect(await codes(`q=${encodeURIComponent('%')}&department=${dept}`)).toEqual([]);

    const off = await admin.post(`/api/admin/people/${b.employee_code}/deactivate`, { pending_requests: 'keep' });
    expect(off.status, off.text).toBe(200);
    expect(await codes(`department=${dept}&active=false`)).toEqual([b.employee_code]);
    expect(await codes(`department=${dept}&active=true`)).toEqual([a.employee_code, c.employee_code].sort());

    const page1 = await admin.get(`/api/admin/people?department=${dept}&page_size=2&page=1`);
    const page2 = await admin.get(`/api/admin/people?department=${dept}&page_size=2&page=2`);
    expect(page1.body).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(page1.body.people).toHaveLength(2);
    expect(page2.body.people).toHaveLength(1);
    expect((await admin.get('/api/admin/people?active=maybe')).status).toBe(400);
  });
});
