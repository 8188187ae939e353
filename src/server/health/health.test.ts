// Database trouble as the API answers it: a write refused by a read-only database or a full disk is 503 with
// Retry-After (never 500), and GET /api/health, which checks a write too, says 503 and why.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let alex: ApiClient;
let admin: pg.Client;
let dbName: string;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
  dbName = new URL(t.url).pathname.slice(1);
  admin = new pg.Client({ connectionString: t.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await t?.close();
});

const expense = (description: string) => ({ expense_period: 'November 2026', total_amount: 12.5, description });

describe('database trouble answered as 503', () => {
  it('answers health 200 with a working write path', async () => {
    const ok = await t.anonymous.get('/api/health');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('a disk-full error on a write route is 503 with Retry-After, and health reports the database degraded', async () => {
    // The real server raises disk_full (53100) for new requests, as it would when a table cannot grow.
    await admin.query(`CREATE FUNCTION ae_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await admin.query('CREATE TRIGGER ae_test_disk_full BEFORE INSERT ON requests FOR EACH ROW EXECUTE FUNCTION ae_test_disk_full()');
    try {
      const r = await alex.post('/api/forms/expense-reimbursement', expense('disk full'));
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toMatch(/^\d+$/);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(r.body).toEqual({ error: expect.stringMatching(/database/i), reason: 'database-disk-full' });
      const health = await t.anonymous.get('/api/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'degraded', recent_error: { reason: 'disk-full', code: '53100' } });
    } finally {
      await admin.query('DROP TRIGGER ae_test_disk_full ON requests');
      await admin.query('DROP FUNCTION ae_test_disk_full()');
    }
    expect((await alex.post('/api/forms/expense-reimbursement', expense('disk space back'))).status).toBe(201);
  });

  it('a read-only database: writes are 503 with Retry-After and health says 503 read-only', async () => {
    await admin.query(`ALTER DATABASE ${dbName} SET default_transaction_read_only = on`);
    // New sessions only: close the server's current connections (and wait until they are gone).
    await admin.query(
      'SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = $1',
      ['client backend'],
    );
    try {
      let r = await alex.post('/api/forms/expense-reimbursement', expense('read only'));
      // The first call may meet a connection closed just now (also 503).
      if (r.status === 503 && r.body.reason !== 'database-read-only')
        r = await alex.post('/api/forms/expense-reimbursement', expense('read only'));
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toMatch(/^\d+$/);
      expect(r.body.reason).toBe('database-read-only');
      const health = await t.anonymous.get('/api/health');
      expect(health.status).toBe(503);
      expect(health.headers['retry-after']).toMatch(/^\d+$/);
      expect(health.body).toEqual({ status: 'error', database: 'read-only', code: '25006' });
      // The notifications service's health check is the same check: it never says healthy meanwhile.
      const formState = await t.anonymous.get('/api/form-state/health');
      expect(formState.status).toBe(503);
      expect(formState.body).toMatchObject({ status: 'unhealthy', database: 'read-only' });
    } finally {
      await admin.query(`ALTER DATABASE ${dbName} RESET default_transaction_read_only`);
      await admin.query(
        'SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = $1',
        ['client backend'],
      );
    }
    let after = await alex.post('/api/forms/expense-reimbursement', expense('writable again'));
    if (after.status === 503) after = await alex.post('/api/forms/expense-reimbursement', expense('writable again'));
    expect(after.status).toBe(201);
  });
});
