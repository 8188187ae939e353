// The OpenAPI document covers every route the app registers (collected by the onRoute hook of the metrics
// registry), with its method; /api/docs serves a working page from local assets without a session; and route
// inputs validated by their zod schemas keep answering 400 {error} with readable messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { DOCS_PREFIX } from './openapi.js';

let t: TestApp;
let doc: { openapi: string; paths: Record<string, Record<string, any>> };

beforeAll(async () => {
  t = await startTestApp();
  const res = await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
  expect(res.statusCode).toBe(200);
  doc = JSON.parse(res.body);
});
afterAll(async () => t?.close());

/** `/api/forms/:formType/:id` as OpenAPI writes it: `/api/forms/{formType}/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The API's routes among everything registered (the built web app's files are not part of the API). */
const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/ai/') || url === '/metrics';

describe('the OpenAPI document', () => {
  it('lists every registered route with its method, and nothing that is not a route', () => {
    expect(doc.openapi).toBe('3.1.0');
    const routes = t.app.metrics.routes.filter((r) => isApi(r.url));
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);

    const registered = new Set(routes.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((m) => m !== 'parameters')
        .map((m) => `${m} ${p}`),
    );
    expect(documented.filter((d) => !registered.has(d))).toEqual([]);
    // The page and its document describe the API; they are not part of it.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith(DOCS_PREFIX))).toEqual([]);
  });

  it("describes inputs from the routes' schemas and says which routes need no session", () => {
    const login = doc.paths['/api/auth/login'].post;
    const body = login.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(['email', 'password']);
    expect(body.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(login.security).toEqual([]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    // A route that needs a session keeps the document's default (cookie or bearer).
    expect(doc.paths['/api/auth/me'].get.security).toBeUndefined();

    const queue = doc.paths['/api/manager/queue'].get;
    expect(queue.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['status', 'limit', 'form_type']),
    );
    const withdraw = doc.paths['/api/forms/{formType}/{id}/withdraw'].post;
    expect(
      withdraw.parameters
        .filter((p: any) => p.in === 'path')
        .map((p: any) => p.name)
        .sort(),
    ).toEqual(['formType', 'id']);
    const family = doc.paths['/ai/{family}/session/login'].post.parameters.find((p: any) => p.name === 'family');
    expect(family.schema.enum).toEqual(expect.arrayContaining(['manager', 'hr', 'simple']));
  });
});

describe('/api/docs', () => {
  it('answers a page without a session, with its assets served from this server', async () => {
    const index = await t.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(index.statusCode).toBe(200);
    expect(String(index.headers['content-type'])).toMatch(/^text\/html/);
    expect(index.body).toContain('swagger-ui');
    // Every script and stylesheet is local: nothing from a CDN.
    const refs = [...index.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(2);
    for (const ref of refs) expect(ref, ref).not.toMatch(/^(https?:)?\/\//);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-initializer.js']) {
      const res = await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/static/${asset}` });
      expect(res.statusCode, asset).toBe(200);
    }
    // The page runs under the app's security policy: scripts from this origin only, which is all it needs.
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('serves the document as JSON and YAML without a session', async () => {
    const json = await t.anonymous.get(`${DOCS_PREFIX}/json`);
    expect(json.status).toBe(200);
    expect(json.body.info.title).toBe('AdminEase API');
    const yaml = await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/yaml` });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('openapi: 3.1.0');
  });
});

describe('inputs validated by the route schemas', () => {
  it('answer 400 {error} with the readable message, and an absent body reads as {}', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    expect(await alex.get('/api/calendar/holidays?year=abc')).toMatchObject({ status: 400, body: { error: 'year must be a number' } });
    expect((await alex.get('/api/manager/queue?limit=0')).body).toEqual({ error: 'limit must be at least 1' });
    expect((await t.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test' })).body).toEqual({
      error: 'Email and password are required',
    });
    const bodiless = await t.app.inject({
      method: 'POST',
      url: '/api/form-state/save-snapshot',
      headers: { authorization: `Bearer ${alex.token}` },
    });
    expect(bodiless.statusCode).toBe(400);
    expect(bodiless.json()).toEqual({ error: 'user_id is required' });
    expect((await alex.post('/ai/nobody/session/login', { user_id: alex.user.id })).body).toEqual({ error: 'Unknown assistant family' });
  });
});
