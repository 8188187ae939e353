// The one logger of the server: a single pino instance writing JSON lines to stdout. Fastify logs through it
// (buildApp passes it as Fastify's loggerInstance), and every other module logs through a child of it
// (`moduleLogger('db')`), so all lines share one format. While a request is being served, `currentLogger()`
// answers that request's logger (Fastify's req.log, which carries the request id), so a service deep inside a
// request writes lines with the request id without the logger being handed down to it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Log levels LOG_LEVEL accepts (pino's, plus 'silent' for none). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const toStdout = (line: string) => {
  process.stdout.write(line);
};
let sink: (line: string) => void = toStdout;

/**
 * Sends every log line to `to` instead of stdout (null: back to stdout). For tests that check what is logged;
 * stdout writes are synchronous for files and pipes, so nothing is lost when the process exits after a line.
 */
export function redirectLogs(to: ((line: string) => void) | null): void {
  sink = to ?? toStdout;
}

/** The process's logger. Its level is 'info' until the configuration sets it (setLogLevel). */
export const logger: Logger = pino(
  {
    level: 'info',
    // Lines read {"level":"warn","time":"2026-11-24T01:02:03.456Z",...}: the level by name, the time in ISO 8601.
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Credentials never reach the log, whichever logger line carries the request or answer headers.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  },
  { write: (line: string) => sink(line) },
);

/** Sets the level of the process's logger (and of module loggers made afterwards). */
export function setLogLevel(level: string): void {
  logger.level = level;
}

/** A logger for one module outside requests: lines carry `module`. Made from the logger's current level. */
export function moduleLogger(module: string): Logger {
  return logger.child({ module });
}

/** A logger as Fastify types it (req.log, app.log); the pino loggers above are ones. */
export type Log = FastifyBaseLogger;

/** Query parameters that carry a credential: invitation and e-mail action tokens, sign-in codes and states. */
const SECRET_QUERY = /([?&](?:token|code|state)=)[^&#]*/gi;

/** A URL as it may be logged: the values of credential-carrying query parameters replaced. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * The logger Fastify is given for an app: the process's logger at the app's own level. Its `serializers` (Fastify
 * reads them from the instance) write a request's URL without the tokens some links carry (/email-action?token=,
 * /set-password?token=): the link is a credential until it is used or expires.
 */
export function appLogger(level: string): Log {
  const log = logger.child({}, { level });
  const req = (r: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
    method: r.method,
    url: loggableUrl(r.url ?? ''),
    host: r.host,
    remoteAddress: r.ip,
    remotePort: r.socket?.remotePort,
  });
  return Object.assign(log, { serializers: { req } });
}

const requestLoggers = new AsyncLocalStorage<Log>();

/** Runs `fn` (and everything it starts) with `log` as the current request's logger. */
export function withRequestLogger<T>(log: Log, fn: () => T): T {
  return requestLoggers.run(log, fn);
}

/** The logger of the request being served (it carries the request id), else `fallback`. */
export function currentLogger(fallback: Log = logger): Log {
  return requestLoggers.getStore() ?? fallback;
}
