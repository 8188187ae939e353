// GET /api/calendar/holidays, the optional calendar provider (one calendar failing is skipped) and the holiday
// source of leave working days.
import { businessYear } from '../../domain/business-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workingDays } from '../forms/leave.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { HolidayService, googleCalendarProvider } from './service.js';

let t: TestApp;
let alex: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/calendar/holidays', () => {
  it('answers the previous, current and next year, typed by name, offline', async () => {
    const res = await alex.get('/api/calendar/holidays?year=2026');
    expect(res.status).toBe(200);
    expect(res.body.years).toEqual([2025, 2026, 2027]);
    expect(res.body.source).toBe('offline');
    const list: Array<{ date: string; name: string; type: string }> = res.body.holidays;
    const find = (date: string, name: RegExp) => list.find((h) => h.date === date && name.test(h.name));
    expect(find('2026-01-26', /Republic Day/)).toMatchObject({ type: 'national' });
    expect(find('2026-08-15', /Independence Day/)).toMatchObject({ type: 'national' });
    expect(find('2026-10-02', /Gandhi Jayanti/)).toMatchObject({ type: 'national' });
    expect(find('2026-11-08', /Diwali/)).toMatchObject({ type: 'festival' });
    expect(find('2026-03-04', /Holi/)).toMatchObject({ type: 'festival' });
    expect(find('2026-12-25', /Christmas/)).toMatchObject({ type: 'festival' });
    expect(find('2026-04-14', /Ambedkar/)).toMatchObject({ type: 'public' });
    expect(find('2025-10-20', /Diwali/)).toBeTruthy();
    expect(find('2027-10-29', /Diwali/)).toBeTruthy();
    expect(list.every((h) => h.date >= '2025-01-01' && h.date <= '2027-12-31')).toBe(true);
    expect(list.map((h) => h.date)).toEqual([...list.map((h) => h.date)].sort());
    expect(Object.keys(list[0]).sort()).toEqual(['date', 'name', 'type']);
  });

  it('defaults to the current year and checks its input', async () => {
    const res = await alex.get('/api/calendar/holidays');
    const year = businessYear();
    expect(res.body.years).toEqual([year - 1, year, year + 1]);
    expect((await alex.get('/api/calendar/holidays?year=abc')).status).toBe(400);
    expect((await alex.get('/api/calendar/holidays?year=1200')).status).toBe(400);
    expect((await t.anonymous.get('/api/calendar/holidays?year=2026')).status).toBe(401);
  });
});

describe('leave working days', () => {
  it('leaves out gazetted closed holidays but not every festival', () => {
    // Friday 2 October 2026 is Gandhi Jayanti (and Dussehra is 20 October, a Tuesday).
    expect(workingDays('2026-09-28', '2026-10-02')).toBe(4);
    expect(workingDays('2026-10-19', '2026-10-23')).toBe(4);
    // Holi (Wednesday 4 March 2026) is a working day.
    expect(workingDays('2026-03-02', '2026-03-06')).toBe(5);
  });
});

describe('calendar provider', () => {
  it("queries each calendar for the whole year, merges them, and logs and skips one calendar's failure", async () => {
    const calls: string[] = [];
    const warnings: unknown[] = [];
    const fakeFetch = (async (url: string, init?: RequestInit) => {
      calls.push(url);
      expect((init?.headers as Record<string, string>)['x-goog-api-key']).toBe('k');
      if (url.includes('hinduism')) return new Response('quota', { status: 403 });
      return Response.json({
        items: [
          { summary: 'Diwali/Deepavali', start: { date: '2026-11-08' } },
          { summary: 'Karva Chauth', start: { date: '2026-10-29' } },
          { summary: 'Out of year', start: { date: '2027-01-01' } },
        ],
      });
    }) as unknown as typeof fetch;
    const provider = googleCalendarProvider({ apiKey: 'k', fetch: fakeFetch, log: { warn: (o) => warnings.push(o) } });
    const service = new HolidayService({ provider });
    const list = await service.year(2026);
    expect(calls).toHaveLength(2);
    const u = new URL(calls[0]);
    expect(u.searchParams.get('timeMin')).toBe('2026-01-01T00:00:00Z');
    expect(u.searchParams.get('timeMax')).toBe('2027-01-01T00:00:00Z');
    expect(u.searchParams.get('orderBy')).toBe('startTime');
    expect(u.searchParams.get('maxResults')).toBe('100');
    expect(u.searchParams.has('key')).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toContain('hinduism');
    expect(list.filter((h) => h.date === '2026-11-08').map((h) => h.name)).toEqual(['Diwali']);
    expect(list.find((h) => h.name === 'Karva Chauth')).toMatchObject({ date: '2026-10-29', type: 'public' });
    expect(list.find((h) => h.name === 'Out of year')).toBeUndefined();
    // Cached: no second fetch for the same year.
    await service.year(2026);
    expect(calls).toHaveLength(2);
  });

  it('answers the offline list when every calendar fails', async () => {
    const provider = googleCalendarProvider({
      apiKey: 'k',
      fetch: async () => {
        throw new Error('offline');
      },
      log: { warn: () => undefined },
    });
    const list = await new HolidayService({ provider }).year(2026);
    expect(list.find((h) => h.name === 'Republic Day')?.date).toBe('2026-01-26');
  });
});
