// Web security of the HTTP layer: a content security policy without inline scripts, frame denial and no
// sniffing on pages and API answers; an index page without inline scripts; session cookies httpOnly and
// SameSite (Secure on request); no CORS; sign-in rate limits per account and per address; sessions end
// on logout and after 24 hours idle (and stay alive while used); no password material in any answer.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
let t: TestApp;
let webDir: string;

beforeAll(async () => {
  // The page as the build serves it: the repository's index.html (Vite keeps its script tags as they are).
  webDir = mkdtempSync(path.join(os.tmpdir(), 'adminease-websec-'));
  writeFileSync(path.join(webDir, 'index.html'), readFileSync(path.join(ROOT, 'index.html'), 'utf8'));
  t = await startTestApp({ ADMINEASE_WEB_DIR: webDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

function csp(headers: Record<string, any>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of String(headers['content-security-policy'] ?? '').split(';')) {
    const [name, ...values] = d.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

function assertSecurityHeaders(where: string, headers: Record<string, any>) {
  const policy = csp(headers);
  expect(policy.get('default-src'), where).toEqual(["'self'"]);
  const scripts = policy.get('script-src') ?? policy.get('default-src')!;
  expect(scripts, `${where}: script-src`).not.toContain("'unsafe-inline'");
  expect(scripts, `${where}: script-src`).not.toContain("'unsafe-eval'");
  expect(
    scripts.some((s) => s === '*' || s.startsWith('http:') || s === 'https:' || s === 'data:'),
    `${where}: script-src ${scripts}`,
  ).toBe(false);
  expect(policy.get('frame-ancestors'), where).toEqual(["'none'"]);
  expect(policy.get('object-src'), where).toEqual(["'none'"]);
  expect(policy.get('base-uri'), where).toEqual(["'self'"]);
  expect(headers['x-frame-options'], where).toBe('DENY');
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['referrer-policy'], where).toBeTruthy();
  expect(headers['cross-origin-opener-policy'], where).toBe('same-origin');
  expect(headers['access-control-allow-origin'], `${where}: CORS`).toBeUndefined();
  expect(headers['x-powered-by'], where).toBeUndefined();
}

describe('security headers', () => {
  it('are on the page, its SPA routes, API answers and errors', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    const cases = [
      ['page', await t.app.inject({ method: 'GET', url: '/' })],
      ['SPA route', await t.app.inject({ method: 'GET', url: '/requests/LR-000001' })],
      [
        'API 200',
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${alex.token}`, origin: 'https://evil.example' },
        }),
      ],
      ['API 401', await t.app.inject({ method: 'GET', url: '/api/forms/user-forms', headers: { origin: 'https://evil.example' } })],
      ['API 404', await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: { authorization: `Bearer ${alex.token}` } })],
      [
        'preflight',
        await t.app.inject({
          method: 'OPTIONS',
          url: '/api/auth/login',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
        }),
      ],
    ] as const;
    for (const [where, res] of cases) assertSecurityHeaders(where, res.headers);
    expect(cases[0][1].statusCode).toBe(200);
    expect(cases[1][1].statusCode).toBe(200);
    expect(cases[5][1].statusCode).toBeGreaterThanOrEqual(400);
  });

  it('serves a page whose scripts all come from files (the policy allows no inline script)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, inner] of scripts) {
      expect(attrs, 'script without src').toMatch(/\bsrc=/);
      expect(inner.trim(), 'inline script body').toBe('');
    }
    expect(page.body).not.toMatch(/\son[a-z]+\s*=/i); // no inline event handlers
  });
});

describe('session cookie', () => {
  it('is httpOnly, SameSite=Strict, for the whole site, and cleared on logout', async () => {
    const res = await t.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'Demo@12345' });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^adminease_session=[A-Za-z0-9_-]{30,};/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { adminease_session: res.body.access_token },
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/adminease_session=;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/i);
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { adminease_session: res.body.access_token } });
    expect(after.statusCode).toBe(401);
  });

  it('is Secure when ADMINEASE_SECURE_COOKIES=1', async () => {
    const secure = await startTestApp({ ADMINEASE_SECURE_COOKIES: '1' });
    try {
      const res = await secure.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'Demo@12345' });
      expect(String(res.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    } finally {
      await secure.close();
    }
  });

  it('cannot be used cross-site by a form post (JSON only)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/manager/update-status',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      payload: 'form_id=LR-000002&status=Approved',
    });
    expect([401, 415]).toContain(res.statusCode);
    const signedIn = await t.login('priya.sharma@adminease.test');
    const withCookie = await t.app.inject({
      method: 'POST',
      url: '/api/manager/update-status',
      cookies: { adminease_session: signedIn.token },
      headers: { 'content-type': 'text/plain' },
      payload: '{"form_id":"LR-000002","status":"Approved"}',
    });
    expect(withCookie.statusCode).toBe(415);
    expect(withCookie.json().error).toMatch(/JSON/);
  });
});

describe('sessions', () => {
  it('stay alive while used, end after 24 hours idle, and end at logout', async () => {
    const app = await startTestApp();
    try {
      const a = await app.login('maria.garcia@adminease.test');
      for (let i = 0; i < 3; i += 1) {
        app.clock.advance(20 * 3600 * 1000); // 60 hours in all, never 24 idle
        expect((await a.get('/api/auth/me')).status).toBe(200);
      }
      app.clock.advance(24 * 3600 * 1000 + 1000);
      const expired = await a.get('/api/auth/me');
      expect(expired.status).toBe(401);
      expect(expired.body.error).toMatch(/expired/i);
      const b = await app.login('maria.garcia@adminease.test');
      expect((await b.post('/api/auth/logout')).status).toBe(200);
      expect((await b.get('/api/auth/me')).status).toBe(401);
      // Another session of the same person is not affected.
      const c = await app.login('maria.garcia@adminease.test');
      const d = await app.login('maria.garcia@adminease.test');
      await c.post('/api/auth/logout');
      expect((await d.get('/api/auth/me')).status).toBe(200);
      // Only a hash of the token is stored.
      const stored = await app.db.query('SELECT token_hash FROM sessions');
      expect(stored.rows.some((r) => r.token_hash === d.token)).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe('sign-in rate limit', () => {
  it('throttles failed attempts per (account, address) and per address with 429 and a clear message', async () => {
    const app = await startTestApp({ ADMINEASE_LOGIN_RATE_LIMIT: '3' });
    try {
      for (let i = 0; i < 3; i += 1)
        expect((await app.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: `wrong-${i}` })).status).toBe(
          401,
        );
      const blocked = await app.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: 'Demo@12345' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toMatch(/too many/i);
      // The same client with another account is not held back by this pair...
      expect((await app.anonymous.post('/api/auth/login', { email: 'nina.patel@adminease.test', password: 'Demo@12345' })).status).toBe(
        200,
      );
      // ...and the account itself still signs in from another address.
      const fromElsewhere = (email: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.9.8.7',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ email, password: 'Demo@12345' }),
        });
      expect((await fromElsewhere('sam.wilson@adminease.test')).statusCode).toBe(200);
      // Per address: failures over any e-mails (3 x the limit) slow that address down for every account.
      for (let i = 0; i < 6; i += 1)
        expect((await app.anonymous.post('/api/auth/login', { email: `made-up-${i}@adminease.test`, password: 'x' })).status).toBe(401);
      expect((await app.anonymous.post('/api/auth/login', { email: 'nina.patel@adminease.test', password: 'Demo@12345' })).status).toBe(
        429,
      );
      expect((await fromElsewhere('nina.patel@adminease.test')).statusCode).toBe(200);
      // The delay passes.
      app.clock.advance(15 * 60 * 1000 + 1000);
      expect((await app.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: 'Demo@12345' })).status).toBe(
        200,
      );
    } finally {
      await app.close();
    }
  });
});

describe('no password material in answers', () => {
  it('never returns a password hash or a session token hash', async () => {
    const login = await t.anonymous.post('/api/auth/login', { email: 'meera.iyer@adminease.test', password: 'Demo@12345' });
    const meera = await t.login('meera.iyer@adminease.test');
    const bodies = [
      login.text,
      (await meera.get('/api/auth/me')).text,
      (await meera.get('/api/hr/queue')).text,
      (await meera.get('/api/forms/employee-profile/EMP-1001')).text,
    ];
    for (const b of bodies) {
      expect(b).not.toMatch(/\$argon2/);
      expect(b).not.toMatch(/password_hash|token_hash/);
    }
  });

  it('echoes a request id on every answer (the one the client sent, when it is reasonable)', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const b = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-abc-123' } });
    expect(b.headers['x-request-id']).toBe('trace-abc-123');
    const c = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'x'.repeat(500) } });
    expect(String(c.headers['x-request-id']).length).toBeLessThanOrEqual(100);
  });
});
