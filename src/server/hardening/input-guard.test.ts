// NUL characters (which PostgreSQL text cannot hold) in a path, query or body: 400 {error}, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { NUL_MESSAGE, containsNul } from './input-guard.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('input guard', () => {
  it('finds NUL in strings, keys and nested values', () => {
    expect(containsNul({ a: ['x', { b: 'y\u0000' }] })).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul({ a: ['x', { b: 'y' }], n: 1, z: null })).toBe(false);
  });

  it('answers 400 for NUL in a path, a query and a body, also on sign-in', async () => {
    const priya = await t.login('priya.sharma@adminease.test');
    for (const res of [
      await priya.get('/api/manager/employee-leave-balance/a%00b'),
      await priya.get('/api/forms/user-forms?employee_id=EMP%001001'),
      await priya.post('/api/manager/update-status', { form_id: 'LR-000002\u0000', status: 'Approved' }),
      await t.anonymous.post('/api/auth/login', { email: 'priya.sharma@adminease.test\u0000', password: 'x' }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: NUL_MESSAGE });
    }
  });
});
