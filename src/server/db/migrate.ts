// Applies the SQL files of db/migrations in name order, once each, under an advisory lock so that
// several instances starting together do not race.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Db, connectionConfig } from './pool.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function migrate(db: Db): Promise<string[]> {
  // A connection of its own: a migration may take long, and so may waiting for another instance's migrations,
  // so no statement time limit here (the connect timeout stays). Its 'error' is handled: a lost connection
  // fails the migration (and the start), it does not throw from an event.
  const client = new pg.Client(connectionConfig(db.url, { ...db.limits, statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 }));
  let lost: Error | undefined;
  client.on('error', (err) => {
    lost = err;
  });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(742001)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      if (done.has(file)) continue;
      const sql = readFileSync(path.join(dir, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
        applied.push(file);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(742001)').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
  if (lost) throw new Error(`migrations: database connection lost: ${lost.message}`);
  return applied;
}
