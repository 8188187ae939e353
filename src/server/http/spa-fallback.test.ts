// The SPA fallback: the web app's own URLs (a reload of /forms/leave-request, a link to /requests/<id> from an
// e-mail) get the app's page, signed in or not; the API, /ai, /metrics, assets and every other path keep their
// own answers and are never shadowed by the page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';

const INDEX = '<!doctype html><html><head><title>AdminEase fallback test</title></head><body><div id="root"></div></body></html>';
const ASSET = 'console.log("asset");\n';
let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(os.tmpdir(), 'adminease-spa-'));
  writeFileSync(path.join(webDir, 'index.html'), INDEX);
  mkdirAssets(webDir);
  t = await startTestApp({ ADMINEASE_WEB_DIR: webDir });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

function mkdirAssets(dir: string) {
  writeFileSync(path.join(dir, 'app-abc123.js'), ASSET);
}

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('SPA fallback', () => {
  it('serves the page for every client route, with or without a session, search params kept out of the way', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    for (const url of [
      '/',
      '/forms',
      '/forms/leave-request',
      '/forms/purchase-requisition/new',
      '/requests/LR-000002',
      '/requests/LR-999999',
      '/?form=leave-request',
      '/?status=Pending&type=leave-request',
      '/forms/all-forms?date=This%20Month',
    ]) {
      const anonymous = await get(url);
      expect(anonymous.statusCode, url).toBe(200);
      expect(anonymous.headers['content-type'], url).toMatch(/^text\/html/);
      expect(anonymous.body, url).toBe(INDEX);
      const signedIn = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${alex.token}` } });
      expect(signedIn.body, url).toBe(INDEX);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/requests/LR-000002' });
    expect(head.statusCode).toBe(200);
  });

  it('does not shadow the API, the assistant, /metrics or the assets', async () => {
    // Unknown API paths and the API's own answers stay JSON.
    const unknownApi = await get('/api/no-such-thing');
    expect(unknownApi.statusCode).toBe(404);
    expect(unknownApi.json()).toEqual({ error: 'Not found' });
    const alex = await t.login('alex.johnson@adminease.test');
    const missing = await alex.get('/api/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not found' });
    const details = await alex.get('/api/forms/details/LR-999999');
    expect(details.status).toBe(404);
    expect(details.body).not.toBe(INDEX);
    expect((await get('/api/health')).headers['content-type']).toMatch(/json/);
    const ai = await get('/ai/status');
    expect(ai.statusCode).toBe(200);
    expect(ai.headers['content-type']).toMatch(/json/);
    const aiUnknown = await get('/ai/nothing-here');
    expect(aiUnknown.body).not.toBe(INDEX);
    const metrics = await get('/metrics');
    expect(metrics.body).not.toBe(INDEX);
    expect(metrics.headers['content-type']).not.toMatch(/html/);
    // An existing asset is itself; a missing one is a 404, never the page (a stale chunk must fail loudly).
    const asset = await get('/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(ASSET);
    for (const url of ['/app-missing.js', '/assets/index-000.css', '/favicon.ico']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'Not found' });
    }
  });

  it('answers 404 for paths that are not screens, and for writes to screen paths', async () => {
    for (const url of ['/nowhere', '/forms/Leave_Request', '/forms/leave-request/edit', '/requests', '/requests/a/b', '/metrics/extra']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toBe(INDEX);
    }
    const post = await t.app.inject({ method: 'POST', url: '/requests/LR-000002', payload: {} });
    expect(post.statusCode).not.toBe(200);
    expect(post.body).not.toBe(INDEX);
  });
});
