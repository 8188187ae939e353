// GET /metrics: Prometheus text format, counts and latency histograms per route template (never a concrete
// id), the METRICS_TOKEN guard, and the route catalogue that the hardening tests enumerate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { escapeLabel } from './metrics.js';
import { LOOP_TIMER_MS, loopLateness } from './routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Parses the exposition into {name, labels, value} samples, checking every line is well-formed. */
function parseExposition(text: string) {
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|\+Inf|NaN)$/.exec(line);
    if (!m) throw new Error(`malformed exposition line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[3]) for (const lm of m[3].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[lm[1]] = lm[2];
    samples.push({ name: m[1], labels, value: m[4] === '+Inf' ? Infinity : Number(m[4]) });
  }
  return samples;
}

describe('GET /metrics', () => {
  it('counts requests per route template and status, without a session', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    for (let i = 0; i < 3; i += 1) await alex.post('/ai/simple/session/login', { user_id: alex.user.id, user_role: alex.user.role });
    await alex.post('/ai/manager/session/login', { user_id: 999999 }); // 403
    await t.anonymous.get('/api/auth/me'); // 401
    await alex.get('/api/no-such-thing/12345'); // 404, no route

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(res.body);
    const count = (route: string, status: string, method = 'POST') =>
      samples.find(
        (s) =>
          s.name === 'adminease_http_requests_total' &&
          s.labels.route === route &&
          s.labels.status === status &&
          s.labels.method === method,
      )?.value;
    expect(count('/ai/:family/session/login', '200')).toBe(3);
    expect(count('/ai/:family/session/login', '403')).toBe(1);
    expect(count('/api/auth/login', '200')).toBe(1);
    expect(count('/api/auth/me', '401', 'GET')).toBe(1);
    expect(count('unmatched', '404', 'GET')).toBe(1);
    // Route templates only: no concrete path or id becomes a label.
    expect(res.body).not.toContain('12345');
    expect(res.body).not.toContain('/ai/simple/');
  });

  it('counts hits and misses of the queue and list answer cache', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    const value = async (name: string) =>
      parseExposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body).find((s) => s.name === name)?.value ?? NaN;
    const hits = await value('adminease_answer_cache_hits_total');
    const misses = await value('adminease_answer_cache_misses_total');
    const url = `/api/forms/user-forms?employee_id=${alex.user.profile.employee_code}`;
    const first = await alex.get(url);
    expect(first.status).toBe(200);
    const second = await alex.get(url);
    expect(second.headers['x-queue-cache']).toBe('hit');
    expect(await value('adminease_answer_cache_misses_total')).toBe(misses + 1);
    expect(await value('adminease_answer_cache_hits_total')).toBe(hits + 1);
    expect(await value('adminease_answer_cache_entries')).toBeGreaterThan(0);
  });

  it('exposes cumulative latency histograms whose +Inf bucket equals the count', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    const samples = parseExposition(res.body);
    const buckets = samples.filter(
      (s) =>
        s.name === 'adminease_http_request_duration_seconds_bucket' &&
        s.labels.route === '/ai/:family/session/login' &&
        s.labels.status_class === '2xx',
    );
    expect(buckets.length).toBeGreaterThan(5);
    for (let i = 1; i < buckets.length; i += 1) expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
    const inf = buckets.find((b) => b.labels.le === '+Inf')!;
    const cnt = samples.find(
      (s) =>
        s.name === 'adminease_http_request_duration_seconds_count' &&
        s.labels.route === '/ai/:family/session/login' &&
        s.labels.status_class === '2xx',
    )!;
    expect(inf.value).toBe(cnt.value);
    const sum = samples.find(
      (s) =>
        s.name === 'adminease_http_request_duration_seconds_sum' &&
        s.labels.route === '/ai/:family/session/login' &&
        s.labels.status_class === '2xx',
    )!;
    expect(sum.value).toBeGreaterThan(0);
    for (const g of [
      'adminease_db_pool_connections',
      'process_resident_memory_bytes',
      'nodejs_eventloop_delay_p99_seconds',
      'adminease_http_routes',
    ]) {
      expect(
        samples.some((s) => s.name === g),
        g,
      ).toBe(true);
    }
  });

  it("reports how late the event loop was, without the sampling timer's own interval", () => {
    // Node's histogram records whole intervals between runs of its timer: an on-time loop reads the timer's interval.
    const ms = (x: number) => x * 1e6;
    const onTime = loopLateness({ percentile: () => ms(LOOP_TIMER_MS), max: ms(LOOP_TIMER_MS + 0.5) });
    expect(onTime.p99).toBe(0);
    expect(onTime.max).toBeCloseTo(0.0005, 9);
    const late = loopLateness({ percentile: () => ms(LOOP_TIMER_MS + 12), max: ms(LOOP_TIMER_MS + 40) });
    expect(late.p99).toBeCloseTo(0.012, 6);
    expect(late.max).toBeCloseTo(0.04, 6);
    // Right after a scrape (no sample yet) the histogram reads 0: on time, never negative.
    expect(loopLateness({ percentile: () => 0, max: 0 })).toEqual({ p99: 0, max: 0 });
  });

  it('escapes label values', () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    process.env.METRICS_TOKEN = 'scrape-secret-123';
    const guarded = await startTestApp();
    delete process.env.METRICS_TOKEN;
    try {
      const none = await guarded.app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(typeof none.json().error).toBe('string');
      const wrong = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret-12' } });
      expect(wrong.statusCode).toBe(401);
      const ok = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret-123' } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('adminease_http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});

describe('route catalogue', () => {
  it('lists every route of every feature with its method', () => {
    const routes = t.app.metrics.routes.map((r) => `${r.method} ${r.url}`);
    for (const r of [
      'GET /api/health',
      'POST /api/auth/login',
      'POST /api/auth/logout',
      'GET /api/auth/me',
      'POST /ai/:family/session/login',
      'GET /metrics',
    ]) {
      expect(routes).toContain(r);
    }
  });
});

describe('GET /api/health', () => {
  it('checks the database and answers 503 when it is unreachable', async () => {
    const ok = await t.anonymous.get('/api/health');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'ok', database: 'ok' });
    const broken = await startTestApp();
    await broken.db.query('SELECT 1');
    const realQuery = broken.db.query;
    broken.db.query = async () => {
      throw new Error('connection refused');
    };
    try {
      const down = await broken.anonymous.get('/api/health');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'error', database: 'unreachable' });
    } finally {
      broken.db.query = realQuery;
      await broken.close();
    }
  });
});
