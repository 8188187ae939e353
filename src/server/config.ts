// Configuration from environment variables (each listed with its default in the README).
import os from 'node:os';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Load the demo organisation into an empty database. */
  demo: boolean;
  sessionIdleMs: number;
  /** ADMINEASE_SESSION_MAX_HOURS: a session ends this long after sign-in, however active. */
  sessionMaxMs: number;
  loginRateLimit: number;
  loginRateWindowMs: number;
  secureCookies: boolean;
  logLevel: string;
  webDir: string;
  /** ADMINEASE_SECRET_KEY: base64 of 32 bytes encrypting reset passwords at rest; unset = the key file below. */
  secretKey?: string;
  /** Time limits of every database connection (0 turns one off). */
  database: DatabaseLimits;
  /**
   * ADMINEASE_SECRET_KEY_FILE: where the generated key lives when ADMINEASE_SECRET_KEY is unset. Outside the data
   * folder by default ($XDG_CONFIG_HOME/adminease/secret.key, else ~/.config/adminease/secret.key), so a copy of
   * the data folder alone cannot decrypt anything.
   */
  secretKeyFile: string;
  /** ADMINEASE_RESET_PASSWORD_TTL_HOURS: a stored reset password is erased this long after IT set it (default 72). */
  resetPasswordTtlHours: number;
}

export interface DatabaseLimits {
  /** DATABASE_CONNECT_TIMEOUT_MS: opening a connection, or waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: one statement (PostgreSQL cancels it; the client gives up a little later). */
  statementTimeoutMs: number;
  /** DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: a transaction left open without a statement running. */
  idleInTransactionTimeoutMs: number;
}

/** A non-negative whole number of milliseconds from `env[name]`, or `fallback` when unset. */
function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647) throw new Error(`${name} must be a whole number of milliseconds (0 or more), not '${raw}'`);
  return n;
}

export function databaseLimits(env: NodeJS.ProcessEnv = process.env): DatabaseLimits {
  return {
    connectTimeoutMs: millis(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000),
    statementTimeoutMs: millis(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000),
    idleInTransactionTimeoutMs: millis(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000),
  };
}

/** The default home of the generated key: the user's configuration folder, never the data folder. */
export function defaultSecretKeyFile(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
    ? env.XDG_CONFIG_HOME
    : path.join(env.HOME || os.homedir(), '.config');
  return path.join(configHome, 'adminease', 'secret.key');
}

function resetPasswordTtlHours(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 72;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 365) {
    throw new Error(`ADMINEASE_RESET_PASSWORD_TTL_HOURS must be a number of hours above 0 and at most 8760; got '${raw}'`);
  }
  return n;
}

/** A positive number of hours from the environment (fractions allowed), or the default; anything else stops the start. */
function positiveHours(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of hours, got '${raw}'`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.ADMINEASE_DATA_DIR ?? './data'),
    databaseUrl,
    demo: databaseUrl ? env.ADMINEASE_DEMO === '1' : env.ADMINEASE_DEMO !== '0',
    sessionIdleMs: 24 * 60 * 60 * 1000,
    sessionMaxMs: positiveHours(env, 'ADMINEASE_SESSION_MAX_HOURS', 7 * 24) * 60 * 60 * 1000,
    loginRateLimit: Number(env.ADMINEASE_LOGIN_RATE_LIMIT ?? 10),
    loginRateWindowMs: 15 * 60 * 1000,
    secureCookies: env.ADMINEASE_SECURE_COOKIES === '1',
    logLevel: env.LOG_LEVEL ?? 'info',
    webDir: path.resolve(env.ADMINEASE_WEB_DIR ?? './dist/web'),
    secretKey: env.ADMINEASE_SECRET_KEY || undefined,
    database: databaseLimits(env),
    secretKeyFile: path.resolve(env.ADMINEASE_SECRET_KEY_FILE || defaultSecretKeyFile(env)),
    resetPasswordTtlHours: resetPasswordTtlHours(env.ADMINEASE_RESET_PASSWORD_TTL_HOURS),
  };
}
