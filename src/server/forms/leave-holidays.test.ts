// A closed holiday inside a leave is explained where the leave is seen: the submit answer, the request's details
// and the assistant's summary say 'Includes 25 Dec (Christmas Day), a company holiday: not counted', from the
// company's calendar settings (its own holidays and its regional calendars).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDate, weekdayOf } from '../../domain/business-time.js';
import { type Factories, factories } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { closedHolidays, leaveHolidayNote, workingDays } from './leave.js';

let t: TestApp;
let f: Factories;
let admin: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.login(await f.person({ kind: 'admin' }));
});
afterAll(async () => t?.close());

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('holidays inside a leave', () => {
  it('names the closed holidays on working days, one or several, and nothing when there are none', () => {
    // Christmas 2026 is a Friday; Christmas 2027 a Saturday (a weekend day is not counted anyway)
    expect(leaveHolidayNote('2026-12-21', '2026-12-25')).toBe('Includes 25 Dec (Christmas Day), a company holiday: not counted');
    expect(leaveHolidayNote('2027-12-20', '2027-12-26')).toBeUndefined();
    expect(leaveHolidayNote('2026-09-28', '2026-12-25')).toMatch(
      /^Includes 2 Oct \(Gandhi Jayanti\), .* and 25 Dec \(Christmas Day\), company holidays: not counted$/,
    );
    expect(leaveHolidayNote('2026-12-28', '2026-12-21')).toBeUndefined();
    expect(leaveHolidayNote('not a date', '2026-12-21')).toBeUndefined();
  });

  it('a company holiday inside a leave: the submit answer, the details and the assistant summary explain it', async () => {
    // a Wednesday some weeks ahead with no other closed day in its week
    let day = addDays(businessDate(t.clock.now()), 21);
    while (weekdayOf(day) !== 3 || closedHolidays(addDays(day, -2), addDays(day, 2)).size > 0) day = addDays(day, 1);
    const [monday, friday] = [addDays(day, -2), addDays(day, 2)];
    const add = await admin.post('/api/admin/settings/holidays', { date: day, name: 'Founders Test Day' });
    expect(add.status, add.text).toBe(201);
    const note = `Includes ${Number(day.slice(8))} ${MONTHS[Number(day.slice(5, 7)) - 1]} (Founders Test Day), a company holiday: not counted`;
    expect(workingDays(monday, friday)).toBe(4);

    const employee = await f.login(await f.person());
    const res = await employee.post('/api/forms/leave-request', {
      leave_type: 'Casual',
      start_date: monday,
      end_date: friday,
      reason: 'Family wedding',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.holiday_note).toBe(note);
    expect(res.body.total_days).toBe(4);
    const details = await employee.get(`/api/forms/details/${res.body.request_id}`);
    expect(details.body.holiday_note).toBe(note);

    // a leave without a holiday says nothing
    const plain = await employee.post('/api/forms/leave-request', {
      leave_type: 'Casual',
      start_date: addDays(monday, 7),
      end_date: addDays(monday, 7),
      reason: 'Errand',
    });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body).not.toHaveProperty('holiday_note');

    // the assistant's summary (built-in engine) before anything is submitted
    const other = await f.login(await f.person());
    const chat = await other.post('/ai/simple-chat', {
      message: `I need casual leave from ${monday} to ${friday} for a family wedding`,
    });
    expect(chat.body.response).toMatch(/Shall I submit it\?/);
    expect(chat.body.response).toContain(`• ${note}`);
    expect(chat.body.response).toContain('Working days: 4');
  });
});
