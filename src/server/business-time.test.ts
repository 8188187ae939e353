// The organisation's calendar through the API: 'today', the year and working days are counted in the business
// time zone (Asia/Kolkata by default) whatever the server's own zone, with the clock injected to stand just
// before and after midnight in India (18:30 UTC).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_TIME_ZONE, businessTimeZone, setBusinessTimeZone } from '../domain/business-time.js';
import { decideVia } from './approvals/test-helpers.js';
import { addWorkingDays, extract } from './assistant/engine/extract.js';
import { loadConfig } from './config.js';
import { workingDays } from './forms/leave.js';
import { factories } from './test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from './test/harness.js';

let t: TestApp;
let alex: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  t.clock.offsetMs = 0;
});

/** Sets the app's clock to a moment (the clock keeps running from there, a few milliseconds per call). */
const at = (iso: string) => {
  t.clock.offsetMs = Date.parse(iso) - Date.now();
};

async function chat(client: ApiClient, message: string): Promise<string> {
  const res = await client.post('/ai/simple-chat', { message, tts: false });
  expect(res.status).toBe(200);
  return String(res.body.response);
}

describe('ADMINEASE_TIMEZONE', () => {
  it("defaults to the demo company's zone, takes an IANA name and stops the start on anything else, naming the variable", () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Kolkata');
    expect(loadConfig({ ADMINEASE_TIMEZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(loadConfig({ ADMINEASE_TIMEZONE: ' ' }).timeZone).toBe('Asia/Kolkata');
    for (const bad of ['India/Mumbai', 'IST', '+05:30']) {
      expect(() => loadConfig({ ADMINEASE_TIMEZONE: bad })).toThrow(/ADMINEASE_TIMEZONE/);
    }
  });

  it('the app counts in the configured zone', () => {
    expect(businessTimeZone()).toBe('Asia/Kolkata');
  });
});

describe('today across midnight in India', () => {
  it('an incident reported at 00:30 IST (19:00 UTC the day before) is dated the Indian day', async () => {
    at('2026-11-23T19:00:00Z');
    const after = await alex.post('/api/forms/it-incident', { affected_system: 'VPN', incident_description: 'VPN drops every minute' });
    expect(after.status).toBe(201);
    expect(after.body.incident_date).toBe('2026-11-24');

    at('2026-11-23T18:28:00Z'); // 23:58 IST
    const before = await alex.post('/api/forms/it-incident', {
      affected_system: 'Email',
      incident_description: 'Mail stuck in the outbox',
    });
    expect(before.status).toBe(201);
    expect(before.body.incident_date).toBe('2026-11-23');
  });

  it("a decision made at 00:30 IST carries the Indian day as its date, in the answer and in the request's details", async () => {
    const f = factories(t);
    for (const [moment, day] of [
      ['2026-11-23T19:00:00Z', '2026-11-24'], // 00:30 IST
      ['2026-11-23T18:28:00Z', '2026-11-23'], // 23:58 IST
    ] as const) {
      at(moment);
      const { employee, manager } = await f.team();
      const rec = await f.request({ owner: employee, formType: 'purchase-requisition' });
      const res = await decideVia(await f.login(manager), 'line_manager', rec.request_id, rec.form_type, 'Approved');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.form.line_manager_date, moment).toBe(day);
      const details = await (await f.login(employee)).get(`/api/forms/details/${rec.request_id}`);
      expect(details.body.line_manager_date, moment).toBe(day);
    }
  });

  it('GET /api/auth/config tells the web the zone and the business date', async () => {
    at('2026-11-23T19:00:00Z');
    const res = await t.anonymous.get('/api/auth/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ time_zone: 'Asia/Kolkata', business_date: '2026-11-24' });
  });

  it('the leave balance year turns at midnight IST on 1 January, the same for the REST answer and the assistant', async () => {
    for (const [moment, year] of [
      ['2026-12-31T18:25:00Z', 2026],
      ['2026-12-31T18:35:00Z', 2027],
    ] as const) {
      at(moment);
      const alex = await t.login('alex.johnson@adminease.test'); // a session of that moment
      const rest = await alex.get(`/api/forms/employee-leave-balance/${alex.user.id}`);
      expect(rest.status).toBe(200);
      expect(rest.body.year).toBe(year);
      const text = await chat(alex, 'what is my leave balance?');
      expect(text).toContain(`days of annual leave left for ${year}`);
      // the same number of days left in both answers
      expect(text).toContain(`You have ${rest.body.annual_leave_left} days`);
    }
  });
});

describe('working days: one count for the leave form and the assistant', () => {
  // Friday 22 January 2027 to Wednesday 27 January 2027: a weekend and Republic Day (Tuesday 26th) inside.
  const start = '2027-01-22',
    end = '2027-01-27';

  it('skips the weekend and the closed holiday', () => {
    expect(workingDays(start, end)).toBe(3);
    // 3 working days from that Friday end on the Wednesday, not on the holiday
    expect(addWorkingDays(start, 3)).toBe(end);
    expect(addWorkingDays(start, 4)).toBe('2027-01-28');
  });

  it('the leave form stores that count, and the assistant shows the same one', async () => {
    at('2026-11-24T06:00:00Z');
    const rest = await alex.post('/api/forms/leave-request', {
      leave_type: 'Casual',
      start_date: start,
      end_date: end,
      reason: 'Family function',
    });
    expect(rest.status).toBe(201);
    expect(rest.body.total_days).toBe(3);

    const maria = await t.login('maria.garcia@adminease.test');
    const text = await chat(maria, 'I want casual leave from 22 January 2027 to 27 January 2027 for a family function');
    expect(text).toMatch(/Working days: 3\b/);
  });
});

describe("the assistant's relative dates count from the business date", () => {
  it("'tomorrow' at 00:30 IST is the day after the Indian date, whatever the process's own zone", () => {
    const now = new Date('2026-11-23T19:00:00Z'); // Tuesday 24 November, 00:30 in India; still Monday in UTC and America
    const saved = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        expect(extract('tomorrow', now).dates[0]?.start_date).toBe('2026-11-25');
        expect(extract('today', now).dates[0]?.start_date).toBe('2026-11-24');
        // 'next monday' is the first Monday after Tuesday 24th
        expect(extract('next monday', now).dates[0]?.start_date).toBe('2026-11-30');
        expect(extract('on the 25th', now).dates[0]?.start_date).toBe('2026-11-25');
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('an app configured for another zone counts in that zone', async () => {
    const utc = await startTestApp({ ADMINEASE_TIMEZONE: 'UTC' });
    try {
      utc.clock.offsetMs = Date.parse('2026-11-23T19:00:00Z') - Date.now();
      const alexUtc = await utc.login('alex.johnson@adminease.test');
      const res = await alexUtc.post('/api/forms/it-incident', { affected_system: 'VPN', incident_description: 'VPN drops every minute' });
      expect(res.status).toBe(201);
      expect(res.body.incident_date).toBe('2026-11-23');
    } finally {
      await utc.close();
      setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE);
    }
  });
});
