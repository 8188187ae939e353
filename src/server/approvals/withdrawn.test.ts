// Withdrawn requests (status Cancelled, approval rows still 'Pending', no current stage): no approver queue or
// summary shows them as pending or actionable, deciding them is 409, the manager cannot acknowledge withdrawn
// IT items, and the IT desk lists them as Closed / Withdrawn and refuses to work on them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stage } from '../../domain/forms.js';
import { WITHDRAWN_MESSAGE } from '../../domain/status.js';
import { submitForm } from '../forms/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { EMAIL, decideVia, sampleInput, userByEmail } from './test-helpers.js';

let t: TestApp;
const c: Record<string, ApiClient> = {};

beforeAll(async () => {
  t = await startTestApp();
  for (const k of ['alex', 'priya', 'meera', 'arjun', 'sofia', 'kenji', 'lena'] as const) c[k] = await t.login(EMAIL[k]);
});
afterAll(async () => t?.close());

type Role = 'manager' | 'hr' | 'finance' | 'facilities_desk' | 'facilities_manager';
const QUEUE: Record<Role, string> = {
  manager: '/api/manager/queue',
  hr: '/api/hr/queue',
  finance: '/api/finance/queue',
  facilities_desk: '/api/facilities-desk/queue',
  facilities_manager: '/api/facilities-manager/queue',
};

async function submit(formType: string, input: Record<string, unknown> = sampleInput(formType)) {
  return submitForm(t.db, await userByEmail(t.db, EMAIL.alex), formType, input, t.clock.now());
}

async function withdraw(formType: string, requestId: string) {
  const res = await c.alex.post(`/api/forms/${formType}/${requestId}/withdraw`, {});
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('Cancelled');
}

async function queueRows(client: ApiClient, role: Role, status = 'All'): Promise<any[]> {
  const res = await client.get(`${QUEUE[role]}?status=${status}&limit=500`);
  expect(res.status).toBe(200);
  return Array.isArray(res.body) ? res.body : res.body.forms;
}

async function summary(client: ApiClient, role: Role) {
  const res = await client.get(`/api/approvals/summary?role=${role}`);
  expect(res.status).toBe(200);
  return res.body.summary as { total_pending: number; awaiting_action: number };
}

/**
 * Submits `formType`, approves the stages before `stage` (so the request waits on `stage`), then withdraws
 * it and checks `role`'s queue, summary and decision endpoint.
 */
async function checkWithdrawnAt(formType: string, role: Role, approver: ApiClient, stage: Stage, earlier: Array<[Stage, ApiClient]> = []) {
  const rec = await submit(formType);
  for (const [s, who] of earlier) expect((await decideVia(who, s, rec.request_id, formType, 'Approved')).status).toBe(200);
  // before: it waits on the role
  expect((await queueRows(approver, role, 'Pending')).map((r) => r.request_id)).toContain(rec.request_id);
  const before = await summary(approver, role);

  await withdraw(formType, rec.request_id);
  const rows = await t.db.query(`SELECT decision FROM approvals WHERE request_pk = $1 AND stage = $2`, [rec.id, stage]);
  expect(rows.rows[0].decision).toBe('Pending'); // the row stays Pending; the request has no current stage

  expect((await queueRows(approver, role, 'Pending')).map((r) => r.request_id)).not.toContain(rec.request_id);
  for (const row of (await queueRows(approver, role)).filter((r) => r.request_id === rec.request_id)) {
    expect(row.actionable).toBe(false);
    expect(row.stage_state).toBe('Closed');
    expect(row.next_stage).toBe('Withdrawn');
  }
  const after = await summary(approver, role);
  expect(after.total_pending).toBe(before.total_pending - 1);
  expect(after.awaiting_action).toBe(before.awaiting_action - 1);

  const details = await approver.get(`${QUEUE[role].replace('/queue', '/form-details')}?form_id=${rec.request_id}&form_type=${formType}`);
  expect(details.status).toBe(200);
  expect(details.body.actionable).toBe(false);

  const decided = await decideVia(approver, stage, rec.request_id, formType, 'Approved');
  expect(decided.status).toBe(409);
  expect(decided.body.error).toBe(WITHDRAWN_MESSAGE);
  const rejected = await decideVia(approver, stage, rec.request_id, formType, 'Rejected', 'No longer needed');
  expect(rejected.status).toBe(409);
  const bulk = await approver.post('/api/approvals/bulk', { role, items: [{ form_id: rec.request_id, decision: 'Approved' }] });
  expect(bulk.status).toBe(200);
  expect(bulk.body.results[0]).toMatchObject({ ok: false, status: 409, error: WITHDRAWN_MESSAGE });
  const after2 = await t.db.query(`SELECT status, current_stage FROM requests WHERE id = $1`, [rec.id]);
  expect(after2.rows[0]).toEqual({ status: 'Cancelled', current_stage: null });
}

