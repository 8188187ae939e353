// Lifecycle of the real server process (src/server/main.ts as a child process on a free port):
// killed with SIGKILL during a write load and started again on the same data, every acknowledged (2xx)
// write is there; with the embedded database the orphaned PostgreSQL is found and stopped, and a crash of
// the database itself is recovered; SIGTERM finishes in-flight requests and stops the database cleanly.
// The logs are JSON lines with a request id and no secrets. Embedded in the embedded project, the external
// PostgreSQL (DATABASE_URL) in the external-pg project.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startEmbedded } from './db/embedded.js';
import { resolvePostgresBinaries } from './db/embedded-binaries.js';
import { externalUrl } from './test/global-setup.js';
import { type ServerProcess, httpCall, scratchDatabase, startServerProcess, waitFor } from './test/server-process.js';

const PASSWORD = 'Demo@12345';
const WRITERS = [
  'alex.johnson@adminease.test',
  'maria.garcia@adminease.test',
  'sam.wilson@adminease.test',
  'nina.patel@adminease.test',
  'priya.sharma@adminease.test',
  'meera.iyer@adminease.test',
];

const started: ServerProcess[] = [];

/** The server from source with info-level logs (the log assertions read the request lines). */
const startServer = (env: Record<string, string>) => startServerProcess({ LOG_LEVEL: 'info', ...env }, started);

afterAll(async () => {
  for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
});

/**
 * A request whose headers and half its body are sent now and the rest on `finish()`: it is in flight (routed,
 * waiting for its body) for as long as the caller wants, e.g. across a SIGTERM.
 */
function callInTwoParts(port: number, url: string, body: unknown, token: string) {
  const payload = Buffer.from(JSON.stringify(body));
  let req!: http.ClientRequest;
  const result = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: url,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(payload.subarray(0, 5));
  return { result, finish: () => req.end(payload.subarray(5)) };
}

/** Lines logged for requests of `url` that the server has received (routed) so far. */
function received(server: ServerProcess, url: string): number {
  return server.lines.filter((l) => l.includes('"incoming request"') && l.includes(`"url":"${url}"`)).length;
}

async function signIn(port: number, email: string): Promise<{ token: string; id: number }> {
  const r = await httpCall(port, 'POST', '/api/auth/login', { email, password: PASSWORD });
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return { token: r.body.access_token, id: r.body.user.id };
}

/**
 * Concurrent writes by several users until `stop()`: form submissions (POST /api/forms/expense-reimbursement,
 * each with a unique description) and assistant sessions (one row each). Records every write the server
 * acknowledged with a 2xx; failures after the kill are expected and ignored (not acknowledged).
 */
