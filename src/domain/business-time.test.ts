import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_BUSINESS_TIME_ZONE,
  addDays,
  businessMoment,
  addWorkingDays,
  businessDate,
  businessReferenceDate,
  businessTimeZone,
  businessToday,
  businessYear,
  countWorkingDays,
  daysBetween,
  isIsoDate,
  isValidTimeZone,
  isWeekend,
  isWorkingDay,
  nextWeekdayAfter,
  setBusinessTimeZone,
  startOfBusinessDate,
  wallClock,
  weekdayOf,
  zoneOffsetMinutes,
} from './business-time';

afterEach(() => {
  setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE);
  vi.useRealTimers();
});

describe('the business zone', () => {
  it("is India's by default (the demo company's)", () => {
    expect(DEFAULT_BUSINESS_TIME_ZONE).toBe('Asia/Kolkata');
    expect(businessTimeZone()).toBe('Asia/Kolkata');
  });

  it('knows IANA names and refuses anything else', () => {
    for (const z of ['Asia/Kolkata', 'Europe/Berlin', 'America/New_York', 'UTC']) expect(isValidTimeZone(z)).toBe(true);
    for (const z of ['India', 'Mars/Olympus', '', ' Asia/Kolkata', 'IST+5', 'IST', 'EST', '+05:30']) expect(isValidTimeZone(z)).toBe(false);
    expect(() => setBusinessTimeZone('Mars/Olympus')).toThrow(/not a known IANA time zone/);
    expect(businessTimeZone()).toBe('Asia/Kolkata');
  });
});

