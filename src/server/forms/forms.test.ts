// The employee's forms API on a seeded database: submissions (generic and the catalogue forms), validation,
// identity from the session, edit and withdrawal rules, the lists, details and the leave balance.
import { businessYear } from '../../domain/business-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUser } from '../people/service.js';
import { type Factories, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { workingDays } from './leave.js';
import { withdrawRequest } from './service.js';

let t: TestApp;
let f: Factories;
let alex: ApiClient; // EMP-1001, manager Priya, HR contact Meera
let maria: ApiClient; // EMP-1002, same manager
let priya: ApiClient;
let daniel: ApiClient; // a manager of another team

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  [alex, maria, priya, daniel] = await Promise.all(
    ['alex.johnson', 'maria.garcia', 'priya.sharma', 'daniel.okafor'].map((n) => t.login(`${n}@adminease.test`)),
  );
});
afterAll(async () => {
  await t?.close();
});

/**
 * People of the test's own (not the demo organisation's): the owner with their line manager and HR contact, and an
 * employee and a line manager of another team, signed in.
 */
async function twoTeams() {
  const [mine, theirs] = [await f.team(), await f.team()];
  const [manager, hr, stranger, otherManager] = await Promise.all(
    [mine.manager, mine.hr, theirs.employee, theirs.manager].map((p) => f.login(p)),
  );
  return { owner: mine.employee, manager, hr, stranger, otherManager };
}

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
/** The Monday on or after today + offset days (UTC). */
function mondayAfter(offsetDays: number): string {
  const d = new Date(Date.now() + offsetDays * DAY);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return iso(d);
}
const plus = (isoDate: string, days: number) => iso(new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY));
/** A Monday on or after today + offset whose week has no public holiday (holidays are the calendar's business). */
function quietMondayAfter(offsetDays: number): string {
  let mon = mondayAfter(offsetDays);
  while (workingDays(mon, plus(mon, 6)) !== 5) mon = plus(mon, 7);
  return mon;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await t.db.query(sql, params)).rows[0].n);
}
const requestCount = () => count('SELECT count(*) AS n FROM requests');
async function decide(requestId: string, stage: string, decision: 'Approved' | 'Rejected', status?: string) {
  await t.db.query(
    `UPDATE approvals SET decision = $3, decided_at = now(), signer_name = 'Test Signer' WHERE request_pk = (SELECT id FROM requests WHERE request_id = $1) AND stage = $2`,
    [requestId, stage, decision],
  );
  if (status) await t.db.query('UPDATE requests SET status = $2 WHERE request_id = $1', [requestId, status]);
}

const facility = { access_request_type: 'Temporary Access', facilities_requested: 'Server room', justification: 'Rack migration' };
const requisition = {
  item_description: 'USB-C dock',
  quantity: 3,
  unit_cost: 119.99,
  estimated_total: 359.97,
  purpose_of_purchase: 'Hot desks',
};

