// Sign-in and sessions through the HTTP API on a seeded database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordCheck } from './service.js';
import { type Factories, factories, stateFingerprint } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/auth/login', () => {
  it('signs in a demo user and returns the user shape existing clients read', async () => {
    const res = await t.anonymous.post('/api/auth/login', { email: 'priya.sharma@adminease.test', password: 'Demo@12345' });
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
    expect(res.body.access_token.length).toBeGreaterThan(30);
    const u = res.body.user;
    expect(u).toMatchObject({
      email: 'priya.sharma@adminease.test',
      role: 'Department Manager',
      user_type: 'line_manager',
      department_code: 'ENG',
      department: { department_code: 'ENG', department_name: 'Engineering' },
      profile: { first_name: 'Priya', last_name: 'Sharma', employee_code: 'MGR-001', employee_id: 'MGR-001', manager_id: 'MGR-001' },
      firstName: 'Priya',
      lastName: 'Sharma',
      manager_name: 'Victoria Adams',
      managerName: 'Victoria Adams',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon/i);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/adminease_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it('gives HR staff their hr_id and employees no manager identity', async () => {
    const hr = await t.login('meera.iyer@adminease.test');
    expect(hr.user.profile.hr_id).toBe('HR-001');
    const emp = await t.login('alex.johnson@adminease.test');
    expect(emp.user.profile.manager_id).toBeNull();
    expect(emp.user.manager_name).toBe('Priya Sharma');
  });

  it('answers 401 with the spec text on a wrong password or unknown account', async () => {
    for (const body of [
      { email: 'priya.sharma@adminease.test', password: 'wrong' },
      { email: 'nobody@adminease.test', password: 'Demo@12345' },
    ]) {
      const res = await t.anonymous.post('/api/auth/login', body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid credentials. Please check your email and password.' });
    }
  });

  it('answers 400 when a field is missing or of the wrong type', async () => {
    for (const body of [{}, { email: 'a@b.test' }, { password: 'x' }, { email: 42, password: 'x' }, { email: '', password: '' }]) {
      const res = await t.anonymous.post('/api/auth/login', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/JSON/);
  });

  it('accepts the session cookie as well as the bearer token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'alex.johnson@adminease.test', password: 'Demo@12345' }),
    });
    const token = res.json().access_token;
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { adminease_session: token } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('alex.johnson@adminease.test');
  });
});

