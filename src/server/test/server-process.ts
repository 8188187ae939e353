// The real server process (src/server/main.ts) as a child process on a free port, and plain HTTP calls to it:
// for tests where "the process survives" or "the process starts" is the point.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../db/embedded.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Every stdout line so far. */
  lines: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
}

/**
 * Starts the server with `env` (under `opts.wrapper`, a command prefix, if given) and resolves once it listens (rejects
 * with its output if it exits first). By default main.ts from source through tsx; `opts.command` replaces the node
 * arguments, e.g. ['scripts/start.mjs'] for the production start from the build.
 */
export async function startServerProcess(
  env: Record<string, string>,
  started: ServerProcess[] = [],
  opts: { wrapper?: string[]; command?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const k of ['DATABASE_URL', 'ADMINEASE_DEMO', 'ADMINEASE_DATA_DIR', 'METRICS_TOKEN']) delete childEnv[k];
  const command = [...(opts.wrapper ?? []), process.execPath, ...(opts.command ?? ['--import', 'tsx', 'src/server/main.ts'])];
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: {
      ...childEnv,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMINEASE_LOGIN_RATE_LIMIT: '1000',
      ADMINEASE_WEB_DIR: path.join(os.tmpdir(), 'adminease-no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: ServerProcess = {
    child,
    port,
    lines: [],
    stderr: [],
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
    running: () => child.exitCode === null && child.signalCode === null,
  };
  started.push(server);
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    server.lines.push(...parts.filter((l) => l.trim() !== ''));
  });
  child.stderr.on('data', (d) => server.stderr.push(d.toString()));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.lines.some((l) => l.includes('AdminEase listening'))) return server;
    if (!server.running()) {
      const logFile = env.ADMINEASE_DATA_DIR ? path.join(env.ADMINEASE_DATA_DIR, 'postgres.log') : '';
      const pgLog = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '';
      throw new Error(`server exited while starting:\n${server.lines.join('\n')}\n${server.stderr.join('')}\n${pgLog}`);
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${server.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface HttpAnswer {
  status: number;
  body: any;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/** A JSON request on a fresh connection; rejects on a network error or after `timeoutMs`. */
export function httpCall(
  port: number,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
  timeoutMs = 30_000,
): Promise<HttpAnswer> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          let parsed: any;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers, ms: Date.now() - t0 });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.end(payload);
  });
}

export async function waitFor(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A database of its own on the server of `adminUrl` (named `prefix` plus a unique suffix): created by `create()`, dropped by `drop()`. */
export function scratchDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const run = async (sql: string) => {
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    try {
      await a.query(sql);
    } finally {
      await a.end();
    }
  };
  return {
    name,
    url: u.toString(),
    create: () => run(`CREATE DATABASE ${name}`),
    drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
