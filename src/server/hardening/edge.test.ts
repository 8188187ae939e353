// The HTTP edge: public or protected is decided on the route the router matched, whatever the URL spelling;
// writes carried by the session cookie must come from AdminEase's own page; API answers are never cached;
// the CSP asks for HTTPS only behind HTTPS; /metrics, source maps and request ids are safe by default.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../../vite.config.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { CROSS_SITE_MESSAGE } from '../http/edge.js';
import { fillPath } from './fixtures.js';

const INDEX = '<!doctype html><html><head><title>AdminEase test page</title></head><body><div id="root"></div></body></html>';
let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(os.tmpdir(), 'adminease-edge-'));
  writeFileSync(path.join(webDir, 'index.html'), INDEX);
  writeFileSync(path.join(webDir, 'app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map\n');
  writeFileSync(path.join(webDir, 'app.js.map'), '{"version":3,"sources":["secret.ts"],"mappings":""}');
  t = await startTestApp({ ADMINEASE_WEB_DIR: webDir });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

const SAMPLE_PARAMS = {
  family: 'simple',
  formType: 'leave-request',
  id: 'LR-000002',
  userId: 'EMP-1001',
  employeeId: 'EMP-1001',
  employeeCode: 'EMP-1001',
};

/** Spellings of one path that a router may decode or normalise to the same route (or to none). */
function encodedVariants(p: string): string[] {
  const segs = p.split('/').slice(1); // ['api', 'auth', 'me']
  const enc = (s: string) => s.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  const out = new Set<string>([
    `/${enc(segs[0]).replace(/^(%..)(.*)$/, (_m, a) => a + segs[0].slice(1))}/${segs.slice(1).join('/')}`, // /%61pi/...
    `/${enc(segs[0])}/${segs.slice(1).join('/')}`, // whole first segment encoded
    `/${segs.map(enc).join('/')}`, // every letter encoded
    `/${segs[0].replace(/^./, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}/${segs.slice(1).join('/')}`, // %61 upper hex
    `/${segs[0]}%2F${segs.slice(1).join('/')}`, // encoded slash
    `/${segs[0]}%2f${segs.slice(1).join('%2f')}`,
    `/${segs.join('//')}`, // double slashes
    `/${p}`, // leading double slash
    `${p}/`, // trailing slash
    p.toUpperCase(),
    `/${segs[0].toUpperCase()}/${segs.slice(1).join('/')}`,
    `${p};x=1`, // matrix parameter
    `/${segs[0]};/${segs.slice(1).join('/')}`,
    `/x/..${p}`, // dot segments
    `/${segs[0]}/./${segs.slice(1).join('/')}`,
    `/${segs[0]}/%2e/${segs.slice(1).join('/')}`,
    `/%2e%2e${p}`,
    `/x/%2e%2e${p}`,
    `/%2561${p.slice(2)}`, // double encoding
    `${p}%00`,
    `${p}%20`,
    `${p}#frag`,
  ]);
  out.delete(p);
  return [...out];
}

describe('encoded, doubled and dotted spellings of every route', () => {
  it('never answer 2xx or 5xx without a session, and never 5xx with one', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    const problems: string[] = [];
    const routes = t.app.metrics.routes.filter((r) => r.method !== 'OPTIONS' && !r.url.includes('*'));
    expect(routes.length).toBeGreaterThan(60);
    let calls = 0;
    for (const r of routes) {
      const plain = fillPath(r.url, SAMPLE_PARAMS);
      for (const url of encodedVariants(plain)) {
        for (const signedIn of [false, true]) {
          const res = await t.app.inject({
            method: r.method as 'GET',
            url,
            headers: {
              ...(signedIn ? { authorization: `Bearer ${alex.token}` } : {}),
              ...(r.method === 'GET' ? {} : { 'content-type': 'application/json' }),
            },
            payload: r.method === 'GET' ? undefined : '{}',
          });
          calls += 1;
          const label = `${r.method} ${url} ${signedIn ? 'signed in' : 'anonymous'} -> ${res.statusCode} ${res.body.slice(0, 120)}`;
          if (res.statusCode >= 500) problems.push(label);
          if (signedIn || r.public) continue;
          // Without a session only the web page itself may answer 200 (an unknown path is the single-page app).
          const isPage = res.statusCode === 200 && res.body === INDEX;
          if (res.statusCode >= 200 && res.statusCode < 300 && !isPage) problems.push(label);
          if (res.statusCode === 200 && r.method !== 'GET') problems.push(label);
        }
      }
    }
    expect(calls).toBeGreaterThan(routes.length * 30);
    expect(problems.slice(0, 30)).toEqual([]);
  }, 300_000);

  it('the reported probe: GET /%61pi/auth/me is 401, like /api/auth/me, and unknown ids do not differ from known ones', async () => {
    for (const [method, url] of [
      ['GET', '/%61pi/auth/me'],
      ['GET', '/api/%61uth/me'],
      ['GET', '/%61%70%69/auth/me'],
      ['HEAD', '/%61pi/auth/me'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      if (method === 'GET') expect(res.json()).toEqual({ error: 'Authentication required' });
    }
    const known = await t.app.inject({ method: 'GET', url: '/%61pi/forms/details/LR-000002' });
    const unknown = await t.app.inject({ method: 'GET', url: '/%61pi/forms/details/LR-999999' });
    expect([known.statusCode, unknown.statusCode]).toEqual([401, 401]);
  });

  it('public routes stay public (sign-in, health, assistant status, the page)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/ai/status' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/ai/simple/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/form-state/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).toBe(INDEX);
    expect((await t.app.inject({ method: 'GET', url: '/app.js' })).statusCode).toBe(200);
    expect((await t.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'Demo@12345' })).status).toBe(200);
  });
});