describe('POST /api/forms/facility-access (catalogue form)', () => {
  it('stores a request for the caller from the spec payload, identity from the session', async () => {
    const before = await requestCount();
    const res = await alex.post('/api/forms/facility-access', {
      ...facility,
      employee_id: 'EMP-1001',
      employee_name: 'Someone Else',
      department: 'Finance',
      manager: 'N/A',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ...facility,
      success: true,
      message: 'Form submitted successfully!',
      form_type: 'facility-access',
      employee_id: 'EMP-1001',
      employee_name: 'Alex Johnson',
      department: 'Engineering',
      status: 'Pending',
      facilities_desk_approval: 'Pending',
      facilities_manager_approval: 'Pending',
      next_stage: 'Facilities Desk',
      employee_signature: 'Alex Johnson',
    });
    expect(res.body.employee_signature_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.request_id).toMatch(/^FA-\d{6}$/);
    expect(await requestCount()).toBe(before + 1);
    const ev = await t.db.query(`SELECT event_type, actor_id FROM request_events WHERE request_pk = $1`, [res.body.id]);
    expect(ev.rows).toEqual([{ event_type: 'submitted', actor_id: alex.user.id }]);
  });

  it('refuses an employee_id that is not the caller (403) and stores nothing', async () => {
    const before = await requestCount();
    const res = await alex.post('/api/forms/facility-access', { ...facility, employee_id: 'EMP-1002' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBeTruthy();
    expect(await requestCount()).toBe(before);
  });

  it.each([
    [{ ...facility, access_request_type: undefined }, 'Request type is required'],
    [
      { ...facility, access_request_type: 'Master key' },
      'Request type must be one of: New Access Card, Temporary Access, Extended Access Hours, Other',
    ],
    [{ ...facility, facilities_requested: '  ' }, 'Facilities requested is required'],
    [{ ...facility, justification: '' }, 'Justification is required'],
  ])('400 on %j', async (body, error) => {
    const before = await requestCount();
    const res = await alex.post('/api/forms/facility-access', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(await requestCount()).toBe(before);
  });

  it('needs a session', async () => {
    expect((await t.anonymous.post('/api/forms/facility-access', facility)).status).toBe(401);
  });
});

describe('POST /api/forms/password-reset (a real request for the IT helpdesk)', () => {
  it('stores the request with the IT helpdesk stage', async () => {
    const res = await maria.post('/api/forms/password-reset', { system_for_reset: 'VPN', reset_reason: 'Locked Account' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'Password reset request submitted successfully!',
      form_type: 'password-reset',
      status: 'Pending',
      system_for_reset: 'VPN',
      reset_reason: 'Locked Account',
      it_support_status: 'Pending Manager',
      it_helpdesk_approval: 'Pending',
      next_stage: 'Awaiting IT Support',
      employee_id: 'EMP-1002',
    });
    const row = await t.db.query('SELECT current_stage FROM requests WHERE id = $1', [res.body.id]);
    expect(row.rows[0].current_stage).toBe('it_helpdesk');
  });

  it.each([
    [{}, 'Please select a system'],
    [{ system_for_reset: 'VPN' }, 'Please select a reason for reset'],
    [{ system_for_reset: 'Mainframe', reset_reason: 'Other' }, 'System must be one of: Email, ERP, CRM, VPN, Other'],
  ])('400 on %j', async (body, error) => {
    const res = await maria.post('/api/forms/password-reset', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });
});

describe('POST /api/purchase-requisition/submit', () => {
  it('stores the requisition (line manager then finance) and answers the spec message', async () => {
    const res = await alex.post('/api/purchase-requisition/submit', {
      employee_id: 'EMP-1001',
      employee_name: 'Alex Johnson',
      department: 'Unknown',
      manager: 'Manager',
      ...requisition,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ...requisition,
      success: true,
      message: 'Purchase requisition submitted successfully!',
      form_type: 'purchase-requisition',
      line_manager_approval: 'Pending',
      finance_approval: 'Pending',
      next_stage: 'Awaiting Manager Approval',
      department: 'Engineering',
    });
    expect(res.body.request_id).toMatch(/^PR-\d{6}$/);
    expect(Number.isInteger(res.body.quantity)).toBe(true);
  });

  it('computes a missing estimated total', async () => {
    const res = await alex.post('/api/purchase-requisition/submit', {
      ...requisition,
      estimated_total: undefined,
      quantity: '4',
      unit_cost: '2.50',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ quantity: 4, unit_cost: 2.5, estimated_total: 10 });
  });

  it('403 for another employee_id, and nothing is stored for either person', async () => {
    const { employee: me } = await f.team();
    const other = await f.person();
    const client = await f.login(me);
    const before = await stateFingerprint(t);
    for (const employee_id of [other.employee_code, other.id, String(other.id)]) {
      const res = await client.post('/api/purchase-requisition/submit', { ...requisition, employee_id });
      expect(res.status, String(employee_id)).toBe(403);
      expect(res.body).toEqual({ error: 'You can only submit forms for yourself' });
    }
    expect(await stateFingerprint(t)).toEqual(before);
    for (const p of [me, other]) expect((await (await f.login(p)).get('/api/purchase-requisition/user-forms')).body).toEqual([]);
    // the same body naming the caller is accepted
    expect((await client.post('/api/purchase-requisition/submit', { ...requisition, employee_id: me.employee_code })).status).toBe(201);
  });

  it.each([
    [{ item_description: '' }, 'Item description is required'],
    [{ purpose_of_purchase: undefined }, 'Purpose of purchase is required'],
    [{ quantity: 0 }, 'Quantity must be at least 1'],
    [{ quantity: 2.5 }, 'Quantity must be a whole number'],
    [{ quantity: undefined }, 'Quantity is required'],
    [{ unit_cost: -0.01 }, 'Unit cost (USD) must be 0 or more'],
    [{ unit_cost: 10.005 }, 'Unit cost (USD) must have at most 2 decimals'],
    [{ unit_cost: '' }, 'Unit cost (USD) is required'],
    [{ estimated_total: -1 }, 'Estimated total (USD) must be 0 or more'],
    [{ estimated_total: 359.975 }, 'Estimated total (USD) must have at most 2 decimals'],
    [{ estimated_total: 400 }, 'Estimated total must equal quantity x unit cost'],
  ])('400 on %j with an error field', async (change, error) => {
    const before = await requestCount();
    const res = await alex.post('/api/purchase-requisition/submit', { ...requisition, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(await requestCount()).toBe(before);
  });
});

describe('POST /api/forms/:formType (any form type)', () => {
  it('takes only the form fields from the body: status, ids and approvals are ignored', async () => {
    const res = await alex.post('/api/forms/maintenance-request', {
      location: 'Floor 2 kitchen',
      issue_description: 'Tap leaking',
      urgency: 'Low',
      status: 'Approved',
      line_manager_approval: 'Approved',
      employee_user_id: maria.user.id,
      request_id: 'MNT-999999',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'Pending',
      line_manager_approval: 'Pending',
      employee_user_id: alex.user.id,
      message: 'Request submitted successfully!',
    });
    expect(res.body.request_id).not.toBe('MNT-999999');
  });

  it('404 on an unknown form type, 400 on a body that is not an object or not JSON', async () => {
    expect((await alex.post('/api/forms/teleport-request', { a: 1 })).status).toBe(404);
    const arr = await alex.post('/api/forms/maintenance-request', [1, 2]);
    expect(arr.status).toBe(400);
    expect(arr.body.error).toBe('Send the form fields as a JSON object');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/forms/maintenance-request',
      headers: { authorization: `Bearer ${alex.token}`, 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('leave rules', () => {
  const leave = (start: string, end: string, type = 'Annual') => ({ leave_type: type, start_date: start, end_date: end, reason: 'Rest' });

  it('counts working days (no weekends) and ignores a total_days in the body', async () => {
    const mon = quietMondayAfter(120);
    const res = await maria.post('/api/forms/leave-request', { ...leave(mon, plus(mon, 6), 'Casual'), total_days: 99 });
    expect(res.status).toBe(201);
    expect(res.body.total_days).toBe(5);
    expect(res.body).toMatchObject({ line_manager_approval: 'Pending', hr_approval: 'Pending', next_stage: 'Awaiting Manager Approval' });
  });

  it('400: end date before start date', async () => {
    const mon = mondayAfter(130);
    const res = await maria.post('/api/forms/leave-request', leave(mon, plus(mon, -3)));
    expect(res).toMatchObject({ status: 400, body: { error: 'End date cannot be before start date' } });
  });

  it('400: a weekend only', async () => {
    const sat = plus(mondayAfter(130), 5);
    const res = await maria.post('/api/forms/leave-request', leave(sat, plus(sat, 1), 'Casual'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The chosen dates contain no working days (weekends and holidays are not counted)');
  });

  it('400: overlap with own pending or approved leave, naming the request', async () => {
    const mon = quietMondayAfter(140);
    const first = await maria.post('/api/forms/leave-request', leave(mon, plus(mon, 1), 'Sick'));
    expect(first.status).toBe(201);
    const res = await maria.post('/api/forms/leave-request', leave(plus(mon, 1), plus(mon, 3), 'Casual'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`These dates overlap your leave request ${first.body.request_id}`);
    // someone else's leave on the same dates is no conflict
    expect((await alex.post('/api/forms/leave-request', leave(mon, plus(mon, 1), 'Casual'))).status).toBe(201);
  });

  it('400: annual leave beyond the balance (pending annual leave counts too)', async () => {
    const mon = mondayAfter(150);
    const year = Number(mon.slice(0, 4));
    // four weeks of working days is more than the 12-day allowance
    const days = workingDays(mon, plus(mon, 25));
    const res = await maria.post('/api/forms/leave-request', leave(mon, plus(mon, 25)));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      new RegExp(`^Not enough annual leave: ${days} day\\(s\\) requested, \\d+(\\.\\d)? day\\(s\\) left in ${year}$`),
    );
  });

  it('400: annual leave across two calendar years', async () => {
    const y = new Date().getUTCFullYear() + 1;
    const res = await maria.post('/api/forms/leave-request', leave(`${y}-12-30`, `${y + 1}-01-02`));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Annual leave cannot span two calendar years; please split it into two requests');
  });

  it('400: not a real date', async () => {
    const res = await maria.post('/api/forms/leave-request', leave('2027-02-30', '2027-03-02'));
    expect(res).toMatchObject({ status: 400, body: { error: 'Start date must be a real calendar date' } });
  });
});

describe('PUT /api/forms/:formType/:id', () => {
  it('lets the owner edit while nothing is decided, records an edited event', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    const res = await alex.put(`/api/forms/facility-access/${created.request_id}`, {
      ...facility,
      justification: 'Rack migration, phase 2',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      request_id: created.request_id,
      justification: 'Rack migration, phase 2',
      employee_name: 'Alex Johnson',
      status: 'Pending',
    });
    const ev = await t.db.query(`SELECT event_type, details FROM request_events WHERE request_pk = $1 ORDER BY id`, [created.id]);
    expect(ev.rows.map((r) => r.event_type)).toEqual(['submitted', 'edited']);
    expect(ev.rows[1].details.changes).toEqual({ justification: { old: 'Rack migration', new: 'Rack migration, phase 2' } });
    // by numeric id as well
    expect((await alex.put(`/api/forms/facility-access/${created.id}`, facility)).status).toBe(200);
  });

  it('re-validates (400) and changes nothing', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    const res = await alex.put(`/api/forms/facility-access/${created.request_id}`, { ...facility, justification: '' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Justification is required' } });
    const row = await t.db.query(`SELECT data->>'justification' AS j FROM requests WHERE id = $1`, [created.id]);
    expect(row.rows[0].j).toBe('Rack migration');
  });

  it('refused for anyone but the owner: 404 like a missing request to those who may not see it (a colleague; his manager, whose dashboard has no facility access)', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    expect((await maria.put(`/api/forms/facility-access/${created.request_id}`, facility)).status).toBe(404);
    expect((await priya.put(`/api/forms/facility-access/${created.request_id}`, facility)).status).toBe(404);
    expect((await alex.put(`/api/forms/facility-access/${created.request_id}`, { ...facility, employee_id: 'EMP-1002' })).status).toBe(403);
  });

  it('404 for an unknown request or a form type that does not match', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    const room = {
      room_requested: 'Board Room',
      booking_date: plus(mondayAfter(10), 1),
      start_time: '10:00',
      end_time: '11:00',
      participants_count: 4,
    };
    expect((await alex.put(`/api/forms/meeting-room/${created.request_id}`, room)).status).toBe(404);
    expect((await alex.put('/api/forms/facility-access/FA-999999', facility)).status).toBe(404);
  });

  it('409 once a stage has decided (even a later stage still pending), and nothing changes', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    await decide(created.request_id, 'facilities_desk', 'Approved');
    const res = await alex.put(`/api/forms/facility-access/${created.request_id}`, { ...facility, justification: 'Changed' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This request can no longer be edited: a decision has already been made on it');
    const row = await t.db.query(`SELECT data->>'justification' AS j FROM requests WHERE id = $1`, [created.id]);
    expect(row.rows[0].j).toBe('Rack migration');
  });

  it('409 for a withdrawn request', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    await alex.post(`/api/forms/facility-access/${created.request_id}/withdraw`);
    expect((await alex.put(`/api/forms/facility-access/${created.request_id}`, facility)).status).toBe(409);
  });

  it('re-checks leave rules without the request itself', async () => {
    const mon = quietMondayAfter(170);
    const a = (await maria.post('/api/forms/leave-request', { leave_type: 'Casual', start_date: mon, end_date: plus(mon, 1), reason: 'A' }))
      .body;
    const b = (
      await maria.post('/api/forms/leave-request', { leave_type: 'Casual', start_date: plus(mon, 7), end_date: plus(mon, 7), reason: 'B' })
    ).body;
    // moving it by a day overlaps only itself: fine, and total_days is recomputed
    const moved = await maria.put(`/api/forms/leave-request/${a.request_id}`, {
      leave_type: 'Casual',
      start_date: mon,
      end_date: plus(mon, 2),
      reason: 'A',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.total_days).toBe(3);
    // onto the other request: refused
    const clash = await maria.put(`/api/forms/leave-request/${a.request_id}`, {
      leave_type: 'Casual',
      start_date: plus(mon, 7),
      end_date: plus(mon, 8),
      reason: 'A',
    });
    expect(clash).toMatchObject({ status: 400, body: { error: `These dates overlap your leave request ${b.request_id}` } });
  });
});

describe('withdrawal', () => {
  it('the owner withdraws a pending request: Cancelled, no current stage, withdrawn event', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    const res = await alex.post(`/api/forms/facility-access/${created.request_id}/withdraw`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: created.request_id, status: 'Cancelled', next_stage: 'Withdrawn' });
    const row = await t.db.query('SELECT status, current_stage FROM requests WHERE id = $1', [created.id]);
    expect(row.rows[0]).toEqual({ status: 'Cancelled', current_stage: null });
    const ev = await t.db.query(
      `SELECT event_type, field, old_value, new_value, actor_id FROM request_events WHERE request_pk = $1 AND event_type = 'withdrawn'`,
      [created.id],
    );
    expect(ev.rows).toEqual([
      { event_type: 'withdrawn', field: 'status', old_value: 'Pending', new_value: 'Cancelled', actor_id: alex.user.id },
    ]);
    // a second time: no longer pending
    const again = await alex.post(`/api/forms/facility-access/${created.request_id}/withdraw`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Only pending requests can be withdrawn; ${created.request_id} is Cancelled`);
  });

  it('404 like a missing request for someone who may not see it, 409 for a decided request', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    expect((await maria.post(`/api/forms/facility-access/${created.request_id}/withdraw`)).status).toBe(404);
    expect((await priya.post(`/api/forms/facility-access/${created.request_id}/withdraw`)).status).toBe(404);
    await decide(created.request_id, 'facilities_desk', 'Rejected', 'Rejected');
    expect((await alex.post(`/api/forms/facility-access/${created.request_id}/withdraw`)).status).toBe(409);
  });

  it('withdrawRequest (used by the assistant) works by request id, and withdrawn leave frees its dates', async () => {
    const mon = quietMondayAfter(260);
    const body = { leave_type: 'Casual', start_date: mon, end_date: mon, reason: 'X' };
    const res = await maria.post('/api/forms/leave-request', body);
    expect(res.status).toBe(201);
    const created = res.body;
    expect((await maria.post('/api/forms/leave-request', body)).status).toBe(400);
    const user = (await loadUser(t.db, maria.user.id))!;
    const rec = await withdrawRequest(t.db, user, created.request_id.toLowerCase());
    expect(rec.status).toBe('Cancelled');
    expect((await maria.post('/api/forms/leave-request', body)).status).toBe(201);
  });
});

describe('GET /api/forms/user-forms', () => {
  it("answers the caller's requests keyed by form type, each newest first, matching the database", async () => {
    const res = await alex.get('/api/forms/user-forms?employee_id=EMP-1001');
    expect(res.status).toBe(200);
    const db = await t.db.query('SELECT form_type, count(*)::int AS n FROM requests WHERE employee_id = $1 GROUP BY form_type', [
      alex.user.id,
    ]);
    const expected = Object.fromEntries(db.rows.map((r) => [r.form_type, r.n]));
    expect(Object.fromEntries(Object.entries(res.body as Record<string, unknown[]>).map(([k, v]) => [k, v.length]))).toEqual(expected);
    for (const list of Object.values(res.body as Record<string, Array<{ created_at: string; employee_id: string }>>)) {
      const times = list.map((r) => Date.parse(r.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(list.every((r) => r.employee_id === 'EMP-1001')).toBe(true);
    }
    // without employee_id and by user id: the same
    expect(Object.keys((await alex.get('/api/forms/user-forms')).body).sort()).toEqual(Object.keys(expected).sort());
    expect((await alex.get(`/api/forms/user-forms?employee_id=${alex.user.id}`)).status).toBe(200);
  });

  it('the line manager and HR contact may look; other people get 403', async () => {
    const { owner, manager, hr, stranger, otherManager } = await twoTeams();
    const url = `/api/forms/user-forms?employee_id=${owner.employee_code}`;
    expect((await manager.get(url)).status).toBe(200);
    expect((await hr.get(url)).status).toBe(200);
    expect((await stranger.get(url)).status).toBe(403);
    expect((await otherManager.get(url)).status).toBe(403);
    expect((await stranger.get('/api/forms/user-forms?employee_id=NOBODY-1')).status).toBe(403);
  });

  it("is cached per person until anything changes, checks permission on every call, and 'Cache-Control: no-cache' bypasses it", async () => {
    const url = '/api/forms/user-forms?employee_id=EMP-1001';
    await alex.get(url);
    const again = await alex.get(url);
    expect(again.headers['x-queue-cache']).toBe('hit');
    // The line manager has an entry of their own: they see only the requests of their dashboard's types, never
    // the owner's cached answer; someone else still gets 403, not the cached body.
    const byManager = await priya.get(url);
    expect(Object.keys(byManager.body).length).toBeLessThan(Object.keys(again.body).length);
    expect((await priya.get(url)).headers['x-queue-cache']).toBe('hit');
    expect((await alex.get(url)).body).toEqual(again.body);
    const refused = await maria.get(url);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('EMP-1001');
    // A submission is in the very next answer.
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    const after = await alex.get(url);
    expect(after.headers['x-queue-cache']).toBe('miss');
    expect(after.body['facility-access'][0].request_id).toBe(created.request_id);
    // Bypass: computed now, whatever is cached.
    const bypassed = await alex.get(url, { 'cache-control': 'no-cache' });
    expect(bypassed.status).toBe(200);
    expect(bypassed.headers['x-queue-cache']).toBe('bypass');
    expect(bypassed.body).toEqual(after.body);
  });

  it('never answers stored secrets', async () => {
    const pr = (await alex.post('/api/forms/password-reset', { system_for_reset: 'ERP', reset_reason: 'Other' })).body;
    await t.db.query(`UPDATE requests SET data = data || '{"new_password_enc":"secret-cipher"}' WHERE id = $1`, [pr.id]);
    const res = await alex.get('/api/forms/user-forms');
    expect(JSON.stringify(res.body)).not.toContain('secret-cipher');
  });

  it('is bounded per form type', async () => {
    const user = (await t.db.query('SELECT id FROM users WHERE email = $1', ['nina.patel@adminease.test'])).rows[0].id;
    await t.db.query(
      `INSERT INTO requests (request_id, form_type, employee_id, status, current_stage, data, created_at)
       SELECT 'BULK-' || g, 'mileage-claim', $1, 'Pending', 'line_manager', '{"purpose":"bulk"}', now() - (g || ' minutes')::interval
         FROM generate_series(1, 130) g`,
      [user],
    );
    const nina = await t.login('nina.patel@adminease.test');
    const res = await nina.get('/api/forms/user-forms');
    expect(res.body['mileage-claim']).toHaveLength(100);
    expect(res.body['mileage-claim'][0].request_id).toBe('BULK-1');
  });
});

describe('GET /api/forms/leave-requests and /api/purchase-requisition/user-forms', () => {
  it('lists one type, newest first, for the caller', async () => {
    const leave = await alex.get('/api/forms/leave-requests?employee_id=EMP-1001');
    expect(leave.status).toBe(200);
    expect(leave.body.length).toBe(
      await count(`SELECT count(*) AS n FROM requests WHERE employee_id = $1 AND form_type = 'leave-request'`, [alex.user.id]),
    );
    expect(leave.body.every((r: { form_type: string }) => r.form_type === 'leave-request')).toBe(true);
    const pr = await alex.get('/api/purchase-requisition/user-forms?employee_id=EMP-1001');
    expect(pr.status).toBe(200);
    expect(pr.body.length).toBeGreaterThan(0);
    expect(pr.body.every((r: { form_type: string }) => r.form_type === 'purchase-requisition')).toBe(true);
    const times = pr.body.map((r: { created_at: string }) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
  });

  it('403 for another employee', async () => {
    const { owner, manager, stranger } = await twoTeams();
    expect((await stranger.get(`/api/forms/leave-requests?employee_id=${owner.employee_code}`)).status).toBe(403);
    expect((await stranger.get(`/api/purchase-requisition/user-forms?employee_id=${owner.employee_code}`)).status).toBe(403);
    expect((await manager.get(`/api/forms/leave-requests?employee_id=${owner.employee_code}`)).status).toBe(200);
  });
});

describe('GET /api/forms/details/:id', () => {
  it('answers the record to its owner (by request id or numeric id) and to whoever sees it on a dashboard; to anyone else it does not exist', async () => {
    const created = (await alex.post('/api/forms/facility-access', facility)).body;
    const own = await alex.get(`/api/forms/details/${created.request_id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      request_id: created.request_id,
      justification: facility.justification,
      facilities_desk_approval: 'Pending',
    });
    expect((await alex.get(`/api/forms/details/${created.id}`)).body.request_id).toBe(created.request_id);
    // A facility access request is the facilities desk's and manager's (no line-manager stage): the line manager
    // does not see it on their dashboard, so not here either; the desk does.
    const missing = await alex.get('/api/forms/details/FA-999999');
    expect(missing.status).toBe(404);
    for (const who of [priya, maria, daniel]) {
      const res = await who.get(`/api/forms/details/${created.request_id}`);
      expect({ status: res.status, body: res.body }).toEqual({ status: missing.status, body: missing.body });
    }
    expect((await (await t.login('sofia.rossi@adminease.test')).get(`/api/forms/details/${created.request_id}`)).status).toBe(200);
    const leave = (
      await t.db.query(`SELECT request_id FROM requests WHERE employee_id = $1 AND form_type = 'leave-request' LIMIT 1`, [alex.user.id])
    ).rows[0];
    expect((await priya.get(`/api/forms/details/${leave.request_id}`)).status).toBe(200);
  });
});

describe('GET /api/forms/employee-leave-balance/:userId', () => {
  async function expectedUsed(userId: number, type: string) {
    const year = String(businessYear());
    return count(
      `SELECT coalesce(sum((data->>'total_days')::numeric), 0) AS n FROM requests
        WHERE employee_id = $1 AND form_type = 'leave-request' AND status = 'Approved' AND data->>'leave_type' = $2 AND left(data->>'start_date', 4) = $3`,
      [userId, type, year],
    );
  }

  it('computes used days from approved leave of this year (default allowance 12)', async () => {
    const res = await alex.get(`/api/forms/employee-leave-balance/${alex.user.id}`);
    expect(res.status).toBe(200);
    const used = await expectedUsed(alex.user.id, 'Annual');
    expect(res.body).toMatchObject({
      annual_leave_total: 12,
      annual_leave_used: used,
      unpaid_leave_used: await expectedUsed(alex.user.id, 'Unpaid'),
      annual_leave_left: 12 - used,
    });
    expect((await alex.get('/api/forms/employee-leave-balance/EMP-1001')).body.annual_leave_used).toBe(used);
  });

  it('rises when a leave request of this year is approved', async () => {
    const user = (await t.db.query('SELECT id FROM users WHERE email = $1', ['sam.wilson@adminease.test'])).rows[0].id;
    const sam = await t.login('sam.wilson@adminease.test');
    const before = (await sam.get(`/api/forms/employee-leave-balance/${user}`)).body;
    // a weekday of this year that is not in the past of any seeded leave
    const year = businessYear();
    await t.db.query(
      `INSERT INTO requests (request_id, form_type, employee_id, status, data) VALUES ('LR-TEST-1', 'leave-request', $1, 'Approved', $2)`,
      [user, JSON.stringify({ leave_type: 'Unpaid', start_date: `${year}-01-05`, end_date: `${year}-01-06`, total_days: 2, reason: 'x' })],
    );
    const after = (await sam.get(`/api/forms/employee-leave-balance/${user}`)).body;
    expect(after.unpaid_leave_used).toBe(before.unpaid_leave_used + 2);
    expect(after.annual_leave_used).toBe(before.annual_leave_used);
  });

  it('the line manager and HR contact may see it; another employee gets 403', async () => {
    const { owner, manager, hr, stranger, otherManager } = await twoTeams();
    expect((await manager.get(`/api/forms/employee-leave-balance/${owner.id}`)).status).toBe(200);
    expect((await hr.get(`/api/forms/employee-leave-balance/${owner.employee_code}`)).status).toBe(200);
    expect((await stranger.get(`/api/forms/employee-leave-balance/${owner.id}`)).status).toBe(403);
    expect((await otherManager.get(`/api/forms/employee-leave-balance/${owner.employee_code}`)).status).toBe(403);
  });
});
