// The job scheduler: background work on PostgreSQL inside the server process (docs/jobs.md). Every instance polls
// one `jobs` table; a job run is claimed with FOR UPDATE SKIP LOCKED and a lease, so each run happens on exactly
// one instance, and a run whose instance died is claimed again once its lease has passed. While a handler runs, its
// instance renews the lease (a heartbeat), so a long run is not taken over; a run whose lease expired counts as an
// attempt (after the last one the job fails), and every write of a run is fenced by its attempt number, so a handler
// that outlived its lease never completes or fails a run another instance took. Recurring jobs are rows keyed by
// job and slot, offered by every instance and stored once (a unique key). Time is the app's clock, so tests move it.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { businessDate, businessMoment } from '../../domain/business-time.js';
import type { Db, Queryable } from '../db/pool.js';

/** When a recurring job runs: every N minutes (slots counted from the epoch), or once a business day at HH:MM. */
export type Schedule = { everyMinutes: number } | { dailyAt: string };

export interface JobRun<P = Record<string, unknown>> {
  id: number;
  name: string;
  payload: P;
  /** 1 on the first attempt. */
  attempt: number;
  /** The moment the run was due (a recurring job's slot). */
  runAt: Date;
  /** The scheduler clock's time when the run started. */
  now: Date;
  /** Aborted when this run lost its lease (another instance may run the job now): stop early, the run will not count. */
  signal: AbortSignal;
}

export type JobHandler<P = any> = (run: JobRun<P>) => Promise<void>;

export interface EnqueueOptions {
  /** Not before this moment (default: now). */
  runAt?: Date;
  /** At most one job with this key ever exists: a second enqueue with it is ignored (returns null). */
  key?: string;
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** Enqueue inside a caller's transaction (the job exists only if it commits). */
  db?: Queryable;
}

export interface SchedulerOptions {
  db: Db;
  now: () => Date;
  /** Milliseconds between polls; 0: this instance runs no jobs unless runDue() is called. */
  pollMs?: number;
  /** How long a claimed run is this instance's before another may claim it again (renewed while it runs). */
  leaseMs?: number;
  /**
   * Real milliseconds between renewals of a running job's lease (default a third of the lease, at most 60 s); each
   * renewal extends it to the clock's now + leaseMs. 0: never renewed (tests use it to play a stalled process).
   */
  heartbeatMs?: number;
  log?: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** Names this instance in locked_by (default host:pid:random). */
  instanceId?: string;
}

interface ClaimedJob {
  id: number;
  name: string;
  payload: any;
  attempts: number;
  max_attempts: number;
  run_at: Date;
}

interface Definition {
  handler: JobHandler;
  schedule?: Schedule;
  maxAttempts: number;
}

const DAILY_AT = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** Finished runs are kept this long (history for operators), then removed by the poll. */
const KEEP_DONE_MS = 7 * 24 * 60 * 60_000;

/** The slot a recurring schedule is in at `now`: its key suffix and the moment it began; null before today's time. */
export function currentSlot(schedule: Schedule, now: Date): { id: string; at: Date } | null {
  if ('everyMinutes' in schedule) {
    const step = schedule.everyMinutes * 60_000;
    const at = new Date(Math.floor(now.getTime() / step) * step);
    return { id: at.toISOString(), at };
  }
  const today = businessDate(now);
  const at = businessMoment(today, schedule.dailyAt);
  return now.getTime() >= at.getTime() ? { id: today, at } : null;
}

export class JobScheduler {
  readonly instanceId: string;
  private readonly defs = new Map<string, Definition>();
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly log: NonNullable<SchedulerOptions['log']>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private started = false;
  private stopped = false;
  private lastCleanup = 0;

  constructor(opts: SchedulerOptions) {
    this.db = opts.db;
    this.now = opts.now;
    this.pollMs = opts.pollMs ?? 5_000;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.heartbeatMs = opts.heartbeatMs ?? Math.min(Math.max(Math.floor(this.leaseMs / 3), 1), 60_000);
    this.log = opts.log ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
    this.instanceId = opts.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** A job run on demand (enqueue). Its handler may throw: the run is retried with a growing delay. */
  define<P = Record<string, unknown>>(name: string, handler: JobHandler<P>, opts: { maxAttempts?: number } = {}): void {
    this.add(name, { handler: handler as JobHandler, maxAttempts: opts.maxAttempts ?? 5 });
  }

  /** A job run once per slot of `schedule`, on one instance, whatever the number of instances. */
  recurring(name: string, schedule: Schedule, handler: JobHandler<Record<string, never>>, opts: { maxAttempts?: number } = {}): void {
    if ('everyMinutes' in schedule && !(Number.isInteger(schedule.everyMinutes) && schedule.everyMinutes >= 1))
      throw new RangeError(`${name}: everyMinutes must be a whole number of minutes, 1 or more`);
    if ('dailyAt' in schedule && !DAILY_AT.test(schedule.dailyAt)) throw new RangeError(`${name}: dailyAt must be HH:MM`);
    this.add(name, { handler: handler as JobHandler, schedule, maxAttempts: opts.maxAttempts ?? 3 });
  }

  private add(name: string, def: Definition) {
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) throw new RangeError(`job name '${name}': lower-case letters, digits, . _ -`);
    if (this.defs.has(name)) throw new Error(`job '${name}' is defined twice`);
    this.defs.set(name, def);
  }

