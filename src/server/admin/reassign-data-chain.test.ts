// Stages of chains defined as data (issue 20) keep the people resolved at submission (approvals.approver_ids).
// Issue 18's rules must hold for them too: a changed line manager takes the waiting line-manager stage, and
// deactivating a person reassigns every stage waiting on them (a named person, a group they were the last active
// member of) to the successor, each with a history row; the old approver can no longer decide it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, type Person, factories } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
let admin: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.login(await f.person({ kind: 'admin' }));
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const slug = (base: string) =>
  `${base}-${Date.now()
    .toString(36)
    .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)])}${'abcdefghij'[(n += 1) % 10]}`;

async function makeType(chain: Array<{ approver: string }>): Promise<string> {
  const type = slug('dc');
  const res = await admin.post('/api/admin/form-types', {
    form_type: type,
    title: `Data chain ${type}`,
    category: 'Other',
    enabled: true,
    fields: [{ name: 'what', label: 'What', type: 'text', required: true }],
    chain,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return type;
}

async function submit(who: Person, type: string): Promise<string> {
  const res = await (await f.login(who)).post(`/api/forms/${type}`, { what: 'something' });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return (res.body.form ?? res.body.record ?? res.body).request_id;
}

const decide = async (who: Person, id: string) => (await f.login(who)).post('/api/approvals/decide', { form_id: id, decision: 'Approved' });

async function lastEvent(id: string) {
  return (
    await t.db.query(
      `SELECT e.event_type, e.stage, e.old_value, e.new_value, e.details FROM request_events e JOIN requests r ON r.id = e.request_pk
        WHERE r.request_id = $1 ORDER BY e.id DESC LIMIT 1`,
      [id],
    )
  ).rows[0];
}

describe('data-defined chains follow the organisation', () => {
  it("a changed manager takes the waiting line-manager stage of a data chain; the old one can't decide it", async () => {
    const type = await makeType([{ approver: 'line_manager' }]);
    const { employee, manager } = await f.team();
    const id = await submit(employee, type);
    const newManager = await f.person({ kind: 'line_manager' });
    const res = await admin.patch(`/api/admin/people/${employee.employee_code}`, { manager: newManager.employee_code });
    expect(res.status, res.text).toBe(200);
    expect(await lastEvent(id)).toMatchObject({ event_type: 'reassigned', old_value: manager.name, new_value: newManager.name });
    expect((await decide(manager, id)).status).toBeGreaterThanOrEqual(400);
    const ok = await decide(newManager, id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('deactivating a named approver moves their waiting stages to the successor, with history', async () => {
    const reviewer = await f.person({ kind: 'finance' });
    const type = await makeType([{ approver: `person:${reviewer.employee_code}` }]);
    const { employee } = await f.team();
    const id = await submit(employee, type);
    const successor = await f.person({ kind: 'finance' });

    // reassign_to is needed: a step waits on the reviewer
    const without = await admin.post(`/api/admin/people/${reviewer.employee_code}/deactivate`, { pending_requests: 'keep' });
    expect(without.status, without.text).toBe(400);
    expect(without.body.error).toContain('reassign_to is required');

    const res = await admin.post(`/api/admin/people/${reviewer.employee_code}/deactivate`, {
      reassign_to: successor.employee_code,
      pending_requests: 'keep',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.reassigned).toEqual(
      expect.arrayContaining([expect.objectContaining({ request_id: id, from: reviewer.employee_code, to: successor.employee_code })]),
    );
    expect(await lastEvent(id)).toMatchObject({ event_type: 'reassigned', old_value: reviewer.name, new_value: successor.name });
    const ok = await decide(successor, id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("a group's waiting stage: the deactivated member leaves it while others remain; the last one's goes to the successor", async () => {
    const a = await f.person({ kind: 'finance' });
    const b = await f.person({ kind: 'finance' });
    const group = `dcg_${Date.now().toString(36)}`;
    expect(
      (await admin.post('/api/admin/groups', { name: group, title: 'Reviewers', members: [a.employee_code, b.employee_code] })).status,
    ).toBe(201);
    const type = await makeType([{ approver: `group:${group}` }]);
    const { employee } = await f.team();
    const id = await submit(employee, type);
    const ids = async () =>
      (
        await t.db.query(
          `SELECT a.approver_ids FROM approvals a JOIN requests r ON r.id = a.request_pk WHERE r.request_id = $1 AND a.decision = 'Pending'`,
          [id],
        )
      ).rows[0].approver_ids;

    const successor = await f.person({ kind: 'finance' });
    const first = await admin.post(`/api/admin/people/${a.employee_code}/deactivate`, {
      reassign_to: successor.employee_code,
      pending_requests: 'keep',
    });
    expect(first.status, first.text).toBe(200);
    expect(await ids()).toEqual([b.id]);
    const second = await admin.post(`/api/admin/people/${b.employee_code}/deactivate`, {
      reassign_to: successor.employee_code,
      pending_requests: 'keep',
    });
    expect(second.status, second.text).toBe(200);
    expect(await ids()).toEqual([successor.id]);
    expect(await lastEvent(id)).toMatchObject({ event_type: 'reassigned', new_value: successor.name });
    expect((await decide(successor, id)).status).toBe(200);
  });

  it("never hands a stage to the request's own employee", async () => {
    const reviewer = await f.person({ kind: 'finance' });
    const type = await makeType([{ approver: `person:${reviewer.employee_code}` }]);
    const { employee } = await f.team({ kind: 'finance' });
    const id = await submit(employee, type);
    const res = await admin.post(`/api/admin/people/${reviewer.employee_code}/deactivate`, {
      reassign_to: employee.employee_code,
      pending_requests: 'keep',
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.error).toContain(id);
    expect((await t.db.query('SELECT active FROM users WHERE id = $1', [reviewer.id])).rows[0].active).toBe(true);
  });
});

describe('escalations follow deactivation', () => {
  it('an overdue stage escalated to the deactivated person is escalated to the successor, with history; else cleared for the sweep', async () => {
    const { employee, manager } = await f.team();
    const rec = await f.request({ owner: employee, formType: 'leave-request' });
    const other = await f.request({ owner: employee, formType: 'nda-request' });
    const boss = await f.person({ kind: 'line_manager' });
    const successor = await f.person({ kind: 'line_manager' });
    const escalate = (id: string) =>
      t.db.query(
        `UPDATE approvals a SET escalated_to_id = $2, escalated_at = now() FROM requests r
          WHERE r.id = a.request_pk AND r.request_id = $1 AND a.stage = 'line_manager'`,
        [id, boss.id],
      );
    await escalate(rec.request_id);
    await escalate(other.request_id);
    const escalatedTo = async (id: string) =>
      (
        await t.db.query(
          `SELECT a.escalated_to_id FROM approvals a JOIN requests r ON r.id = a.request_pk WHERE r.request_id = $1 AND a.stage = 'line_manager'`,
          [id],
        )
      ).rows[0].escalated_to_id;

    const res = await admin.post(`/api/admin/people/${boss.employee_code}/deactivate`, {
      reassign_to: successor.employee_code,
      pending_requests: 'keep',
    });
    expect(res.status, res.text).toBe(200);
    expect(await escalatedTo(rec.request_id)).toBe(successor.id);
    expect(await escalatedTo(other.request_id)).toBe(successor.id);
    expect(await lastEvent(rec.request_id)).toMatchObject({ event_type: 'reassigned', old_value: boss.name, new_value: successor.name });

    // the successor's own request: the escalation is cleared (the sweep escalates it again), never handed to them
    await t.db.query('UPDATE users SET manager_id = $2 WHERE id = $1', [successor.id, manager.id]);
    const own = await f.request({ owner: { ...successor, manager_id: manager.id }, formType: 'nda-request' });
    const third = await f.person({ kind: 'line_manager' });
    await t.db.query(
      `UPDATE approvals a SET escalated_to_id = $2, escalated_at = now() FROM requests r
        WHERE r.id = a.request_pk AND r.request_id = $1 AND a.stage = 'line_manager'`,
      [own.request_id, third.id],
    );
    const r2 = await admin.post(`/api/admin/people/${third.employee_code}/deactivate`, {
      reassign_to: successor.employee_code,
      pending_requests: 'keep',
    });
    expect(r2.status, r2.text).toBe(200);
    expect(await escalatedTo(own.request_id)).toBeNull();
    expect(await lastEvent(own.request_id)).toMatchObject({ event_type: 'reassigned', old_value: third.name, new_value: null });
  });
});
