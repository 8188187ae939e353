// Sessions have an absolute lifetime from sign-in (ADMINEASE_SESSION_MAX_HOURS) besides the 24-hour idle rule,
// also when answered from the per-instance session cache; ended sessions are deleted a day later (the hourly job
// 'sessions-cleanup'); and an open live stream (/api/events) ends with its session: at logout on this instance or
// another one, and when the session reaches its end.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type Db, createDb } from '../db/pool.js';
import { liveHubOf } from '../notifications/routes.js';
import { hashToken } from './service.js';
import { type TestApp, startTestApp } from '../test/harness.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('absolute session lifetime', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends a session 7 days after sign-in by default however active it is, and the cookie lasts as long', async () => {
    const login = await t.anonymous.post('/api/auth/login', { email: 'sam.wilson@adminease.test', password: 'Demo@12345' });
    expect(String(login.headers['set-cookie'])).toMatch(/Max-Age=604800\b/);
    const sam = await t.login('sam.wilson@adminease.test');
    for (let h = 20; h < 168; h += 20) {
      t.clock.advance(20 * HOUR);
      expect((await sam.get('/api/auth/me')).status, `after ${h} h`).toBe(200);
    }
    t.clock.advance(168 * HOUR - 160 * HOUR + 1000); // 7 days and a second since sign-in, 8 hours since the last call
    const late = await sam.get('/api/auth/me');
    expect(late.status).toBe(401);
    expect(late.body.error).toMatch(/expired/i);
  });

  it('is read from ADMINEASE_SESSION_MAX_HOURS, which must be a positive number', () => {
    expect(loadConfig({ ADMINEASE_SESSION_MAX_HOURS: '12' }).sessionMaxMs).toBe(12 * HOUR);
    expect(loadConfig({}).sessionMaxMs).toBe(168 * HOUR);
    for (const bad of ['0', '-1', 'abc', 'Infinity'])
      expect(() => loadConfig({ ADMINEASE_SESSION_MAX_HOURS: bad }), bad).toThrow(/ADMINEASE_SESSION_MAX_HOURS/);
  });

  it('is respected by the session cache too', async () => {
    const short = await startTestApp({ ADMINEASE_SESSION_MAX_HOURS: '0.01' }); // 36 seconds
    try {
      const cache = short.app.ctx.sessions!;
      for (let i = 0; i < 100 && !cache.listening; i += 1) await sleep(20);
      expect(cache.listening).toBe(true);
      const nina = await short.login('nina.patel@adminease.test');
      expect((await nina.get('/api/auth/me')).status).toBe(200); // read from the database, now cached
      short.clock.advance(10_000);
      const hits = cache.hits;
      expect((await nina.get('/api/auth/me')).status).toBe(200);
      expect(cache.hits).toBe(hits + 1); // answered from memory
      short.clock.advance(27_000); // 37 s after sign-in, 37 s after the stored activity: still inside the cache window
      expect((await nina.get('/api/auth/me')).status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('deletes the sessions that ended more than a day ago and keeps the rest', async () => {
    const sam = await t.login('sam.wilson@adminease.test'); // a live session, used again after the clean-up
    const userId = (await t.db.query(`SELECT id FROM users WHERE email = 'sam.wilson@adminease.test'`)).rows[0].id as number;
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now - ms);
    const sessions: Record<string, { created: Date; active: Date; revoked: Date | null; kept: boolean }> = {
      live: { created: at(HOUR), active: at(10 * 60_000), revoked: null, kept: true },
      'signed out two days ago': { created: at(3 * DAY), active: at(2 * DAY), revoked: at(2 * DAY), kept: false },
      'signed out two hours ago': { created: at(3 * HOUR), active: at(2 * HOUR), revoked: at(2 * HOUR), kept: true },
      'idle for two days past the limit': { created: at(4 * DAY), active: at(3 * DAY), revoked: null, kept: false },
      'idle just past the limit': { created: at(2 * DAY), active: at(DAY + 2 * HOUR), revoked: null, kept: true },
      'past its 7-day lifetime a day ago': { created: at(8 * DAY + 2 * HOUR), active: at(HOUR), revoked: null, kept: false },
      'at the end of its lifetime': { created: at(7 * DAY - HOUR), active: at(HOUR), revoked: null, kept: true },
    };
    for (const [name, s] of Object.entries(sessions)) {
      await t.db.query('INSERT INTO sessions (token_hash, user_id, created_at, last_activity_at, revoked_at) VALUES ($1, $2, $3, $4, $5)', [
        `cleanup-test ${name}`,
        userId,
        s.created,
        s.active,
        s.revoked,
      ]);
    }
    await t.app.ctx.jobs.runDue();
    const left = new Set(
      (await t.db.query(`SELECT token_hash FROM sessions WHERE token_hash LIKE 'cleanup-test %'`)).rows.map((r) => r.token_hash as string),
    );
    for (const [name, s] of Object.entries(sessions)) expect(left.has(`cleanup-test ${name}`), name).toBe(s.kept);
    const job = await t.db.query(`SELECT done_at, last_error FROM jobs WHERE name = 'sessions-cleanup' ORDER BY id DESC LIMIT 1`);
    expect(job.rows[0]).toMatchObject({ last_error: null });
    expect(job.rows[0].done_at).not.toBeNull();
    expect((await sam.get('/api/auth/me')).status).toBe(200);
  });
});

/** An open /api/events stream: its events' text, and a promise that settles when the server ends it. */
function openStream(port: number, token: string) {
  let text = '';
  let ended = false;
  let status = 0;
  const req = http.get({
    host: '127.0.0.1',
    port,
    path: '/api/events',
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  const done = new Promise<void>((resolve) => {
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        ended = true;
        resolve();
      });
      res.on('close', () => {
        ended = true;
        resolve();
      });
    });
    req.on('error', () => {
      ended = true;
      resolve();
    });
  });
  return {
    done,
    status: () => status,
    text: () => text,
    ended: () => ended,
    async ready() {
      for (let i = 0; i < 200 && !text.includes('event: ready'); i += 1) await sleep(20);
      expect(text).toContain('event: ready');
    },
    close: () => req.destroy(),
  };
}

