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

/** The backend running the statement marked `/* pool.test <mark> *\/` (other than `not`), once it runs. */
async function runningOn(mark: string, not?: number): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const r = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid() AND pid <> $2",
      [`%pool.test ${mark} %`, not ?? 0],
    );
    if (r.rows[0]) return r.rows[0].pid;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`no backend ran the statement ${mark}`);
}

/** How many backends run the statement marked `/* pool.test <mark> *\/` now. */
async function runningCount(mark: string): Promise<number> {
  const r = await admin.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
    [`%pool.test ${mark} %`],
  );
  return r.rows[0].n;
}

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

  it("gives a failed statement's error a stack that leads back to the code that sent it", async () => {
    const db = open(1);
    async function readTheProbe() {
      return await db.query('SELECT 1/0 AS n');
    }
    const err = (await readTheProbe().catch((e: unknown) => e)) as Error;
    expect((err as { code?: string }).code).toBe('22012');
    expect(err.stack).toContain('readTheProbe');
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

  it('sends a statement whose session PostgreSQL ended before it completed once more, on a new connection, with the ones queued behind it', async () => {
    const db = open(1);
    const pid = await backendOf(db);
    const running = db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid FROM pg_sleep(0.5) /* pool.test ended-1 */');
    const queued = [db.query('SELECT $1::int AS n', [2]), db.query(prepared('SELECT $1::int AS n /* pool.test ended-1 */'), [3])];
    await runningOn('ended-1');
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
    const again = (await running).rows[0].pid;
    expect(again).not.toBe(pid);
    expect((await Promise.all(queued)).map((r) => r.rows[0].n)).toEqual([2, 3]);
    expect(await backendOf(db)).toBe(again);
  });

  it('sends them all once more when every connection is ended with statements in flight on each', async () => {
    const db = open(2);
    const pids = new Set(await Promise.all([backendOf(db), backendOf(db)]));
    expect(pids.size).toBe(2);
    const sent = Array.from({ length: 12 }, (_, i) =>
      db.query<{ n: number }>(i < 2 ? 'SELECT $1::int AS n FROM pg_sleep(0.5) /* pool.test ended-all */' : 'SELECT $1::int AS n', [i]),
    );
    for (let i = 0; i < 200 && (await runningCount('ended-all')) < 2; i++) await new Promise((r) => setTimeout(r, 25));
    await admin.query('SELECT pg_terminate_backend(pid, 5000) FROM unnest($1::int[]) AS pid', [[...pids]]);
    expect((await Promise.all(sent)).map((r) => r.rows[0].n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('a write whose session was ended while it ran takes effect once, from its second sending', async () => {
    const db = open(1);
    await db.query('CREATE TABLE pipeline_once (n int)');
    const pid = await backendOf(db);
    const write = db.query('INSERT INTO pipeline_once SELECT 1 FROM pg_sleep(0.5) /* pool.test ended-2 */');
    await runningOn('ended-2');
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
    expect((await write).rowCount).toBe(1);
    expect((await admin.query('SELECT count(*)::int AS n FROM pipeline_once')).rows[0].n).toBe(1);
  });

  it('sends it once more only: ended again, it fails as database trouble, and the next statement is answered', async () => {
    const db = open(1);
    const first = await backendOf(db);
    const doomed = db.query('SELECT pg_sleep(5) /* pool.test ended-3 */').then(
      () => null,
      (e: unknown) => e,
    );
    await runningOn('ended-3');
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [first]);
    const second = await runningOn('ended-3', first);
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [second]);
    const err = await doomed;
    expect(databaseTrouble(err)).toMatchObject({ reason: 'shutting-down', code: '57P01' });
    const next = await backendOf(db);
    expect([first, second]).not.toContain(next);
  });

  it('does not send again a statement that failed on its own (an error, not an ended session)', async () => {
    const db = open(1);
    await db.query('CREATE TABLE pipeline_unique (n int PRIMARY KEY)');
    await db.query('INSERT INTO pipeline_unique VALUES (1)');
    const err = await db.query('INSERT INTO pipeline_unique VALUES (1)').then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as { code?: string }).code).toBe('23505');
    const broken = await db.query('SELECT 1/0').catch((e: unknown) => e);
    expect((broken as { code?: string }).code).toBe('22012');
  });

  it('after every connection is terminated at once, the statements and transactions that follow are answered', async () => {
    const db = open(4, 3);
    for (let round = 0; round < 5; round++) {
      await Promise.all([...Array.from({ length: 8 }, () => backendOf(db)), db.tx((c) => c.query('SELECT 1'))]);
      // Once they are gone (a statement written to a connection whose end has not been read yet may fail with the
      // closed socket, which says nothing of whether it ran: that one is not sent again, and answers 503).
      await admin.query(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
      );
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => db.query<{ n: number }>('SELECT $1::int AS n', [i])),
        db.tx(async (c) => (await c.query('SELECT 8 AS n')).rows[0]),
        db.tx(async (c) => (await c.query('SELECT 9 AS n')).rows[0]),
      ]);
      expect(answers.map((a) => ('rows' in a ? a.rows[0].n : a.n))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });
});

