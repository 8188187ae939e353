// The per-instance session cache: calls within a minute of the stored activity are answered from memory,
// the idle limit is unchanged, and a logout, a revocation in the database or a change to the user reaches
// every instance at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDb } from '../db/pool.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { hashToken } from './service.js';
import { SessionCache } from './session-cache.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const cacheOf = () => t.app.ctx.sessions!;

/** Polls `check` until it holds (PostgreSQL notifications arrive within milliseconds), at most 3 s. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + 3000;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

/** A second server instance on the same database, with its own caches and the same clock. */
async function secondInstance() {
  const db = createDb(t.url, 5);
  const config = { ...loadConfig({ ...process.env }), databaseUrl: t.url, logLevel: 'silent' };
  const app = await buildApp({ db, config, clock: t.clock, logger: false });
  await app.ready();
  const get = async (url: string, token: string) => {
    const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    return { status: r.statusCode, body: r.json() };
  };
  return {
    app,
    get,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

describe('session cache', () => {
  it('answers repeated calls from memory and keeps the idle rules', async () => {
    expect(cacheOf().listening).toBe(true);
    const a = await t.login('maria.garcia@adminease.test');
    expect((await a.get('/api/auth/me')).status).toBe(200); // looked up and cached
    const before = cacheOf().stats().hits;
    for (let i = 0; i < 5; i += 1) expect((await a.get('/api/auth/me')).body.user.email).toBe('maria.garcia@adminease.test');
    expect(cacheOf().stats().hits).toBe(before + 5);

    // after a minute the database is asked again and the stored activity refreshed
    const stored = async () =>
      (await t.db.query('SELECT last_activity_at FROM sessions WHERE token_hash = $1', [hashToken(a.token)])).rows[0]
        .last_activity_at as Date;
    const first = await stored();
    t.clock.advance(61_000);
    const misses = cacheOf().stats().misses;
    expect((await a.get('/api/auth/me')).status).toBe(200);
    expect(cacheOf().stats().misses).toBe(misses + 1);
    expect((await stored()).getTime()).toBeGreaterThan(first.getTime());

    // 24 hours idle still ends the session
    t.clock.advance(24 * 3600 * 1000 + 1000);
    const expired = await a.get('/api/auth/me');
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatch(/expired/i);
  });

  it('a logout on one instance ends the session on the other at once', async () => {
    const other = await secondInstance();
    try {
      const a = await t.login('sam.wilson@adminease.test');
      expect((await other.get('/api/auth/me', a.token)).status).toBe(200);
      expect((await other.get('/api/auth/me', a.token)).status).toBe(200); // now cached on the other instance
      expect((await a.post('/api/auth/logout')).status).toBe(200);
      expect((await a.get('/api/auth/me')).status).toBe(401);
      expect(await eventually(async () => (await other.get('/api/auth/me', a.token)).status === 401)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('a session revoked or deleted in the database, or a changed user, is seen at once', async () => {
    const a = await t.login('nina.patel@adminease.test');
    const b = await t.login('nina.patel@adminease.test');
    expect((await a.get('/api/auth/me')).status).toBe(200);
    expect((await b.get('/api/auth/me')).status).toBe(200);
    await t.db.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1', [hashToken(a.token)]);
    expect(await eventually(async () => (await a.get('/api/auth/me')).status === 401)).toBe(true);
    expect((await b.get('/api/auth/me')).status).toBe(200);

    await t.db.query("UPDATE users SET first_name = 'Nine' WHERE email = 'nina.patel@adminease.test'");
    expect(await eventually(async () => (await b.get('/api/auth/me')).body.user?.profile?.first_name === 'Nine')).toBe(true);

    await t.db.query('DELETE FROM sessions WHERE token_hash = $1', [hashToken(b.token)]);
    expect(await eventually(async () => (await b.get('/api/auth/me')).status === 401)).toBe(true);
  });

  it('keeps nothing while it does not hear PostgreSQL', async () => {
    const cache = new SessionCache(t.db, { warn: () => undefined });
    const user = { id: 1 } as never;
    cache.set('x', user, Date.now(), cache.generation());
    expect(cache.get('x', Date.now())).toBeUndefined();
    await cache.start();
    cache.set('x', user, Date.now(), cache.generation());
    expect(cache.get('x', Date.now())).toBe(user);
    // a look-up that started before a drop does not store its (possibly stale) answer
    const gen = cache.generation();
    cache.drop('y');
    cache.set('y', user, Date.now(), gen);
    expect(cache.get('y', Date.now())).toBeUndefined();
    await cache.stop();
    expect(cache.get('x', Date.now())).toBeUndefined();
  });
});
