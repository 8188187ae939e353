// Who sees what: the queues of the five roles with their exact shapes, form details, acknowledgements of IT
// items, leave balances, bulk decisions and the audit history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTypesOfKind, formTypesWithStage } from '../../domain/forms.js';
import { FINANCE_FORM_TYPES, FACILITIES_FORM_TYPES } from '../../domain/approvals.js';
import { submitForm } from '../forms/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { MANAGER_QUEUE_TYPES } from './service.js';
import { queueCacheFor, waitForQueueSignal } from './queue-cache.js';
import { EMAIL, decideVia, sampleInput, userByEmail } from './test-helpers.js';

let t: TestApp;
const c: Record<string, ApiClient> = {};

beforeAll(async () => {
  t = await startTestApp();
  for (const k of ['alex', 'chloe', 'priya', 'daniel', 'meera', 'tom', 'arjun', 'sofia', 'kenji', 'lena', 'victoria', 'sam'] as const) {
    c[k] = await t.login(EMAIL[k]);
  }
});
afterAll(async () => t?.close());

/** Submits through the forms service (another feature): the queue caches hear of it through PostgreSQL. */
async function submitAs(email: string, formType: string, input: Record<string, unknown> = sampleInput(formType)) {
  const gen = queueCacheFor(t.db)?.generation() ?? 0;
  const rec = await submitForm(t.db, await userByEmail(t.db, email), formType, input, t.clock.now());
  expect(await waitForQueueSignal(t.db, gen)).toBe(true);
  return rec;
}

const MANAGER_ITEM_FIELDS = [
  'request_id',
  'form_type',
  'employee_name',
  'department',
  'created_at',
  'status',
  'line_manager_approval',
  'line_manager_signature',
  'line_manager_date',
];

