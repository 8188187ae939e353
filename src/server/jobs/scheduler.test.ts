// The job scheduler on a real database: recurring runs happen once per slot whatever the number of instances,
// queued jobs run once and are retried after a failure, a run left behind by a dead instance is claimed again,
// and the clock is the app's (moved by the test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { createDb, type Db } from '../db/pool.js';
import { JobScheduler, currentSlot } from './scheduler.js';

let t: TestApp;
let db2: Db;

beforeAll(async () => {
  t = await startTestApp();
  db2 = createDb(t.url, 5);
});
afterAll(async () => {
  await db2?.close();
  await t?.close();
});

/** Two schedulers, as two server instances on one database would have, sharing the test's clock. */
function twoInstances() {
  const now = () => t.clock.now();
  return [new JobScheduler({ db: t.db, now, instanceId: 'a' }), new JobScheduler({ db: db2, now, instanceId: 'b' })];
}

describe('job scheduler', () => {
  it('runs a recurring job once per slot across two instances, and again in the next slot', async () => {
    t.clock.offsetMs = Date.parse('2026-12-01T10:00:30Z') - Date.now();
    const runs: string[] = [];
    const [a, b] = twoInstances();
    const handler = async (run: { runAt: Date }) => {
      await new Promise((r) => setTimeout(r, 20));
      runs.push(run.runAt.toISOString());
    };
    a.recurring('once-sweep', { everyMinutes: 5 }, handler);
    b.recurring('once-sweep', { everyMinutes: 5 }, handler);
    // Both poll at once, several times, within one slot.
    await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toEqual(['2026-12-01T10:00:00.000Z']);
    t.clock.advance(5 * 60_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toEqual(['2026-12-01T10:00:00.000Z', '2026-12-01T10:05:00.000Z']);
    const stored = await t.db.query("SELECT key, locked_by, done_at FROM jobs WHERE name = 'once-sweep' ORDER BY run_at");
    expect(stored.rows.map((r) => r.key)).toEqual(['once-sweep@2026-12-01T10:00:00.000Z', 'once-sweep@2026-12-01T10:05:00.000Z']);
    expect(stored.rows.every((r) => r.done_at && r.locked_by === null)).toBe(true);
  });

  it('runs a daily job once per business day, after its time on the organisation clock', async () => {
    const [a, b] = twoInstances();
    const days: string[] = [];
    const h = async (run: { runAt: Date }) => void days.push(run.runAt.toISOString());
    a.recurring('digest-test', { dailyAt: '08:00' }, h);
    b.recurring('digest-test', { dailyAt: '08:00' }, h);
    // 07:59 in Asia/Kolkata (UTC+5:30): not yet
    t.clock.offsetMs = Date.parse('2026-12-02T02:29:00Z') - Date.now();
    await Promise.all([a.runDue(), b.runDue()]);
    expect(days).toEqual([]);
    t.clock.advance(2 * 60_000);
    await Promise.all([a.runDue(), b.runDue()]);
    t.clock.advance(6 * 60 * 60_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(days).toEqual(['2026-12-02T02:30:00.000Z']);
    expect(currentSlot({ dailyAt: '08:00' }, new Date('2026-12-03T03:00:00Z'))?.id).toBe('2026-12-03');
  });

  it('runs a queued job once, retries a failure later, and ignores a second enqueue of the same key', async () => {
    const [a, b] = twoInstances();
    let calls = 0;
    const seen: unknown[] = [];
    const h = async (run: { payload: unknown; attempt: number }) => {
      calls += 1;
      if (run.attempt === 1) throw new Error('SMTP down');
      seen.push(run.payload);
    };
    a.define('mail-test', h);
    b.define('mail-test', h);
    const id = await a.enqueue('mail-test', { to: 'x@example.com' }, { key: 'mail-test:1' });
    expect(id).toBeGreaterThan(0);
    expect(await b.enqueue('mail-test', { to: 'x@example.com' }, { key: 'mail-test:1' })).toBeNull();
    await Promise.all([a.runDue(), b.runDue()]);
    expect(calls).toBe(1);
    const failed = await t.db.query('SELECT attempts, last_error, run_at, done_at FROM jobs WHERE id = $1', [id]);
    expect(failed.rows[0]).toMatchObject({ attempts: 1, last_error: 'SMTP down', done_at: null });
    // The retry waits: not yet due
    await Promise.all([a.runDue(), b.runDue()]);
    expect(calls).toBe(1);
    t.clock.advance(31_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(calls).toBe(2);
    expect(seen).toEqual([{ to: 'x@example.com' }]);
    await expect(a.enqueue('no-such-job')).rejects.toThrow(/not defined/);
  });

  it('a run claimed by an instance that died is claimed again after its lease', async () => {
    const now = () => t.clock.now();
    const dead = new JobScheduler({ db: t.db, now, instanceId: 'dead', leaseMs: 60_000, heartbeatMs: 0 });
    const alive = new JobScheduler({ db: db2, now, instanceId: 'alive', leaseMs: 60_000 });
    const done: string[] = [];
    dead.define('lease-test', () => new Promise<void>(() => undefined)); // never finishes: the process 'died'
    alive.define('lease-test', async () => void done.push('alive'));
    await dead.enqueue('lease-test', {});
    void dead.runDue();
    await new Promise((r) => setTimeout(r, 100));
    await alive.runDue();
    expect(done).toEqual([]); // still leased to 'dead'
    t.clock.advance(61_000);
    await alive.runDue();
    expect(done).toEqual(['alive']);
  });

  it('renews the lease while a handler runs, so a run longer than the lease is not taken by another instance', async () => {
    const now = () => t.clock.now();
    const a = new JobScheduler({ db: t.db, now, instanceId: 'long-a', leaseMs: 60_000, heartbeatMs: 15 });
    const b = new JobScheduler({ db: db2, now, instanceId: 'long-b', leaseMs: 60_000, heartbeatMs: 15 });
    let release!: () => void;
    const runs: string[] = [];
    a.define('long-test', async () => {
      runs.push('a');
      await new Promise<void>((r) => (release = r));
    });
    b.define('long-test', async () => void runs.push('b'));
    const id = await a.enqueue('long-test', {});
    const first = a.runDue();
    await expect.poll(() => runs).toEqual(['a']);
    const leaseEnd = async () => (await t.db.query('SELECT locked_until FROM jobs WHERE id = $1', [id])).rows[0].locked_until as Date;
    // Four times 40 s of app time (160 s, well past the 60 s lease): each time the heartbeat renews the lease.
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(40_000);
      await expect.poll(async () => (await leaseEnd()).getTime(), { timeout: 5_000 }).toBeGreaterThan(t.clock.now().getTime() + 50_000);
      await b.runDue();
    }
    expect(runs).toEqual(['a']);
    release();
    await first;
    const row = (await t.db.query('SELECT attempts, done_at, locked_by, failed_at FROM jobs WHERE id = $1', [id])).rows[0];
    expect(row).toMatchObject({ attempts: 1, locked_by: null, failed_at: null });
    expect(row.done_at).not.toBeNull();
  });

  it("counts a run whose lease expired as an attempt: a crashed instance's job is retried up to its attempts, then failed", async () => {
    const now = () => t.clock.now();
    // Instances that 'crash' mid-run: their handler never returns and nothing renews the lease.
    const crash = (name: string) => {
      const s = new JobScheduler({ db: t.db, now, instanceId: name, leaseMs: 60_000, heartbeatMs: 0 });
      s.define('crash-test', () => new Promise<void>(() => undefined));
      return s;
    };
    const alive = new JobScheduler({ db: db2, now, instanceId: 'crash-alive', leaseMs: 60_000 });
    let ran = 0;
    alive.define('crash-test', async () => void (ran += 1));
    const id = await alive.enqueue('crash-test', {}, { maxAttempts: 2 });
    const row = async () =>
      (await t.db.query('SELECT attempts, locked_by, failed_at, done_at, last_error FROM jobs WHERE id = $1', [id])).rows[0];
    void crash('crash-1').runDue();
    await expect.poll(async () => (await row()).attempts).toBe(1);
    t.clock.advance(61_000);
    void crash('crash-2').runDue(); // the retry (attempt 2 of 2) crashes too
    await expect.poll(async () => (await row()).attempts).toBe(2);
    expect((await row()).last_error).toMatch(/attempt 1 did not finish: its lease on crash-1 expired/);
    t.clock.advance(61_000);
    await alive.runDue();
    expect(ran).toBe(0); // not a third run
    const failed = await row();
    expect(failed).toMatchObject({ attempts: 2, locked_by: null, done_at: null });
    expect(failed.failed_at).not.toBeNull();
    expect(failed.last_error).toMatch(/attempt 2 of 2 did not finish: its lease on crash-2 expired/);
  });

  it('a handler that outlived its lease neither completes nor fails the run another instance took (fenced by attempt)', async () => {
    const now = () => t.clock.now();
    // A stalled process (no renewal), and the same instance name after a restart (a pod keeps its host name).
    const stalled = new JobScheduler({ db: t.db, now, instanceId: 'pod-1', leaseMs: 60_000, heartbeatMs: 0 });
    const restarted = new JobScheduler({ db: db2, now, instanceId: 'pod-1', leaseMs: 60_000 });
    const releases: Record<string, (fail?: boolean) => void> = {};
    const wait = (who: string) => async () =>
      new Promise<void>((resolve, reject) => (releases[who] = (fail) => (fail ? reject(new Error(`${who} failed`)) : resolve())));
    stalled.define('fence-test', wait('stalled'));
    restarted.define('fence-test', wait('restarted'));
    for (const outcome of ['completes', 'throws'] as const) {
      const id = await stalled.enqueue('fence-test', { outcome });
      const row = async () =>
        (await t.db.query('SELECT attempts, locked_by, locked_until, done_at, failed_at, last_error, run_at FROM jobs WHERE id = $1', [id]))
          .rows[0];
      const old = stalled.runDue();
      await expect.poll(() => typeof releases.stalled).toBe('function');
      t.clock.advance(61_000);
      const taken = restarted.runDue();
      await expect.poll(() => typeof releases.restarted).toBe('function');
      const during = await row();
      expect(during).toMatchObject({ attempts: 2, locked_by: 'pod-1', done_at: null });
      // The stalled handler ends now: its outcome is not written over the run that holds the lease.
      releases.stalled(outcome === 'throws');
      await old;
      expect(await row()).toEqual(during);
      releases.restarted();
      await taken;
      const finished = await row();
      expect(finished).toMatchObject({ attempts: 2, locked_by: null, failed_at: null });
      expect(finished.done_at).not.toBeNull();
      delete releases.stalled;
      delete releases.restarted;
    }
  });

  it('the app has a scheduler that stops with the app', async () => {
    expect(t.app.ctx.jobs).toBeInstanceOf(JobScheduler);
  });
});