describe('withdrawn requests in the approver queues', () => {
  it('line manager (a leave request waiting on the manager)', async () => {
    await checkWithdrawnAt('leave-request', 'manager', c.priya, 'line_manager');
  });
  it('HR (a leave request the manager approved)', async () => {
    await checkWithdrawnAt('leave-request', 'hr', c.meera, 'hr', [['line_manager', c.priya]]);
  });
  it('finance (a petty cash request the manager approved)', async () => {
    await checkWithdrawnAt('petty-cash', 'finance', c.arjun, 'finance', [['line_manager', c.priya]]);
  });
  it('facilities desk (a meeting room booking)', async () => {
    await checkWithdrawnAt('meeting-room', 'facilities_desk', c.sofia, 'facilities_desk');
  });
  it('facilities manager (a facility access request the desk approved)', async () => {
    await checkWithdrawnAt('facility-access', 'facilities_manager', c.kenji, 'facilities_manager', [['facilities_desk', c.sofia]]);
  });
  it('finance does not count a withdrawn request that still waited on the manager as pending', async () => {
    const rec = await submit('travel-request');
    const before = await summary(c.arjun, 'finance');
    await withdraw('travel-request', rec.request_id);
    const after = await summary(c.arjun, 'finance');
    expect(after.total_pending).toBe(before.total_pending - 1);
    expect((await queueRows(c.arjun, 'finance', 'Pending')).map((r) => r.request_id)).not.toContain(rec.request_id);
  });
});

describe('withdrawn IT items', () => {
  it('the manager neither sees them as pending nor can acknowledge them; a reset stays with the manager', async () => {
    const inc = await submit('it-incident', { affected_system: 'VPN', incident_description: 'Drops every hour' });
    const pr = await submit('password-reset', { system_for_reset: 'ERP', reset_reason: 'Forgotten Password' });
    await withdraw('it-incident', inc.request_id);
    await withdraw('password-reset', pr.request_id);

    const pending = (await queueRows(c.priya, 'manager', 'Pending')).map((r) => r.request_id);
    expect(pending).not.toContain(inc.request_id);
    expect(pending).not.toContain(pr.request_id);
    for (const row of (await queueRows(c.priya, 'manager')).filter((r) => [inc.request_id, pr.request_id].includes(r.request_id))) {
      expect(row).toMatchObject({ view_only: true, actionable: false, stage_state: 'Closed' });
    }

    for (const [path, rec] of [
      ['acknowledge-it-incident', inc],
      ['acknowledge-password-reset', pr],
    ] as const) {
      const res = await c.priya.post(`/api/manager/${path}`, { form_id: rec.request_id, manager_id: c.priya.user.id });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(WITHDRAWN_MESSAGE);
    }
    const data = await t.db.query(`SELECT data FROM requests WHERE id = $1`, [pr.id]);
    expect(data.rows[0].data.line_manager_acknowledgement).not.toBe(true);
    expect(data.rows[0].data.it_support_status ?? 'Pending Manager').toBe('Pending Manager');
    const ev = await t.db.query(
      `SELECT count(*)::int AS n FROM request_events WHERE request_pk = ANY($1) AND event_type = 'acknowledged'`,
      [[inc.id, pr.id]],
    );
    expect(ev.rows[0].n).toBe(0);
  });

  it('the IT desk lists them as Closed / Withdrawn and refuses to work on them (409)', async () => {
    const inc = await submit('it-incident', { affected_system: 'Email', incident_description: 'Cannot send' });
    const pr = await submit('password-reset', { system_for_reset: 'ERP', reset_reason: 'Forgotten Password' });
    // acknowledged first, so the reset waited on IT when it was withdrawn
    expect(
      (await c.priya.post('/api/manager/acknowledge-password-reset', { form_id: pr.request_id, manager_id: c.priya.user.id })).status,
    ).toBe(200);
    await withdraw('it-incident', inc.request_id);
    await withdraw('password-reset', pr.request_id);

    const q = await c.lena.get('/api/it-support/queue');
    expect(q.status).toBe(200);
    for (const id of [inc.request_id, pr.request_id]) {
      expect(q.body.find((x: any) => x.request_id === id)).toMatchObject({ it_queue_status: 'Closed', display_status: 'Withdrawn' });
    }
    const save = await c.lena.post('/api/it-support/save-ticket-details', { form_id: inc.request_id, it_helpdesk_ticket_number: 'T-9' });
    expect(save.status).toBe(409);
    expect(save.body.error).toBe(WITHDRAWN_MESSAGE);
    const setPw = await c.lena.post('/api/it-support/save-password-reset-details', {
      form_id: pr.request_id,
      new_password: 'N3w-Passw0rd!',
    });
    expect(setPw.status).toBe(409);
    expect(setPw.body.error).toBe(WITHDRAWN_MESSAGE);
    const rows = await t.db.query(`SELECT status, current_stage FROM requests WHERE id = ANY($1) ORDER BY id`, [[inc.id, pr.id]]);
    expect(rows.rows).toEqual([
      { status: 'Cancelled', current_stage: null },
      { status: 'Cancelled', current_stage: null },
    ]);
  });
});
