// The spec's client signs out with POST /ai/{family}/session/logout alone: for every assistant family, that call
// ends the caller's sign-in session too (revoked, cookie cleared; the token no longer works), as sign-out does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../auth/routes.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { FAMILIES } from './session-routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The session cookie a response sets, if any ('adminease_session=...; ...'). */
const sessionCookie = (headers: Record<string, unknown>) =>
  ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));

describe('POST /ai/{family}/session/logout', () => {
  it("has the six families of the spec and the administrator's (issue 18)", () => {
    expect([...FAMILIES]).toEqual(['manager', 'hr', 'finance', 'it', 'facilities', 'simple', 'admin']);
  });

  for (const family of FAMILIES) {
    it(`${family}: ends the caller's sign-in session as well as the assistant session, and clears the cookie`, async () => {
      const alex = await t.login('alex.johnson@adminease.test');
      const other = await t.login('alex.johnson@adminease.test'); // another sign-in of the same person (another device)
      expect((await alex.post(`/ai/${family}/session/login`, { user_id: alex.user.id })).status).toBe(200);

      const res = await alex.post(`/ai/${family}/session/logout`, { user_id: alex.user.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, sessions_ended: 1 });
      const cookie = sessionCookie(res.headers);
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/^adminease_session=;/);
      expect(cookie).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);

      // The token no longer works, anywhere.
      expect((await alex.get('/api/auth/me')).status).toBe(401);
      expect((await alex.get('/api/forms/user-forms')).status).toBe(401);
      expect((await alex.post(`/ai/${family}/session/status`, { user_id: alex.user.id })).status).toBe(401);
      const stored = await t.db.query('SELECT revoked_at FROM sessions WHERE user_id = $1 AND revoked_at IS NOT NULL', [alex.user.id]);
      expect(stored.rows.length).toBeGreaterThanOrEqual(1);
      // Only the session that signed out: the same person's other sign-in goes on.
      expect((await other.get('/api/auth/me')).status).toBe(200);
      const status = await other.post(`/ai/${family}/session/status`, { user_id: alex.user.id });
      expect(status.body.active).toBe(false);
    });
  }

  it('ends a session carried by the cookie (the browser client) and clears that cookie', async () => {
    const nina = await t.login('nina.patel@adminease.test');
    const viaCookie = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: {
          cookie: `${SESSION_COOKIE}=${nina.token}`,
          'sec-fetch-site': 'same-origin',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        payload: body ? JSON.stringify(body) : undefined,
      });
    expect((await viaCookie('GET', '/api/auth/me')).statusCode).toBe(200);
    const res = await viaCookie('POST', '/ai/simple/session/logout', { user_id: 'EMP-1006' });
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res.headers)).toMatch(/^adminease_session=;/);
    expect((await viaCookie('GET', '/api/auth/me')).statusCode).toBe(401);
  });

  it("refuses another person's user_id and then ends nothing", async () => {
    const sam = await t.login('sam.wilson@adminease.test');
    const res = await sam.post('/ai/simple/session/logout', { user_id: 'EMP-1001' });
    expect(res.status).toBe(403);
    expect(sessionCookie(res.headers)).toBeUndefined();
    expect((await sam.get('/api/auth/me')).status).toBe(200);
    const bad = await sam.post('/ai/nowhere/session/logout', { user_id: sam.user.id });
    expect(bad.status).toBe(400);
    expect((await sam.get('/api/auth/me')).status).toBe(200);
  });
});

describe('POST /ai/{family}/session/logout without a user_id', () => {
  it("ends the caller's own sign-in session (the session says who signs out), with an empty body or none", async () => {
    for (const body of [{}, { user_id: null }, { user_id: '' }, undefined]) {
      const me = await t.login('maria.garcia@adminease.test');
      const res = await t.app.inject({
        method: 'POST',
        url: '/ai/hr/session/logout',
        headers: {
          authorization: `Bearer ${me.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(200);
      expect(sessionCookie(res.headers), JSON.stringify(body)).toMatch(/^adminease_session=;/);
      expect((await me.get('/api/auth/me')).status, JSON.stringify(body)).toBe(401);
    }
  });

  it('refuses bad input with a JSON error and ends nothing: malformed JSON, a text/plain body, a body over 1 MB', async () => {
    const me = await t.login('maria.garcia@adminease.test');
    for (const [label, type, payload] of [
      ['malformed JSON', 'application/json', '{"user_id": '],
      ['text/plain', 'text/plain', 'user_id=1'],
      ['over 1 MB', 'application/json', JSON.stringify({ user_id: me.user.id, pad: 'x'.repeat(1_100_000) })],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/ai/hr/session/logout',
        headers: { authorization: `Bearer ${me.token}`, 'content-type': type },
        payload,
      });
      expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
      expect(res.statusCode, label).not.toBe(401);
      expect(JSON.parse(res.body).error, label).toEqual(expect.any(String));
      expect(sessionCookie(res.headers), label).toBeUndefined();
      expect((await me.get('/api/auth/me')).status, `${label}: the session goes on`).toBe(200);
    }
  });
});