describe('line manager queue', () => {
  it("lists exactly the requests of the manager's reports, newest first, with the item fields", async () => {
    const res = await c.priya.get(`/api/manager/queue?manager_id=${c.priya.user.profile.manager_id}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const expected = await t.db.query(`SELECT r.request_id FROM requests r WHERE r.line_manager_id = $1 AND r.form_type = ANY($2)`, [
      c.priya.user.id,
      MANAGER_QUEUE_TYPES,
    ]);
    expect(res.body.map((f: any) => f.request_id).sort()).toEqual(expected.rows.map((r) => r.request_id).sort());
    expect(res.body.length).toBeGreaterThan(0);
    for (const f of res.body) {
      for (const k of MANAGER_ITEM_FIELDS) expect(f, k).toHaveProperty(k);
      expect(f.form_type).not.toBe('info-update');
    }
    const times = res.body.map((f: any) => Date.parse(f.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
  it('marks IT incidents and password resets as view only and never shows a new password', async () => {
    const res = await c.priya.get('/api/manager/queue');
    const it = res.body.filter((f: any) => formTypesOfKind('it-ticket').includes(f.form_type));
    expect(it.length).toBeGreaterThan(0);
    for (const f of it) {
      expect(f.view_only).toBe(true);
      expect(f.actionable).toBe(false);
      expect(f).not.toHaveProperty('new_password');
      expect(f).not.toHaveProperty('new_password_enc');
    }
    const decidable = res.body.filter((f: any) => f.current_stage === 'line_manager');
    expect(decidable.length).toBeGreaterThan(0);
    for (const f of decidable) expect(f.actionable).toBe(true);
  });
  it("accepts the caller's user id as manager_id; another manager's id is 403", async () => {
    expect((await c.priya.get(`/api/manager/queue?manager_id=${c.priya.user.id}`)).status).toBe(200);
    expect((await c.priya.get(`/api/manager/queue?manager_id=${c.daniel.user.profile.manager_id}`)).status).toBe(403);
    expect((await c.priya.get(`/api/manager/queue?manager_id=${c.daniel.user.id}`)).status).toBe(403);
    expect((await c.priya.get('/api/manager/queue?manager_id=nobody')).status).toBe(403);
  });
  it('filters by status and bounds the list', async () => {
    const pending = await c.priya.get('/api/manager/queue?status=Pending');
    expect(pending.body.length).toBeGreaterThan(0);
    for (const f of pending.body) expect(f.stage_state).toBe('Pending');
    const approved = await c.priya.get('/api/manager/queue?status=approved');
    for (const f of approved.body) expect(f.stage_state).toBe('Approved');
    const limited = await c.priya.get('/api/manager/queue?limit=1');
    expect(limited.body.length).toBeLessThanOrEqual(2); // one waiting + one other
    expect((await c.priya.get('/api/manager/queue?limit=100000')).status).toBe(400);
    expect((await c.priya.get('/api/manager/queue?status=Whatever')).status).toBe(400);
    const leave = await c.priya.get('/api/manager/queue?form_type=leave-request');
    expect(leave.body.every((f: any) => f.form_type === 'leave-request')).toBe(true);
  });
  it('someone without reports gets an empty list', async () => {
    const res = await c.alex.get('/api/manager/queue');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
  it('a new submission appears and leaves the pending list after the decision', async () => {
    const rec = await submitAs(EMAIL.alex, 'travel-request');
    const before = await c.priya.get('/api/manager/queue?status=Pending');
    expect(before.body[0].request_id).toBe(rec.request_id);
    await decideVia(c.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    const after = await c.priya.get('/api/manager/queue?status=Pending');
    expect(after.body.map((f: any) => f.request_id)).not.toContain(rec.request_id);
    const all = await c.priya.get('/api/manager/queue');
    const row = all.body.find((f: any) => f.request_id === rec.request_id);
    expect(row.line_manager_approval).toBe('Approved');
    expect(row.line_manager_signature).toBe('Priya Sharma');
  });
});

describe('queue cache', () => {
  it('answers repeated reads from the cache and never serves a stale queue after a change', async () => {
    const first = await c.priya.get('/api/manager/queue');
    const second = await c.priya.get('/api/manager/queue');
    expect(second.headers['x-queue-cache']).toBe('hit');
    expect(second.body).toEqual(first.body);
    // 'Cache-Control: no-cache' computes the answer again whatever the cache holds; the valid entry stays
    const bypassed = await c.priya.get('/api/manager/queue', { 'cache-control': 'no-cache' });
    expect(bypassed.headers['x-queue-cache']).toBe('bypass');
    expect(bypassed.body).toEqual(first.body);
    expect((await c.priya.get('/api/manager/queue')).headers['x-queue-cache']).toBe('hit');
    // different users and parameters have their own entries
    expect((await c.priya.get('/api/manager/queue?status=Rejected&limit=7')).headers['x-queue-cache']).toBe('miss');
    expect((await c.daniel.get('/api/manager/queue')).headers['x-queue-cache']).toBe('miss');
    // a decision here clears this instance's cache at once
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    expect((await c.priya.get('/api/manager/queue')).body.map((f: any) => f.request_id)).toContain(rec.request_id);
    await decideVia(c.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    const after = await c.priya.get('/api/manager/queue');
    expect(after.headers['x-queue-cache']).toBe('miss');
    expect(after.body.find((f: any) => f.request_id === rec.request_id).line_manager_approval).toBe('Approved');
    // a change made straight in the database (another instance, another feature) reaches the cache too
    await c.priya.get('/api/manager/queue');
    const gen = queueCacheFor(t.db)!.generation();
    await t.db.query(`UPDATE requests SET data = data || '{"purpose": "Changed elsewhere"}'::jsonb WHERE id = $1`, [rec.id]);
    expect(await waitForQueueSignal(t.db, gen)).toBe(true);
    const changed = await c.priya.get('/api/manager/queue');
    expect(changed.body.find((f: any) => f.request_id === rec.request_id).purpose).toBe('Changed elsewhere');
  });
  it('checks permissions before answering from the cache', async () => {
    await c.arjun.get('/api/finance/queue');
    expect((await c.arjun.get('/api/finance/queue')).headers['x-queue-cache']).toBe('hit');
    expect((await c.priya.get('/api/finance/queue')).status).toBe(403);
    expect((await c.priya.get(`/api/manager/queue?manager_id=${c.daniel.user.profile.manager_id}`)).status).toBe(403);
  });
});

describe('HR queue', () => {
  it("lists leave and info updates of the HR contact's employees once at the HR stage or decided by HR", async () => {
    const res = await c.meera.get('/api/hr/queue?hr_id=HR-001');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const expected = await t.db.query(
      `SELECT r.request_id FROM requests r JOIN approvals a ON a.request_pk = r.id AND a.stage = 'hr'
        WHERE r.hr_contact_id = $1 AND r.form_type IN ('leave-request', 'info-update')
          AND (r.current_stage = 'hr' OR a.decision <> 'Pending')`,
      [c.meera.user.id],
    );
    expect(res.body.map((f: any) => f.request_id).sort()).toEqual(expected.rows.map((r) => r.request_id).sort());
    for (const f of res.body) {
      expect(formTypesWithStage('hr')).toContain(f.form_type);
      expect(f).toHaveProperty('hr_approval');
      expect(f).toHaveProperty('hr_signature');
      expect(f).toHaveProperty('hr_date');
    }
  });
  it('a leave request reaches HR only after the line manager approved', async () => {
    const rec = await submitAs(EMAIL.alex, 'leave-request');
    const ids = async () => (await c.meera.get('/api/hr/queue')).body.map((f: any) => f.request_id);
    expect(await ids()).not.toContain(rec.request_id);
    await decideVia(c.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    expect(await ids()).toContain(rec.request_id);
    // tom is not alex's HR contact
    expect((await c.tom.get('/api/hr/queue')).body.map((f: any) => f.request_id)).not.toContain(rec.request_id);
  });
  it("hr_id must be the caller's own; non-HR users are refused", async () => {
    expect((await c.meera.get(`/api/hr/queue?hr_id=${c.meera.user.id}`)).status).toBe(200);
    expect((await c.meera.get('/api/hr/queue?hr_id=HR-002')).status).toBe(403);
    expect((await c.priya.get('/api/hr/queue')).status).toBe(403);
  });
});

describe('finance and facilities queues', () => {
  it('finance answers {success, forms, summary} with petty cash, travel and purchase requisitions only', async () => {
    const res = await c.arjun.get('/api/finance/queue');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.summary).sort()).toEqual([
      'awaiting_action',
      'forms_by_type',
      'total_approved',
      'total_pending',
      'total_rejected',
    ]);
    const all = await t.db.query(`SELECT request_id FROM requests WHERE form_type = ANY($1)`, [FINANCE_FORM_TYPES]);
    expect(res.body.forms.map((f: any) => f.request_id).sort()).toEqual(all.rows.map((r) => r.request_id).sort());
    for (const f of res.body.forms) {
      expect(f).toHaveProperty('line_manager_approval');
      expect(f).toHaveProperty('finance_approval');
      expect(f).toHaveProperty('finance_signature');
      expect(f.actionable).toBe(f.line_manager_approval === 'Approved' && f.finance_approval === 'Pending' && f.status === 'Pending');
    }
    // the summary counts what the list shows
    const s = res.body.summary;
    const forms = res.body.forms;
    expect(s.total_approved).toBe(forms.filter((f: any) => f.finance_approval === 'Approved').length);
    expect(s.total_rejected).toBe(forms.filter((f: any) => f.finance_approval === 'Rejected').length);
    expect(s.total_pending).toBe(forms.filter((f: any) => f.stage_state === 'Pending').length);
    expect(s.awaiting_action).toBe(forms.filter((f: any) => f.actionable).length);
    expect(Object.values(s.forms_by_type as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(forms.length);
  });
  it('the finance queue is for finance staff only', async () => {
    expect((await c.priya.get('/api/finance/queue')).status).toBe(403);
    expect((await c.alex.get('/api/finance/queue')).status).toBe(403);
  });
  it('facilities desk answers an array; the facilities manager {success, forms, summary}', async () => {
    const desk = await c.sofia.get('/api/facilities-desk/queue');
    expect(desk.status).toBe(200);
    expect(Array.isArray(desk.body)).toBe(true);
    const all = await t.db.query(`SELECT request_id FROM requests WHERE form_type = ANY($1)`, [FACILITIES_FORM_TYPES]);
    expect(desk.body.map((f: any) => f.request_id).sort()).toEqual(all.rows.map((r) => r.request_id).sort());
    for (const f of desk.body) {
      expect(f).toHaveProperty('facilities_desk_approval');
      expect(f).toHaveProperty('facilities_manager_approval');
      expect(f).toHaveProperty('facilities_desk_signature');
      expect(f.actionable).toBe(f.facilities_desk_approval === 'Pending' && f.status === 'Pending');
    }
    const fm = await c.kenji.get('/api/facilities-manager/queue');
    expect(fm.body.success).toBe(true);
    expect(fm.body.forms.length).toBe(all.rows.length);
    for (const f of fm.body.forms) {
      expect(f.actionable).toBe(
        f.facilities_desk_approval === 'Approved' && f.facilities_manager_approval === 'Pending' && f.status === 'Pending',
      );
    }
    expect(fm.body.summary.total_approved).toBe(fm.body.forms.filter((f: any) => f.facilities_manager_approval === 'Approved').length);
    expect((await c.kenji.get('/api/facilities-desk/queue')).status).toBe(403);
    expect((await c.sofia.get('/api/facilities-manager/queue')).status).toBe(403);
  });
  it('summaries for the other roles and their tiles move with a decision', async () => {
    const before = (await c.priya.get('/api/approvals/summary?role=manager')).body.summary;
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    const mid = (await c.priya.get('/api/approvals/summary?role=manager')).body.summary;
    expect(mid.total_pending).toBe(before.total_pending + 1);
    await decideVia(c.priya, 'line_manager', rec.request_id, rec.form_type, 'Rejected', 'No');
    const after = (await c.priya.get('/api/approvals/summary?role=manager')).body.summary;
    expect(after.total_pending).toBe(before.total_pending);
    expect(after.total_rejected).toBe(before.total_rejected + 1);
    // IT items are not in the manager's approval counts
    expect(after.forms_by_type['it-incident']).toBeUndefined();
    expect((await c.priya.get('/api/approvals/summary?role=finance')).status).toBe(403);
    expect((await c.priya.get('/api/approvals/summary?role=boss')).status).toBe(400);
  });
});

describe('form details', () => {
  it('each role reads the requests of its queue and nothing else', async () => {
    const pr = await submitAs(EMAIL.alex, 'purchase-requisition');
    const ok = await c.priya.get(`/api/manager/form-details?form_id=${pr.request_id}&form_type=purchase-requisition`);
    expect(ok.status).toBe(200);
    expect(ok.body.item_description).toBeTruthy();
    expect(ok.body.next_stage).toBe('Awaiting Manager Approval');
    // a request not on the caller's dashboard answers exactly like one that does not exist
    expect((await c.daniel.get(`/api/manager/form-details?form_id=${pr.request_id}&form_type=purchase-requisition`)).status).toBe(404);
    expect((await c.arjun.get(`/api/finance/form-details?form_id=${pr.request_id}&form_type=purchase-requisition`)).status).toBe(200);
    expect((await c.sofia.get(`/api/facilities-desk/form-details?form_id=${pr.request_id}`)).status).toBe(404);
    expect((await c.priya.get(`/api/manager/form-details?form_id=${pr.request_id}&form_type=leave-request`)).status).toBe(404);
    expect((await c.priya.get('/api/manager/form-details')).status).toBe(400);
    const fa = await submitAs(EMAIL.alex, 'facility-access');
    const fm = await c.kenji.get(`/api/facilities-manager/form-details?request_id=${fa.request_id}&form_type=facility-access`);
    expect(fm.status).toBe(200);
    expect(fm.body.next_stage).toBe('Facilities Desk');
    const info = await submitAs(EMAIL.alex, 'info-update');
    expect((await c.meera.get(`/api/hr/form-details?form_id=${info.request_id}&form_type=info-update`)).status).toBe(200);
    expect((await c.tom.get(`/api/hr/form-details?form_id=${info.request_id}&form_type=info-update`)).status).toBe(404);
  });
});

describe('acknowledging IT items', () => {
  it('an IT incident is acknowledged once by the line manager', async () => {
    const inc = await submitAs(EMAIL.alex, 'it-incident', { affected_system: 'VPN', incident_description: 'Drops every hour' });
    // another manager does not see it (answers like a missing one); naming another manager's id is refused
    expect(
      (
        await c.daniel.post('/api/manager/acknowledge-it-incident', {
          form_id: inc.request_id,
          manager_id: c.daniel.user.profile.manager_id,
        })
      ).status,
    ).toBe(404);
    expect((await c.priya.post('/api/manager/acknowledge-it-incident', { form_id: inc.request_id, manager_id: 'MGR-002' })).status).toBe(
      403,
    );
    const first = await c.priya.post('/api/manager/acknowledge-it-incident', {
      form_id: inc.request_id,
      manager_id: c.priya.user.profile.manager_id,
    });
    expect(first.status).toBe(200);
    expect(first.body.already_acknowledged).toBe(false);
    expect(first.body.form.line_manager_acknowledgement).toBe(true);
    const second = await c.priya.post('/api/manager/acknowledge-it-incident', {
      form_id: inc.request_id,
      manager_id: c.priya.user.profile.manager_id,
    });
    expect(second.body.already_acknowledged).toBe(true);
    const ev = await t.db.query(`SELECT count(*)::int AS n FROM request_events WHERE request_pk = $1 AND event_type = 'acknowledged'`, [
      inc.id,
    ]);
    expect(ev.rows[0].n).toBe(1);
    // acknowledged items leave the manager's waiting list
    const pending = await c.priya.get('/api/manager/queue?status=Pending');
    expect(pending.body.map((f: any) => f.request_id)).not.toContain(inc.request_id);
    // the wrong endpoint for the type is 404
    expect((await c.priya.post('/api/manager/acknowledge-password-reset', { form_id: inc.request_id })).status).toBe(404);
  });
  it('acknowledging a password reset hands it to IT (Pending IT Action)', async () => {
    const pr = await submitAs(EMAIL.alex, 'password-reset', { system_for_reset: 'ERP', reset_reason: 'Forgotten Password' });
    expect(pr.it_support_status).toBe('Pending Manager');
    const res = await c.priya.post('/api/manager/acknowledge-password-reset', { form_id: pr.request_id, manager_id: c.priya.user.id });
    expect(res.status).toBe(200);
    expect(res.body.form.it_support_status).toBe('Pending IT Action');
    expect(res.body.form.line_manager_acknowledgement).toBe(true);
  });
});

describe('leave balance', () => {
  it("the line manager and HR contact see an employee's balance; others do not", async () => {
    const m = await c.priya.get('/api/manager/employee-leave-balance/EMP-1001');
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ annual_leave_total: 12 });
    expect(typeof m.body.annual_leave_used).toBe('number');
    expect(typeof m.body.unpaid_leave_used).toBe('number');
    expect((await c.meera.get('/api/hr/employee-leave-balance/EMP-1001')).status).toBe(200);
    expect((await c.daniel.get('/api/manager/employee-leave-balance/EMP-1001')).status).toBe(403);
    expect((await c.tom.get('/api/hr/employee-leave-balance/EMP-1001')).status).toBe(403);
  });
});

describe('bulk decisions', () => {
  it('decides each item as if alone and reports per item', async () => {
    const a = await submitAs(EMAIL.alex, 'petty-cash');
    const b = await submitAs(EMAIL.alex, 'expense-reimbursement');
    const foreign = await submitAs(EMAIL.chloe, 'petty-cash'); // daniel's team
    const res = await c.priya.post('/api/approvals/bulk', {
      items: [
        { form_id: a.request_id, decision: 'Approved' },
        { form_id: b.request_id, decision: 'Rejected', reason: 'Receipts missing' },
        { form_id: foreign.request_id, decision: 'Approved' },
        { form_id: 'PC-999999', decision: 'Approved' },
        { form_id: a.request_id.toLowerCase(), decision: 'Approved' },
        { form_id: a.request_id, decision: 'Rejected' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.succeeded).toBe(2);
    expect(res.body.failed).toBe(4);
    const by = res.body.results;
    expect(by[0]).toMatchObject({ ok: true, status: 200 });
    expect(by[0].record.line_manager_approval).toBe('Approved');
    expect(by[1]).toMatchObject({ ok: true });
    expect(by[1].record.line_manager_rejected_reason).toBe('Receipts missing');
    expect(by[2]).toMatchObject({ ok: false, status: 404 }); // not this manager's team: like a missing request
    expect(by[3]).toMatchObject({ ok: false, status: 404 });
    expect(by[4]).toMatchObject({ ok: false, status: 400 });
    expect(by[5]).toMatchObject({ ok: false, status: 400 });
    const ff = await t.db.query(`SELECT decision FROM approvals WHERE request_pk = $1 AND stage = 'line_manager'`, [foreign.id]);
    expect(ff.rows[0].decision).toBe('Pending');
  });
  it('finance bulk approval after the manager: out-of-order items fail alone', async () => {
    const ready = await submitAs(EMAIL.alex, 'travel-request');
    const early = await submitAs(EMAIL.alex, 'travel-request');
    await decideVia(c.priya, 'line_manager', ready.request_id, ready.form_type, 'Approved');
    const res = await c.arjun.post('/api/approvals/bulk', {
      items: [
        { form_id: ready.request_id, decision: 'Approved' },
        { form_id: early.request_id, decision: 'Approved' },
      ],
    });
    expect(res.body.results[0].ok).toBe(true);
    expect(res.body.results[0].record.status).toBe('Approved');
    expect(res.body.results[1]).toMatchObject({
      ok: false,
      status: 409,
      error: 'Finance can only decide after the line manager has approved',
    });
  });
  it('rejects an empty or too long list', async () => {
    expect((await c.priya.post('/api/approvals/bulk', { items: [] })).status).toBe(400);
    expect(
      (
        await c.priya.post('/api/approvals/bulk', {
          items: Array.from({ length: 101 }, (_, i) => ({ form_id: `PC-${i}`, decision: 'Approved' })),
        })
      ).status,
    ).toBe(400);
    expect((await c.priya.post('/api/approvals/bulk', {})).status).toBe(400);
  });
});

describe('audit history', () => {
  it('shows who did what at which stage, when, and how long each stage waited', async () => {
    const rec = await submitAs(EMAIL.alex, 'purchase-requisition');
    t.clock.advance(3 * 3_600_000);
    await decideVia(c.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    t.clock.advance(20 * 3_600_000);
    await decideVia(c.arjun, 'finance', rec.request_id, rec.form_type, 'Rejected', 'Over budget');
    const res = await c.alex.get(`/api/requests/${rec.request_id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.request_id).toBe(rec.request_id);
    const ev = res.body.events;
    expect(ev.map((e: any) => e.event_type)).toEqual(['submitted', 'decision', 'decision', 'status_change']);
    expect(ev[0].summary).toBe('Submitted by Alex Johnson');
    expect(ev[1].summary).toBe('Approved by Priya Sharma (Line Manager)');
    expect(ev[1].waited_ms).toBeGreaterThanOrEqual(3 * 3_600_000);
    expect(ev[1].waited_ms).toBeLessThan(3 * 3_600_000 + 60_000);
    expect(ev[2].summary).toBe('Rejected by Arjun Mehta (Finance): Over budget');
    expect(ev[2].waited_ms).toBeGreaterThanOrEqual(20 * 3_600_000);
    expect(ev[3].summary).toBe('Status changed from Pending to Rejected');
  });
  it("is visible to the owner and the request's approvers only", async () => {
    // fresh sessions: the test above moved the clock on by most of a day
    for (const k of ['alex', 'chloe', 'priya', 'daniel', 'arjun', 'sofia'] as const) c[k] = await t.login(EMAIL[k]);
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    expect((await c.priya.get(`/api/requests/${rec.request_id}/history`)).status).toBe(200);
    expect((await c.arjun.get(`/api/requests/${rec.request_id}/history`)).status).toBe(200);
    expect((await c.daniel.get(`/api/requests/${rec.request_id}/history`)).status).toBe(404);
    expect((await c.chloe.get(`/api/requests/${rec.request_id}/history`)).status).toBe(404);
    expect((await c.sofia.get(`/api/requests/${rec.request_id}/history`)).status).toBe(404);
    expect((await c.alex.get('/api/requests/XX-000000/history')).status).toBe(404);
  });
});
