// Demo mode is explicit: on by default only for the embedded database, remembered by the database, visible to the
// web through GET /api/auth/config, and a non-demo installation has no account with a known password.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDb } from '../db/pool.js';
import { prepareDatabase } from '../db/prepare.js';
import { demoOrg } from '../db/seed.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { PUBLISHED_DEMO_PASSWORD } from './demo-mode.js';

const loginBody = (email: string) => ({
  method: 'POST' as const,
  url: '/api/auth/login',
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify({ email, password: PUBLISHED_DEMO_PASSWORD }),
});

describe('demo mode configuration', () => {
  it('is on by default with the embedded database and off with DATABASE_URL unless asked for', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ ADMINEASE_DEMO: '0' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/adminease' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/adminease', ADMINEASE_DEMO: '1' }).demo).toBe(true);
  });

  it('publishes the same password the demo organisation is created with', () => {
    expect(PUBLISHED_DEMO_PASSWORD).toBe(demoOrg.demo_password);
  });
});

describe('a demo database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells the web, without a session, that demo mode is on', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      demo: true,
      time_zone: 'Asia/Kolkata',
      business_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      sso_provider: null,
    });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('started later with demo mode off shows no demo panel and refuses the published password', async () => {
    const config = {
      ...loadConfig({ ...process.env, ADMINEASE_DEMO: '0', ADMINEASE_LOGIN_RATE_LIMIT: '1000' }),
      databaseUrl: t.url,
      logLevel: 'silent',
    };
    const db = createDb(t.url, 2);
    const app = await buildApp({ db, config, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/auth/config' })).json()).toMatchObject({ demo: false });
      for (const u of demoOrg.users.slice(0, 4)) {
        const r = await app.inject(loginBody(u.email));
        expect(r.statusCode, u.email).toBe(401);
      }
      // The same accounts sign in again once demo mode is back on (the demo app of this file).
      expect((await t.app.inject(loginBody(demoOrg.users[0].email))).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe('a non-demo installation', () => {
  const adminUrl = () => inject('adminDbUrl');
  const name = `ae_nodemo_${process.pid}_${Date.now().toString(36)}`;
  let url: string;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(adminUrl());
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('starts with no account at all, so no known password, and stays non-demo when started with the default later', async () => {
    const db = createDb(url, 2);
    try {
      const off = loadConfig({ DATABASE_URL: url });
      const { seeded } = await prepareDatabase(db, off);
      expect(seeded).toBeUndefined();
      expect((await db.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(0);
      const app = await buildApp({ db, config: { ...off, logLevel: 'silent' }, logger: false });
      try {
        expect((await app.inject({ method: 'GET', url: '/api/auth/config' })).json()).toMatchObject({ demo: false });
        expect((await app.inject(loginBody(demoOrg.users[0].email))).statusCode).toBe(401);
      } finally {
        await app.close();
      }
      // A real person is added; a later start that asks for demo mode (the embedded default) does not load the
      // demo organisation into it, nor call it a demo.
      await db.query(`INSERT INTO departments (code, name) VALUES ('OPS', 'Operations')`);
      await db.query(`INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, department_code, employee_code, join_date)
        VALUES ('owner@example.com', 'x', 'Olive', 'Owner', 'Employee', 'employee', 'OPS', 'E-1', '2020-01-01')`);
      const asked = { ...loadConfig({}), databaseUrl: url, logLevel: 'silent' };
      expect((await prepareDatabase(db, asked)).seeded).toBeUndefined();
      const again = await buildApp({ db, config: asked, logger: false });
      try {
        expect((await again.inject({ method: 'GET', url: '/api/auth/config' })).json()).toMatchObject({ demo: false });
      } finally {
        await again.close();
      }
    } finally {
      await db.close();
    }
  });
});
