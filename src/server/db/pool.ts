// The database handle: one pg pool, a query helper and transactions. Every feature reaches PostgreSQL through it.
import { createHash } from 'node:crypto';
import pg from 'pg';

// bigint ids and counts fit in a JS number here; numeric amounts are read as numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
// dates stay 'YYYY-MM-DD' strings: no time-zone shifts.
pg.types.setTypeParser(1082, (v) => v);

/**
 * A statement PostgreSQL parses and plans once per connection and then reuses (a named prepared statement). For
 * the hot, fixed-text queries whose planning costs more than running them: reading one request with its people
 * and approvals takes about 0.34 ms to plan and 0.06 ms to execute. Make them once, at module level.
 */
export interface Prepared { readonly name: string; readonly text: string }

export function prepared(text: string): Prepared {
  let p = preparedByText.get(text);
  if (!p) {
    p = { name: `ae_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
    if (preparedByText.size < 500) preparedByText.set(text, p);
  }
  return p;
}
const preparedByText = new Map<string, Prepared>();

/** Text or a prepared statement, as pg's query takes it. */
export type Sql = string | Prepared;

/** Anything that runs a query: the Db, a pool client inside a transaction (pg's clients take a Prepared as it is). */
export interface Queryable {
  query<R extends pg.QueryResultRow = any>(text: Sql, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Db {
  pool: pg.Pool;
  url: string;
  query<R extends pg.QueryResultRow = any>(text: Sql, params?: unknown[]): Promise<pg.QueryResult<R>>;
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function createDb(url: string, max = Number(process.env.DATABASE_POOL_MAX ?? 20)): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => console.error(JSON.stringify({ level: 'error', msg: 'idle database client error', err: err.message })));
  return {
    pool,
    url,
    query: (text, params) =>
      typeof text === 'string' ? pool.query(text, params as any[]) : pool.query({ name: text.name, text: text.text, values: params as any[] }),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