async function writeLoad(port: number, concurrency = 12) {
  const users = await Promise.all(WRITERS.map((e) => signIn(port, e)));
  const acknowledged: Acknowledged[] = [];
  const tokens = users.map((u) => u.token);
  let running = true;
  let errors = 0;
  let seq = 0;
  const worker = async (i: number) => {
    const u = users[i % users.length];
    while (running) {
      try {
        if (i % 2 === 0) {
          const description = `lifecycle ${process.pid} #${(seq += 1)}`;
          const r = await httpCall(
            port,
            'POST',
            '/api/forms/expense-reimbursement',
            { expense_period: 'November 2026', total_amount: 12.5, description },
            u.token,
          );
          if (r.status >= 200 && r.status < 300) acknowledged.push({ kind: 'request', id: r.body.request_id, userId: u.id, description });
          else if (r.status >= 500) errors += 1;
        } else {
          const r = await httpCall(port, 'POST', '/ai/simple/session/login', { user_id: u.id, user_role: 'Employee' }, u.token);
          if (r.status >= 200 && r.status < 300) acknowledged.push({ kind: 'session', id: r.body.session_id, userId: u.id });
          else if (r.status >= 500) errors += 1;
        }
      } catch {
        if (running) await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const workers = Array.from({ length: concurrency }, (_, i) => worker(i));
  return {
    acknowledged,
    tokens,
    serverErrors: () => errors,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

interface Acknowledged {
  kind: 'request' | 'session';
  id: string;
  userId: number;
  description?: string;
}

async function assertAllPresent(url: string, acknowledged: Acknowledged[]) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const sessions = acknowledged.filter((a) => a.kind === 'session');
    const requests = acknowledged.filter((a) => a.kind === 'request');
    const s = await c.query('SELECT session_id, user_id FROM ai_sessions WHERE session_id = ANY($1)', [sessions.map((a) => a.id)]);
    const foundSessions = new Map(s.rows.map((row) => [row.session_id, row.user_id]));
    const r = await c.query(
      `SELECT r.request_id, r.employee_id, r.data->>'description' AS description, (SELECT count(*)::int FROM approvals a WHERE a.request_pk = r.id) AS approvals
                               FROM requests r WHERE r.request_id = ANY($1)`,
      [requests.map((a) => a.id)],
    );
    const foundRequests = new Map(r.rows.map((row) => [row.request_id, row]));
    const missing = [
      ...sessions.filter((a) => foundSessions.get(a.id) !== a.userId),
      ...requests.filter((a) => {
        const row = foundRequests.get(a.id);
        return !row || row.employee_id !== a.userId || row.description !== a.description || row.approvals !== 1;
      }),
    ];
    expect(missing, 'acknowledged writes missing after the restart').toEqual([]);
  } finally {
    await c.end();
  }
}

/** Every stdout line is a JSON object; request lines carry reqId; no password or token appears anywhere. */
function assertLogs(server: ServerProcess, secrets: string[]) {
  const records = server.lines.map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      throw new Error(`log line is not JSON: ${l}`);
    }
  });
  const requestLines = records.filter((r) => r.req || r.res);
  expect(requestLines.length).toBeGreaterThan(0);
  for (const r of requestLines) expect(typeof r.reqId).toBe('string');
  const all = server.lines.join('\n') + server.stderr.join('');
  for (const s of secrets) expect(all.includes(s), 'a secret appears in the logs').toBe(false);
}

/** The external server of the external-pg project (TEST_DATABASE_URL or 127.0.0.1:5432), when it answers. */
async function reachableExternal(): Promise<string | undefined> {
  const url = externalUrl();
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return url;
  } catch {
    return undefined;
  }
}

// This file runs once, in the embedded project (vitest.config.ts leaves it out of external-pg): the embedded
// case always, the external case when that server is reachable.
const external = inject('dbTarget') === 'embedded' ? await reachableExternal() : undefined;

