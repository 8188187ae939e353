// The original client's form calendar asks GET /api/forms/user-forms?employee_id=<the signed-in user's id> (the
// numeric id of the login answer) and keeps only the records whose employee_id equals that id. A list asked for by
// user id names its records' employee by that id; asked for by employee code (the spec's form) or for oneself
// without any id, records carry the employee code, and every other answer (details, queues) keeps the code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let alex: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
});
afterAll(async () => {
  await t?.close();
});

const records = (body: Record<string, Array<Record<string, unknown>>>) => Object.values(body).flat();

describe('user-forms asked for with the numeric user id (the form calendar)', () => {
  it("answers the caller's own records with employee_id equal to the id the client asked with", async () => {
    expect(typeof alex.user.id).toBe('number');
    const res = await alex.get(`/api/forms/user-forms?employee_id=${alex.user.id}`);
    expect(res.status).toBe(200);
    const all = records(res.body);
    expect(all.length).toBeGreaterThan(3);
    // what the calendar keeps: form.employee_id === user.id (strictly, as that client compares)
    expect(all.filter((f) => f.employee_id === alex.user.id)).toHaveLength(all.length);
    expect(all.every((f) => f.employee_user_id === alex.user.id)).toBe(true);
  });

  it('keeps the employee code when asked by code or with no id, also once the by-id answer is cached', async () => {
    for (let i = 0; i < 2; i += 1) {
      const byId = await alex.get(`/api/forms/user-forms?employee_id=${alex.user.id}`);
      expect(records(byId.body).every((f) => f.employee_id === alex.user.id)).toBe(true);
      for (const url of ['/api/forms/user-forms?employee_id=EMP-1001', '/api/forms/user-forms']) {
        const res = await alex.get(url);
        const all = records(res.body);
        expect(all.length).toBe(records(byId.body).length);
        expect(
          all.every((f) => f.employee_id === 'EMP-1001'),
          url,
        ).toBe(true);
      }
    }
  });

  it('names records the same way in the single-type lists; details keep the code', async () => {
    const leave = await alex.get(`/api/forms/leave-requests?employee_id=${alex.user.id}`);
    expect(leave.body.length).toBeGreaterThan(0);
    expect(leave.body.every((f: Record<string, unknown>) => f.employee_id === alex.user.id)).toBe(true);
    const byCode = await alex.get('/api/forms/leave-requests?employee_id=EMP-1001');
    expect(byCode.body.every((f: Record<string, unknown>) => f.employee_id === 'EMP-1001')).toBe(true);
    const details = await alex.get(`/api/forms/details/${leave.body[0].request_id}`);
    expect(details.body.employee_id).toBe('EMP-1001');
  });

  it("lets the line manager ask for a report's list by user id the same way, and nobody else", async () => {
    const priya = await t.login('priya.sharma@adminease.test');
    const res = await priya.get(`/api/forms/user-forms?employee_id=${alex.user.id}`);
    expect(res.status).toBe(200);
    expect(records(res.body).length).toBeGreaterThan(0);
    expect(records(res.body).every((f) => f.employee_id === alex.user.id)).toBe(true);
    const queue = await priya.get('/api/manager/queue');
    expect(JSON.stringify(queue.body)).not.toMatch(new RegExp(`"employee_id":${alex.user.id}\\b`));
    const sam = await t.login('sam.wilson@adminease.test');
    expect((await sam.get(`/api/forms/user-forms?employee_id=${alex.user.id}`)).status).toBe(403);
  });
});