describe('transactions (db.tx)', () => {
  it('begins once more on another connection when the pooled one taken was being ended', async () => {
    const db = open(1, 1);
    // The pool's one connection, idle, whose end the client has not read yet (its socket is not being read): as a
    // request taking it a moment after a restart or a terminate would find it.
    const client = await db.pool.connect();
    const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const socket = (client as any).connection.stream as import('node:net').Socket;
    socket.pause();
    client.release();
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
    const inTx = db.tx(async (c) => (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number);
    setTimeout(() => socket.resume(), 100);
    const again = await inTx;
    expect(again).not.toBe(pid);
  });

  it("does not begin again for anything else: a failure inside the transaction is the caller's", async () => {
    const db = open(1, 1);
    let runs = 0;
    const err = await db
      .tx(async (c) => {
        runs += 1;
        await c.query('SELECT 1/0');
      })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('22012');
    expect(runs).toBe(1);
  });
});

describe('pipelined connections and the pool', () => {
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

describe('rows and writes of the pipelined connections', () => {
  // Every type the app reads, nulls, odd and repeated column names: the rows of a prepared statement are the rows pg makes.
  const ODD = `SELECT $1::int AS id, 12345678901::bigint AS big, 12.50::numeric AS amount, '2026-11-30'::date AS day,
      '2026-11-30T05:00:00Z'::timestamptz AS at, '{"a": [1, {"b": null}]}'::jsonb AS data, '[1, "x"]'::json AS list,
      ARRAY['a', 'b']::text[] AS tags, true AS yes, NULL::text AS nothing, NULL::jsonb AS no_data, 'x' AS "constructor",
      'y' AS "hasOwnProperty", 'two' AS "2", 'one' AS "1", 'q' AS "we""ird\\name \${x} */", 1 AS dup, 2 AS dup, 'é✓' AS "ünïcode" /* pool.test rows */`;

  it("makes a prepared statement's rows as pg makes them: values, types, nulls, names and their order", async () => {
    const db = open(1);
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    try {
      const direct = await plain.query(ODD, [7]);
      const expected = direct.rows[0];
      const st = prepared(ODD);
      // the first on the connection is described; the next ones are not, and are read with the columns it had
      const Connection = pg.Connection as unknown as { prototype: { describe: (...a: unknown[]) => unknown } };
      const describe = Connection.prototype.describe;
      let described = 0;
      Connection.prototype.describe = function (this: unknown, ...a: unknown[]) {
        described += 1;
        return describe.apply(this, a);
      };
      try {
        for (let i = 0; i < 3; i++) await db.query(st, [7]);
      } finally {
        Connection.prototype.describe = describe;
      }
      expect(described).toBe(1);
      for (let i = 0; i < 3; i++) {
        const res = await db.query(st, [7]);
        expect(res.fields.map((f) => [f.name, f.dataTypeID])).toEqual(direct.fields.map((f) => [f.name, f.dataTypeID]));
        const row = res.rows[0];
        expect(row).toEqual(expected);
        expect(Object.keys(row)).toEqual(Object.keys(expected));
        expect(row.at).toBeInstanceOf(Date);
        expect(row.big).toBe(12345678901);
        expect(row.amount).toBe(12.5);
        expect(row.data).toEqual({ a: [1, { b: null }] });
        expect(row.dup).toBe(2);
        expect(row.nothing).toBeNull();
      }
      // many rows, each its own object
      const many = await db.query(prepared('SELECT g AS n, g::text AS s FROM generate_series(1, 500) g /* pool.test rows many */'));
      expect(many.rows.map((r) => r.n)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
      many.rows[0].n = -1;
      expect(many.rows[1].n).toBe(2);
      expect(many.fields.map((f) => f.name)).toEqual(['n', 's']);
    } finally {
      await plain.end();
    }
  });

  it('reads a prepared statement whose columns changed (a new connection after the schema changed) with its new columns', async () => {
    await admin.query('DROP TABLE IF EXISTS pool_test_shape; CREATE TABLE pool_test_shape (a int)');
    await admin.query('INSERT INTO pool_test_shape VALUES (1)');
    const st = prepared('SELECT * FROM pool_test_shape /* pool.test shape */');
    const before = open(1);
    expect((await before.query(st)).rows).toEqual([{ a: 1 }]);
    await before.close();
    await admin.query(
      "DROP TABLE pool_test_shape; CREATE TABLE pool_test_shape (a text, b jsonb); INSERT INTO pool_test_shape VALUES ('x', '[2]')",
    );
    const after = open(1);
    expect((await after.query(st)).rows).toEqual([{ a: 'x', b: [2] }]);
    await admin.query('DROP TABLE pool_test_shape');
  });

  it('runs a prepared statement with no rows (an update) and many first sendings of one in a turn as pg does', async () => {
    await admin.query('DROP TABLE IF EXISTS pool_test_upd; CREATE TABLE pool_test_upd (a int); INSERT INTO pool_test_upd VALUES (1), (2)');
    const db = open(1);
    const upd = prepared('UPDATE pool_test_upd SET a = a + 1 /* pool.test upd */');
    for (let i = 0; i < 2; i++) {
      const r = await db.query(upd);
      expect([r.command, r.rowCount, r.rows]).toEqual(['UPDATE', 2, []]);
    }
    const sel = prepared('SELECT a FROM pool_test_upd WHERE a > $1 ORDER BY a /* pool.test many first */');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => db.query<{ a: number }>(sel, [i % 5])));
    expect(answers.map((r) => r.rows.map((x) => x.a))).toEqual(Array.from({ length: 20 }, (_, i) => [3, 4].filter((a) => a > i % 5)));
    // a failed sending (a value that is not an integer) leaves the next ones answered
    await expect(db.query(sel, ['x'])).rejects.toMatchObject({ code: '22P02' });
    expect((await db.query<{ a: number }>(sel, [3])).rows).toEqual([{ a: 4 }]);
    await admin.query('DROP TABLE pool_test_upd');
  });

  it('fails a prepared statement whose columns changed within its session instead of reading it with the old ones', async () => {
    await admin.query('DROP TABLE IF EXISTS pool_test_alter; CREATE TABLE pool_test_alter (a int); INSERT INTO pool_test_alter VALUES (1)');
    const db = open(1);
    const st = prepared('SELECT * FROM pool_test_alter /* pool.test alter */');
    expect((await db.query(st)).rows).toEqual([{ a: 1 }]);
    expect((await db.query(st)).rows).toEqual([{ a: 1 }]);
    await admin.query("ALTER TABLE pool_test_alter ADD COLUMN b text DEFAULT 'x'");
    const err = await db.query(st).then(
      () => null,
      (e: unknown) => e as { code?: string },
    );
    expect(err?.code).toBe('0A000'); // cached plan must not change result type
    await admin.query('DROP TABLE pool_test_alter');
  });

  it('leaves a column named __proto__ to pg: a column, not the prototype', async () => {
    const db = open(1);
    const row = (await db.query(prepared(`SELECT 1 AS "__proto__", 2 AS n /* pool.test proto */`))).rows[0];
    expect(row.n).toBe(2);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it('writes the statements sent in one turn of the event loop to a connection in one write', async () => {
    const net = await import('node:net');
    const db = open(1);
    await db.query('SELECT 1');
    const proto = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
    const orig = { _write: proto._write, _writev: proto._writev };
    let writes = 0;
    for (const k of ['_write', '_writev'] as const)
      proto[k] = function (this: unknown, ...a: unknown[]) {
        writes += 1;
        return orig[k].apply(this, a);
      };
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => db.query<{ n: number }>('SELECT $1::int AS n', [i])));
      expect(answers.map((a) => a.rows[0].n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(writes).toBe(1);
      // and a statement sent in a later turn goes out on its own, not held back
      writes = 0;
      expect((await db.query('SELECT 21 AS n')).rows[0].n).toBe(21);
      expect(writes).toBe(1);
    } finally {
      Object.assign(proto, orig);
    }
  });
});
