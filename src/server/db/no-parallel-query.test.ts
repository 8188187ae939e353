// Migration 200: sessions of the application's database plan without parallel workers (an OLTP load of many
// short statements, where starting a worker cost more than the statement). The test databases are clones of a
// migrated template and a database's settings are not cloned, so the migration's SQL is run here again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.js';

const sql = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', '200_no_parallel_query.sql'), 'utf8');
let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
});
afterAll(async () => {
  await drop?.();
});

async function setting(): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query('SHOW max_parallel_workers_per_gather')).rows[0].max_parallel_workers_per_gather;
  } finally {
    await c.end();
  }
}

describe('no parallel query for the application database', () => {
  it('new sessions plan without parallel workers once the migration ran', async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
    expect(await setting()).toBe('0');
  });
});