async function endsWithin(s: ReturnType<typeof openStream>, ms: number): Promise<boolean> {
  return Promise.race([s.done.then(() => true), sleep(ms).then(() => false)]);
}

describe('live streams end with their session', () => {
  let t: TestApp;
  let port: number;
  let second: FastifyInstance;
  let secondDb: Db;
  let port2: number;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    secondDb = createDb(t.url, 5);
    const config = { ...loadConfig({ ...process.env }), databaseUrl: t.url, logLevel: 'silent' };
    second = await buildApp({ db: secondDb, config, clock: t.clock, logger: false });
    await second.listen({ port: 0, host: '127.0.0.1' });
    port2 = (second.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await t?.close();
  });

  it('at logout on the same instance, and nothing is delivered after it', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    const other = await t.login('alex.johnson@adminease.test'); // another session of the same person keeps its stream
    const s = openStream(port, alex.token);
    const keep = openStream(port, other.token);
    await s.ready();
    await keep.ready();
    expect((await alex.post('/api/auth/logout')).status).toBe(200);
    expect(await endsWithin(s, 2000)).toBe(true);
    // The hub holds no stream of that session any more, so nothing can reach it; the other session's stays open.
    const hub = liveHubOf(t.app)!;
    expect([...hub.clients].some((c) => c.tokenHash === hashToken(alex.token))).toBe(false);
    expect([...hub.clients].some((c) => c.tokenHash === hashToken(other.token))).toBe(true);
    await sleep(200);
    expect(keep.ended()).toBe(false);
    keep.close();
  });

  it('at logout on another instance (through the session signal)', async () => {
    const priya = await t.login('priya.sharma@adminease.test');
    const s = openStream(port2, priya.token);
    await s.ready();
    expect((await priya.post('/api/auth/logout')).status).toBe(200); // instance 1
    expect(await endsWithin(s, 3000)).toBe(true);
  });

  it('when the session is revoked or deleted in the database', async () => {
    const meera = await t.login('meera.iyer@adminease.test');
    const s = openStream(port2, meera.token);
    await s.ready();
    await t.db.query(`DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'meera.iyer@adminease.test')`);
    expect(await endsWithin(s, 3000)).toBe(true);
  });

  it('when the session reaches its absolute end', async () => {
    const short = await startTestApp({ ADMINEASE_SESSION_MAX_HOURS: '0.001' }); // 3.6 seconds
    try {
      await short.app.listen({ port: 0, host: '127.0.0.1' });
      const p = (short.app.server.address() as AddressInfo).port;
      const kenji = await short.login('kenji.watanabe@adminease.test');
      const s = openStream(p, kenji.token);
      await s.ready();
      expect(s.ended()).toBe(false);
      expect(await endsWithin(s, 6000)).toBe(true);
    } finally {
      await short.close();
    }
  }, 20_000);
});
