// The test factories themselves: people who sign in with the dashboard of their kind, and requests that reach each
// state through the real services, with the approvals and history events the application writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES } from '../../domain/forms.js';
import { type Factories, factories, stateFingerprint } from './factories.js';
import { type TestApp, startTestApp } from './harness.js';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => {
  await t?.close();
});

const decisionsOf = async (pk: unknown) =>
  (await t.db.query(`SELECT stage, decision FROM approvals WHERE request_pk = $1 ORDER BY seq`, [pk])).rows.map(
    (r) => `${r.stage}:${r.decision}`,
  );
const eventsOf = async (pk: unknown) =>
  (await t.db.query(`SELECT event_type, new_value FROM request_events WHERE request_pk = $1 ORDER BY id`, [pk])).rows.map(
    (r) => `${r.event_type}:${r.new_value}`,
  );

describe('people', () => {
  it("makes a person of each kind who signs in to that kind's dashboard, with the manager and HR contact given", async () => {
    const expected = {
      employee: 'employee',
      line_manager: 'line_manager',
      hr: 'hr',
      finance: 'finance',
      it: 'it',
      facilities_desk: 'facilities_desk',
      facilities_manager: 'facilities_manager',
    } as const;
    for (const [kind, dashboard] of Object.entries(expected)) {
      const p = await f.person({ kind: kind as keyof typeof expected });
      const c = await f.login(p);
      expect(c.user.id).toBe(p.id);
      const me = await c.get('/api/auth/me');
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body), kind).toContain(p.email);
      expect((await import('../../domain/roles.js')).dashboardForRole(p.role, p.user_type)).toBe(dashboard);
    }
    const { employee, manager, hr } = await f.team({ department: 'QAX', first_name: 'Quinn' });
    expect(employee).toMatchObject({ manager_id: manager.id, hr_contact_id: hr.id, department: 'QAX', first_name: 'Quinn' });
    const dept = await t.db.query('SELECT name FROM departments WHERE code = $1', [employee.department]);
    expect(dept.rowCount).toBe(1);
  });
});

describe('requests', () => {
  it('submits every form type pending at its first stage', async () => {
    const { employee } = await f.team();
    for (const def of FORM_TYPES) {
      const rec = await f.request({ owner: employee, formType: def.formType });
      expect(rec.employee_user_id).toBe(employee.id);
      expect(rec.current_stage, def.formType).toBe(def.chain[0]);
      expect(await decisionsOf(rec.id)).toEqual(def.chain.map((s) => `${s}:Pending`));
    }
  });

  it('approves a request through its whole chain, or up to a stage, or rejects it at a stage, with the events', async () => {
    const { employee } = await f.team();
    const approved = await f.request({ owner: employee, formType: 'purchase-requisition', state: 'approved' });
    expect(approved.status).toBe('Approved');
    expect(await decisionsOf(approved.id)).toEqual(['line_manager:Approved', 'finance:Approved']);
    expect(await eventsOf(approved.id)).toEqual(['submitted:Pending', 'decision:Approved', 'decision:Approved', 'status_change:Approved']);

    const atHr = await f.request({ owner: employee, formType: 'leave-request', state: { pendingAt: 'hr' } });
    expect(atHr).toMatchObject({ status: 'Pending', current_stage: 'hr' });
    expect(await decisionsOf(atHr.id)).toEqual(['line_manager:Approved', 'hr:Pending']);

    const rejected = await f.request({
      owner: employee,
      formType: 'facility-access',
      state: { rejectedAt: 'facilities_manager', reason: 'Closed for works' },
    });
    expect(rejected.status).toBe('Rejected');
    expect(await decisionsOf(rejected.id)).toEqual(['facilities_desk:Approved', 'facilities_manager:Rejected']);
    const reason = await t.db.query(`SELECT rejection_reason FROM approvals WHERE request_pk = $1 AND stage = 'facilities_manager'`, [
      rejected.id,
    ]);
    expect(reason.rows[0].rejection_reason).toBe('Closed for works');
  });

  it('takes IT incidents and password resets through their IT states', async () => {
    const { employee } = await f.team();
    const taken = await f.request({ owner: employee, formType: 'it-incident', state: 'it-taken' });
    expect(taken.status).toBe('Open');
    expect(taken.it_helpdesk_ticket_number).toMatch(/^TICKET-/);
    const resolved = await f.request({ owner: employee, formType: 'it-incident', state: 'it-resolved' });
    expect(resolved).toMatchObject({ status: 'Resolved', employee_confirmation_status: 'Pending' });
    const reopened = await f.request({ owner: employee, formType: 'it-incident', state: 'it-reopened' });
    expect(reopened).toMatchObject({ status: 'Open', employee_confirmation_status: 'Rejected' });
    const closed = await f.request({ owner: employee, formType: 'it-incident', state: 'it-closed' });
    expect(closed).toMatchObject({ status: 'Closed', employee_confirmation_status: 'Confirmed' });

    const waiting = await f.request({ owner: employee, formType: 'password-reset' });
    expect(waiting.it_support_status).toBe('Pending Manager');
    const acked = await f.request({ owner: employee, formType: 'password-reset', state: 'reset-pending-it' });
    expect(acked.it_support_status).toBe('Pending IT Action');
    const set = await f.request({ owner: employee, formType: 'password-reset', state: 'reset-password-set' });
    expect(set.it_support_status).toBe('Password Set');
    await expect(f.request({ owner: employee, formType: 'leave-request', state: 'it-closed' })).rejects.toThrow(/it-incident/);
  });

  it('fingerprints the state: equal with no write, different after one', async () => {
    const before = await stateFingerprint(t);
    expect(await stateFingerprint(t)).toEqual(before);
    const { employee } = await f.team();
    await f.request({ owner: employee, formType: 'expense-reimbursement' });
    const after = await stateFingerprint(t);
    expect(after.requests).not.toBe(before.requests);
    expect(after.request_events).not.toBe(before.request_events);
  });
});
