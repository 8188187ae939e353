// Company settings (issue 18): holidays (the company's own and the regional calendars that apply) and the leave
// policy. Administrators only; every change is audited; the form calendar, leave day counts and the assistant use
// the holidays; another instance's change is heard through PostgreSQL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleInput } from '../approvals/test-helpers.js';
import { calendarSettings } from '../calendar/company.js';
import { holidayNames } from '../assistant/engine/info.js';
import { workingDays } from '../forms/leave.js';
import { type Factories, type Person, factories } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
let admin: Person;
let adminApi: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.person({ kind: 'admin' });
  adminApi = await f.login(admin);
});
afterAll(async () => {
  await t?.close();
});

/** A DELETE as `client` (the harness clients have no DELETE). */
async function del(client: ApiClient, url: string) {
  const res = await t.app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${client.token}` } });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

async function auditRows(action: string) {
  const r = await t.db.query(`SELECT * FROM admin_audit WHERE action = $1 ORDER BY id`, [action]);
  return r.rows;
}

async function settingsDigest() {
  const r = await t.db.query(
    `SELECT (SELECT json_agg(s ORDER BY key) FROM company_settings s) AS s, (SELECT json_agg(h ORDER BY id) FROM company_holidays h) AS h,
            (SELECT json_agg(u.annual_leave_total ORDER BY id) FROM users u) AS u`,
  );
  return JSON.stringify(r.rows[0]);
}

describe('who may change company settings', () => {
  it('answers 403 to every non-administrator, before reading the input, and changes nothing', async () => {
    const clients = [];
    for (const kind of ['employee', 'line_manager', 'hr', 'it'] as const) clients.push(await f.login(await f.person({ kind })));
    const before = await settingsDigest();
    for (const api of clients) {
      const calls = [
        await api.get('/api/admin/settings/holidays'),
        await api.get('/api/admin/settings/holiday-regions'),
        await api.put('/api/admin/settings/holiday-regions', { regions: ['US'] }),
        await api.post('/api/admin/settings/holidays', { date: '2026-06-01', name: 'Sneaky day' }),
        await api.post('/api/admin/settings/holidays', { bad: 'input' }),
        await api.put('/api/admin/settings/holidays/1', { date: '2026-06-01', name: 'Sneaky day' }),
        await del(api, '/api/admin/settings/holidays/1'),
        await api.get('/api/admin/settings/leave-policy'),
        await api.put('/api/admin/settings/leave-policy', { default_annual_leave: 30 }),
        await api.put(`/api/admin/settings/leave-policy/overrides/${api.user.employee_code}`, { annual_leave_total: 99 }),
        await del(api, `/api/admin/settings/leave-policy/overrides/${api.user.employee_code}`),
      ];
      for (const res of calls) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: 'Only an administrator can do that' });
      }
    }
    expect((await t.anonymous.get('/api/admin/settings/holidays')).status).toBe(401);
    expect(await settingsDigest()).toBe(before);
  });
});

describe('company holidays', () => {
  beforeEach(async () => {
    await t.db.query('DELETE FROM company_holidays');
    await adminApi.put('/api/admin/settings/holiday-regions', { regions: ['IN'] });
  });

  it('adds a closed holiday: the form calendar shows it and leave days do not count it; edit and remove are audited', async () => {
    const employee = await f.login(await f.person());
    // Monday 7 June 2027 to Friday 11 June: five working days before the holiday exists.
    expect(workingDays('2027-06-07', '2027-06-11')).toBe(5);

    const add = await adminApi.post('/api/admin/settings/holidays', { date: '2027-06-09', name: '  Founders   Day ' });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ date: '2027-06-09', name: 'Founders Day', closed: true });
    const stored = await t.db.query(`SELECT to_char(date, 'YYYY-MM-DD') AS date, name, closed FROM company_holidays`);
    expect(stored.rows).toEqual([{ date: '2027-06-09', name: 'Founders Day', closed: true }]);
    const created = await auditRows('holiday.create');
    expect(created.at(-1)).toMatchObject({ actor_id: admin.id, target_type: 'holiday', target_id: String(add.body.id) });
    expect(created.at(-1).after).toMatchObject({ date: '2027-06-09', name: 'Founders Day' });

    const cal = await employee.get('/api/calendar/holidays?year=2027');
    expect(cal.body.holidays).toContainEqual({ date: '2027-06-09', name: 'Founders Day', type: 'public' });
    expect(workingDays('2027-06-07', '2027-06-11')).toBe(4);

    // A leave request over that week counts four days.
    const leave = await employee.post('/api/forms/leave-request', {
      ...sampleInput('leave-request'),
      leave_type: 'Annual',
      start_date: '2027-06-07',
      end_date: '2027-06-11',
    });
    expect(leave.status).toBe(201);
    const row = await t.db.query(`SELECT data->>'total_days' AS days FROM requests WHERE request_id = $1`, [leave.body.request_id]);
    expect(Number(row.rows[0].days)).toBe(4);

    // The assistant knows the holiday by name.
    expect(holidayNames(new Date('2027-05-01T00:00:00Z'))).toContain('founders day');

    // Edited into an open (working) day: shown, but counted as a working day again.
    const edit = await adminApi.put(`/api/admin/settings/holidays/${add.body.id}`, {
      date: '2027-06-10',
      name: 'Founders Day',
      closed: false,
    });
    expect(edit.status).toBe(200);
    expect(workingDays('2027-06-07', '2027-06-11')).toBe(5);
    const updated = (await auditRows('holiday.update')).at(-1);
    expect(updated.before).toMatchObject({ date: '2027-06-09', closed: true });
    expect(updated.after).toMatchObject({ date: '2027-06-10', closed: false });

    const gone = await del(adminApi, `/api/admin/settings/holidays/${add.body.id}`);
    expect(gone.status).toBe(204);
    expect((await t.db.query('SELECT count(*)::int AS n FROM company_holidays')).rows[0].n).toBe(0);
    expect((await auditRows('holiday.delete')).at(-1).before).toMatchObject({ name: 'Founders Day' });
    const after = await employee.get('/api/calendar/holidays?year=2027');
    expect(after.body.holidays.some((h: { name: string }) => h.name === 'Founders Day')).toBe(false);
  });

  it('refuses bad input and duplicates with a clear error and changes nothing', async () => {
    await adminApi.post('/api/admin/settings/holidays', { date: '2026-07-10', name: 'Summer Day' });
    const before = await settingsDigest();
    const cases: Array<[unknown, number, RegExp]> = [
      [{ date: '2026-02-30', name: 'X' }, 400, /real date/],
      [{ date: 'tomorrow', name: 'X' }, 400, /real date/],
      [{ date: '2200-01-01', name: 'X' }, 400, /between 1971 and 2099/],
      [{ date: '2026-07-11', name: '   ' }, 400, /name is required/],
      [{ date: '2026-07-11', name: 'x'.repeat(101) }, 400, /at most 100/],
      [{ date: '2026-07-11' }, 400, /name/],
      [{ date: '2026-07-11', name: 'X', closed: 'yes' }, 400, /closed/],
      [{ date: '2026-07-10', name: 'summer day' }, 409, /already has a holiday/],
    ];
    for (const [body, status, msg] of cases) {
      const res = await adminApi.post('/api/admin/settings/holidays', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toMatch(msg);
    }
    expect((await adminApi.put('/api/admin/settings/holidays/999999', { date: '2026-07-11', name: 'X' })).status).toBe(404);
    expect((await del(adminApi, '/api/admin/settings/holidays/999999')).status).toBe(404);
    expect((await del(adminApi, '/api/admin/settings/holidays/abc')).status).toBe(400);
    expect(await settingsDigest()).toBe(before);
  });

  it('lists the settings for the screen', async () => {
    await adminApi.post('/api/admin/settings/holidays', { date: '2026-12-31', name: 'Year End', closed: false });
    const res = await adminApi.get('/api/admin/settings/holidays');
    expect(res.status).toBe(200);
    expect(res.body.regions).toEqual([{ code: 'IN', name: 'India' }]);
    expect(res.body.company_holidays).toEqual([{ id: expect.any(Number), date: '2026-12-31', name: 'Year End', closed: false }]);
    const countries = await adminApi.get('/api/admin/settings/holiday-regions');
    expect(countries.body.regions).toContainEqual({ code: 'US', name: 'United States of America' });
    const states = await adminApi.get('/api/admin/settings/holiday-regions?country=US');
    expect(states.body.regions).toContainEqual({ code: 'US-CA', name: 'California' });
    expect((await adminApi.get('/api/admin/settings/holiday-regions?country=ZZ')).status).toBe(400);
  });
});

describe('regional calendars', () => {
  afterAll(async () => {
    await adminApi.put('/api/admin/settings/holiday-regions', { regions: ['IN'] });
  });

  it("replaces India's calendar by the chosen regions in the form calendar and the leave day count", async () => {
    const employee = await f.login(await f.person());
    // Friday 2 October 2026 is Gandhi Jayanti (closed in India); Thursday 26 November is Thanksgiving (US).
    expect(workingDays('2026-09-28', '2026-10-02')).toBe(4);
    expect(workingDays('2026-11-25', '2026-11-27')).toBe(3);

    const res = await adminApi.put('/api/admin/settings/holiday-regions', { regions: ['us-ca'] });
    expect(res.status).toBe(200);
    expect(res.body.regions).toEqual([{ code: 'US-CA', name: 'United States of America (California)' }]);
    expect((await t.db.query(`SELECT value FROM company_settings WHERE key = 'holiday_regions'`)).rows[0].value).toEqual(['US-CA']);
    const audit = (await auditRows('holiday_regions.update')).at(-1);
    expect(audit.before).toEqual({ regions: ['IN'] });
    expect(audit.after).toEqual({ regions: ['US-CA'] });

    expect(workingDays('2026-09-28', '2026-10-02')).toBe(5);
    // Thanksgiving and the day after are public holidays in California.
    expect(workingDays('2026-11-25', '2026-11-27')).toBe(1);
    const cal = await employee.get('/api/calendar/holidays?year=2026');
    const names = cal.body.holidays.map((h: { name: string }) => h.name);
    expect(names).toContain('Thanksgiving Day');
    expect(names).not.toContain('Diwali');

    // Both together: India's closed holidays and California's.
    await adminApi.put('/api/admin/settings/holiday-regions', { regions: ['IN', 'US-CA'] });
    expect(workingDays('2026-09-28', '2026-10-02')).toBe(4);
    expect(workingDays('2026-11-25', '2026-11-27')).toBe(1);
  });

  it('refuses unknown, repeated or no regions', async () => {
    await adminApi.put('/api/admin/settings/holiday-regions', { regions: ['IN'] });
    const before = await settingsDigest();
    for (const [regions, msg] of [
      [[], /at least one/],
      [['XX'], /Unknown regional calendar: XX/],
      [['US-ZZ'], /Unknown regional calendar/],
      [['IN', 'in'], /twice/],
      ['IN', /list/],
    ] as const) {
      const res = await adminApi.put('/api/admin/settings/holiday-regions', { regions });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(msg);
    }
    expect(await settingsDigest()).toBe(before);
  });
});

describe('another instance', () => {
  it("hears a change committed elsewhere through PostgreSQL's signal", async () => {
    await t.db.query(`INSERT INTO company_holidays (date, name) VALUES ('2027-03-03', 'Signal Day')`);
    const deadline = Date.now() + 5000;
    while (!calendarSettings().holidays.some((h) => h.name === 'Signal Day') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(calendarSettings().holidays.some((h) => h.name === 'Signal Day')).toBe(true);
    // Wednesday 3 March 2027.
    expect(workingDays('2027-03-01', '2027-03-05')).toBe(4);
  });
});

describe('leave policy', () => {
  it('changes the default for everyone who follows it, keeps overrides, and puts the default back', async () => {
    const follower = await f.person();
    const special = await f.person({ annual_leave_total: 20 });
    const start = await adminApi.get('/api/admin/settings/leave-policy');
    expect(start.body.default_annual_leave).toBe(12);
    expect(start.body.overrides).toContainEqual({
      employee_code: special.employee_code,
      name: special.name,
      department: special.department,
      annual_leave_total: 20,
    });
    expect(start.body.overrides.some((o: { employee_code: string }) => o.employee_code === follower.employee_code)).toBe(false);

    const res = await adminApi.put('/api/admin/settings/leave-policy', { default_annual_leave: 15 });
    expect(res.status).toBe(200);
    expect(res.body.default_annual_leave).toBe(15);
    expect(res.body.moved).toBeGreaterThanOrEqual(1);
    const total = async (p: Person) =>
      Number((await t.db.query('SELECT annual_leave_total FROM users WHERE id = $1', [p.id])).rows[0].annual_leave_total);
    expect(await total(follower)).toBe(15);
    expect(await total(special)).toBe(20);
    const audit = (await auditRows('leave_policy.update')).at(-1);
    expect(audit.before).toEqual({ default_annual_leave: 12 });
    expect(audit.after).toMatchObject({ default_annual_leave: 15 });
    // The person's balance shows the new allowance.
    const followerApi = await f.login(follower);
    const bal = await followerApi.get(`/api/forms/employee-leave-balance/${follower.id}`);
    expect(bal.body.annual_leave_total).toBe(15);

    const over = await adminApi.put(`/api/admin/settings/leave-policy/overrides/${follower.employee_code}`, { annual_leave_total: 18.5 });
    expect(over.status).toBe(200);
    expect(over.body).toMatchObject({ employee_code: follower.employee_code, annual_leave_total: 18.5, follows_default: false });
    expect(await total(follower)).toBe(18.5);
    expect((await auditRows('leave_override.update')).at(-1)).toMatchObject({ target_type: 'user', target_id: follower.employee_code });

    const back = await del(adminApi, `/api/admin/settings/leave-policy/overrides/${special.employee_code}`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ annual_leave_total: 15, follows_default: true });
    expect(await total(special)).toBe(15);
    expect((await auditRows('leave_override.delete')).at(-1).before).toEqual({ annual_leave_total: 20 });

    // A person the administrator adds without an allowance, one by one or from a CSV file, gets the default.
    const code = `NEW-${Date.now() % 100000}`;
    const created = await adminApi.post('/api/admin/people', {
      email: `${code.toLowerCase()}@example.test`,
      first_name: 'New',
      last_name: 'Starter',
      employee_code: code,
      role: 'Employee',
      user_type: 'employee',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.annual_leave_total).toBe(15);

    await adminApi.put('/api/admin/settings/leave-policy', { default_annual_leave: 12 });
  });

  it('refuses bad allowances and unknown people, changing nothing', async () => {
    const p = await f.person();
    const before = await settingsDigest();
    for (const v of [-1, 366, 2.25, '12']) {
      const res = await adminApi.put('/api/admin/settings/leave-policy', { default_annual_leave: v });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/default_annual_leave/);
      const o = await adminApi.put(`/api/admin/settings/leave-policy/overrides/${p.employee_code}`, { annual_leave_total: v });
      expect(o.status).toBe(400);
      expect(o.body.error).toMatch(/annual_leave_total/);
    }
    expect((await adminApi.put('/api/admin/settings/leave-policy/overrides/NOBODY-1', { annual_leave_total: 10 })).status).toBe(404);
    expect((await del(adminApi, '/api/admin/settings/leave-policy/overrides/NOBODY-1')).status).toBe(404);
    expect(await settingsDigest()).toBe(before);
  });
});
