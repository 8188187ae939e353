// Configuration: every setting of the server is read from the environment here, once at start, and checked
// against one zod schema (ENV_SCHEMA). A value that does not fit stops the start with a message naming the
// variable. Other modules take their settings from the typed Config object (the app's `ctx.config`), never from
// process.env. The README's configuration table lists the same variables with the same defaults (a test compares
// them).
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BUSINESS_TIME_ZONE, isValidTimeZone } from '../domain/business-time.js';
import { z } from 'zod';
import type { ChatbotKind } from '../domain/roles.js';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/** The assistant kinds ASSISTANT_DISABLED_ROLES may name. */
export const ASSISTANT_KINDS: readonly ChatbotKind[] = ['employee', 'manager', 'hr', 'finance', 'it', 'facilities', 'admin'];

export interface DatabaseLimits {
  /** DATABASE_CONNECT_TIMEOUT_MS: opening a connection, or waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: one statement (PostgreSQL cancels it; the client gives up a little later). */
  statementTimeoutMs: number;
  /** DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: a transaction left open without a statement running. */
  idleInTransactionTimeoutMs: number;
}

export interface MailSettings {
  /** A nodemailer transport: an smtp(s):// URL or options (tests use { jsonTransport: true }). */
  transport: string | Record<string, unknown>;
  from: string;
  /** Link to the portal in each e-mail (ADMINEASE_PUBLIC_URL, required with SMTP; never a loopback address unless MAIL_LOCAL_LINKS=1). */
  publicUrl: string;
  /** EMAIL_ACTION_TTL_HOURS: how long an approver's Approve / Reject link in an e-mail stays usable. */
  actionTtlHours: number;
  /** EMAIL_DIGEST_HOUR: the hour of the organisation's day (ADMINEASE_TIMEZONE) from which the daily digest goes out. */
  digestHour: number;
}

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
}

export interface AssistantSettings {
  /** ASSISTANT_DISABLED_ROLES: assistant kinds that start in maintenance. */
  disabledByDefault: ChatbotKind[];
  /** The external model, when both ASSISTANT_LLM_BASE_URL and ASSISTANT_LLM_MODEL are set. */
  llm: LlmSettings | null;
}

export interface SpeechSettings {
  maxChars: number;
  rateWpm: number;
  workers: number;
  /** TTS_WORKER_NICE: the nice value (0-19) of the speech worker threads, so synthesis yields the cores to requests. */
  workerNice: number;
  jobTimeoutMs: number;
  /** /api/tts/synthesize requests one user may have in progress at once (per instance). */
  perUserConcurrency: number;
  /** Google Cloud Text-to-Speech, when GOOGLE_TTS_API_KEY is set. */
  google: { apiKey: string; endpoint: string; timeoutMs: number } | null;
  /** TTS_PREWARM: start one speech worker when the server listens (false: on first use). */
  prewarm: boolean;
}

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
  /** LOG_LEVEL: one of LOG_LEVELS (checked when loaded; typed loosely so tests can write 'silent' over it). */
  logLevel: string;
  webDir: string;
  /** ADMINEASE_SECRET_KEY: base64 of 32 bytes encrypting reset passwords at rest; unset = the key file below. */
  secretKey?: string;
  /** DATABASE_POOL_MAX: connections in the pool. */
  databasePoolMax: number;
  /** DATABASE_PIPELINE_CONNECTIONS: pipelined connections for statements on their own (0: they use the pool). */
  databasePipelineConnections: number;
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
  /** ADMINEASE_TIMEZONE: the organisation's IANA time zone, in which 'today', years and working days are counted. */
  timeZone: string;
  /** TRUST_PROXY: the client address comes from X-Forwarded-For. */
  trustProxy: boolean;
  /** ADMINEASE_QUEUE_CACHE: the per-instance cache of approver queue answers. */
  queueCache: boolean;
  /** ADMINEASE_SESSION_CACHE: the per-instance cache of signed-in sessions. */
  sessionCache: boolean;
  /** ADMINEASE_JOBS_POLL_MS: how often a listening server looks for due background jobs (0: it runs none). */
  jobsPollMs: number;
  /** ADMINEASE_PUBLIC_URL as given (unset: undefined); links in e-mails default to http://localhost:<PORT>. */
  publicUrl?: string;
  /** E-mail of notifications, or null when no SMTP server is configured. */
  mail: MailSettings | null;
  /** The optional public holiday calendar provider. */
  holidays: { apiKey?: string; calendarIds: string[] };
  assistant: AssistantSettings;
  speech: SpeechSettings;
  /** METRICS_TOKEN: the bearer token GET /metrics requires; unset: loopback clients only. */
  metricsToken?: string;
  /** ADMINEASE_INVITE_TTL_HOURS: how long an invitation (or the first-run set-up link) stays usable. */
  inviteTtlHours: number;
  /** Single sign-on through OpenID Connect, when OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set. */
  oidc: OidcSettings | null;
}

