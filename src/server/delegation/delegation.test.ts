// Delegation while away (issue 20): the self-service and admin out-of-office API and its validation; a delegate decides
// during the period and not after it, on behalf of the approver (history, notification, record); delegation never
// yields self-approval (chains that pass through the requester, a second step of one request); the requester sees
// who is covering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDate } from '../../domain/business-time.js';
import { type Factories, type Person, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => {
  await t?.close();
});

const today = () => businessDate(t.clock.now());
const del = async (client: ApiClient, url: string) => {
  const r = await t.app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${client.token}` } });
  return { status: r.statusCode, body: r.json() };
};

/** An employee with a line manager and an HR contact of their own, and a spare person to delegate to. */
async function setup() {
  const { employee, manager, hr } = await f.team();
  const delegate = await f.person({ kind: 'employee', first_name: 'Daniel' });
  return { employee, manager, hr, delegate };
}

async function away(who: Person, delegate: Person, from = today(), until = addDays(today(), 2)) {
  const res = await (await f.login(who)).put('/api/me/out-of-office', { delegate: delegate.email, from, until, message: 'On leave' });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('out of office: self-service API', () => {
  it('sets, shows and clears a period; the delegate sees whom they cover', async () => {
    const { manager, delegate } = await setup();
    const me = await f.login(manager);
    expect((await me.get('/api/me/out-of-office')).body).toMatchObject({ delegate: null, active: false });
    const set = await me.put('/api/me/out-of-office', { delegate: delegate.employee_code, from: today(), until: addDays(today(), 3) });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ delegate: delegate.employee_code, delegate_name: delegate.name, from: today(), active: true });
    const covering = (await (await f.login(delegate)).get('/api/me/out-of-office')).body.covering;
    expect(covering).toEqual([{ employee_code: manager.employee_code, name: manager.name, until: addDays(today(), 3) }]);
    const cleared = await del(me, '/api/me/out-of-office');
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ delegate: null, active: false });
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const { manager, delegate } = await setup();
    const me = await f.login(manager);
    const inactive = await f.person({ kind: 'employee' });
    await t.db.query('UPDATE users SET active = false WHERE id = $1', [inactive.id]);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ delegate: manager.email, from: today(), until: today() }, /your own delegate/],
      [{ delegate: 'nobody@example.com', from: today(), until: today() }, /No person/],
      [{ delegate: inactive.email, from: today(), until: today() }, /active person/],
      [{ delegate: delegate.email, from: today(), until: addDays(today(), -1) }, /on or after from/],
      [{ delegate: delegate.email, from: addDays(today(), -5), until: addDays(today(), -1) }, /already ended/],
      [{ delegate: delegate.email, from: '03/12/2026', until: today() }, /YYYY-MM-DD/],
      [{ delegate: delegate.email, from: '2026-02-30', until: today() }, /YYYY-MM-DD/],
      [{ delegate: delegate.email, from: today() }, /until/],
      [{ delegate: delegate.email, from: today(), until: today(), extra: 1 }, /extra|Unrecognized/i],
      [{ delegate: delegate.email, from: today(), until: today(), message: 'x'.repeat(501) }, /500/],
    ];
    for (const [body, message] of cases) {
      const res = await me.put('/api/me/out-of-office', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await me.get('/api/me/out-of-office')).body.delegate).toBeNull();
  });

  it("the administrator sets and clears someone's period (audited); others may not", async () => {
    const { manager, delegate, employee } = await setup();
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const url = `/api/admin/people/${manager.employee_code}/out-of-office`;
    const body = { delegate: delegate.email, from: today(), until: addDays(today(), 1), message: 'Sick leave' };
    expect((await (await f.login(employee)).put(url, body)).status).toBe(403);
    const res = await admin.put(url, body);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ delegate: delegate.employee_code, message: 'Sick leave', active: true });
    expect((await admin.get(url)).body.delegate).toBe(delegate.employee_code);
    expect((await admin.put('/api/admin/people/NO-SUCH/out-of-office', body)).status).toBe(404);
    const audit = await admin.get(`/api/admin/audit?target=${manager.employee_code}`);
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toContain('person.out_of_office.set');
    expect((await del(admin, url)).body.delegate).toBeNull();
    const after = await admin.get(`/api/admin/audit?target=${manager.employee_code}`);
    expect(after.body.entries.map((e: { action: string }) => e.action)).toContain('person.out_of_office.clear');
  });
  it('a period the person sets or clears themselves is audited too (who, before, after)', async () => {
    const { manager, delegate } = await setup();
    const other = await f.person({ kind: 'employee', first_name: 'Olga' });
    const me = await f.login(manager);
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const entries = async () =>
      (await admin.get(`/api/admin/audit?target=person:${manager.employee_code}&action=person.out_of_office.`)).body.entries as Array<{
        action: string;
        actor: { employee_code: string };
        before: Record<string, unknown>;
        after: Record<string, unknown> | null;
      }>;
    expect(await entries()).toEqual([]);
    const first = { delegate: delegate.employee_code, from: today(), until: addDays(today(), 3), message: 'Away' };
    expect((await me.put('/api/me/out-of-office', first)).status).toBe(200);
    expect((await me.put('/api/me/out-of-office', { ...first, delegate: other.employee_code })).status).toBe(200);
    expect((await del(me, '/api/me/out-of-office')).status).toBe(200);
    const rows = (await entries()).reverse();
    expect(rows.map((e) => e.action)).toEqual(['person.out_of_office.set', 'person.out_of_office.set', 'person.out_of_office.clear']);
    expect(rows.every((e) => e.actor.employee_code === manager.employee_code)).toBe(true);
    expect(rows[0].before).toMatchObject({ delegate: null });
    expect(rows[0].after).toMatchObject({ delegate: delegate.employee_code, from: first.from, until: first.until, message: 'Away' });
    expect(rows[1].before).toMatchObject({ delegate: delegate.employee_code });
    expect(rows[1].after).toMatchObject({ delegate: other.employee_code });
    expect(rows[2].before).toMatchObject({ delegate: other.employee_code });
    expect(rows[2].after).toBeNull();
  });
});

describe('a delegate decides for an approver who is away', () => {
  it('during the period, on behalf of the approver; not after it; the requester sees who is covering', async () => {
    const { employee, manager, delegate } = await setup();
    const first = await f.request({ owner: employee, formType: 'leave-request' });
    const second = await f.request({ owner: employee, formType: 'leave-request' });
    await away(manager, delegate);
    const d = await f.login(delegate);
    const owner = await f.login(employee);

    // The requester sees who is covering.
    const details = await owner.get(`/api/forms/details/${first.request_id}`);
    expect(details.body.covering).toMatchObject({ approver_name: manager.name, delegate_name: delegate.name });
    expect(details.body.covering.text).toMatch(new RegExp(`^${manager.first_name} is away until \\d+ \\w{3}; Daniel is deciding`));

    // The delegate's list of items decided for others, marked on behalf of the manager.
    const covering = await d.get('/api/me/covering');
    expect(covering.body.items.map((i: { form_id: string }) => i.form_id)).toEqual(
      expect.arrayContaining([first.request_id, second.request_id]),
    );
    expect(covering.body.items[0]).toMatchObject({ kind: 'delegate', on_behalf_of: manager.name, stage: 'line_manager' });
    // The delegate opens the item from a dashboard.
    expect((await d.get(`/api/manager/form-details?form_id=${first.request_id}`)).status).toBe(200);

    // After the period: refused like a request they may not see; during it: decided on behalf of the manager.
    t.clock.offsetMs += 4 * 86_400_000;
    const later = await t.login(delegate.email); // a session of that day (sessions end after a day idle)
    const late = await later.post('/api/manager/update-status', { form_id: first.request_id, status: 'Approved' });
    expect(late.status).toBe(404);
    t.clock.offsetMs -= 4 * 86_400_000;
    const res = await d.post('/api/manager/update-status', { form_id: second.request_id, status: 'Approved' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.form).toMatchObject({
      line_manager_approval: 'Approved',
      line_manager_signature: delegate.name,
      line_manager_on_behalf_of: manager.name,
      line_manager_decided_as: 'delegate',
    });
    const history = await owner.get(`/api/requests/${second.request_id}/history`);
    const decision = history.body.events.find((e: { event_type: string }) => e.event_type === 'decision');
    expect(decision.summary).toBe(`Approved by ${delegate.name} on behalf of ${manager.name} (Line Manager)`);
    const notes = await t.db.query('SELECT title FROM notifications WHERE user_id = $1 AND form_id = $2', [employee.id, second.request_id]);
    expect(notes.rows.map((r) => r.title).join('\n')).toContain(`on behalf of ${manager.name}`);
    // The original approver can still decide while away.
    const m = await f.login(manager);
    expect((await m.post('/api/manager/update-status', { form_id: first.request_id, status: 'Approved' })).status).toBe(200);
  });

  it('covers only what waits: a step the approver already decided stays closed to the delegate', async () => {
    const { employee, manager, delegate } = await setup();
    const waiting = await f.request({ owner: employee, formType: 'leave-request' });
    const passedOn = await f.request({ owner: employee, formType: 'leave-request', state: { pendingAt: 'hr' } });
    const done = await f.request({ owner: employee, formType: 'leave-request', state: 'approved' });
    await away(manager, delegate);
    const d = await f.login(delegate);
    expect((await d.get(`/api/manager/form-details?form_id=${waiting.request_id}`)).status).toBe(200);
    for (const rec of [passedOn, done]) {
      expect((await d.get(`/api/manager/form-details?form_id=${rec.request_id}`)).status).toBe(404);
      expect((await d.get(`/api/forms/details/${rec.request_id}`)).status).toBe(404);
      expect((await d.get(`/api/requests/${rec.request_id}/history`)).status).toBe(404);
    }
  });

  it('never yields self-approval: not the requester, not through the requester, not a second step', async () => {
    const { employee, manager, hr } = await setup();
    const colleague = await f.person({ kind: 'employee', manager, hr_contact: hr });
    const outsider = await f.person({ kind: 'employee' });
    // The manager is away and names the employee; the employee is away too and names an outsider.
    await away(manager, employee);
    await away(employee, outsider);
    const own = await f.request({ owner: employee, formType: 'leave-request' });
    const theirs = await f.request({ owner: colleague, formType: 'leave-request' });
    const e = await f.login(employee);
    const o = await f.login(outsider);
    expect((await e.post('/api/manager/update-status', { form_id: own.request_id, status: 'Approved' })).status).toBe(403);
    // The chain manager -> employee -> outsider never passes the employee's own request on.
    expect((await o.post('/api/manager/update-status', { form_id: own.request_id, status: 'Approved' })).status).toBe(404);
    expect((await o.get('/api/me/covering')).body.items.map((i: { form_id: string }) => i.form_id)).not.toContain(own.request_id);
    // ... but it does pass on the colleague's (followed to the limit, three hops).
    const ok = await o.post('/api/manager/update-status', { form_id: theirs.request_id, status: 'Approved' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.form.line_manager_on_behalf_of).toBe(manager.name);

    // The HR contact is away and names the same outsider, who already decided the line-manager step: refused.
    await away(hr, outsider);
    const second = await o.post('/api/hr/update-status', { form_id: theirs.request_id, status: 'Approved' });
    expect(second.status).toBe(403);
    expect(second.body.error).toMatch(/already decided/);
    // The HR contact decides it themselves.
    expect((await (await f.login(hr)).post('/api/hr/update-status', { form_id: theirs.request_id, status: 'Approved' })).status).toBe(200);
  });

  it('a deactivated person in the middle of a chain breaks it: the last delegate covers nobody through them', async () => {
    const { employee, manager } = await setup();
    const middle = await f.person({ kind: 'employee', first_name: 'Mia' });
    const last = await f.person({ kind: 'employee', first_name: 'Leo' });
    // The manager is away and names Mia; Mia is away too and names Leo: Leo covers both.
    await away(manager, middle);
    await away(middle, last);
    const rec = await f.request({ owner: employee, formType: 'leave-request' });
    const covering = async () =>
      (await (await f.login(last)).get('/api/me/out-of-office')).body.covering.map((c: { name: string }) => c.name);
    expect((await covering()).sort()).toEqual([manager.name, middle.name].sort());
    // Mia leaves the company (deactivated): the chain through her no longer reaches the manager.
    await t.db.query('UPDATE users SET active = false WHERE id = $1', [middle.id]);
    expect(await covering()).toEqual([]);
    const l = await f.login(last);
    // The change was made in SQL, beside the app: its sessions hear of it through PostgreSQL's signal (a few ms).
    await expect
      .poll(async () => (await l.get('/api/me/covering')).body.items.map((i: { form_id: string }) => i.form_id), { timeout: 3000 })
      .not.toContain(rec.request_id);
    const before = await stateFingerprint(t);
    expect((await l.post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved' })).status).toBe(404);
    expect(await stateFingerprint(t)).toEqual(before);
  });

  it('the approver back from leave does not decide a second step a delegate decided for them', async () => {
    const { employee, manager } = await setup();
    const delegate = await f.person({ kind: 'employee' });
    // The manager is also the HR contact: the HR step passes to other HR staff when the manager signed a step.
    const hrManager = await f.person({ kind: 'hr' });
    const owner = await f.person({ kind: 'employee', manager: hrManager, hr_contact: hrManager });
    await away(hrManager, delegate);
    const rec = await f.request({ owner, formType: 'leave-request' });
    const d = await f.login(delegate);
    expect((await d.post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved' })).status).toBe(200);
    const back = await (await f.login(hrManager)).post('/api/hr/update-status', { form_id: rec.request_id, status: 'Approved' });
    expect(back.status).toBe(403);
    void employee;
    void manager;
  });
});

describe('delegation on a chain defined as data', () => {
  it("a named person's delegate decides a person: stage on their behalf, and appears in the delegate's covering list", async () => {
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const named = await f.person({ kind: 'finance', first_name: 'Nadia' });
    const delegate = await f.person({ kind: 'employee', first_name: 'Daniel' });
    const { employee, manager } = await setup();
    const formType = `ooo-sign-off-${String.fromCharCode(97 + (process.pid % 26))}`;
    const created = await admin.post('/api/admin/form-types', {
      form_type: formType,
      title: 'Sign-off',
      category: 'Finance',
      description: 'A sign-off by one named person.',
      enabled: true,
      fields: [{ name: 'topic', label: 'Topic', type: 'text', required: true }],
      chain: [{ approver: `person:${named.employee_code}` }],
    });
    expect(created.status, created.text).toBe(201);
    const submitted = await (await f.login(employee)).post(`/api/forms/${formType}`, { topic: 'Budget' });
    expect(submitted.status, submitted.text).toBeLessThan(300);
    const id = String((submitted.body.form ?? submitted.body.record ?? submitted.body).request_id);
    await away(named, delegate);
    const d = await f.login(delegate);
    const cov = await d.get('/api/me/covering');
    expect(cov.status, cov.text).toBe(200);
    const items = cov.body.items;
    expect(items.find((i: { form_id: string }) => i.form_id === id)).toMatchObject({ kind: 'delegate', on_behalf_of: named.name });
    // The line manager is no approver of this chain, delegation or not.
    const refused = await (await f.login(manager)).post('/api/approvals/bulk', { items: [{ form_id: id, decision: 'Approved' }] });
    expect(refused.body.results[0].ok).toBe(false);
    const res = await d.post('/api/approvals/bulk', { items: [{ form_id: id, decision: 'Approved' }] });
    expect(res.body.results[0], JSON.stringify(res.body)).toMatchObject({ ok: true });
    const history = (await (await f.login(employee)).get(`/api/requests/${id}/history`)).body.events;
    expect(history.map((e: { summary: string }) => e.summary).join('\n')).toContain(`by ${delegate.name} on behalf of ${named.name}`);
  });
});