if (inject('dbTarget') === 'embedded') {
  describe('server process on the embedded PostgreSQL', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'adminease-lifecycle-'));
    const pgdata = path.join(dataDir, 'pg');
    afterAll(() => {
      // A test that failed half-way may leave the database running: stop it before removing the folder.
      if (existsSync(path.join(pgdata, 'postmaster.pid'))) {
        try {
          pgCtl(['stop', '-D', pgdata, '-m', 'immediate', '-w', '-t', '30']);
        } catch {
          /* already stopped */
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    const embeddedUrl = (server: ServerProcess) => {
      const line = server.lines.find((l) => l.includes('embedded PostgreSQL listening on'))!;
      const port = /127\.0\.0\.1:(\d+)/.exec(line)![1];
      const pw = readFileSync(path.join(dataDir, 'pg-superuser-password'), 'utf8').trim();
      return `postgres://postgres:${pw}@127.0.0.1:${port}/adminease`;
    };

    it('keeps every acknowledged write across a SIGKILL of the app, then of the app and its database', async () => {
      const first = await startServer({ ADMINEASE_DATA_DIR: dataDir });
      // The default embedded start is a demo, and says so in its log.
      await waitFor(() => first.lines.some((l) => l.includes('demo mode is on')), 10_000, "the 'demo mode is on' log line");
      const load = await writeLoad(first.port);
      await waitFor(
        () => load.acknowledged.filter((a) => a.kind === 'request').length >= 60 && load.acknowledged.length >= 150,
        90_000,
        '150 acknowledged writes',
      );
      first.child.kill('SIGKILL');
      await first.exited;
      await load.stop();
      expect(load.serverErrors()).toBe(0);
      // The app is gone; its database is not (pg_ctl started it detached).
      expect(pgCtlRunning(pgdata)).toBe(true);

      const second = await startServer({ ADMINEASE_DATA_DIR: dataDir });
      expect(second.lines.some((l) => l.includes('found an orphaned embedded PostgreSQL'))).toBe(true);
      await assertAllPresent(embeddedUrl(second), load.acknowledged);

      // Now the database dies with the app (as if both were killed by the OOM killer): crash recovery.
      const load2 = await writeLoad(second.port);
      await waitFor(
        () => load2.acknowledged.filter((a) => a.kind === 'request').length >= 60 && load2.acknowledged.length >= 150,
        90_000,
        '150 acknowledged writes',
      );
      const postmasterPid = Number(readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(postmasterPid, 'SIGKILL');
      second.child.kill('SIGKILL');
      await second.exited;
      await load2.stop();
      await waitFor(() => !pidAlive(postmasterPid) && !pgCtlRunning(pgdata), 10_000, 'the killed postmaster to disappear');

      const third = await startServer({ ADMINEASE_DATA_DIR: dataDir });
      const url = embeddedUrl(third);
      await assertAllPresent(url, [...load.acknowledged, ...load2.acknowledged]);
      expect(readFileSync(path.join(dataDir, 'postgres.log'), 'utf8')).toMatch(
        /database system was interrupted|not properly shut down|redo (starts|done)/,
      );
      // fsync and synchronous_commit are on in production mode (the guarantee the README documents).
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const settings = await c.query(
        "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')",
      );
      await c.end();
      expect(Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]))).toEqual({
        fsync: 'on',
        synchronous_commit: 'on',
        full_page_writes: 'on',
      });

      // SIGTERM while requests are in flight: they all finish, then the database stops cleanly.
      const alex = await signIn(third.port, WRITERS[0]);
      const slowBefore = received(third, '/ai/simple/session/login');
      const slow = callInTwoParts(third.port, '/ai/simple/session/login', { user_id: alex.id, user_role: 'Employee' }, alex.token);
      const loginsBefore = received(third, '/api/auth/login');
      const inFlight = Array.from({ length: 8 }, (_, i) =>
        httpCall(third.port, 'POST', '/api/auth/login', { email: WRITERS[i % WRITERS.length], password: PASSWORD }),
      );
      // Every one of them received by the server (routed, in flight) before the signal.
      await waitFor(
        () => received(third, '/api/auth/login') >= loginsBefore + 8 && received(third, '/ai/simple/session/login') > slowBefore,
        30_000,
        'the requests to be received',
      );
      third.child.kill('SIGTERM');
      await waitFor(() => third.lines.some((l) => l.includes('shutting down')), 10_000, 'the shutdown to begin');
      slow.finish(); // the rest of its body arrives after the SIGTERM
      const results = await Promise.all(inFlight);
      expect(results.map((r) => `${r.status} ${r.status === 200 ? '' : JSON.stringify(r.body)}`)).toEqual(results.map(() => '200 '));
      const slowResult = await slow.result;
      expect(slowResult.status).toBe(200);
      expect(slowResult.body.session_id).toMatch(/^simple-/);
      const exit = await third.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(third.lines.some((l) => JSON.parse(l).msg === 'stopped')).toBe(true);
      expect(existsSync(path.join(pgdata, 'postmaster.pid'))).toBe(false);
      expect(pgCtlRunning(pgdata)).toBe(false);
      expect(readFileSync(path.join(dataDir, 'postgres.log'), 'utf8')).toMatch(/database system is shut down/);
      await expect(httpCall(third.port, 'GET', '/api/health')).rejects.toThrow();

      const tokens = [...results.map((r) => r.body.access_token as string), alex.token, ...load.tokens, ...load2.tokens];
      for (const s of [first, second, third]) assertLogs(s, [PASSWORD, ...tokens]);

      // The write acknowledged during the shutdown is stored (the database alone, started as the app does).
      const db = await startEmbedded({ dataDir });
      try {
        await assertAllPresent(db.url, [{ kind: 'session', id: slowResult.body.session_id, userId: alex.id }]);
      } finally {
        await db.stop();
      }
    }, 420_000);
  });
}

