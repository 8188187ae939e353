// Writes on someone else's request: a caller who may not see the request gets exactly the answer of a request that
// does not exist (so ids cannot be enumerated and types are not revealed); only people who see it learn why not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, factories, stateFingerprint } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => {
  await t.close();
});

describe("a stranger's write on someone else's request", () => {
  it('edit and withdraw answer like a missing request, and change nothing', async () => {
    // the owner and a colleague with the same line manager and HR contact
    const team = await f.team();
    const alex = await f.login(team.employee);
    const maria = await f.login(await f.person({ manager: team.manager, hr_contact: team.hr }));
    const created = await alex.post('/api/forms/petty-cash', {
      amount_requested: 42.5,
      expected_settlement_date: '2027-02-03',
      purpose: 'Team lunch',
    });
    expect(created.status).toBe(201);
    const id = created.body.request_id as string;
    const pk = (await t.db.query('SELECT id FROM requests WHERE request_id = $1', [id])).rows[0].id as number;
    const missing = await maria.post('/api/forms/petty-cash/PC-999999/withdraw');
    expect(missing.status).toBe(404);
    const before = await stateFingerprint(t);
    for (const ref of [id, String(pk)]) {
      const w = await maria.post(`/api/forms/petty-cash/${ref}/withdraw`);
      expect({ status: w.status, body: w.body }).toEqual({ status: missing.status, body: missing.body });
      const e = await maria.put(`/api/forms/petty-cash/${ref}`, {
        amount_requested: 48000,
        expected_settlement_date: '2027-02-03',
        purpose: 'Team lunch',
      });
      expect({ status: e.status, body: e.body }).toEqual({ status: missing.status, body: missing.body });
    }
    const row = (await t.db.query('SELECT status, data FROM requests WHERE request_id = $1', [id])).rows[0];
    expect(row.status).toBe('Pending');
    expect(Number(row.data.amount_requested)).toBe(42.5);
    // The line manager sees it, so is told it is not theirs to change; still nothing changes.
    const priya = await f.login(team.manager);
    expect((await priya.post(`/api/forms/petty-cash/${id}/withdraw`)).status).toBe(403);
    expect(await stateFingerprint(t)).toEqual(before);
  });

  it('confirm-password-saved answers like a missing reset to someone who may not see it', async () => {
    const team = await f.team();
    const reset = await f.request({ owner: team.employee, formType: 'password-reset', state: 'reset-password-set' });
    const maria = await f.login(await f.person({ manager: team.manager, hr_contact: team.hr }));
    const missing = await maria.post('/api/password-reset/confirm-password-saved', { form_id: 'PWD-999999' });
    expect(missing.status).toBe(404);
    const before = await stateFingerprint(t);
    const theirs = await maria.post('/api/password-reset/confirm-password-saved', { form_id: reset.request_id });
    expect({ status: theirs.status, body: theirs.body }).toEqual({ status: missing.status, body: missing.body });
    expect(await stateFingerprint(t)).toEqual(before);
  });
});
