// Shared bits of the benchmarks: the scale databases on the local PostgreSQL, command-line flags, the
// scale organisation's naming (so run.ts can find its managers, HR officers, ...), and small helpers.
import pg from 'pg';

/**
 * The scale organisation's password. Not the demo password: outside demo mode (the bench databases are not demo
 * databases) the server refuses the published demo password for everyone, so sign-in and the Chromium dashboard
 * would only measure refusals.
 */
export const BENCH_PASSWORD = 'Bench-Scale-Org-2026';

/** The admin URL of the PostgreSQL server holding the bench databases. */
export function benchServerUrl(): string {
  return process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Database name for a request volume: adminease_bench (1,000,000) or adminease_bench_10k, ... */
export function benchDatabaseName(requests: number): string {
  if (requests === 1_000_000) return 'adminease_bench';
  const label = requests % 1_000_000 === 0 ? `${requests / 1_000_000}m` : requests % 1000 === 0 ? `${requests / 1000}k` : String(requests);
  return `adminease_bench_${label}`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** `--name value` and `--flag` arguments. */
export function flags(argv = process.argv.slice(2)): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [k, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) out.set(k, inline);
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out.set(k, argv[(i += 1)]);
    else out.set(k, 'true');
  }
  return out;
}

export function intFlag(f: Map<string, string>, name: string, def: number): number {
  const v = f.get(name);
  if (v === undefined) return def;
  const n = Number(v.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
}

/** The scale organisation (bench/seed-scale.ts): counts per role; emails are `<kind><n>@bench.test`. */
export const SCALE_ORG = {
  directors: 10,
  lineManagers: 500,
  hr: 25,
  finance: 10,
  it: 10,
  facilitiesDesk: 5,
  facilitiesManagers: 2,
  departments: 25,
};

export const scaleEmail = (kind: 'director' | 'manager' | 'hr' | 'finance' | 'it' | 'desk' | 'facmgr' | 'employee', n: number) =>
  `${kind}${String(n).padStart(5, '0')}@bench.test`;

export async function adminClient(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: benchServerUrl() });
  await c.connect();
  return c;
}

export const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

export function elapsed(t0: number): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

/**
 * Waits until no other session runs a statement on this database (a loaded server still finishing calls the load
 * generator gave up on), at most `maxMs`: the bench's clean-ups then do not race the load's last writes.
 */
export async function quiesce(db: pg.Pool, maxMs = 60_000): Promise<void> {
  const until = Date.now() + maxMs;
  let quiet = 0;
  while (quiet < 3 && Date.now() < until) {
    const r = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'`,
    );
    quiet = r.rows[0].n === 0 ? quiet + 1 : 0;
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** Runs `fn` again after a deadlock or serialization failure (up to 5 times). */
export async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw err;
      await new Promise((res) => setTimeout(res, 500 * attempt));
    }
  }
}
