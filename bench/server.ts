// Starts the production server (dist/server/main.js, built first when stale; the web from opts.webDir) as a child
// process for the benchmarks, and stops it with SIGTERM.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';
import { createDb } from '../src/server/db/pool.js';
import { migrate } from '../src/server/db/migrate.js';
import { freePort } from '../src/server/db/embedded.js';
import { sweepReminders } from '../src/server/delegation/reminders.js';
import { settled } from './cpu.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BenchServer {
  port: number;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(opts: {
  databaseUrl: string;
  webDir: string;
  logLevel: string;
  poolMax: number;
  port?: number;
  env?: Record<string, string>;
  nodeArgs?: string[];
}): Promise<BenchServer> {
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  delete env.ADMINEASE_DEMO;
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(opts.nodeArgs ?? []), 'dist/server/main.js'], {
    cwd: ROOT,
    env: {
      ...env,
      NODE_ENV: 'production',
      DATABASE_URL: opts.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMINEASE_WEB_DIR: opts.webDir,
      LOG_LEVEL: opts.logLevel,
      DATABASE_POOL_MAX: String(opts.poolMax),
      ADMINEASE_LOGIN_RATE_LIMIT: '1000000',
      ...(opts.env ?? {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    if (out.length < 200_000) out += d;
  });
  child.stderr.on('data', (d) => {
    if (err.length < 200_000) err += d;
  });
  const deadline = Date.now() + 180_000;
  while (!out.includes('AdminEase listening')) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}\n${err}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Measured from when its start-up work is done (the assistant's training, the first passes of its jobs).
  await settled(child.pid!);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 40_000))]); // the server forces its own exit at 30 s
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Works the reminders sweep through everything due today, before a measurement. A freshly seeded database has
 * tens of thousands of steps waiting for years; the server's own passes (every 10 minutes, 5,000 steps each) would
 * work that backlog through during the first hours, in the middle of the measurements. Answers how many reminders
 * and escalations it sent.
 */
export async function catchUpReminders(databaseUrl: string): Promise<number> {
  const db = createDb(databaseUrl, 2);
  try {
    // The product's sweep runs here before any server has started on this database: its schema first.
    await migrate(db);
    let sent = 0;
    for (;;) {
      const r = await sweepReminders(db, new Date(), { mail: false });
      sent += r.reminded + r.escalated;
      if (r.reminded + r.escalated === 0) return sent;
    }
  } finally {
    await db.close();
  }
}
