// Request ids past 999,999: the human id (LR-000123) must grow a digit, never be cut to six (which made the
// millionth request collide with an earlier one: a 500 on every later submission of that type).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequest } from '../requests/repo.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('request ids at scale', () => {
  it('keeps every digit once the numeric id passes 999,999', async () => {
    const alex = (await t.db.query("SELECT id, manager_id, hr_contact_id FROM users WHERE email = 'alex.johnson@adminease.test'")).rows[0];
    const insert = () =>
      t.db.tx((c) =>
        insertRequest(c, {
          formType: 'leave-request',
          employeeId: alex.id,
          lineManagerId: alex.manager_id,
          hrContactId: alex.hr_contact_id,
          data: { leave_type: 'Annual', start_date: '2030-01-07', end_date: '2030-01-07', reason: 'scale test', total_days: 1 },
        }),
      );
    // An existing LR-100000 is what a six-character cut of 1,000,000..1,000,009 would collide with.
    await t.db.query("SELECT setval(pg_get_serial_sequence('requests', 'id'), 99999)");
    const low = await insert();
    expect(low.request_id).toBe('LR-100000');
    await t.db.query("SELECT setval(pg_get_serial_sequence('requests', 'id'), 999998)");
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push((await insert()).request_id);
    expect(ids).toEqual(['LR-999999', 'LR-1000000', 'LR-1000001']);
  });
});
