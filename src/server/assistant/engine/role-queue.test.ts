// The assistant's count of what waits on an approver stays exact beyond the first page of the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueSummary } from '../../approvals/service.js';
import { EMAIL, sampleInput, userByEmail } from '../../approvals/test-helpers.js';
import { submitForm } from '../../forms/service.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { roleQueue } from './approval-flow.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('roleQueue', () => {
  it('counts every request waiting on the line manager, not only the first page', async () => {
    const alex = await userByEmail(t.db, EMAIL.alex);
    const priya = await userByEmail(t.db, EMAIL.priya);
    for (let i = 0; i < 60; i += 1) await submitForm(t.db, alex, 'petty-cash', sampleInput('petty-cash'), t.clock.now());
    const exact = (await queueSummary(t.db, priya, 'manager')).total_pending;
    expect(exact).toBeGreaterThan(60);
    const q = await roleQueue({ db: t.db, user: priya, now: t.clock.now(), state: {} }, 'manager');
    expect(q.count).toBe(exact);
    expect(q.items.length).toBeLessThan(exact); // the list itself stays one page
  });
});
