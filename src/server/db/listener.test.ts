// The LISTEN connection comes back by itself after its backend is terminated, hears notifications again, and
// the caches fed by it are dropped on the way (notifications may have been missed meanwhile).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCache } from '../auth/session-cache.js';
import { createTestDatabase } from '../test/harness.js';
import { waitFor } from '../test/server-process.js';
import { PgListener } from './listener.js';
import { type Db, createDb } from './pool.js';

let url: string;
let drop: () => Promise<void>;
let db: Db;
let admin: pg.Client;
const quiet = { warn: () => undefined };
beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  db = createDb(url, 2);
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await db?.close();
  await drop?.();
});

/** Terminates every other connection to the test database that is LISTENing. */
const terminateListeners = () =>
  admin.query(
    "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query LIKE 'LISTEN%' OR query = 'SELECT 1')",
  );

describe('PgListener', () => {
  it('reconnects after its backend is terminated, drops the cache and hears notifications again', async () => {
    const heard: string[] = [];
    let resets = 0;
    const listener = new PgListener(
      url,
      ['ae_test_channel'],
      {
        onMessage: (_c, p) => heard.push(p),
        onReset: () => {
          resets += 1;
        },
      },
      quiet,
      'test',
    );
    await listener.start();
    try {
      expect(listener.listening).toBe(true);
      await admin.query("SELECT pg_notify('ae_test_channel', 'before')");
      await waitFor(() => heard.includes('before'), 3000, 'the first notification');
      const resetsBefore = resets;
      expect((await terminateListeners()).rows[0].n).toBeGreaterThan(0);
      await waitFor(() => listener.reconnects >= 1 && listener.listening, 10_000, 'the reconnection');
      expect(resets).toBeGreaterThanOrEqual(resetsBefore + 2); // on the loss and on the new connection
      await admin.query("SELECT pg_notify('ae_test_channel', 'after')");
      await waitFor(() => heard.includes('after'), 3000, 'a notification after the reconnection');
    } finally {
      await listener.stop();
    }
  });

  it('the session cache holds nothing from before a lost connection', async () => {
    const cache = new SessionCache(db, quiet);
    await cache.start();
    try {
      const now = Date.now();
      cache.set('hash-1', { id: 1 } as never, now, cache.generation());
      expect(cache.get('hash-1', now)).toBeDefined();
      await terminateListeners();
      await waitFor(() => cache.stats().entries === 0, 5000, 'the cache to be dropped');
      await waitFor(() => cache.listening, 10_000, 'the cache to listen again');
      expect(cache.get('hash-1', now)).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });
});
