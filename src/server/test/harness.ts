// API test harness: a fresh database cloned from the seeded template, the app built exactly as main.ts
// builds it, a controllable clock, and small helpers to call the API as a demo user.
import { readFileSync } from 'node:fs';
import { isNluTrained, useTrainedModel } from '../assistant/engine/nlu.js';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type Db, createDb } from '../db/pool.js';

export const DEMO_PASSWORD = 'Demo@12345';

export class TestClock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, any>;
  text: string;
}

export interface ApiClient {
  token: string;
  user: any;
  get<T = any>(url: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  put<T = any>(url: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(url: string, body?: unknown): Promise<ApiResponse<T>>;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  /** The database URL of this test file's database. */
  url: string;
  login(email: string, password?: string): Promise<ApiClient>;
  anonymous: Omit<ApiClient, 'token' | 'user'>;
  close(): Promise<void>;
}

let counter = 0;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates a database from the seeded template and returns its URL, plus a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('adminDbUrl');
  const template = inject('templateDb');
  const name = `ae_t_${template.slice(7)}_${process.pid}_${(counter += 1)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (err) {
      if (attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  // A test database need not survive a crash of its server: commits do not wait for the disk (an external server
  // runs with fsync on, where waiting for it was most of the external project's time). Nothing else changes.
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { url, drop } = await createTestDatabase();
  const clock = new TestClock();
  const config = {
    ...loadConfig({ ...process.env, ADMINEASE_LOGIN_RATE_LIMIT: '1000', ADMINEASE_DEMO: '1', ...env }),
    databaseUrl: url,
    logLevel: 'silent',
  };
  // The pool keeps the configured limits (a test may give DATABASE_CONNECT_TIMEOUT_MS and the like in env).
  const db = createDb(url, 10, config.database);
  const app = await buildApp({ db, config, clock, logger: false });
  // A listening server trains the assistant's NLU after it listens; this app never listens: it loads the model the
  // run's global setup trained (training it in every test file cost ~2 s of CPU each).
  if (!isNluTrained()) useTrainedModel(readFileSync(inject('nluModelFile'), 'utf8'));
  await app.ready();

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    urlPath: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const res = await app.inject({
      method,
      url: urlPath,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed: any = undefined;
    try {
      parsed = res.json();
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed, headers: res.headers, text: res.body };
  };
  const client = (token?: string) => ({
    get: (u: string, h?: Record<string, string>) => call('GET', u, token, undefined, h),
    post: (u: string, b?: unknown, h?: Record<string, string>) => call('POST', u, token, b ?? {}, h),
    put: (u: string, b?: unknown) => call('PUT', u, token, b ?? {}),
    patch: (u: string, b?: unknown) => call('PATCH', u, token, b ?? {}),
  });

  return {
    app,
    db,
    clock,
    url,
    anonymous: client(),
    async login(email: string, password = DEMO_PASSWORD) {
      const res = await call('POST', '/api/auth/login', undefined, { email, password });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${res.text}`);
      return { token: res.body.access_token, user: res.body.user, ...client(res.body.access_token) };
    },
    async close() {
      await app.close();
      await db.close();
      await drop();
    },
  };
}