describe('login rate limit', () => {
  it('answers 429 after too many failed attempts for one account, and the right password is refused meanwhile', async () => {
    const limited = await startLimitedApp();
    try {
      for (let i = 0; i < 3; i += 1) {
        const r = await limited.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: `bad${i}` });
        expect(r.status).toBe(401);
      }
      const blocked = await limited.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: 'Demo@12345' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toMatch(/Too many sign-in attempts/);
      // after the window the account may sign in again
      limited.clock.advance(16 * 60 * 1000);
      const ok = await limited.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: 'Demo@12345' });
      expect(ok.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('sign-in throttling without lockout', () => {
  const from = (app: TestApp, address: string, email: string, password: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: address,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password }),
    });

  it('lets the owner sign in from a new address while another address keeps failing on the account', async () => {
    const app = await startTestApp({ ADMINEASE_LOGIN_RATE_LIMIT: '10' });
    try {
      for (let i = 0; i < 12; i += 1) {
        const r = await from(app, '10.66.0.1', 'alex.johnson@adminease.test', `guess-${i}`);
        expect([401, 429]).toContain(r.statusCode);
      }
      expect((await from(app, '10.66.0.1', 'alex.johnson@adminease.test', 'Demo@12345')).statusCode).toBe(429);
      const owner = await from(app, '10.77.0.2', 'alex.johnson@adminease.test', 'Demo@12345');
      expect(owner.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('does not hold back real accounts, from the same address or others, after made-up e-mails', async () => {
    const app = await startTestApp({ ADMINEASE_LOGIN_RATE_LIMIT: '10' });
    try {
      // Behind a proxy without TRUST_PROXY every client shares one address.
      for (let i = 0; i < 12; i += 1)
        expect((await from(app, '10.1.1.1', `nobody-${i}@adminease.test`, 'Demo@12345')).statusCode).toBe(401);
      expect((await from(app, '10.1.1.1', 'nina.patel@adminease.test', 'Demo@12345')).statusCode).toBe(200);
      expect((await from(app, '10.2.2.2', 'sam.wilson@adminease.test', 'Demo@12345')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('throttles one (account, address) pair with a growing delay instead of a fixed lock', async () => {
    const app = await startTestApp({ ADMINEASE_LOGIN_RATE_LIMIT: '10' });
    try {
      const attempt = (password = 'wrong') => from(app, '10.3.3.3', 'maria.garcia@adminease.test', password);
      for (let i = 0; i < 10; i += 1) expect((await attempt()).statusCode).toBe(401);
      const first = await attempt('Demo@12345');
      expect(first.statusCode).toBe(429);
      expect(first.json()).toEqual({ error: 'Too many sign-in attempts. Please wait 1 second and try again.' });
      app.clock.advance(1100);
      expect((await attempt()).statusCode).toBe(401); // the 11th failure: now 2 s
      app.clock.advance(1100);
      expect((await attempt()).statusCode).toBe(429);
      app.clock.advance(1000);
      expect((await attempt()).statusCode).toBe(401); // the 12th: now 4 s
      const third = await attempt('Demo@12345');
      expect(third.json().error).toBe('Too many sign-in attempts. Please wait 4 seconds and try again.');
      app.clock.advance(4100);
      expect((await attempt('Demo@12345')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('counts an attempt before checking it, so attempts sent at once cannot all slip through one backoff window', async () => {
    const app = await startTestApp({ ADMINEASE_LOGIN_RATE_LIMIT: '10' });
    try {
      const attempt = (password = 'wrong') => from(app, '10.3.3.4', 'maria.garcia@adminease.test', password);
      for (let i = 0; i < 9; i += 1) expect((await attempt()).statusCode).toBe(401);
      // The tenth and five more at once: only the first gets a verdict, the rest must wait.
      const burst = await Promise.all(Array.from({ length: 6 }, () => attempt()));
      expect(burst.map((r) => r.statusCode).sort()).toEqual([401, 429, 429, 429, 429, 429]);
      // A correct password from another address is not held back by any of it.
      expect((await from(app, '10.9.9.9', 'maria.garcia@adminease.test', 'Demo@12345')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('runs one argon2 verification for an unknown e-mail too, taking a comparable time', async () => {
    const spy = vi.spyOn(passwordCheck, 'verify');
    try {
      const unknown = await from(t, '10.4.4.4', 'no-such-person@adminease.test', 'Demo@12345');
      expect(unknown.statusCode).toBe(401);
      expect(spy).toHaveBeenCalledTimes(1);
      const time = async (email: string, i: number) => {
        const start = performance.now();
        expect((await from(t, `10.5.5.${i}`, email, 'wrong-password')).statusCode).toBe(401);
        return performance.now() - start;
      };
      const known: number[] = [];
      const unknownTimes: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        known.push(await time('sam.wilson@adminease.test', i));
        unknownTimes.push(await time(`ghost-${i}@adminease.test`, i + 10));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
      const ratio = median(unknownTimes) / median(known);
      expect(ratio).toBeGreaterThan(0.4);
      expect(ratio).toBeLessThan(2.5);
    } finally {
      spy.mockRestore();
    }
  });
});

async function startLimitedApp() {
  return startTestApp({ ADMINEASE_LOGIN_RATE_LIMIT: '3' });
}

describe('sessions', () => {
  it('answers 401 without a session on every protected endpoint, health aside', async () => {
    expect((await t.anonymous.get('/api/auth/me')).status).toBe(401);
    expect((await t.anonymous.get('/api/forms/employee-profile/EMP-1001')).status).toBe(401);
    expect((await t.anonymous.post('/ai/simple/session/login', { user_id: 1 })).status).toBe(401);
    const bogus = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer not-a-token' } });
    expect(bogus.statusCode).toBe(401);
    expect((await t.anonymous.get('/api/health')).status).toBe(200);
  });

  it('expires after 24 hours of inactivity and stays alive while used', async () => {
    const c = await t.login('maria.garcia@adminease.test');
    t.clock.advance(23 * 3600 * 1000);
    expect((await c.get('/api/auth/me')).status).toBe(200); // activity refreshes the session
    t.clock.advance(23 * 3600 * 1000);
    expect((await c.get('/api/auth/me')).status).toBe(200);
    t.clock.advance(24 * 3600 * 1000 + 1000);
    const expired = await c.get('/api/auth/me');
    expect(expired.status).toBe(401);
    t.clock.offsetMs = 0;
  });

  it('revokes the session on logout', async () => {
    const c = await t.login('nina.patel@adminease.test');
    expect((await c.post('/api/auth/logout')).status).toBe(200);
    expect((await c.get('/api/auth/me')).status).toBe(401);
  });

  it('stores only a hash of the token', async () => {
    const c = await t.login('rahul.verma@adminease.test');
    const r = await t.db.query('SELECT token_hash FROM sessions');
    expect(r.rows.some((x) => x.token_hash === c.token)).toBe(false);
    expect(r.rows.every((x) => /^[0-9a-f]{64}$/.test(x.token_hash))).toBe(true);
  });
});

describe('GET /api/forms/employee-profile/:code', () => {
  it("returns the caller's own profile", async () => {
    const c = await t.login('alex.johnson@adminease.test');
    const res = await c.get('/api/forms/employee-profile/EMP-1001');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: 'alex.johnson@adminease.test',
      department_name: 'Engineering',
      manager_name: 'Priya Sharma',
      hr_contact_name: 'Meera Iyer',
      join_date: '2021-09-01',
    });
  });

  it('lets the line manager and the HR contact see it, and nobody else; a refusal tells and changes nothing', async () => {
    const { employee, manager, hr } = await f.team();
    const url = `/api/forms/employee-profile/${employee.employee_code}`;
    const own = await (await f.login(employee)).get(url);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ email: employee.email, manager_name: manager.name, hr_contact_name: hr.name });
    expect((await (await f.login(manager)).get(url)).status).toBe(200);
    expect((await (await f.login(hr)).get(url)).status).toBe(200);
    // a colleague with the same manager and HR contact, another line manager, other HR staff, finance
    const colleague = await f.person({ manager, hr_contact: hr });
    const strangers = [
      colleague,
      await f.person({ kind: 'line_manager' }),
      await f.person({ kind: 'hr' }),
      await f.person({ kind: 'finance' }),
    ];
    const before = await stateFingerprint(t);
    for (const p of strangers) {
      const res = await (await f.login(p)).get(url);
      expect(res.status, p.role).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain(employee.email);
      expect(JSON.stringify(res.body)).not.toContain(employee.last_name);
    }
    expect(await stateFingerprint(t)).toEqual(before);
  });
});

describe('POST /ai/{family}/session/login', () => {
  it('opens an assistant session for any signed-in user under any family', async () => {
    const c = await t.login('sofia.rossi@adminease.test');
    for (const family of ['manager', 'hr', 'finance', 'it', 'facilities', 'simple']) {
      const res = await c.post(`/ai/${family}/session/login`, { user_id: c.user.id, user_role: c.user.role });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: c.user.id, user_role: 'Facilities Desk Coordinator' });
      expect(res.body.session_id).toMatch(new RegExp(`^${family}-`));
    }
    const stored = await t.db.query('SELECT count(*)::int AS n FROM ai_sessions WHERE user_id = $1', [c.user.id]);
    expect(stored.rows[0].n).toBe(6);
  });

  it("refuses another person's user_id with 403 and opens no session for anyone", async () => {
    const [me, other] = [await f.person(), await f.person()];
    const c = await f.login(me);
    const before = await stateFingerprint(t);
    for (const user_id of [other.id, String(other.id), other.employee_code]) {
      const res = await c.post('/ai/simple/session/login', { user_id, user_role: 'Employee' });
      expect(res.status, String(user_id)).toBe(403);
      expect(res.body.session_id).toBeUndefined();
    }
    expect(await stateFingerprint(t)).toEqual(before);
    const sessions = await t.db.query('SELECT count(*)::int AS n FROM ai_sessions WHERE user_id = ANY($1)', [[me.id, other.id]]);
    expect(sessions.rows[0].n).toBe(0);
    // the caller's own id opens one
    expect((await c.post('/ai/simple/session/login', { user_id: me.id, user_role: 'Employee' })).status).toBe(200);
  });
});
