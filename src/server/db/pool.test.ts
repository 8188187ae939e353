// The database handle's pipelined connections (statements on their own, db.query): they carry many statements at
// once, fail only the statement that failed, keep a slow statement from holding up the ones sent after it, come
// back after a lost connection, and leave transactions to the pool.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.js';
import { type Db, createDb, prepared } from './pool.js';
import { databaseTrouble } from './unavailable.js';

let url: string;
let drop: () => Promise<void>;
let admin: pg.Client;
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined } as any;
const opened: Db[] = [];
const open = (pipelined: number, max = 3) => {
  const db = createDb(url, max, undefined, quiet, pipelined);
  opened.push(db);
  return db;
};

beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
  await admin?.end();
  await drop?.();
});

const backendOf = async (db: Db) => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
/** The test database's connections other than the admin's. */
const connections = async () =>
  (
    await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
  ).rows[0].n;

describe('pipelined statements (db.query)', () => {
  it('answers many statements at once, each its own, on no more than the pipelined connections', async () => {
    const db = open(2);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => db.query<{ n: number; pid: number }>('SELECT $1::int AS n, pg_backend_pid() AS pid', [i])),
    );
    expect(answers.map((a) => a.rows[0].n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(new Set(answers.map((a) => a.rows[0].pid)).size).toBeLessThanOrEqual(2);
    // the pool opened nothing for them
    expect(db.pool.totalCount).toBe(0);
  });

  it('runs a prepared statement sent many times at once before any was parsed', async () => {
    const db = open(2);
    const st = prepared('SELECT $1::int * 2 AS doubled /* pool.test prepared */');
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => db.query<{ doubled: number }>(st, [i])));
    expect(answers.map((a) => a.rows[0].doubled)).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
  });

  it('fails only the statement that failed: the ones sent with it are answered', async () => {
    const db = open(1);
    const results = await Promise.allSettled([
      db.query('SELECT 1 AS n'),
      db.query('SELECT 1/0 AS n'),
      db.query('SELECT * FROM no_such_table'),
      db.query('SELECT 4 AS n'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.code).toBe('22012');
    expect((results[2] as PromiseRejectedResult).reason.code).toBe('42P01');
    expect((results[3] as PromiseFulfilledResult<pg.QueryResult>).value.rows[0].n).toBe(4);
    // an error is not database trouble: the connection carries on
    expect(databaseTrouble((results[1] as PromiseRejectedResult).reason)).toBeUndefined();
    expect((await db.query('SELECT 5 AS n')).rows[0].n).toBe(5);
  });

  it('keeps each statement its own transaction (a failed one undoes only itself)', async () => {
    const db = open(1);
    await db.query('CREATE TABLE pipeline_probe (n int PRIMARY KEY)');
    const results = await Promise.allSettled([
      db.query('INSERT INTO pipeline_probe VALUES (1)'),
      db.query('INSERT INTO pipeline_probe VALUES (1)'),
      db.query('INSERT INTO pipeline_probe VALUES (2)'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await admin.query('SELECT n FROM pipeline_probe ORDER BY n')).rows.map((r) => r.n)).toEqual([1, 2]);
  });

  it('does not hold statements up behind a slow one while another connection is free', async () => {
    const db = open(2);
    await Promise.all([backendOf(db), backendOf(db)]); // both connections open
    const slow = db.query('SELECT pg_sleep(1.5)');
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) await db.query('SELECT 1');
    expect(Date.now() - t0).toBeLessThan(1000);
    await slow;
  });

  it('replaces a lost connection: the statement it carried fails as database trouble, the next one is answered', async () => {
    const db = open(1);
    const pid = await backendOf(db);
    const inFlight = db.query('SELECT pg_sleep(5)');
    await new Promise((r) => setTimeout(r, 200));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const err = await inFlight.then(
      () => null,
      (e: unknown) => e,
    );
    expect(databaseTrouble(err)).toBeDefined();
    const next = await backendOf(db);
    expect(next).not.toBe(pid);
    expect((await db.query('SELECT 7 AS n')).rows[0].n).toBe(7);
  });

  it('fails a statement with the reason when the database cannot be reached, and tries again for the next one', async () => {
    const dead = createDb('postgres://postgres@127.0.0.1:1/nowhere', 1, undefined, quiet, 1);
    try {
      const err = await dead.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(databaseTrouble(err)?.reason).toBe('unreachable');
      // tried again by the next statement (and refused again), not stuck on a dead connection
      const again = await dead.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(databaseTrouble(again)?.reason).toBe('unreachable');
    } finally {
      await dead.close();
    }
  });

  it('leaves transactions to the pool, and close() ends every connection', async () => {
    const before = await connections();
    const db = createDb(url, 2, undefined, quiet, 2);
    await Promise.all([backendOf(db), backendOf(db), backendOf(db)]);
    const inTx = await db.tx(async (c) => (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number);
    expect(db.pool.totalCount).toBe(1);
    const pipelined = new Set(await Promise.all(Array.from({ length: 20 }, () => backendOf(db))));
    expect(pipelined.has(inTx)).toBe(false);
    expect(await connections()).toBeGreaterThan(before);
    await db.close();
    for (let i = 0; i < 50 && (await connections()) > before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await connections()).toBe(before);
  });

  it('with no pipelined connections, statements go through the pool', async () => {
    const db = open(0, 2);
    await backendOf(db);
    expect(db.pool.totalCount).toBe(1);
  });
});
