// Starts AdminEase: the database (embedded PostgreSQL on the data folder, or DATABASE_URL), migrations,
// the demo organisation on first start, then the web app and API on one port. SIGTERM/SIGINT finish
// in-flight requests, close the pool and stop the embedded database cleanly.
import { ConfigError, loadConfig } from './config.js';
import { setBusinessTimeZone } from '../domain/business-time.js';
import { type EmbeddedServer, startEmbedded } from './db/embedded.js';
import { createDb } from './db/pool.js';
import { guardProcessAgainstDatabaseErrors } from './db/unavailable.js';
import { prepareDatabase } from './db/prepare.js';
import { effectiveDemoMode, isDemoDatabase } from './auth/demo-mode.js';
import { type Logger, logger, moduleLogger, setLogLevel } from './logger.js';

type Level = 'info' | 'warn' | 'error' | 'fatal';
/**
 * The server's own start and stop lines ('AdminEase listening', the demo mode warning, 'shutting down', 'stopped')
 * are written whatever LOG_LEVEL says (at info, or more verbose when asked): operators and tools wait for them.
 */
let lifecycle: Logger = logger;
const log = (level: string, msg: string, extra: Record<string, unknown> = {}) =>
  lifecycle[(['info', 'warn', 'error', 'fatal'].includes(level) ? level : 'error') as Level](extra, msg);

// A signal that arrives while the server is still starting: the embedded database started so far is stopped
// cleanly and the process ends, so a start interrupted by Ctrl+C or SIGTERM leaves no PostgreSQL behind.
let starting: { databaseStarting: boolean; embedded?: EmbeddedServer } | undefined = { databaseStarting: false };
let stopStarted: ((signal: string) => void) | undefined;
let stoppingDuringStart: Promise<void> | undefined;
const onSignal = (signal: string) => {
  if (stopStarted) return stopStarted(signal);
  const pending = starting;
  starting = undefined;
  if (!pending) return; // already stopping
  log('info', 'shutting down during start', { signal });
  // While the embedded database is still starting, the start itself stops it as soon as it is up (see main).
  if (pending.databaseStarting) return;
  stoppingDuringStart = pending.embedded?.stop() ?? Promise.resolve();
  void stoppingDuringStart.finally(() => process.exit(0));
};
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGINT', () => onSignal('SIGINT'));

async function main() {
  // The server's code loads while the embedded database starts (the two overlap on a machine with more than one core).
  const appModule = import('./app.js');
  appModule.catch(() => undefined); // a failure is reported where it is awaited below
  guardProcessAgainstDatabaseErrors(log);
  // Every setting is read and checked here, before anything starts; a bad value stops the start (see below).
  const config = loadConfig();
  // The demo seed below already dates its requests by the organisation's calendar.
  setBusinessTimeZone(config.timeZone);
  setLogLevel(config.logLevel);
  lifecycle = logger.child({}, { level: logger.levels.values[config.logLevel] < logger.levels.values.info ? config.logLevel : 'info' });
  let embedded: EmbeddedServer | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const pgLog = moduleLogger('embedded-postgres');
    if (starting) starting.databaseStarting = true;
    embedded = await startEmbedded({ dataDir: config.dataDir, log: (m) => pgLog.info(m) });
    url = embedded.url;
    if (!starting) {
      // a signal came while the database was starting: stop it again now that it is up
      await embedded.stop();
      process.exit(0);
    }
    starting.databaseStarting = false;
    starting.embedded = embedded;
  }
  // Loaded before the first connection: compiling the code blocks the event loop, and a connection's time limit
  // must not run out meanwhile.
  const { buildApp } = await appModule;
  const db = createDb(url, config.databasePoolMax, config.database, undefined, config.databasePipelineConnections);
  const { applied, seeded } = await prepareDatabase(db, config);
  if (applied.length) log('info', 'migrations applied', { applied });
  if (seeded) log('info', 'demo organisation loaded', seeded);
  const demo = await effectiveDemoMode(db, config.demo);
  const app = await buildApp({ db, config });
  await app.listen({ port: config.port, host: config.host });
  // readyMs: from the process's start to listening (the build check of `npm start` included), by the process's own
  // clock; cpuMs: the processor time the main thread used meanwhile (not the garbage collector's and I/O helper
  // threads', nor the database server's). threadCpuUsage is newer than Node 22.13; cpuUsage counts every thread.
  const cpu = process.threadCpuUsage?.() ?? process.cpuUsage();
  log('info', `AdminEase listening on http://localhost:${config.port}`, {
    database: embedded ? 'embedded' : 'external',
    demo,
    readyMs: Math.round(performance.now()),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  });
  if (demo) {
    // The password itself stays out of the logs; saying that it is public is the point.
    log(
      'warn',
      'demo mode is on: every demo account signs in with the published demo password (README, sign-in screen); never keep real data here (ADMINEASE_DEMO=0 turns demo mode off)',
      { demo: true },
    );
  } else if (await isDemoDatabase(db)) {
    log(
      'warn',
      'demo mode is off but this database holds the demo organisation: the published demo password is refused for sign-in; give its accounts real passwords or start from an empty database',
      { demo: false },
    );
  } else {
    log('info', 'demo mode is off: no demo accounts, no known password', { demo: false });
    // First run without demo data: a one-time link whose page creates the first administrator (docs/accounts.md).
    const { firstRunSetupLink } = await import('./accounts/service.js');
    const setupLink = await firstRunSetupLink(db, config);
    if (setupLink) {
      log(
        'warn',
        `first run: create the first administrator at ${setupLink} (a one-time link, valid ${config.inviteTtlHours} hours; a restart prints a new one until an administrator exists)`,
        { setup: true },
      );
    }
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
  stopStarted = (signal) => void stop(signal);
  starting = undefined;
}

main().catch((err) => {
  if (!starting && !stopStarted) {
    // stopped by a signal during the start: what failed was cut off on purpose
    void (stoppingDuringStart ?? Promise.resolve()).finally(() => process.exit(0));
    return;
  }
  // A configuration value that does not fit: the message names the variable, and no stack trace hides it.
  if (err instanceof ConfigError) log('fatal', `failed to start: ${err.message}`, { variables: err.problems });
  else log('fatal', 'failed to start', { err: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
