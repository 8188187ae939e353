// The database handle: one pg pool, a query helper and transactions. Every feature reaches PostgreSQL through it.
import pg from 'pg';

// bigint ids and counts fit in a JS number here; numeric amounts are read as numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
// dates stay 'YYYY-MM-DD' strings: no time-zone shifts.
pg.types.setTypeParser(1082, (v) => v);

/** Anything that runs a query: the Db, a pool client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Db {
  pool: pg.Pool;
  url: string;
  query<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function createDb(url: string, max = Number(process.env.DATABASE_POOL_MAX ?? 20)): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => console.error(JSON.stringify({ level: 'error', msg: 'idle database client error', err: err.message })));
  return {
    pool,
    url,
    query: (text, params) => pool.query(text, params as any[]),
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
