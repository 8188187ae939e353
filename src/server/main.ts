// Starts AdminEase: the database (embedded PostgreSQL on the data folder, or DATABASE_URL), migrations,
// the demo organisation on first start, then the web app and API on one port. SIGTERM/SIGINT finish
// in-flight requests, close the pool and stop the embedded database cleanly.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { type EmbeddedServer, startEmbedded } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { createDb } from './db/pool.js';
import { seedDemo } from './db/seed.js';
import { guardProcessAgainstDatabaseErrors } from './db/unavailable.js';

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
  const applied = await migrate(db);
  if (applied.length) log('info', 'migrations applied', { applied });
  if (config.demo) {
    const seeded = await seedDemo(db);
    if (seeded) log('info', 'demo organisation loaded', seeded);
  }
  const app = await buildApp({ db, config });
  await app.listen({ port: config.port, host: config.host });
  log('info', `AdminEase listening on http://localhost:${config.port}`, { database: embedded ? 'embedded' : 'external' });

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