export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_PROVIDER_NAME: shown as 'Sign in with <name>'. */
  name: string;
}

/** A configuration value that does not fit its variable; the message names the variable(s). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

// ---- one variable each: blank counts as unset; a bad value is an issue whose message says what is expected ----

type Raw = string | undefined;
const isBlank = (raw: Raw): raw is undefined => raw === undefined || raw.trim() === '';
const rawString = z.string().optional();

/** A number from `raw` with bounds; `what` completes "must be ...". */
function numberSetting(fallback: number, what: string, ok: (n: number) => boolean) {
  return rawString.transform((raw, ctx) => {
    if (isBlank(raw)) return fallback;
    const n = Number(raw.trim());
    if (Number.isFinite(n) && ok(n)) return n;
    ctx.addIssue({ code: 'custom', message: `must be ${what}, not '${raw}'` });
    return z.NEVER;
  });
}

const wholeNumber = (fallback: number, min: number, max: number, what: string) =>
  numberSetting(fallback, what, (n) => Number.isInteger(n) && n >= min && n <= max);

/** Milliseconds, a whole number from 0 (0: no limit) up to what a timer can hold. */
const millisOrOff = (fallback: number) => wholeNumber(fallback, 0, 2_147_483_647, 'a whole number of milliseconds (0 or more)');