describe('business dates across midnight', () => {
  it('2026-11-23T19:00Z is already the 24th in India', () => {
    expect(businessDate(new Date('2026-11-23T19:00:00Z'))).toBe('2026-11-24');
    expect(businessDate('2026-11-23T19:00:00Z', 'UTC')).toBe('2026-11-23');
  });

  it('the day turns at 18:30 UTC (midnight IST), not a minute or a millisecond off', () => {
    expect(businessDate('2026-11-23T18:29:00Z')).toBe('2026-11-23');
    expect(businessDate('2026-11-23T18:29:59.999Z')).toBe('2026-11-23');
    expect(businessDate('2026-11-23T18:30:00Z')).toBe('2026-11-24');
    expect(businessDate(Date.parse('2026-11-23T18:30:00.001Z'))).toBe('2026-11-24');
  });

  it('today follows the (faked) clock, and the configured zone', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T10:30:00Z'));
    expect(businessToday()).toBe('2026-11-23');
    setBusinessTimeZone('Pacific/Pago_Pago'); // UTC-11
    expect(businessToday()).toBe('2026-11-22');
    setBusinessTimeZone('Pacific/Kiritimati'); // UTC+14
    expect(businessToday()).toBe('2026-11-24');
    vi.setSystemTime(new Date('2026-11-23T18:30:00Z'));
    setBusinessTimeZone('Asia/Kolkata');
    expect(businessToday()).toBe('2026-11-24');
  });

  it('the business year turns at midnight IST on 1 January', () => {
    expect(businessYear(new Date('2026-12-31T18:29:00Z'))).toBe(2026);
    expect(businessYear(new Date('2026-12-31T18:30:00Z'))).toBe(2027);
    expect(businessYear(new Date('2026-12-31T18:30:00Z'), 'UTC')).toBe(2026);
    expect(businessToday(new Date('2026-12-31T20:00:00Z'))).toBe('2027-01-01');
  });

  it('reads the wall clock, including zones of half and three-quarter hours and daylight saving', () => {
    expect(wallClock('2026-11-23T19:05:07Z')).toEqual({ year: 2026, month: 11, day: 24, hour: 0, minute: 35, second: 7 });
    expect(zoneOffsetMinutes(new Date('2026-11-23T19:00:00Z'))).toBe(330);
    expect(zoneOffsetMinutes(new Date('2026-11-23T19:00:00Z'), 'Asia/Kathmandu')).toBe(345);
    expect(zoneOffsetMinutes(new Date('2026-07-01T12:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(zoneOffsetMinutes(new Date('2026-01-01T12:00:00Z'), 'Europe/Berlin')).toBe(60);
    // Berlin's clocks go back at 01:00 UTC on 25 October 2026: the date of the hour around it stays right
    expect(businessDate('2026-10-24T21:59:00Z', 'Europe/Berlin')).toBe('2026-10-24');
    expect(businessDate('2026-10-24T22:00:00Z', 'Europe/Berlin')).toBe('2026-10-25');
    expect(businessDate('2026-10-25T22:59:00Z', 'Europe/Berlin')).toBe('2026-10-25');
    expect(businessDate('2026-10-25T23:00:00Z', 'Europe/Berlin')).toBe('2026-10-26');
  });

  it('a business date begins at its midnight in the zone', () => {
    expect(startOfBusinessDate('2026-11-24').toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(startOfBusinessDate('2027-01-01').toISOString()).toBe('2026-12-31T18:30:00.000Z');
    expect(startOfBusinessDate('2026-10-25', 'Europe/Berlin').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(startOfBusinessDate('2026-10-26', 'Europe/Berlin').toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(businessMoment('2027-01-05', '10:00').toISOString()).toBe('2027-01-05T04:30:00.000Z');
    expect(businessMoment('2027-01-05', '23:45').toISOString()).toBe('2027-01-05T18:15:00.000Z');
    expect(() => businessMoment('2027-01-05', '24:00')).toThrow(RangeError);
  });

  it("gives a date parser a reference whose local fields are the business wall clock, whatever the process's zone", () => {
    const ref = businessReferenceDate(new Date('2026-11-23T19:00:00Z'));
    expect([ref.getFullYear(), ref.getMonth() + 1, ref.getDate(), ref.getHours(), ref.getMinutes()]).toEqual([2026, 11, 24, 0, 30]);
  });

  it('refuses what is not a moment', () => {
    expect(() => businessDate('yesterday-ish')).toThrow(RangeError);
  });
});

describe('calendar days', () => {
  it('checks, adds and counts days without any zone', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(isIsoDate('2027-2-3')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(daysBetween('2026-12-30', '2027-01-02')).toBe(3);
    expect(() => addDays('2027-02-30', 1)).toThrow(RangeError);
  });

  it('knows the weekday of a date and the weekend', () => {
    expect(weekdayOf('2026-11-24')).toBe(2); // a Tuesday
    expect(weekdayOf('2026-11-28')).toBe(6);
    expect(isWeekend('2026-11-28')).toBe(true);
    expect(isWeekend('2026-11-29')).toBe(true);
    expect(isWeekend('2026-11-30')).toBe(false);
    expect(nextWeekdayAfter('2026-11-24', 1)).toBe('2026-11-30');
    expect(nextWeekdayAfter('2026-11-24', 2)).toBe('2026-12-01'); // strictly after
  });

  it('gives every moment the date its wall clock shows, on and around daylight-saving days (cached offsets)', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Kolkata', 'Pacific/Chatham'];
    const days = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-10-25', '2026-11-01', '2026-09-27'];
    for (const zone of zones) {
      for (const day of days) {
        const from = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
        for (let t = from; t < from + 3 * 86_400_000; t += 7 * 60_000) {
          const w = wallClock(t, zone);
          const expected = `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
          if (businessDate(t, zone) !== expected) expect(`${zone} ${new Date(t).toISOString()} ${businessDate(t, zone)}`).toBe(expected);
        }
      }
    }
  });

  it('counts working days without weekends and closed holidays', () => {
    // Friday 27 November to Tuesday 1 December 2026: Fri, Mon, Tue
    expect(countWorkingDays('2026-11-27', '2026-12-01')).toBe(3);
    // with Monday 30 November closed, as a set or as a test
    expect(countWorkingDays('2026-11-27', '2026-12-01', new Set(['2026-11-30']))).toBe(2);
    expect(countWorkingDays('2026-11-27', '2026-12-01', (d) => d === '2026-11-30')).toBe(2);
    // a holiday on a weekend is not counted twice
    expect(countWorkingDays('2026-11-27', '2026-12-01', new Set(['2026-11-28']))).toBe(3);
    expect(countWorkingDays('2026-11-28', '2026-11-29')).toBe(0);
    expect(countWorkingDays('2026-12-02', '2026-12-01')).toBe(0);
    // over the year boundary: Thu 31 Dec, Fri 1 Jan (closed), Mon 4 Jan
    expect(countWorkingDays('2026-12-31', '2027-01-04', new Set(['2027-01-01']))).toBe(2);
    expect(isWorkingDay('2027-01-01', new Set(['2027-01-01']))).toBe(false);
    expect(isWorkingDay('2027-01-04')).toBe(true);
  });

  it('counts as the day-by-day definition does, for every range length and starting weekday', () => {
    // The count is arithmetic (whole weeks, the rest, then closed weekdays): compared with walking the days.
    const closedSet = new Set(['2026-01-26', '2026-08-15', '2026-10-02', '2026-10-03', '2027-01-01', 'not-a-date', '2026-1-5']);
    const closedTest = (d: string) => d.endsWith('-15') || d.endsWith('-01');
    const walk = (start: string, end: string, closed: (d: string) => boolean) => {
      let n = 0;
      for (let d = start; d <= end; d = addDays(d, 1)) if (!isWeekend(d) && !closed(d)) n += 1;
      return n;
    };
    for (const start of ['2025-12-29', '2026-01-01', '2026-01-03', '2026-08-14', '2026-09-28']) {
      for (const len of [0, 1, 2, 5, 6, 7, 8, 13, 14, 15, 31, 100, 366, 800]) {
        const end = addDays(start, len);
        expect(countWorkingDays(start, end)).toBe(walk(start, end, () => false));
        expect(countWorkingDays(start, end, closedSet)).toBe(walk(start, end, (d) => closedSet.has(d)));
        expect(countWorkingDays(start, end, closedTest)).toBe(walk(start, end, closedTest));
      }
    }
    expect(countWorkingDays('1969-12-25', '1970-01-08')).toBe(walk('1969-12-25', '1970-01-08', () => false));
  });

  it('finds the last day of n working days, the inverse of the count', () => {
    const closed = new Set(['2026-11-30']);
    expect(addWorkingDays('2026-11-27', 3, closed)).toEqual({ start: '2026-11-27', end: '2026-12-02' });
    expect(addWorkingDays('2026-11-28', 1, closed)).toEqual({ start: '2026-12-01', end: '2026-12-01' });
    for (const [start, n] of [
      ['2026-11-27', 3],
      ['2026-12-24', 5],
      ['2027-01-01', 10],
    ] as const) {
      const r = addWorkingDays(start, n, closed);
      expect(countWorkingDays(r.start, r.end, closed)).toBe(n);
    }
  });
});
