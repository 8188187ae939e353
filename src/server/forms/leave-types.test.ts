// The registry's `leave` flag drives the leave rules: a second leave type registered in the test (a study leave) is
// counted in working days, shares the annual balance (pending annual days of either type count against it) and may
// not overlap a leave of the other type, in both directions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessToday, nextWeekdayAfter } from '../../domain/business-time.js';
import { LEAVE_TYPES, leaveFormTypes, registerFormType } from '../../domain/forms.js';

registerFormType({
  formType: 'study-leave',
  title: 'Study Leave',
  category: 'Human Resources',
  icon: 'GraduationCap',
  idPrefix: 'SL',
  chain: ['line_manager', 'hr'],
  leave: true,
  dateWindow: { what: 'A leave', back: 366, ahead: 731, maxDays: 366 },
  catalogue: { description: 'Time off to study for an exam or a course.', estimatedTime: '3 min', priority: 'low' },
  keywords: ['study leave', 'exam'],
  fields: [
    { name: 'leave_type', label: 'Leave type', type: 'enum', required: true, options: LEAVE_TYPES, question: 'Which kind?' },
    { name: 'start_date', label: 'Start date', type: 'date', required: true, question: 'From?' },
    { name: 'end_date', label: 'End date', type: 'date', required: true, question: 'To?' },
    { name: 'reason', label: 'Reason', type: 'longtext', required: true, question: 'Why?' },
  ],
});

const { startTestApp } = await import('../test/harness.js');
const { workingDays } = await import('./leave.js');
const { factories } = await import('../test/factories.js');

type TestApp = Awaited<ReturnType<typeof startTestApp>>;
let t: TestApp;
let f: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => t?.close());

// Two Mondays in the same year, well ahead (after the holidays of late December, inside the two-year window).
const year = Number(businessToday().slice(0, 4)) + 1;
const monday = nextWeekdayAfter(`${year}-03-01`, 1);
const later = nextWeekdayAfter(`${year}-06-01`, 1);

describe('a second leave type', () => {
  it('is one of the leave types', () => {
    expect(leaveFormTypes()).toEqual(['leave-request', 'study-leave']);
  });

  it('may not overlap a leave of the other type, either way; the server counts its working days', async () => {
    const { employee } = await f.team();
    const me = await f.login(employee);
    const lr = await me.post('/api/forms/leave-request', {
      leave_type: 'Casual',
      start_date: monday,
      end_date: addDays(monday, 4),
      reason: 'Away',
    });
    expect(lr.status, JSON.stringify(lr.body)).toBe(201);
    const clash = await me.post('/api/forms/study-leave', {
      leave_type: 'Casual',
      start_date: addDays(monday, 1),
      end_date: addDays(monday, 3),
      reason: 'Exam',
    });
    expect(clash.status).toBe(400);
    expect(clash.body.error).toBe(`These dates overlap your leave request ${lr.body.request_id}`);
    const sl = await me.post('/api/forms/study-leave', {
      leave_type: 'Casual',
      start_date: later,
      end_date: addDays(later, 1),
      reason: 'Exam',
    });
    expect(sl.status, JSON.stringify(sl.body)).toBe(201);
    expect(Number(sl.body.total_days)).toBe(workingDays(later, addDays(later, 1)));
    const back = await me.post('/api/forms/leave-request', {
      leave_type: 'Casual',
      start_date: addDays(later, 1),
      end_date: addDays(later, 3),
      reason: 'Rest',
    });
    expect(back.status).toBe(400);
    expect(back.body.error).toBe(`These dates overlap your leave request ${sl.body.request_id}`);
  });

  it('shares the annual balance: pending annual study leave counts against a leave request', async () => {
    const { employee } = await f.team();
    const me = await f.login(employee);
    // 12 days a year: about 10 working days of annual study leave pending leave about 2, fewer than a week of annual leave.
    const slDays = workingDays(monday, addDays(monday, 11));
    const moreDays = workingDays(later, addDays(later, 4));
    expect(moreDays).toBeGreaterThan(12 - slDays);
    const sl = await me.post('/api/forms/study-leave', {
      leave_type: 'Annual',
      start_date: monday,
      end_date: addDays(monday, 11),
      reason: 'Course',
    });
    expect(sl.status, JSON.stringify(sl.body)).toBe(201);
    expect(Number(sl.body.total_days)).toBe(slDays);
    const more = await me.post('/api/forms/leave-request', {
      leave_type: 'Annual',
      start_date: later,
      end_date: addDays(later, 4),
      reason: 'Trip',
    });
    expect(more.status).toBe(400);
    expect(more.body.error).toBe(`Not enough annual leave: ${moreDays} day(s) requested, ${12 - slDays} day(s) left in ${year}`);
  });
});
