// Starts AdminEase: the database (embedded PostgreSQL on the data folder, or DATABASE_URL), migrations,
// the demo organisation on first start, then the web app and API on one port. SIGTERM/SIGINT finish
// in-flight requests, close the pool and stop the embedded database cleanly.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { type EmbeddedServer, startEmbedded } from './db/embedded.js';
import { createDb } from './db/pool.js';
import { guardProcessAgainstDatabaseErrors } from './db/unavailable.js';
import { prepareDatabase } from './db/prepare.js';
import { effectiveDemoMode, isDemoDatabase } from './auth/demo-mode.js';

const log = (level: string, msg: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level, time: new Date().toISOString(), msg, ...extra }));

async function main() {
  guardProcessAgainstDatabaseErrors(log);
  const config = loadConfig();
  let embedded: EmbeddedServer | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbedded({ dataDir: config.dataDir, log: (m) => log('info', m) });
    url = embedded.url;
  }
  const db = createDb(url, undefined, config.database);
  const { applied, seeded } = await prepareDatabase(db, config);
  if (applied.length) log('info', 'migrations applied', { applied });
  if (seeded) log('info', 'demo organisation loaded', seeded);
  const demo = await effectiveDemoMode(db, config.demo);
  const app = await buildApp({ db, config });
  await app.listen({ port: config.port, host: config.host });
  log('info', `AdminEase listening on http://localhost:${config.port}`, { database: embedded ? 'embedded' : 'external', demo });
  if (demo) {
    // The password itself stays out of the logs; saying that it is public is the point.
    log('warn', 'demo mode is on: every demo account signs in with the published demo password (README, sign-in screen); never keep real data here (ADMINEASE_DEMO=0 turns demo mode off)', { demo: true });
  } else if (await isDemoDatabase(db)) {
    log('warn', 'demo mode is off but this database holds the demo organisation: the published demo password is refused for sign-in; give its accounts real passwords or start from an empty database', { demo: false });
  } else {
    log('info', 'demo mode is off: no demo accounts, no known password', { demo: false });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await app.close();
      await db.close();
      if (embedded) await embedded.stop();
    } finally {
      log('info', 'stopped');
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  log('error', 'failed to start', { err: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
