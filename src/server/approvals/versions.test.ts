// An approval applies to what the approver saw: requests carry a version (in queues and details) that grows on
// every change; a decision sending the version it showed is refused with 409 when the owner edited the request
// meanwhile, and the approver whose step is current is told of the edit. Older clients that send no version
// decide as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let alex: ApiClient, priya: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  [alex, priya] = await Promise.all(['alex.johnson', 'priya.sharma'].map((n) => t.login(`${n}@adminease.test`)));
});
afterAll(async () => t?.close());

const pettyCash = (amount: number) => ({ amount_requested: amount, expected_settlement_date: '2027-02-03', purpose: 'Team lunch' });

async function submitted(amount = 42.5): Promise<{ request_id: string; id: number }> {
  const res = await alex.post('/api/forms/petty-cash', pettyCash(amount));
  expect(res.status).toBe(201);
  return res.body;
}
const managerDetails = async (id: string) => (await priya.get(`/api/manager/form-details?form_id=${id}&form_type=petty-cash`)).body;
const decide = (id: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  priya.post(
    '/api/manager/update-status',
    { form_id: id, form_type: 'petty-cash', status: 'Approved', manager_id: String(priya.user.id), ...extra },
    headers,
  );
const decisionEvents = async (pk: number) =>
  Number((await t.db.query(`SELECT count(*) FROM request_events WHERE request_pk = $1 AND event_type = 'decision'`, [pk])).rows[0].count);

describe('decisions bound to the version shown', () => {
  it('refuses (409) a decision on the version before an edit, changes nothing, and tells the approver of the edit', async () => {
    const rec = await submitted();
    const seen = await managerDetails(rec.request_id);
    expect(seen.amount_requested).toBe(42.5);
    expect(typeof seen.version).toBe('number');
    expect(rowOf((await priya.get('/api/manager/queue?limit=500')).body, rec.request_id).version).toBe(seen.version);

    const edit = await alex.put(`/api/forms/petty-cash/${rec.request_id}`, pettyCash(48000));
    expect(edit.status).toBe(200);
    expect(edit.body.version).toBeGreaterThan(seen.version);

    // The approver of the current step hears of the edit.
    const told = await t.db.query(
      `SELECT title, approval_field, old_value, new_value FROM notifications WHERE user_id = $1 AND form_id = $2 AND title LIKE '%changed by its owner%'`,
      [priya.user.id, rec.request_id],
    );
    expect(told.rows.map((r) => r.title)).toEqual([
      `Petty Cash ${rec.request_id} from Alex Johnson was changed by its owner: please look at it again before deciding`,
    ]);
    // named by the approver's own stage (one of the spec's approval fields): it still waits for them
    expect(told.rows[0]).toMatchObject({ approval_field: 'line_manager_approval', old_value: 'Pending', new_value: 'Pending' });

    const stale = await decide(rec.request_id, { version: seen.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'This request was changed after you opened it. Please look at it again before you decide.',
      current_version: edit.body.version,
    });
    expect((await managerDetails(rec.request_id)).line_manager_approval).toBe('Pending');
    expect(await decisionEvents(rec.id)).toBe(0);
    // The same through If-Match.
    expect((await decide(rec.request_id, {}, { 'if-match': `"${seen.version}"` })).status).toBe(409);

    const fresh = await managerDetails(rec.request_id);
    expect(fresh.amount_requested).toBe(48000);
    const ok = await decide(rec.request_id, { version: fresh.version });
    expect(ok.status).toBe(200);
    expect(ok.body.form.line_manager_approval).toBe('Approved');
    expect(ok.body.form.version).toBeGreaterThan(fresh.version);
  });

  it('decides as before when no version is sent (older clients)', async () => {
    const rec = await submitted();
    await managerDetails(rec.request_id);
    expect((await alex.put(`/api/forms/petty-cash/${rec.request_id}`, pettyCash(50))).status).toBe(200);
    const res = await decide(rec.request_id);
    expect(res.status).toBe(200);
    expect(res.body.form.line_manager_approval).toBe('Approved');
  });

  it("answers 400 for a version that is not a number, and bulk decisions check each item's version", async () => {
    const rec = await submitted();
    expect((await decide(rec.request_id, { version: 'latest' })).status).toBe(400);
    expect((await decide(rec.request_id, {}, { 'if-match': '*x' })).status).toBe(400);
    const seen = await managerDetails(rec.request_id);
    expect((await alex.put(`/api/forms/petty-cash/${rec.request_id}`, pettyCash(99))).status).toBe(200);
    const bulk = await priya.post('/api/approvals/bulk', {
      role: 'manager',
      items: [{ form_id: rec.request_id, decision: 'Approved', version: seen.version }],
    });
    expect(bulk.body.results[0]).toMatchObject({ ok: false, status: 409 });
    expect(await decisionEvents(rec.id)).toBe(0);
  });
});

function rowOf(rows: any[], id: string) {
  return rows.find((r) => r.request_id === id);
}
