// The request policy as a table: viewer (role and relation to the request) x form type x stage state ->
// may view, may see sensitive fields. Then the SQL form of the rule against the function on every seeded
// request for every demo role, so lists and single reads can never disagree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES } from '../../domain/forms.js';
import { factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { type RequestFacts, type Viewer, canSeeSensitive, canViewRequest, viewScopeSql, withoutSensitive } from './requests.js';

const OWNER = 1,
  MANAGER = 2,
  HR_CONTACT = 3;
const people: Record<string, Viewer> = {
  owner: { id: OWNER, role: 'Software Engineer', user_type: 'employee' },
  'line manager': { id: MANAGER, role: 'Department Manager', user_type: 'line_manager' },
  'other line manager': { id: 10, role: 'Team Lead', user_type: 'line_manager' },
  'HR contact': { id: HR_CONTACT, role: 'HR Officer', user_type: 'hr_staff' },
  'other HR': { id: 11, role: 'HR Manager', user_type: 'hr_staff' },
  finance: { id: 4, role: 'Finance Officer', user_type: 'finance_staff' },
  'facilities desk': { id: 5, role: 'Facilities Desk Coordinator', user_type: 'facilities_staff' },
  'facilities manager': { id: 6, role: 'Facilities Manager', user_type: 'facilities_manager' },
  IT: { id: 7, role: 'IT Support Officer', user_type: 'it_staff' },
  colleague: { id: 8, role: 'Employee', user_type: 'employee' },
};

type State =
  | 'waiting on first stage'
  | 'first stage approved'
  | 'rejected at first stage'
  | 'withdrawn at first stage'
  | 'withdrawn at second stage'
  | 'decided';

const CHAINS: Record<string, string[]> = {
  'leave-request': ['line_manager', 'hr'],
  'info-update': ['hr'],
  'travel-request': ['line_manager', 'finance'],
  'expense-reimbursement': ['line_manager'],
  'meeting-room': ['facilities_desk', 'facilities_manager'],
  'it-incident': ['it_helpdesk'],
  'password-reset': ['it_helpdesk'],
};

/** A request in a state: the rule must give the same answer whatever the approval rows say. */
function request(
  formType: string,
  state: State,
): RequestFacts & { current_stage: string | null; approvals: Array<{ stage: string; decision: string }> } {
  const chain = CHAINS[formType];
  const d = (i: number) => {
    if (state === 'decided') return 'Approved';
    if (i === 0)
      return state === 'first stage approved' || state === 'withdrawn at second stage'
        ? 'Approved'
        : state === 'rejected at first stage'
          ? 'Rejected'
          : 'Pending';
    return 'Pending';
  };
  const current = state === 'waiting on first stage' ? chain[0] : state === 'first stage approved' ? (chain[1] ?? null) : null;
  return {
    employee_user_id: OWNER,
    line_manager_id: MANAGER,
    hr_contact_id: HR_CONTACT,
    form_type: formType,
    current_stage: current,
    approvals: chain.map((stage, i) => ({ stage, decision: d(i) })),
  };
}

// [viewer, form type, state, may view, may see sensitive fields]
const TABLE: Array<[string, string, State, boolean, boolean]> = [
  // the owner sees everything of their own, whatever its state
  ['owner', 'info-update', 'waiting on first stage', true, true],
  ['owner', 'leave-request', 'withdrawn at first stage', true, true],
  ['owner', 'meeting-room', 'decided', true, true],
  // the line manager: types with a line-manager stage, in every state; the view-only IT items; nothing else
  ['line manager', 'leave-request', 'waiting on first stage', true, true],
  ['line manager', 'leave-request', 'decided', true, true],
  ['line manager', 'expense-reimbursement', 'waiting on first stage', true, true],
  ['line manager', 'travel-request', 'rejected at first stage', true, true],
  ['line manager', 'it-incident', 'waiting on first stage', true, false],
  ['line manager', 'password-reset', 'decided', true, false],
  ['line manager', 'info-update', 'waiting on first stage', false, false],
  ['line manager', 'meeting-room', 'waiting on first stage', false, false],
  ['other line manager', 'leave-request', 'waiting on first stage', false, false],
  // the HR contact: the HR types, in every state; nothing else
  ['HR contact', 'info-update', 'waiting on first stage', true, true],
  ['HR contact', 'leave-request', 'waiting on first stage', true, true],
  ['HR contact', 'leave-request', 'first stage approved', true, true],
  ['HR contact', 'leave-request', 'withdrawn at second stage', true, true],
  ['HR contact', 'leave-request', 'decided', true, true],
  ['HR contact', 'leave-request', 'rejected at first stage', true, true],
  ['HR contact', 'leave-request', 'withdrawn at first stage', true, true],
  ['HR contact', 'travel-request', 'first stage approved', false, false],
  ['HR contact', 'expense-reimbursement', 'decided', false, false],
  ['other HR', 'info-update', 'waiting on first stage', false, false],
  ['other HR', 'leave-request', 'first stage approved', false, false],
  // role-wide queues: every request of their types, in every state
  ['finance', 'travel-request', 'waiting on first stage', true, true],
  ['finance', 'travel-request', 'rejected at first stage', true, true],
  ['finance', 'leave-request', 'first stage approved', false, false],
  ['finance', 'expense-reimbursement', 'waiting on first stage', false, false],
  ['finance', 'info-update', 'waiting on first stage', false, false],
  ['facilities desk', 'meeting-room', 'waiting on first stage', true, true],
  ['facilities desk', 'travel-request', 'waiting on first stage', false, false],
  ['facilities manager', 'meeting-room', 'waiting on first stage', true, true],
  ['facilities manager', 'meeting-room', 'decided', true, true],
  ['facilities manager', 'it-incident', 'waiting on first stage', false, false],
  ['IT', 'it-incident', 'waiting on first stage', true, true],
  ['IT', 'password-reset', 'decided', true, true],
  ['IT', 'leave-request', 'waiting on first stage', false, false],
  ['IT', 'info-update', 'waiting on first stage', false, false],
  // a colleague sees nothing of someone else's
  ['colleague', 'leave-request', 'waiting on first stage', false, false],
  ['colleague', 'meeting-room', 'decided', false, false],
];

describe('the request policy (table)', () => {
  for (const [who, type, state, view, sensitive] of TABLE) {
    it(`${who} x ${type} (${state}) -> view ${view}, sensitive ${sensitive}`, () => {
      const req = request(type, state);
      expect(canViewRequest(people[who], req)).toBe(view);
      expect(canSeeSensitive(people[who], req)).toBe(sensitive);
    });
  }

  it('removes the sensitive fields for everyone but the owner and the deciders', () => {
    const info = request('info-update', 'waiting on first stage');
    const rec = {
      request_id: 'IU-000001',
      update_type: 'Bank Details',
      old_information: 'DE89 3704',
      new_information: 'GB29 NWBK',
      bank_account: 'x',
      status: 'Pending',
    };
    expect(withoutSensitive(people.owner, info, rec)).toEqual(rec);
    expect(withoutSensitive(people['HR contact'], info, rec)).toEqual(rec);
    expect(withoutSensitive(people['line manager'], info, rec)).toEqual({
      request_id: 'IU-000001',
      update_type: 'Bank Details',
      status: 'Pending',
    });
    const reset = request('password-reset', 'decided');
    const secret = { request_id: 'PWR-000001', new_password: 'S3cret!', has_new_password: true };
    expect(withoutSensitive(people['line manager'], reset, secret)).toEqual({ request_id: 'PWR-000001', has_new_password: true });
    // the server's own facts under symbol keys (who signed which stage) survive the copy: the rules still need them
    const signers = Symbol('signers');
    const withFacts = { ...secret, [signers]: [{ stage: 'line_manager', signer_id: 2 }] };
    expect((withoutSensitive(people['line manager'], reset, withFacts) as Record<symbol, unknown>)[signers]).toEqual([
      { stage: 'line_manager', signer_id: 2 },
    ]);
  });

  it("keeps a reset's new password for its owner alone, even from IT who decides the reset", () => {
    const secret = { request_id: 'PWR-000001', new_password: 'S3cret!', has_new_password: true, it_support_status: 'Password Set' };
    for (const state of ['waiting on first stage', 'decided'] as const) {
      const reset = request('password-reset', state);
      expect(canSeeSensitive(people.IT, reset)).toBe(true); // IT decides it, but never reads the password back
      for (const who of Object.keys(people).filter((p) => p !== 'owner')) {
        expect(withoutSensitive(people[who], reset, secret), `${who} (${state})`).not.toHaveProperty('new_password');
      }
      expect(withoutSensitive(people.owner, reset, secret)).toEqual(secret);
      expect(withoutSensitive(people.IT, reset, secret)).toEqual({
        request_id: 'PWR-000001',
        has_new_password: true,
        it_support_status: 'Password Set',
      });
    }
  });
});

describe('the SQL form of the rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    // Besides the demo data: a team of its own with a request of every form type in each state the factories make,
    // a withdrawn one, and a colleague, another manager and HR officer who must not see them.
    const f = factories(t);
    const { employee, manager, hr } = await f.team();
    await Promise.all([f.person({ manager, hr_contact: hr }), f.person({ kind: 'line_manager' }), f.person({ kind: 'hr' })]);
    for (const def of FORM_TYPES) {
      if (def.chain.includes('it_helpdesk')) continue;
      await f.request({ owner: employee, formType: def.formType });
      await f.request({ owner: employee, formType: def.formType, state: 'approved' });
      await f.request({ owner: employee, formType: def.formType, state: { rejectedAt: def.chain[0] } });
      if (def.chain.length > 1) await f.request({ owner: employee, formType: def.formType, state: { pendingAt: def.chain[1] } });
    }
    for (const state of ['it-taken', 'it-resolved', 'it-closed'] as const)
      await f.request({ owner: employee, formType: 'it-incident', state });
    for (const state of ['pending', 'reset-pending-it', 'reset-password-set'] as const)
      await f.request({ owner: employee, formType: 'password-reset', state });
    const leave = await f.request({ owner: employee, formType: 'leave-request' });
    expect((await (await f.login(employee)).post(`/api/forms/leave-request/${leave.request_id}/withdraw`)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('selects exactly the requests canViewRequest allows, for every account', async () => {
    const users = (await t.db.query('SELECT id, role, user_type FROM users ORDER BY id')).rows as Viewer[];
    const rows = (
      await t.db.query(
        `SELECT r.id, r.employee_id AS employee_user_id, r.line_manager_id, r.hr_contact_id, r.form_type, r.current_stage,
              (SELECT json_agg(json_build_object('stage', a.stage, 'decision', a.decision, 'signer_id', a.signer_id) ORDER BY a.seq) FROM approvals a WHERE a.request_pk = r.id) AS approvals
         FROM requests r ORDER BY r.id`,
      )
    ).rows as Array<RequestFacts & { id: number }>;
    expect(rows.length).toBeGreaterThan(50);
    let seenBySomeoneElse = 0;
    for (const u of users) {
      const sql = (await t.db.query(`SELECT r.id FROM requests r WHERE ${viewScopeSql(u, '$1')} ORDER BY r.id`, [u.id])).rows.map(
        (x) => x.id,
      );
      const fn = rows.filter((r) => canViewRequest(u, r)).map((r) => r.id);
      expect(sql, `user ${u.id} (${u.role})`).toEqual(fn);
      seenBySomeoneElse += rows.filter((r) => r.employee_user_id !== u.id && canViewRequest(u, r)).length;
    }
    expect(seenBySomeoneElse).toBeGreaterThan(0);
  }, 60_000);
});
