// The form calendar grid: Monday-first weeks, weekends, at most 2 dots plus overflow, and which form dates show.
import { describe, expect, it } from 'vitest';
import { type CalendarEvent, formEvents, holidayEvents, isWeekend, monthGrid, moveDay, shiftMonth } from './calendar-grid.js';

const ev = (date: string, kind: CalendarEvent['kind'], title: string): CalendarEvent => ({ date, kind, title });

describe('monthGrid', () => {
  it('starts weeks on Monday and pads with the neighbouring months', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const weeks = monthGrid(2026, 10, []);
    expect(weeks[0][0].date).toBe('2026-10-26');
    expect(weeks[0][0].inMonth).toBe(false);
    expect(weeks[0][6]).toMatchObject({ date: '2026-11-01', day: 1, inMonth: true, weekend: true });
    const last = weeks[weeks.length - 1];
    expect(last[0].date).toBe('2026-11-30');
    expect(last[6].date).toBe('2026-12-06');
    expect(weeks).toHaveLength(6);
    for (const w of weeks) expect(w.map((d) => d.weekend)).toEqual([false, false, false, false, false, true, true]);
  });
  it('gives a month starting on Monday no leading padding', () => {
    const weeks = monthGrid(2027, 1, []); // February 2027: Monday 1st to Sunday 28th
    expect(weeks).toHaveLength(4);
    expect(weeks[0][0].date).toBe('2027-02-01');
    expect(weeks[3][6].date).toBe('2027-02-28');
  });
  it('shows at most 2 dots per day and counts the rest as overflow, holidays first', () => {
    const weeks = monthGrid(
      2026,
      10,
      [
        ev('2026-11-08', 'submission', 'Petty Cash submitted'),
        ev('2026-11-08', 'leave', 'Annual leave'),
        ev('2026-11-08', 'holiday', 'Diwali'),
        ev('2026-11-08', 'booking', 'Board Room'),
        ev('2026-11-09', 'leave', 'Annual leave'),
      ],
      '2026-11-09',
    );
    const cells = weeks.flat();
    const d8 = cells.find((c) => c.date === '2026-11-08')!;
    expect(d8.events).toHaveLength(4);
    expect(d8.dots.map((e) => e.kind)).toEqual(['holiday', 'leave']);
    expect(d8.overflow).toBe(2);
    const d9 = cells.find((c) => c.date === '2026-11-09')!;
    expect(d9).toMatchObject({ overflow: 0, today: true });
    expect(d9.dots).toHaveLength(1);
    expect(cells.find((c) => c.date === '2026-11-10')!.dots).toHaveLength(0);
  });
  it('moves between months across years', () => {
    expect(shiftMonth(2026, 11, 1)).toEqual({ year: 2027, month: 0 });
    expect(shiftMonth(2026, 0, -1)).toEqual({ year: 2025, month: 11 });
    expect(isWeekend('2026-11-21')).toBe(true);
    expect(isWeekend('2026-11-23')).toBe(false);
  });
});

describe('formEvents', () => {
  const forms = {
    'leave-request': [
      {
        request_id: 'LR-000001',
        employee_id: 'EMP-1001',
        leave_type: 'Annual',
        start_date: '2026-11-09',
        end_date: '2026-11-11',
        status: 'Approved',
        created_at: '2026-11-02T10:00:00.000Z',
        title: 'Leave Request',
      },
      {
        request_id: 'LR-000099',
        employee_id: 'EMP-1002',
        leave_type: 'Sick',
        start_date: '2026-11-09',
        end_date: '2026-11-09',
        status: 'Pending',
        created_at: '2026-11-02T10:00:00.000Z',
      },
    ],
    'travel-request': [
      {
        request_id: 'TR-000002',
        employee_id: 'EMP-1001',
        destination: 'Pune',
        departure_date: '2026-12-01',
        return_date: '2026-12-02',
        created_at: '2026-11-03T10:00:00.000Z',
      },
    ],
    'meeting-room': [
      {
        request_id: 'MR-000003',
        employee_id: 'EMP-1001',
        room_requested: 'Board Room',
        booking_date: '2026-11-20',
        start_time: '10:00',
        end_time: '11:00',
        created_at: '2026-11-04T10:00:00.000Z',
      },
    ],
    'petty-cash': [{ request_id: 'PC-000004', employee_id: 'EMP-1001', created_at: '2026-11-05T10:00:00.000Z', title: 'Petty Cash' }],
  };
  it("shows only the user's own forms: leave ranges, travel dates, bookings and submission dates", () => {
    const events = formEvents(forms, 'EMP-1001');
    expect(events.some((e) => e.formId === 'LR-000099')).toBe(false);
    expect(events.filter((e) => e.kind === 'leave').map((e) => e.date)).toEqual(['2026-11-09', '2026-11-10', '2026-11-11']);
    expect(events.find((e) => e.kind === 'leave')!.title).toBe('Annual leave');
    expect(events.filter((e) => e.kind === 'travel').map((e) => e.date)).toEqual(['2026-12-01', '2026-12-02']);
    expect(events.find((e) => e.kind === 'booking')).toMatchObject({ date: '2026-11-20', title: 'Board Room 10:00-11:00' });
    expect(events.filter((e) => e.kind === 'submission').map((e) => e.formId)).toEqual([
      'LR-000001',
      'TR-000002',
      'MR-000003',
      'PC-000004',
    ]);
    expect(formEvents(null, 'EMP-1001')).toEqual([]);
  });
  it('caps an overlong range and ignores bad dates', () => {
    const events = formEvents(
      [
        { form_type: 'leave-request', employee_id: 'E', start_date: '2026-01-01', end_date: '2029-01-01' },
        { form_type: 'leave-request', employee_id: 'E', start_date: 'soon' },
      ],
      'E',
    );
    expect(events).toHaveLength(62);
  });
  it('turns holidays into events', () => {
    expect(holidayEvents([{ date: '2026-11-08', name: 'Diwali', type: 'festival' }])).toEqual([
      { date: '2026-11-08', kind: 'holiday', title: 'Diwali', holidayType: 'festival' },
    ]);
  });
});

describe('moveDay (the calendar keyboard)', () => {
  it.each([
    ['2027-03-10', 'ArrowRight', '2027-03-11'],
    ['2027-03-31', 'ArrowRight', '2027-04-01'],
    ['2027-03-01', 'ArrowLeft', '2027-02-28'],
    ['2027-03-10', 'ArrowDown', '2027-03-17'],
    ['2027-03-03', 'ArrowUp', '2027-02-24'],
    ['2027-03-10', 'Home', '2027-03-08'],
    ['2027-03-10', 'End', '2027-03-14'],
    ['2027-01-31', 'PageDown', '2027-02-28'],
    ['2027-03-10', 'PageUp', '2027-02-10'],
    ['2027-03-10', 'Enter', null],
  ])('%s %s -> %s', (from, key, to) => expect(moveDay(from, key)).toBe(to));
});
