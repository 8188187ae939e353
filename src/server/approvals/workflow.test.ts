// The approval chains end to end through the role endpoints: every form type from submission to completion
// and to rejection at each stage, out-of-order and foreign decisions refused, reasons, signer from the
// session, the event log, and concurrent decisions giving exactly one winner.
import { businessDate } from '../../domain/business-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES, type Stage, STAGES } from '../../domain/forms.js';
import { submitForm } from '../forms/service.js';
import { type Factories, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { decideStage } from './service.js';
import { EMAIL, decideVia, sampleInput, userByEmail } from './test-helpers.js';

let t: TestApp;
let f: Factories;
const clients: Record<string, ApiClient> = {};
const approverOf: Record<Exclude<Stage, 'it_helpdesk'>, keyof typeof EMAIL> = {
  line_manager: 'priya',
  hr: 'meera',
  finance: 'arjun',
  facilities_desk: 'sofia',
  facilities_manager: 'kenji',
};

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  for (const k of ['alex', 'priya', 'daniel', 'meera', 'tom', 'arjun', 'hannah', 'sofia', 'kenji', 'lena', 'victoria'] as const) {
    clients[k] = await t.login(EMAIL[k]);
  }
});
afterAll(async () => t?.close());

async function submitAs(email: string, formType: string, input: Record<string, unknown> = sampleInput(formType)) {
  return submitForm(t.db, await userByEmail(t.db, email), formType, input, t.clock.now());
}

const DECIDED_TYPES = FORM_TYPES.filter((d) => !d.chain.includes('it_helpdesk'));

describe('every chain to completion', () => {
  for (const def of DECIDED_TYPES) {
    it(`${def.formType}: ${def.chain.join(' -> ')} -> Approved`, async () => {
      const rec = await submitAs(EMAIL.alex, def.formType);
      expect(rec.status).toBe('Pending');
      expect(rec.current_stage).toBe(def.chain[0]);
      for (let i = 0; i < def.chain.length; i += 1) {
        const stage = def.chain[i] as Exclude<Stage, 'it_helpdesk'>;
        const approver = clients[approverOf[stage]];
        const res = await decideVia(approver, stage, rec.request_id, def.formType, 'Approved');
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.success).toBe(true);
        const form = res.body.form;
        const p = STAGES[stage].prefix;
        expect(form[`${p}_approval`]).toBe('Approved');
        // the signer is the session's user, never the body's name
        expect(form[`${p}_signature`]).toBe(`${approver.user.profile.first_name} ${approver.user.profile.last_name}`);
        // the decision's date is the organisation's calendar day (not UTC's: 00:30 in India is still the day before in UTC)
        expect(form[`${p}_date`]).toBe(businessDate(t.clock.now()));
        const last = i === def.chain.length - 1;
        expect(form.status).toBe(last ? 'Approved' : 'Pending');
        expect(form.current_stage).toBe(last ? null : def.chain[i + 1]);
      }
      const ev = await t.db.query(
        `SELECT event_type, stage, field, old_value, new_value FROM request_events WHERE request_pk = $1 ORDER BY id`,
        [rec.id],
      );
      const decisions = ev.rows.filter((e) => e.event_type === 'decision');
      expect(decisions.map((e) => [e.stage, e.field, e.old_value, e.new_value])).toEqual(
        def.chain.map((s) => [s, `${STAGES[s].prefix}_approval`, 'Pending', 'Approved']),
      );
      expect(ev.rows.filter((e) => e.event_type === 'status_change').map((e) => [e.old_value, e.new_value])).toEqual([
        ['Pending', 'Approved'],
      ]);
    });
  }
});

