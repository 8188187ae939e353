// The registry's helpers for the web's generated forms: date-picker bounds (the server's windows and period rules),
// the approval chain in the product's words, and the closed holidays of a holiday list.
import { describe, expect, it } from 'vitest';
import { addDays } from './business-time';
import { chainInWords, dateInputBounds, dateWindowError } from './forms';
import { closedHolidayDates } from './holidays';

const today = '2027-03-10';

describe('dateInputBounds', () => {
  it("bounds a window's dates as the server does: one year back, two years ahead", () => {
    const b = dateInputBounds('leave-request', 'start_date', {}, today);
    expect(b).toEqual({ min: addDays(today, -366), max: addDays(today, 731) });
    // The bounds are the last dates the server accepts, and one day past them it refuses.
    expect(dateWindowError('leave-request', { start_date: b.min, end_date: b.min }, today)).toBeNull();
    expect(dateWindowError('leave-request', { start_date: addDays(b.min!, -1), end_date: b.min }, today)).toMatch(/in the past/);
    expect(dateWindowError('meeting-room', { booking_date: b.max }, today)).toBeNull();
    expect(dateWindowError('meeting-room', { booking_date: addDays(b.max!, 1) }, today)).toMatch(/ahead/);
  });

  it("a period's last day: not before its first day, not past the longest period", () => {
    const b = dateInputBounds('leave-request', 'end_date', { start_date: '2027-04-01' }, today);
    expect(b).toEqual({ min: '2027-04-01', max: addDays('2027-04-01', 365) });
    expect(dateWindowError('leave-request', { start_date: '2027-04-01', end_date: b.max }, today)).toBeNull();
    expect(dateWindowError('leave-request', { start_date: '2027-04-01', end_date: addDays(b.max!, 1) }, today)).toBe(
      'A leave can be at most 366 days long',
    );
    expect(dateInputBounds('travel-request', 'return_date', { departure_date: '2027-05-02' }, today).min).toBe('2027-05-02');
    // Types without a window: today at the earliest (past dates refused) and the order of a pair; a retrospective
    // type's single date is free; a half-typed start is ignored.
    expect(dateInputBounds('training-request', 'end_date', { start_date: '2027-06-01' }, today)).toEqual({ min: '2027-06-01' });
    expect(dateInputBounds('medical-claim', 'treatment_date', {}, today)).toEqual({});
    expect(dateInputBounds('training-request', 'end_date', { start_date: '2027-02-30' }, today)).toEqual({ min: today });
  });
});

describe('chainInWords', () => {
  it("names a type's deciders in order, in the product's words", () => {
    expect(chainInWords('leave-request')).toEqual(['Line Manager', 'HR']);
    expect(chainInWords('facility-access')).toEqual(['Facilities Desk', 'Facilities Manager']);
    expect(chainInWords('no-such-type')).toEqual([]);
  });
});

describe('closedHolidayDates', () => {
  it('keeps the closed holidays inside the range only', () => {
    const list = [
      { date: '2027-01-26', name: 'Republic Day', type: 'national' as const },
      { date: '2027-03-22', name: 'Holi', type: 'festival' as const },
      { date: '2027-12-25', name: 'Christmas', type: 'festival' as const },
    ];
    expect([...closedHolidayDates(list, '2027-01-01', '2027-06-30')]).toEqual(['2027-01-26']);
  });
});