/** A switch written 1 or 0 (true / false are accepted too); unset: `fallback`. */
function flag(fallback: boolean) {
  return rawString.transform((raw, ctx) => {
    if (isBlank(raw)) return fallback;
    const v = raw.trim().toLowerCase();
    if (v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    ctx.addIssue({ code: 'custom', message: `must be 1 or 0, not '${raw}'` });
    return z.NEVER;
  });
}

/** The switch without a default (the caller decides what unset means). */
const optionalFlag = rawString.transform((raw, ctx) => {
  if (isBlank(raw)) return undefined;
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  ctx.addIssue({ code: 'custom', message: `must be 1 or 0, not '${raw}'` });
  return z.NEVER;
});

/** Free text; unset or blank: `fallback`. */
const text = (fallback: string) => rawString.transform((raw) => (isBlank(raw) ? fallback : raw));
/** Free text that may be unset. */
const optionalText = rawString.transform((raw) => (isBlank(raw) ? undefined : raw));

/** An absolute URL with one of `protocols` (e.g. 'http:'), or unset. */
function optionalUrl(protocols: string[]) {
  return rawString.transform((raw, ctx) => {
    if (isBlank(raw)) return undefined;
    let u: URL | undefined;
    try {
      u = new URL(raw.trim());
    } catch {
      u = undefined;
    }
    if (u && protocols.includes(u.protocol)) return raw.trim();
    ctx.addIssue({ code: 'custom', message: `must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL, not '${raw}'` });
    return z.NEVER;
  });
}

/** A comma-separated list (blank items dropped). */
const list = rawString.transform((raw) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/**
 * Every environment variable the server reads, with its check and default. The keys are the variables' names;
 * the README's configuration table lists exactly these.
 */
export const ENV_SCHEMA = z.object({
  PORT: wholeNumber(3000, 0, 65_535, 'a port number from 0 to 65535'),
  HOST: text('0.0.0.0'),
  ADMINEASE_DATA_DIR: text('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  ADMINEASE_DEMO: optionalFlag,
  ADMINEASE_LOGIN_RATE_LIMIT: wholeNumber(10, 1, 1_000_000, 'a whole number of attempts, 1 or more'),
  ADMINEASE_SECURE_COOKIES: flag(false),
  ADMINEASE_SESSION_MAX_HOURS: numberSetting(7 * 24, 'a positive number of hours', (n) => n > 0),
  ADMINEASE_WEB_DIR: text('./dist/web'),
  DATABASE_POOL_MAX: wholeNumber(20, 1, 10_000, 'a whole number of connections, 1 or more'),
  DATABASE_PIPELINE_CONNECTIONS: wholeNumber(4, 0, 1_000, 'a whole number of connections, 0 or more'),
  DATABASE_CONNECT_TIMEOUT_MS: millisOrOff(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: millisOrOff(30_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: millisOrOff(60_000),
  TRUST_PROXY: flag(false),
  LOG_LEVEL: rawString.transform((raw, ctx): LogLevel => {
    if (isBlank(raw)) return 'info';
    const v = raw.trim().toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
    ctx.addIssue({ code: 'custom', message: `must be one of ${LOG_LEVELS.join(', ')}, not '${raw}'` });
    return z.NEVER;
  }),
  ADMINEASE_SECRET_KEY: rawString.transform((raw, ctx) => {
    if (isBlank(raw)) return undefined;
    const bytes = Buffer.from(raw.trim(), 'base64').length;
    if (bytes === 32) return raw;
    ctx.addIssue({
      code: 'custom',
      message: `must be the base64 encoding of 32 random bytes (e.g. \`openssl rand -base64 32\`); it decodes to ${bytes} bytes`,
    });
    return z.NEVER;
  }),
  ADMINEASE_SECRET_KEY_FILE: optionalText,
  ADMINEASE_RESET_PASSWORD_TTL_HOURS: numberSetting(72, 'a number of hours above 0 and at most 8760', (n) => n > 0 && n <= 24 * 365),
  ADMINEASE_TIMEZONE: rawString.transform((raw, ctx) => {
    if (isBlank(raw)) return DEFAULT_BUSINESS_TIME_ZONE;
    const zone = raw.trim();
    if (isValidTimeZone(zone)) return zone;
    ctx.addIssue({ code: 'custom', message: `must be an IANA time zone such as Asia/Kolkata or Europe/Berlin, not '${raw}'` });
    return z.NEVER;
  }),
  ADMINEASE_QUEUE_CACHE: flag(true),
  ADMINEASE_SESSION_CACHE: flag(true),
  ADMINEASE_JOBS_POLL_MS: wholeNumber(5_000, 0, 3_600_000, 'a whole number of milliseconds from 0 to 3600000'),
  ADMINEASE_PUBLIC_URL: optionalUrl(['http:', 'https:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  SMTP_HOST: optionalText,
  SMTP_PORT: wholeNumber(587, 1, 65_535, 'a port number from 1 to 65535'),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_SECURE: flag(false),
  MAIL_FROM: text('AdminEase <no-reply@adminease.local>'),
  MAIL_LOCAL_LINKS: flag(false),
  EMAIL_ACTION_TTL_HOURS: numberSetting(72, 'a number of hours above 0 and at most 720', (n) => n > 0 && n <= 720),
  EMAIL_DIGEST_HOUR: wholeNumber(8, 0, 23, 'a whole hour from 0 to 23'),
  HOLIDAY_CALENDAR_API_KEY: optionalText,
  HOLIDAY_CALENDAR_IDS: list,
  ASSISTANT_LLM_BASE_URL: optionalUrl(['http:', 'https:']),
  ASSISTANT_LLM_MODEL: optionalText,
  ASSISTANT_LLM_API_KEY: text(''),
  ASSISTANT_LLM_TIMEOUT_MS: wholeNumber(30_000, 100, 600_000, 'a whole number of milliseconds from 100 to 600000'),
  ASSISTANT_DISABLED_ROLES: list.transform((kinds, ctx) => {
    const unknown = kinds.filter((k) => !(ASSISTANT_KINDS as readonly string[]).includes(k.toLowerCase()));
    if (unknown.length === 0) return kinds.map((k) => k.toLowerCase() as ChatbotKind);
    ctx.addIssue({ code: 'custom', message: `must list assistant kinds from ${ASSISTANT_KINDS.join(', ')}, not '${unknown.join(', ')}'` });
    return z.NEVER;
  }),
  GOOGLE_TTS_API_KEY: optionalText,
  GOOGLE_TTS_ENDPOINT: optionalUrl(['http:', 'https:']),
  GOOGLE_TTS_TIMEOUT_MS: wholeNumber(10_000, 1, 600_000, 'a whole number of milliseconds from 1 to 600000'),
  TTS_MAX_CHARS: wholeNumber(5_000, 1, 1_000_000, 'a whole number of characters, 1 or more'),
  TTS_RATE_WPM: wholeNumber(160, 80, 450, 'a whole number of words per minute from 80 to 450'),
  TTS_WORKERS: wholeNumber(2, 1, 8, 'a whole number of worker threads from 1 to 8'),
  TTS_WORKER_NICE: wholeNumber(10, 0, 19, 'a whole number from 0 (normal priority) to 19 (lowest)'),
  TTS_JOB_TIMEOUT_MS: wholeNumber(30_000, 100, 2_147_483_647, 'a whole number of milliseconds, 100 or more'),
  TTS_USER_CONCURRENCY: wholeNumber(3, 1, 1_000, 'a whole number of requests, 1 or more'),
  TTS_PREWARM: flag(true),
  METRICS_TOKEN: optionalText,
  ADMINEASE_INVITE_TTL_HOURS: numberSetting(72, 'a number of hours above 0 and at most 720', (n) => n > 0 && n <= 720),
  OIDC_ISSUER_URL: optionalUrl(['http:', 'https:']),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_PROVIDER_NAME: text('single sign-on'),
});

/** The names of every configuration variable, in the schema's order. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ENV_SCHEMA.shape);

export const GOOGLE_TTS_DEFAULT_ENDPOINT = 'https://texttospeech.googleapis.com/v1/text:synthesize';

/** The default home of the generated key: the user's configuration folder, never the data folder. */
export function defaultSecretKeyFile(env: NodeJS.ProcessEnv): string {
  const configHome =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(configHome, 'adminease', 'secret.key');
}

/**
 * Reads and checks every setting of `env` (the process's environment by default). Throws a ConfigError naming
 * each variable whose value does not fit; callers stop the start with it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ENV_SCHEMA.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0] ?? '?')} ${i.message}`));
  }
  const e = parsed.data;
  const oidcSet = [e.OIDC_ISSUER_URL, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter((v) => v !== undefined).length;
  if (oidcSet > 0 && oidcSet < 3) {
    throw new ConfigError([
      'OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (single sign-on) or all left unset',
    ]);
  }
  const databaseUrl = e.DATABASE_URL;
  const smtpPort = e.SMTP_PORT;
  const mailTransport: MailSettings['transport'] | undefined = e.SMTP_URL
    ? e.SMTP_URL
    : e.SMTP_HOST
      ? {
          host: e.SMTP_HOST,
          port: smtpPort,
          secure: e.SMTP_SECURE || smtpPort === 465,
          ...(e.SMTP_USER ? { auth: { user: e.SMTP_USER, pass: e.SMTP_PASSWORD ?? '' } } : {}),
        }
      : undefined;
  const mailPublicUrl = mailTransport ? mailLinkBase(e.ADMINEASE_PUBLIC_URL, e.MAIL_LOCAL_LINKS) : '';
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.ADMINEASE_DATA_DIR),
    databaseUrl,
    // On by default only with the embedded database; with DATABASE_URL only when asked for.
    demo: e.ADMINEASE_DEMO ?? !databaseUrl,
    sessionIdleMs: 24 * 60 * 60 * 1000,
    sessionMaxMs: e.ADMINEASE_SESSION_MAX_HOURS * 60 * 60 * 1000,
    loginRateLimit: e.ADMINEASE_LOGIN_RATE_LIMIT,
    loginRateWindowMs: 15 * 60 * 1000,
    secureCookies: e.ADMINEASE_SECURE_COOKIES,
    logLevel: e.LOG_LEVEL,
    webDir: path.resolve(e.ADMINEASE_WEB_DIR),
    secretKey: e.ADMINEASE_SECRET_KEY,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePipelineConnections: e.DATABASE_PIPELINE_CONNECTIONS,
    database: {
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    secretKeyFile: path.resolve(e.ADMINEASE_SECRET_KEY_FILE ?? defaultSecretKeyFile(env)),
    resetPasswordTtlHours: e.ADMINEASE_RESET_PASSWORD_TTL_HOURS,
    trustProxy: e.TRUST_PROXY,
    queueCache: e.ADMINEASE_QUEUE_CACHE,
    sessionCache: e.ADMINEASE_SESSION_CACHE,
    jobsPollMs: e.ADMINEASE_JOBS_POLL_MS,
    publicUrl: e.ADMINEASE_PUBLIC_URL,
    mail: mailTransport
      ? {
          transport: mailTransport,
          from: e.MAIL_FROM,
          publicUrl: mailPublicUrl,
          actionTtlHours: e.EMAIL_ACTION_TTL_HOURS,
          digestHour: e.EMAIL_DIGEST_HOUR,
        }
      : null,
    holidays: { apiKey: e.HOLIDAY_CALENDAR_API_KEY?.trim(), calendarIds: e.HOLIDAY_CALENDAR_IDS },
    assistant: {
      disabledByDefault: e.ASSISTANT_DISABLED_ROLES,
      llm:
        e.ASSISTANT_LLM_BASE_URL && e.ASSISTANT_LLM_MODEL
          ? {
              baseUrl: e.ASSISTANT_LLM_BASE_URL.replace(/\/+$/, ''),
              model: e.ASSISTANT_LLM_MODEL.trim(),
              apiKey: e.ASSISTANT_LLM_API_KEY,
              timeoutMs: e.ASSISTANT_LLM_TIMEOUT_MS,
            }
          : null,
    },
    speech: {
      maxChars: e.TTS_MAX_CHARS,
      rateWpm: e.TTS_RATE_WPM,
      workers: e.TTS_WORKERS,
      workerNice: e.TTS_WORKER_NICE,
      jobTimeoutMs: e.TTS_JOB_TIMEOUT_MS,
      perUserConcurrency: e.TTS_USER_CONCURRENCY,
      google: e.GOOGLE_TTS_API_KEY
        ? {
            apiKey: e.GOOGLE_TTS_API_KEY,
            endpoint: e.GOOGLE_TTS_ENDPOINT ?? GOOGLE_TTS_DEFAULT_ENDPOINT,
            timeoutMs: e.GOOGLE_TTS_TIMEOUT_MS,
          }
        : null,
      prewarm: e.TTS_PREWARM,
    },
    metricsToken: e.METRICS_TOKEN,
    inviteTtlHours: e.ADMINEASE_INVITE_TTL_HOURS,
    oidc:
      e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuerUrl: e.OIDC_ISSUER_URL,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_PROVIDER_NAME.trim(),
          }
        : null,
    timeZone: e.ADMINEASE_TIMEZONE,
  };
}

/** Host names that only the server's own machine reaches. */
const LOOPBACK_HOST = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/**
 * The base of the links in e-mails when SMTP is on: ADMINEASE_PUBLIC_URL, which must be set and must not name a
 * loopback address (recipients open the links on their own devices) unless MAIL_LOCAL_LINKS=1 (development, tests).
 */
function mailLinkBase(publicUrl: string | undefined, localAllowed: boolean): string {
  if (!publicUrl) {
    throw new ConfigError([
      'ADMINEASE_PUBLIC_URL must be set when SMTP is configured (SMTP_URL or SMTP_HOST): e-mails link to each request and carry approve and reject links, so they need the address people open AdminEase at, e.g. https://adminease.example.com',
    ]);
  }
  const host = new URL(publicUrl).hostname;
  if (LOOPBACK_HOST.test(host) && !localAllowed) {
    throw new ConfigError([
      `ADMINEASE_PUBLIC_URL is ${publicUrl}: e-mails would send links to ${host}, which opens nothing on the recipients' devices. Set the address people open AdminEase at (or MAIL_LOCAL_LINKS=1 for development and tests)`,
    ]);
  }
  return publicUrl.replace(/\/+$/, '');
}

/** The database time limits of `env` (for tools that open connections without the whole configuration). */
export function databaseLimits(env: NodeJS.ProcessEnv = process.env): DatabaseLimits {
  return loadConfig(env).database;
}