describe('rejection at each stage ends the chain', () => {
  for (const def of DECIDED_TYPES) {
    for (let k = 0; k < def.chain.length; k += 1) {
      const rejecting = def.chain[k] as Exclude<Stage, 'it_helpdesk'>;
      it(`${def.formType}: rejected by ${rejecting}`, async () => {
        const rec = await submitAs(EMAIL.alex, def.formType);
        for (let i = 0; i < k; i += 1) {
          const s = def.chain[i] as Exclude<Stage, 'it_helpdesk'>;
          expect((await decideVia(clients[approverOf[s]], s, rec.request_id, def.formType, 'Approved')).status).toBe(200);
        }
        const reason = `Rejected at ${rejecting} for the test`;
        const res = await decideVia(clients[approverOf[rejecting]], rejecting, rec.request_id, def.formType, 'Rejected', `  ${reason}  `);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const form = res.body.form;
        const p = STAGES[rejecting].prefix;
        expect(form[`${p}_approval`]).toBe('Rejected');
        expect(form[`${p}_rejected_reason`]).toBe(reason);
        expect(form.status).toBe('Rejected');
        expect(form.current_stage).toBeNull();
        // the stages after the rejection can never be decided
        for (let j = k + 1; j < def.chain.length; j += 1) {
          const s = def.chain[j] as Exclude<Stage, 'it_helpdesk'>;
          const later = await decideVia(clients[approverOf[s]], s, rec.request_id, def.formType, 'Approved');
          expect(later.status).toBe(409);
          expect(later.body.error).toMatch(/already rejected/);
        }
        // nor the rejected stage again
        const again = await decideVia(clients[approverOf[rejecting]], rejecting, rec.request_id, def.formType, 'Approved');
        expect(again.status).toBe(409);
        expect(again.body.error).toBe('This request has already been decided');
        if (['facility-access', 'meeting-room'].includes(def.formType)) expect(form.next_stage).toBe('Rejected - No Further Action');
      });
    }
  }
});

