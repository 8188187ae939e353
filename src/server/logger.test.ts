// The one logger: Fastify's request lines and the lines services write while serving a request share one format
// and carry the request id, even when the service was not handed the request's logger; lines written outside a
// request carry none; the configured level applies.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { type Db, createDb } from './db/pool.js';
import { PUBLIC_ROUTE } from './http/edge.js';
import { currentLogger, moduleLogger, redirectLogs } from './logger.js';
import { createTestDatabase } from './test/harness.js';

let lines: Array<Record<string, any>> = [];
let db: Db;
let drop: () => Promise<void>;
const apps: FastifyInstance[] = [];

/** A service that logs without being given a logger, after an await (the request's context must carry over). */
async function serviceThatLogs(): Promise<void> {
  await new Promise((r) => setTimeout(r, 5));
  await db.query('SELECT 1');
  currentLogger(moduleLogger('test-service')).warn({ step: 'after-await' }, 'service line');
}

async function appAt(level: string): Promise<FastifyInstance> {
  const app = await buildApp({ db, config: { ...loadConfig({ ...process.env, ADMINEASE_WEB_DIR: '/nonexistent' }), logLevel: level } });
  app.get('/api/test/log', PUBLIC_ROUTE, async () => {
    await serviceThatLogs();
    return { ok: true };
  });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  const t = await createTestDatabase();
  drop = t.drop;
  db = createDb(t.url, 2);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db.close();
  await drop();
});
afterEach(() => {
  redirectLogs(null);
  lines = [];
});

const capture = () =>
  redirectLogs((line) => {
    lines.push(JSON.parse(line));
  });

describe('the logger', () => {
  it('writes the request id on every line of a request, also from services that were not given the logger', async () => {
    const app = await appAt('info');
    capture();
    const res = await app.inject({ method: 'GET', url: '/api/test/log', headers: { 'x-request-id': 'log-test-0001' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('log-test-0001');
    expect(lines.length).toBeGreaterThanOrEqual(3); // incoming request, the service line, request completed
    for (const l of lines) expect(l.reqId, JSON.stringify(l)).toBe('log-test-0001');
    const service = lines.find((l) => l.msg === 'service line');
    expect(service).toMatchObject({ level: 'warn', step: 'after-await', reqId: 'log-test-0001' });
    expect(typeof service!.time).toBe('string');
    expect(new Date(service!.time).toISOString()).toBe(service!.time);
    // Two requests at once keep their own ids.
    lines = [];
    await Promise.all(
      ['log-test-a', 'log-test-b'].map((id) => app.inject({ method: 'GET', url: '/api/test/log', headers: { 'x-request-id': id } })),
    );
    const ids = lines
      .filter((l) => l.msg === 'service line')
      .map((l) => l.reqId)
      .sort();
    expect(ids).toEqual(['log-test-a', 'log-test-b']);
  });

  it('writes lines outside a request without a request id, with the module that wrote them', async () => {
    capture();
    await serviceThatLogs();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', module: 'test-service', msg: 'service line' });
    expect(lines[0].reqId).toBeUndefined();
  });

  it('keeps credentials out of the request lines', async () => {
    const app = await appAt('info');
    capture();
    await app.inject({
      method: 'GET',
      url: '/api/test/log',
      headers: { authorization: 'Bearer secret-token-123', cookie: 'adminease_session=secret-cookie-456' },
    });
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(0);
    expect(text).not.toContain('secret-token-123');
    expect(text).not.toContain('secret-cookie-456');
  });

  it("keeps a link's token out of the request lines (e-mail actions, invitations)", async () => {
    const app = await appAt('info');
    capture();
    await app.inject({ method: 'GET', url: '/api/test/log?token=link-secret-789&x=1' });
    const text = JSON.stringify(lines);
    expect(lines.some((l) => String(l.req?.url ?? '').startsWith('/api/test/log?token=[redacted]&x=1'))).toBe(true);
    expect(text).not.toContain('link-secret-789');
  });

  it('writes nothing below the configured level', async () => {
    const app = await appAt('error');
    capture();
    expect((await app.inject({ method: 'GET', url: '/api/test/log' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    const silent = await appAt('silent');
    expect((await silent.inject({ method: 'GET', url: '/api/test/log' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
  });
});