  /** Queues a run of job `name`; its id, or null when `key` is already taken. */
  async enqueue(name: string, payload: Record<string, unknown> = {}, opts: EnqueueOptions = {}): Promise<number | null> {
    const def = this.defs.get(name);
    if (!def) throw new Error(`job '${name}' is not defined`);
    const runAt = opts.runAt ?? this.now();
    const res = await (opts.db ?? this.db).query<{ id: number }>(
      `INSERT INTO jobs (name, key, payload, run_at, max_attempts) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) WHERE key IS NOT NULL DO NOTHING RETURNING id`,
      [name, opts.key ?? null, JSON.stringify(payload), runAt, opts.maxAttempts ?? def.maxAttempts],
    );
    // A job due now is started soon on this instance rather than at the next poll (not inside a transaction).
    if (!opts.db && runAt.getTime() <= this.now().getTime()) this.kick();
    return res.rows[0]?.id ?? null;
  }

  /** Starts polling (the listening server does; in-process test apps call runDue() instead). */
  start(): void {
    if (this.started || this.stopped || this.pollMs <= 0) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the run in progress (its job finishes; nothing new is claimed). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number) {
    if (this.stopped || !this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runDue()
        .catch((err) => this.log.warn({ err: (err as Error).message }, 'job poll failed'))
        .finally(() => this.schedule(this.pollMs));
    }, ms);
    this.timer.unref();
  }

  private kick() {
    if (this.started && !this.running) this.schedule(0);
  }

  /**
   * One poll: offers the current slot of every recurring job, then claims and runs due jobs one by one until none
   * is left (at most `limit`). Returns the number of runs. Concurrent calls share one poll.
   */
  runDue(limit = 100): Promise<number> {
    if (this.running) return this.running;
    const poll = this.poll(limit).finally(() => {
      this.running = null;
    });
    this.running = poll;
    return poll;
  }

  private async poll(limit: number): Promise<number> {
    if (this.defs.size === 0) return 0;
    const now = this.now();
    await this.offerSlots(now);
    let runs = 0;
    while (runs < limit && !this.stopped) {
      const job = await this.claim();
      if (!job) break;
      runs += 1;
      await this.execute(job);
    }
    if (now.getTime() - this.lastCleanup > 60 * 60_000) {
      this.lastCleanup = now.getTime();
      await this.db.query('DELETE FROM jobs WHERE done_at < $1', [new Date(now.getTime() - KEEP_DONE_MS)]);
    }
    return runs;
  }

  private async offerSlots(now: Date) {
    const names: string[] = [];
    const keys: string[] = [];
    const runAts: Date[] = [];
    const attempts: number[] = [];
    for (const [name, def] of this.defs) {
      if (!def.schedule) continue;
      const slot = currentSlot(def.schedule, now);
      if (!slot) continue;
      names.push(name);
      keys.push(`${name}@${slot.id}`);
      runAts.push(slot.at);
      attempts.push(def.maxAttempts);
    }
    if (names.length === 0) return;
    await this.db.query(
      `INSERT INTO jobs (name, key, run_at, max_attempts)
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[])
       ON CONFLICT (key) WHERE key IS NOT NULL DO NOTHING`,
      [names, keys, runAts, attempts],
    );
  }

  private async claim(): Promise<ClaimedJob | null> {
    const now = this.now();
    const names = [...this.defs.keys()];
    // A run whose lease expired did not finish (its instance died or stalled): that attempt counts. A job whose last
    // attempt ended so is failed instead of being run once more.
    const expired = await this.db.query<{ id: number; name: string; attempts: number }>(
      `UPDATE jobs j SET failed_at = $1, locked_by = NULL, locked_until = NULL,
              last_error = 'attempt ' || j.attempts || ' of ' || j.max_attempts || ' did not finish: its lease on ' || coalesce(j.locked_by, '?') || ' expired'
        WHERE j.done_at IS NULL AND j.failed_at IS NULL AND j.locked_until < $1 AND j.attempts >= j.max_attempts
          AND j.name = ANY($2::text[])
       RETURNING j.id, j.name, j.attempts`,
      [now, names],
    );
    for (const j of expired.rows) {
      this.log.error(
        { job: j.name, id: j.id, attempt: j.attempts },
        'job failed: its last attempt did not finish before its lease expired',
      );
    }
    const res = await this.db.query(
      `WITH next AS (
         SELECT id FROM jobs
          WHERE done_at IS NULL AND failed_at IS NULL AND run_at <= $1 AND name = ANY($2::text[])
            AND (locked_until IS NULL OR locked_until < $1)
          ORDER BY run_at, id
          LIMIT 1
          FOR UPDATE SKIP LOCKED)
       UPDATE jobs j SET locked_by = $3, locked_until = $4, attempts = j.attempts + 1,
              -- a lease still set here expired (a finished or failed run clears it): say so
              last_error = CASE WHEN j.locked_until IS NOT NULL
                                THEN 'attempt ' || j.attempts || ' did not finish: its lease on ' || coalesce(j.locked_by, '?') || ' expired'
                                ELSE j.last_error END
         FROM next WHERE j.id = next.id
       RETURNING j.id, j.name, j.payload, j.attempts, j.max_attempts, j.run_at`,
      [now, names, this.instanceId, new Date(now.getTime() + this.leaseMs)],
    );
    return res.rows[0] ?? null;
  }

  /** Extends this run's lease; false when the run is no longer this instance's (its lease expired and was taken). */
  private async renew(job: ClaimedJob): Promise<boolean> {
    const r = await this.db.query(
      `UPDATE jobs SET locked_until = $4 WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND done_at IS NULL AND failed_at IS NULL`,
      [job.id, this.instanceId, job.attempts, new Date(this.now().getTime() + this.leaseMs)],
    );
    return r.rowCount === 1;
  }

  /** Renews the lease every heartbeatMs while `job` runs; aborts `lost` when the run is no longer ours. Returns a stop. */
  private heartbeat(job: ClaimedJob, lost: AbortController): () => void {
    if (this.heartbeatMs <= 0) return () => undefined;
    let busy = false;
    const timer = setInterval(() => {
      if (busy || lost.signal.aborted) return;
      busy = true;
      this.renew(job)
        .then((ours) => {
          if (ours) return;
          lost.abort();
          clearInterval(timer);
          this.log.warn({ job: job.name, id: job.id, attempt: job.attempts }, 'job lease lost: another instance may run it now');
        })
        .catch((err) => this.log.warn({ job: job.name, id: job.id, err: (err as Error).message }, 'job lease renewal failed'))
        .finally(() => {
          busy = false;
        });
    }, this.heartbeatMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async execute(job: ClaimedJob) {
    const def = this.defs.get(job.name)!;
    const started = this.now();
    const lost = new AbortController();
    const stopHeartbeat = this.heartbeat(job, lost);
    // Every write of this run is fenced: still this instance's lease, of this very attempt, not yet finished.
    const fence = 'id = $1 AND locked_by = $2 AND attempts = $3 AND done_at IS NULL AND failed_at IS NULL';
    try {
      await def.handler({
        id: job.id,
        name: job.name,
        payload: job.payload,
        attempt: job.attempts,
        runAt: job.run_at,
        now: started,
        signal: lost.signal,
      });
      stopHeartbeat();
      const done = await this.db.query(
        `UPDATE jobs SET done_at = $4, locked_by = NULL, locked_until = NULL, last_error = NULL WHERE ${fence}`,
        [job.id, this.instanceId, job.attempts, this.now()],
      );
      if (done.rowCount !== 1) {
        this.log.warn(
          { job: job.name, id: job.id, attempt: job.attempts },
          'job finished after its lease was taken over: not recorded as done (the other run counts)',
        );
      }
    } catch (err) {
      stopHeartbeat();
      const message = err instanceof Error ? err.message : String(err);
      const final = job.attempts >= job.max_attempts;
      // Retries wait 30 s, 1 min, 2 min, ... (at most an hour).
      const retryAt = new Date(this.now().getTime() + Math.min(30_000 * 2 ** (job.attempts - 1), 60 * 60_000));
      await this.db
        .query(
          `UPDATE jobs SET locked_by = NULL, locked_until = NULL, last_error = $4,
                  failed_at = CASE WHEN $5 THEN $6::timestamptz END, run_at = CASE WHEN $5 THEN run_at ELSE $7 END
            WHERE ${fence}`,
          [job.id, this.instanceId, job.attempts, message.slice(0, 2000), final, this.now(), retryAt],
        )
        .catch(() => undefined);
      this.log[final ? 'error' : 'warn'](
        { job: job.name, id: job.id, attempt: job.attempts, err: message },
        final ? 'job failed' : 'job failed; will retry',
      );
    }
  }
}