describe('out-of-order decisions are refused', () => {
  /**
   * A new employee's request of `formType`, then `approver` (by stage) tries `stage` before the stages ahead of it:
   * 409 with `error`, and no request, approval, history event or notification changed.
   */
  async function refusedOutOfOrder(
    formType: string,
    stage: Exclude<Stage, 'it_helpdesk'>,
    decision: 'Approved' | 'Rejected',
    error: string,
  ) {
    const { employee } = await f.team();
    const rec = await f.request({ owner: employee, formType });
    const approver = await f.login(await f.approverFor(employee, stage));
    const before = await stateFingerprint(t);
    const res = await decideVia(approver, stage, rec.request_id, formType, decision, decision === 'Rejected' ? 'No budget' : undefined);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error).toBe(error);
    expect(await stateFingerprint(t)).toEqual(before);
    const row = await t.db.query('SELECT status, current_stage FROM requests WHERE id = $1', [rec.id]);
    expect(row.rows[0]).toEqual({ status: 'Pending', current_stage: rec.current_stage });
    const approvals = await t.db.query('SELECT stage, decision, signer_id FROM approvals WHERE request_pk = $1 ORDER BY seq', [rec.id]);
    expect(approvals.rows.every((a) => a.decision === 'Pending' && a.signer_id === null)).toBe(true);
    const events = await t.db.query('SELECT event_type FROM request_events WHERE request_pk = $1', [rec.id]);
    expect(events.rows.map((e) => e.event_type)).toEqual(['submitted']);
  }

  it('finance before the line manager', async () => {
    await refusedOutOfOrder('purchase-requisition', 'finance', 'Approved', 'Finance can only decide after the line manager has approved');
  });
  it('finance rejecting before the line manager', async () => {
    await refusedOutOfOrder('petty-cash', 'finance', 'Rejected', 'Finance can only decide after the line manager has approved');
  });
  it('the facilities manager before the desk', async () => {
    await refusedOutOfOrder(
      'facility-access',
      'facilities_manager',
      'Approved',
      'The facilities manager can only decide after the facilities desk has approved',
    );
  });
  it('HR before the line manager on a leave request', async () => {
    await refusedOutOfOrder('leave-request', 'hr', 'Approved', 'HR can only decide after the line manager has approved');
  });
  it('a decided stage cannot be decided again, even with the other decision', async () => {
    const rec = await submitAs(EMAIL.alex, 'expense-reimbursement');
    expect((await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved')).status).toBe(200);
    const res = await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Rejected', 'Changed my mind');
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This request has already been decided');
  });
  it('a stage that the form type does not have: its approvers do not see the request, which answers like a missing one', async () => {
    const rec = await submitAs(EMAIL.alex, 'info-update');
    const res = await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Request not found' });
    const fin = await decideVia(clients.arjun, 'finance', rec.request_id, rec.form_type, 'Approved');
    expect(fin.status).toBe(404);
    expect(fin.body).toEqual({ error: 'Request not found' });
  });
});

describe('only the stage approver decides', () => {
  it("another manager's team is refused", async () => {
    const rec = await submitAs(EMAIL.alex, 'leave-request');
    // Another manager does not see the request at all: it answers like a missing one.
    const res = await decideVia(clients.daniel, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Request not found' });
    // the manager's manager is not the line manager either
    expect((await decideVia(clients.victoria, 'line_manager', rec.request_id, rec.form_type, 'Approved')).status).toBe(404);
  });
  it("an HR officer who is not the employee's HR contact is refused", async () => {
    const rec = await submitAs(EMAIL.alex, 'info-update');
    const res = await decideVia(clients.tom, 'hr', rec.request_id, rec.form_type, 'Approved');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Request not found' });
  });
  it('non-finance users cannot decide the finance step, nor desk/manager steps', async () => {
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    const res = await clients.priya.post('/api/finance/update-status', { form_id: rec.request_id, approval: 'Approved' });
    expect(res.status).toBe(403);
    const fa = await submitAs(EMAIL.alex, 'meeting-room');
    expect((await clients.kenji.post('/api/facilities-desk/update-status', { form_id: fa.request_id, status: 'Approved' })).status).toBe(
      403,
    );
    expect((await clients.sofia.post('/api/facilities-manager/update-status', { form_id: fa.request_id, status: 'Approved' })).status).toBe(
      403,
    );
  });
  it("ids in the body that are not the caller's are 403 and change nothing", async () => {
    const rec = await submitAs(EMAIL.alex, 'travel-request');
    const daniel = clients.daniel.user;
    const res = await clients.priya.post('/api/manager/update-status', {
      form_id: rec.request_id,
      form_type: rec.form_type,
      status: 'Approved',
      manager_id: daniel.profile.manager_id,
    });
    expect(res.status).toBe(403);
    expect(
      (await clients.priya.post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved', manager_id: 9999 })).status,
    ).toBe(403);
    const info = await submitAs(EMAIL.alex, 'info-update');
    expect(
      (await clients.meera.post('/api/hr/update-status', { form_id: info.request_id, status: 'Approved', hr_id: 'HR-002' })).status,
    ).toBe(403);
    expect(
      (
        await clients.arjun.post('/api/finance/update-status', {
          form_id: rec.request_id,
          approval: 'Approved',
          finance_id: String(clients.hannah.user.id),
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await clients.sofia.post('/api/facilities-desk/update-status', {
          form_id: 'MR-000001',
          status: 'Approved',
          facilities_id: 'OPS-002',
        })
      ).status,
    ).toBe(403);
    const dec = await t.db.query(`SELECT count(*)::int AS n FROM approvals WHERE request_pk = ANY($1) AND decision <> 'Pending'`, [
      [rec.id, info.id],
    ]);
    expect(dec.rows[0].n).toBe(0);
    // manager_id given as the caller's own employee code or user id is accepted
    const ok = await clients.priya.post('/api/manager/update-status', {
      form_id: rec.request_id,
      status: 'Approved',
      manager_id: String(clients.priya.user.id),
    });
    expect(ok.status).toBe(200);
  });
  it('nobody decides their own request (finance staff submitting petty cash)', async () => {
    const rec = await submitAs(EMAIL.arjun, 'petty-cash');
    expect((await decideVia(clients.victoria, 'line_manager', rec.request_id, rec.form_type, 'Approved')).status).toBe(200);
    const own = await decideVia(clients.arjun, 'finance', rec.request_id, rec.form_type, 'Approved');
    expect(own.status).toBe(403);
    expect(own.body.error).toBe('You cannot decide on your own request');
    expect((await decideVia(clients.hannah, 'finance', rec.request_id, rec.form_type, 'Approved')).status).toBe(200);
  });
  it('IT items cannot be decided here', async () => {
    const rec = await submitAs(EMAIL.alex, 'password-reset', { system_for_reset: 'VPN', reset_reason: 'Locked Account' });
    const res = await clients.priya.post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved' });
    expect(res.status).toBe(400);
    const viaService = decideStage(t.db, await userByEmail(t.db, EMAIL.priya), { ref: rec.request_id, decision: 'Approved' });
    await expect(viaService).rejects.toMatchObject({ statusCode: 403 });
  });
  it('unknown requests are 404; a wrong form_type is 400', async () => {
    expect((await decideVia(clients.priya, 'line_manager', 'LR-999999', 'leave-request', 'Approved')).status).toBe(404);
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    const res = await clients.priya.post('/api/manager/update-status', {
      form_id: rec.request_id,
      form_type: 'leave-request',
      status: 'Approved',
    });
    expect(res.status).toBe(400);
  });
});

describe('decision input', () => {
  it('a rejection needs a reason of at most 300 characters', async () => {
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    for (const reason of ['', '    ']) {
      const res = await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Rejected', reason);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Please give a reason for the rejection');
    }
    const long = await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Rejected', 'x'.repeat(301));
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('The rejection reason can have at most 300 characters');
    const max = await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Rejected', 'y'.repeat(300));
    expect(max.status).toBe(200);
    expect(max.body.form.line_manager_rejected_reason).toBe('y'.repeat(300));
  });
  it('HR may reject with an empty reason, stored as sent', async () => {
    const rec = await submitAs(EMAIL.alex, 'info-update');
    const res = await decideVia(clients.meera, 'hr', rec.request_id, rec.form_type, 'Rejected', '');
    expect(res.status).toBe(200);
    expect(res.body.form.hr_approval).toBe('Rejected');
    const row = await t.db.query(`SELECT rejection_reason FROM approvals WHERE request_pk = $1 AND stage = 'hr'`, [rec.id]);
    expect(row.rows[0].rejection_reason).toBe('');
  });
  it('status must be Approved or Rejected', async () => {
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    for (const status of ['Maybe', 'Pending', 'Completed']) {
      const res = await clients.priya.post('/api/manager/update-status', { form_id: rec.request_id, status });
      expect(res.status).toBe(400);
    }
    expect((await clients.priya.post('/api/manager/update-status', { form_id: rec.request_id })).status).toBe(400);
  });
  it('comments are stored and the reason goes to the event log', async () => {
    const rec = await submitAs(EMAIL.alex, 'travel-request');
    const res = await clients.priya.post('/api/manager/update-status', {
      form_id: rec.request_id,
      status: 'Rejected',
      comments: 'Discussed in 1:1',
      rejection_reason: 'Use video calls',
    });
    expect(res.status).toBe(200);
    expect(res.body.form.line_manager_comments).toBe('Discussed in 1:1');
    const ev = await t.db.query(`SELECT actor_id, details FROM request_events WHERE request_pk = $1 AND event_type = 'decision'`, [rec.id]);
    expect(ev.rows[0].actor_id).toBe(clients.priya.user.id);
    expect(ev.rows[0].details).toMatchObject({
      rejection_reason: 'Use video calls',
      comments: 'Discussed in 1:1',
      signer_name: 'Priya Sharma',
    });
  });
});

describe('concurrent decisions', () => {
  it('25 decisions at once on one request give exactly one success', async () => {
    const rec = await submitAs(EMAIL.alex, 'petty-cash');
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, i % 2 ? 'Approved' : 'Rejected', `Reason ${i}`),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(24);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error).toBe('This request has already been decided');
    const ev = await t.db.query(`SELECT count(*)::int AS n FROM request_events WHERE request_pk = $1 AND event_type = 'decision'`, [
      rec.id,
    ]);
    expect(ev.rows[0].n).toBe(1);
  });
  it('two finance officers at once: one decides, the other gets 409', async () => {
    const rec = await submitAs(EMAIL.alex, 'purchase-requisition');
    await decideVia(clients.priya, 'line_manager', rec.request_id, rec.form_type, 'Approved');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        decideVia(i % 2 ? clients.arjun : clients.hannah, 'finance', rec.request_id, rec.form_type, 'Approved'),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  });
  it('the service itself: 20 parallel decideStage calls, one winner', async () => {
    const rec = await submitAs(EMAIL.alex, 'meeting-room');
    const sofia = await userByEmail(t.db, EMAIL.sofia);
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, () => decideStage(t.db, sofia, { ref: rec.request_id, decision: 'Approved' })),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(rejected.every((r) => r.reason.statusCode === 409)).toBe(true);
  });
});

describe('approval counters stay exact', () => {
  it('approval_counts equals a recount of the tables after all the above', async () => {
    const diff = await t.db.query(`
      SELECT count(*)::int AS n FROM (
        SELECT approval_count_approver(a.stage, r.line_manager_id, r.hr_contact_id) ap, a.stage, r.form_type,
               approval_count_state(a.decision, a.stage, r.current_stage) st, count(*) n
          FROM approvals a JOIN requests r ON r.id = a.request_pk GROUP BY 1, 2, 3, 4) x
      FULL JOIN (SELECT approver_id ap, stage, form_type, state st, sum(n) n FROM approval_counts GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0) y
      USING (ap, stage, form_type, st) WHERE x.n IS DISTINCT FROM y.n`);
    expect(diff.rows[0].n).toBe(0);
  });
});
