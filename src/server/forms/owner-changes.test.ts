// The owner's details answer says whether the edit and withdraw calls would accept (`can_edit`, `can_withdraw`),
// by the same rules those calls apply (src/server/policies/owner-changes.ts); nobody else gets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => t?.close());

describe('can_edit / can_withdraw in the owner details answer', () => {
  it('a leave waiting on HR: not editable (the manager decided), still withdrawable; the calls agree', async () => {
    const { employee, manager } = await f.team();
    const rec = await f.request({ owner: employee, formType: 'leave-request', state: { pendingAt: 'hr' } });
    const owner = await f.login(employee);
    const d = await owner.get(`/api/forms/details/${rec.request_id}`);
    expect(d.status).toBe(200);
    expect([d.body.can_edit, d.body.can_withdraw]).toEqual([false, true]);
    const edit = await owner.put(`/api/forms/leave-request/${rec.request_id}`, { ...rec, reason: 'Changed' });
    expect(edit.status).toBe(409);
    // the approver's answer has neither
    const m = await (await f.login(manager)).get(`/api/forms/details/${rec.request_id}`);
    expect(m.status).toBe(200);
    expect('can_edit' in m.body || 'can_withdraw' in m.body).toBe(false);
    const w = await owner.post(`/api/forms/leave-request/${rec.request_id}/withdraw`);
    expect(w.status).toBe(200);
    const after = await owner.get(`/api/forms/details/${rec.request_id}`);
    expect([after.body.can_edit, after.body.can_withdraw]).toEqual([false, false]);
  });

  it('a new request: editable and withdrawable', async () => {
    const { employee } = await f.team();
    const rec = await f.request({ owner: employee, formType: 'travel-request', state: 'pending' });
    const d = await (await f.login(employee)).get(`/api/forms/details/${rec.request_id}`);
    expect([d.body.can_edit, d.body.can_withdraw]).toEqual([true, true]);
  });

  it('an IT incident with a ticket number: not editable, still withdrawable', async () => {
    const { employee } = await f.team();
    const rec = await f.request({ owner: employee, formType: 'it-incident', state: 'it-taken' });
    const d = await (await f.login(employee)).get(`/api/forms/details/${rec.request_id}`);
    expect(d.body.it_helpdesk_ticket_number).toBeTruthy();
    expect([d.body.can_edit, d.body.can_withdraw]).toEqual([false, ['Pending', 'Open'].includes(d.body.status)]);
  });
});
