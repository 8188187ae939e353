// The demo seed: the organisation of demo-org.json (a copy of shared/seed/demo-org.json: `npm run check:shared`), idempotent, and sample requests that make
// every dashboard, filter and chip show data on first start.
import { businessYear } from '../../domain/business-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES } from '../../domain/forms.js';
import { loadConfig } from '../config.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { workingDays } from '../forms/leave.js';
import { demoOrg, seedDemo } from './seed.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo organisation', () => {
  it('loads the 19 accounts with argon2id hashes and their reporting lines', async () => {
    const r = await t.db.query(`SELECT u.email, u.password_hash, m.email AS manager, h.email AS hr_contact FROM users u
      LEFT JOIN users m ON m.id = u.manager_id LEFT JOIN users h ON h.id = u.hr_contact_id`);
    expect(r.rowCount).toBe(19);
    for (const u of demoOrg.users) {
      const row = r.rows.find((x) => x.email === u.email);
      expect(row, u.email).toBeDefined();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.manager).toBe(u.manager);
      expect(row.hr_contact).toBe(u.hr_contact);
    }
  });

  it('is idempotent: a second run changes nothing', async () => {
    const before = await t.db.query('SELECT (SELECT count(*) FROM users)::int AS u, (SELECT count(*) FROM requests)::int AS r');
    expect(await seedDemo(t.db)).toBeUndefined();
    const after = await t.db.query('SELECT (SELECT count(*) FROM users)::int AS u, (SELECT count(*) FROM requests)::int AS r');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });
});

describe('sample requests', () => {
  it('cover every form type, for several employees, over the last six months and the coming weeks', async () => {
    const types = await t.db.query('SELECT DISTINCT form_type FROM requests');
    expect(types.rows.map((x) => x.form_type).sort()).toEqual(FORM_TYPES.map((f) => f.formType).sort());
    const people = await t.db.query('SELECT count(DISTINCT employee_id)::int AS n FROM requests');
    expect(people.rows[0].n).toBeGreaterThanOrEqual(6);
    const span = await t.db.query(
      `SELECT min(created_at) AS first, max(coalesce(data->>'start_date', data->>'booking_date', data->>'departure_date')) AS last_future FROM requests`,
    );
    expect(Date.now() - new Date(span.rows[0].first).getTime()).toBeGreaterThan(120 * 86_400_000);
    expect(span.rows[0].last_future > new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it('have requests pending at each stage of each chain, approved, and rejected with reasons', async () => {
    const pendingAt = await t.db.query('SELECT DISTINCT form_type, current_stage FROM requests WHERE current_stage IS NOT NULL');
    const seen = new Set(pendingAt.rows.map((x) => `${x.form_type}@${x.current_stage}`));
    for (const ft of FORM_TYPES) {
      for (const stage of ft.chain) {
        if (
          ft.chain.length > 1 ||
          ['leave-request', 'travel-request', 'petty-cash', 'purchase-requisition', 'meeting-room', 'facility-access'].includes(ft.formType)
        ) {
          expect(seen.has(`${ft.formType}@${stage}`), `${ft.formType} pending at ${stage}`).toBe(true);
        }
      }
    }
    const statuses = await t.db.query('SELECT status, count(*)::int AS n FROM requests GROUP BY status');
    const by = Object.fromEntries(statuses.rows.map((x) => [x.status, x.n]));
    expect(by.Approved).toBeGreaterThan(5);
    expect(by.Rejected).toBeGreaterThan(5);
    expect(by.Pending).toBeGreaterThan(5);
    const reasons = await t.db.query(
      "SELECT count(*)::int AS n FROM approvals WHERE decision = 'Rejected' AND coalesce(rejection_reason, '') <> ''",
    );
    const rejections = await t.db.query("SELECT count(*)::int AS n FROM approvals WHERE decision = 'Rejected'");
    expect(reasons.rows[0].n).toBe(rejections.rows[0].n);
  });

  it('have IT incidents in every state, with and without employee confirmation, and password resets in each IT support status', async () => {
    const inc = await t.db.query(
      `SELECT status, data->>'employee_confirmation_status' AS conf FROM requests WHERE form_type = 'it-incident'`,
    );
    const states = new Set(inc.rows.map((x) => x.status));
    for (const s of ['Open', 'Resolved', 'Closed']) expect(states.has(s), s).toBe(true);
    // none in a state the original IT dashboard offers no action for and nobody else would move on
    expect(states.has('In Progress')).toBe(false);
    expect(inc.rows.filter((x) => x.status === 'Resolved' && x.conf === 'Confirmed')).toEqual([]);
    const confs = new Set(inc.rows.map((x) => x.conf));
    for (const c of ['Pending', 'Confirmed', 'Rejected']) expect(confs.has(c), c).toBe(true);
    const pwd = await t.db.query(`SELECT DISTINCT data->>'it_support_status' AS s FROM requests WHERE form_type = 'password-reset'`);
    const its = new Set(pwd.rows.map((x) => x.s));
    for (const s of ['Pending Manager', 'Pending IT Action', 'Password Set', 'Completed', 'Rejected']) expect(its.has(s), s).toBe(true);
    const rejected = await t.db.query(
      `SELECT data->>'it_support_status' AS s FROM requests WHERE form_type = 'password-reset' AND status = 'Rejected'`,
    );
    expect(rejected.rows.map((x) => x.s)).toEqual(rejected.rows.map(() => 'Rejected'));
  });

  it('give every employee a leave balance', async () => {
    // Each person of the demo organisation, signed in, reads their own balance: the yearly entitlement, and the annual
    // and unpaid days of their approved leave this year (counted here from the dates of the requests they can list).
    const year = businessYear();
    let someoneUsedLeave = false;
    for (const u of demoOrg.users) {
      const c = await t.login(u.email);
      const res = await c.get(`/api/forms/employee-leave-balance/${c.user.id}`);
      expect(res.status, u.email).toBe(200);
      const leave = ((await c.get('/api/forms/user-forms')).body['leave-request'] ?? []) as Array<Record<string, string>>;
      const approved = leave.filter((r) => r.status === 'Approved' && r.start_date.startsWith(String(year)));
      const days = (type: string) =>
        approved.filter((r) => r.leave_type === type).reduce((n, r) => n + workingDays(r.start_date, r.end_date), 0);
      expect(res.body, u.email).toMatchObject({
        annual_leave_total: 12,
        annual_leave_used: days('Annual'),
        unpaid_leave_used: days('Unpaid'),
      });
      expect(res.body.annual_leave_total - res.body.annual_leave_used, u.email).toBeGreaterThanOrEqual(0);
      if (res.body.annual_leave_used > 0) someoneUsedLeave = true;
    }
    // the sample requests include approved annual leave this year, so the balance is not only the entitlement
    expect(someoneUsedLeave).toBe(true);
  });
});

describe('configuration', () => {
  it('loads the demo by default in embedded mode and not with DATABASE_URL unless ADMINEASE_DEMO=1', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ ADMINEASE_DEMO: '0' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', ADMINEASE_DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({}).port).toBe(3000);
    expect(loadConfig({ PORT: '4100' }).port).toBe(4100);
    expect(loadConfig({}).dataDir.endsWith('/data')).toBe(true);
  });
});