describe('same-site writes carried by the cookie', () => {
  const HOST = 'localhost:3000';
  async function pendingOf(email: string) {
    const owner = await t.login(email);
    const created = await owner.post('/api/forms/facility-access', {
      access_request_type: 'Temporary Access',
      facilities_requested: 'Server room',
      justification: 'Rack migration',
    });
    expect(created.status).toBe(201);
    return { owner, id: created.body.request_id as string };
  }
  const statusOf = async (id: string) => (await t.db.query('SELECT status FROM requests WHERE request_id = $1', [id])).rows[0].status;
  const withdraw = (id: string, headers: Record<string, string>, cookie?: string, payload?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/forms/facility-access/${id}/withdraw`,
      headers: { host: HOST, ...headers },
      ...(cookie ? { cookies: { adminease_session: cookie } } : {}),
      ...(payload !== undefined ? { payload } : {}),
    });

  it('refuses a body-less cookie write from another port of the same host (Origin or Sec-Fetch-Site) and changes nothing', async () => {
    const { owner, id } = await pendingOf('alex.johnson@adminease.test');
    const refused: Array<Record<string, string>> = [
      { origin: 'http://localhost:3001' },
      { origin: 'http://localhost:3001', 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: 'https://localhost:3000' },
    ];
    for (const headers of refused) {
      const res = await withdraw(id, headers, owner.token);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({ error: CROSS_SITE_MESSAGE });
      expect(await statusOf(id)).toBe('Pending');
    }
    // Marking a notification read: the same rule.
    const n = (await t.db.query('SELECT id FROM notifications WHERE user_id = $1 AND read_at IS NULL ORDER BY id LIMIT 1', [owner.user.id]))
      .rows[0];
    if (n) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/form-state/mark-read/${n.id}`,
        headers: { host: HOST, origin: 'http://localhost:5173' },
        cookies: { adminease_session: owner.token },
      });
      expect(res.statusCode).toBe(403);
      expect((await t.db.query('SELECT read_at FROM notifications WHERE id = $1', [n.id])).rows[0].read_at).toBeNull();
    }
    // Logout from another port neither: the session still works.
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { host: HOST, origin: 'http://localhost:3001' },
      cookies: { adminease_session: owner.token },
    });
    expect(out.statusCode).toBe(403);
    expect((await owner.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses a sign-in posted by a page of another origin (login CSRF) and creates no session; the page itself and API clients sign in', async () => {
    const body = JSON.stringify({ email: 'maria.garcia@adminease.test', password: 'Demo@12345' });
    const signIn = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { host: HOST, 'content-type': 'application/json', ...headers },
        payload: body,
      });
    const sessions = async () =>
      Number(
        (
          await t.db.query(
            "SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'maria.garcia@adminease.test'",
          )
        ).rows[0].n,
      );
    const before = await sessions();
    const crossSite: Array<Record<string, string>> = [
      { origin: 'http://localhost:3001' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const res = await signIn(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await sessions()).toBe(before);
    expect((await signIn({ origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await signIn({})).statusCode).toBe(200);
  });

  it('accepts the page itself (same Origin, JSON), clients without browser headers, and bearer tokens', async () => {
    const a = await pendingOf('maria.garcia@adminease.test');
    const same = await withdraw(
      a.id,
      { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      a.owner.token,
      '{}',
    );
    expect(same.statusCode).toBe(200);
    expect(await statusOf(a.id)).toBe('Cancelled');

    const b = await pendingOf('maria.garcia@adminease.test');
    expect((await withdraw(b.id, {}, b.owner.token)).statusCode).toBe(200); // a non-browser client with the cookie
    expect(await statusOf(b.id)).toBe('Cancelled');

    const c = await pendingOf('maria.garcia@adminease.test');
    const bearer = await withdraw(c.id, {
      origin: 'http://localhost:3001',
      'sec-fetch-site': 'same-site',
      authorization: `Bearer ${c.owner.token}`,
    });
    expect(bearer.statusCode).toBe(200);
    expect(await statusOf(c.id)).toBe('Cancelled');

    // Behind a proxy (TRUST_PROXY=1) the forwarded scheme and host are the request's own origin.
    const before = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = '1';
    const proxied = await startTestApp().finally(() => {
      if (before === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = before;
    });
    try {
      const owner = await proxied.login('maria.garcia@adminease.test');
      const created = await owner.post('/api/forms/facility-access', {
        access_request_type: 'Temporary Access',
        facilities_requested: 'Server room',
        justification: 'Rack migration',
      });
      const via = (origin: string) =>
        proxied.app.inject({
          method: 'POST',
          url: `/api/forms/facility-access/${created.body.request_id}/withdraw`,
          cookies: { adminease_session: owner.token },
          headers: { host: '10.0.0.5:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'portal.example.com', origin },
        });
      expect((await via('http://10.0.0.5:3000')).statusCode).toBe(403);
      expect((await via('https://portal.example.com')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }

    // A proxy that rewrites Host and forwards nothing: the page's address in ADMINEASE_PUBLIC_URL is its own origin.
    const beforeUrl = process.env.ADMINEASE_PUBLIC_URL;
    process.env.ADMINEASE_PUBLIC_URL = 'https://adminease.example.org/';
    const rewritten = await startTestApp().finally(() => {
      if (beforeUrl === undefined) delete process.env.ADMINEASE_PUBLIC_URL;
      else process.env.ADMINEASE_PUBLIC_URL = beforeUrl;
    });
    try {
      const owner = await rewritten.login('maria.garcia@adminease.test');
      const created = await owner.post('/api/forms/facility-access', {
        access_request_type: 'Temporary Access',
        facilities_requested: 'Server room',
        justification: 'Rack migration',
      });
      const via = (origin: string) =>
        rewritten.app.inject({
          method: 'POST',
          url: `/api/forms/facility-access/${created.body.request_id}/withdraw`,
          cookies: { adminease_session: owner.token },
          headers: { host: '127.0.0.1:3000', origin },
        });
      expect((await via('https://adminease.example.org:8443')).statusCode).toBe(403);
      expect((await via('https://adminease.example.org')).statusCode).toBe(200);
    } finally {
      await rewritten.close();
    }
  }, 60_000);
});

describe('answers', () => {
  it('are never cached on the API (sign-in included), and the CSP upgrades to HTTPS only behind HTTPS', async () => {
    const login = await t.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'Demo@12345' });
    expect(login.headers['cache-control']).toBe('no-store');
    expect((await t.anonymous.get('/api/auth/me')).headers['cache-control']).toBe('no-store');
    expect(String(login.headers['content-security-policy'])).not.toMatch(/upgrade-insecure-requests/);
    expect(String((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'])).not.toMatch(
      /upgrade-insecure-requests/,
    );
    const https = await startTestApp({ ADMINEASE_SECURE_COOKIES: '1' });
    try {
      expect(String((await https.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy'])).toMatch(
        /upgrade-insecure-requests/,
      );
    } finally {
      await https.close();
    }
  });

  it('keep a plain client X-Request-Id and replace anything else', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-abc_1.2:3' } });
    expect(ok.headers['x-request-id']).toBe('trace-abc_1.2:3');
    for (const bad of ['x'.repeat(65), 'a b', '<script>', 'id"} {"level":60', 'é']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('serve no source maps, and the production build makes none', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/app.js.map' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/app.js.map' })).body).not.toContain('secret.ts');
    expect((await t.app.inject({ method: 'GET', url: '/APP.JS.MAP' })).body).not.toContain('secret.ts');
    expect((viteConfig as { build?: { sourcemap?: unknown } }).build?.sourcemap).toBe(false);
    expect(readFileSync(path.join(webDir, 'app.js.map'), 'utf8')).toContain('secret.ts'); // the file was there to serve
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers loopback clients only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    for (const remote of ['10.1.2.3', '192.168.0.7', '::ffff:10.0.0.1', '2001:db8::1']) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: remote });
      expect(res.statusCode, remote).toBe(403);
      expect(res.body).not.toMatch(/adminease_/);
    }
    // A forged X-Forwarded-For does not make a remote client local (TRUST_PROXY is off).
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '127.0.0.1' } }))
        .statusCode,
    ).toBe(403);
    // A proxy on this machine passing on a remote client is not 'this machine' either.
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } }))
        .statusCode,
    ).toBe(403);
    // Nor does TRUST_PROXY=1 let a remote client name itself local.
    const before = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = '1';
    const proxied = await startTestApp().finally(() => {
      if (before === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = before;
    });
    try {
      expect(
        (
          await proxied.app.inject({
            method: 'GET',
            url: '/metrics',
            remoteAddress: '10.1.2.3',
            headers: { 'x-forwarded-for': '127.0.0.1' },
          })
        ).statusCode,
      ).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});