if (external) {
  describe('server process on an external PostgreSQL (DATABASE_URL)', () => {
    const db = scratchDatabase(external, 'ae_life');
    const url = db.url;
    afterAll(() => db.drop());

    it('keeps every acknowledged write across a SIGKILL of the app, and SIGTERM exits cleanly', async () => {
      await db.create();

      const env = { DATABASE_URL: url, ADMINEASE_DEMO: '1' };
      const first = await startServer(env);
      const load = await writeLoad(first.port);
      await waitFor(
        () => load.acknowledged.filter((a) => a.kind === 'request').length >= 60 && load.acknowledged.length >= 150,
        90_000,
        '150 acknowledged writes',
      );
      first.child.kill('SIGKILL');
      await first.exited;
      await load.stop();
      expect(load.serverErrors()).toBe(0);

      const second = await startServer(env);
      await assertAllPresent(url, load.acknowledged);
      // The restart ran no migration twice and loaded the demo organisation only once.
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const users = await c.query('SELECT count(*)::int AS n FROM users');
      await c.end();
      expect(users.rows[0].n).toBe(19);

      const alex = await signIn(second.port, WRITERS[0]);
      const slowBefore = received(second, '/ai/simple/session/login');
      const slow = callInTwoParts(second.port, '/ai/simple/session/login', { user_id: alex.id, user_role: 'Employee' }, alex.token);
      const loginsBefore = received(second, '/api/auth/login');
      const inFlight = Array.from({ length: 6 }, (_, i) =>
        httpCall(second.port, 'POST', '/api/auth/login', { email: WRITERS[i % WRITERS.length], password: PASSWORD }),
      );
      // Every one of them received by the server (routed, in flight) before the signal.
      await waitFor(
        () => received(second, '/api/auth/login') >= loginsBefore + 6 && received(second, '/ai/simple/session/login') > slowBefore,
        30_000,
        'the requests to be received',
      );
      second.child.kill('SIGTERM');
      await waitFor(() => second.lines.some((l) => l.includes('shutting down')), 10_000, 'the shutdown to begin');
      slow.finish();
      const results = await Promise.all(inFlight);
      expect(results.map((r) => `${r.status} ${r.status === 200 ? '' : JSON.stringify(r.body)}`)).toEqual(results.map(() => '200 '));
      const slowResult = await slow.result;
      expect(slowResult.status).toBe(200);
      await assertAllPresent(url, [{ kind: 'session', id: slowResult.body.session_id, userId: alex.id }]);
      expect(await second.exited).toEqual({ code: 0, signal: null });
      expect(second.lines.some((l) => JSON.parse(l).msg === 'stopped')).toBe(true);
      for (const s of [first, second])
        assertLogs(s, [PASSWORD, alex.token, ...load.tokens, ...results.map((r) => r.body.access_token as string)]);
    }, 300_000);
  });
}

// ---- the embedded binaries, as the app runs them (as the postgres user when root) ----

// The same platform package the app resolves.
const { pg_ctl: PG_CTL } = await resolvePostgresBinaries();

function pgCtlPath(): string {
  return PG_CTL;
}

function asPostgres(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
}

function pgCtl(args: string[]): string {
  return execFileSync(pgCtlPath(), args, { ...asPostgres(), stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

/** `pg_ctl status`: exit 0 while a server runs on the folder, 3 when none does. */
function pgCtlRunning(pgdata: string): boolean {
  try {
    pgCtl(['status', '-D', pgdata]);
    return true;
  } catch (err: any) {
    if (err.status === 3) return false;
    throw err;
  }
}

/** True while the process exists and is not a zombie waiting to be reaped. */
function pidAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
