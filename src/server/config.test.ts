// The configuration: every setting read and checked in one place, a bad value stopping the start with a message
// naming its variable, the README's table listing exactly the schema's variables and defaults, and no other
// server module reading the environment itself.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, ENV_SCHEMA, loadConfig } from './config.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('loadConfig', () => {
  it('gives the documented defaults when nothing is set', () => {
    const c = loadConfig({ HOME: '/home/ops' });
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      demo: true,
      loginRateLimit: 10,
      secureCookies: false,
      logLevel: 'info',
      databasePoolMax: 20,
      trustProxy: false,
      queueCache: true,
      sessionCache: true,
      resetPasswordTtlHours: 72,
      database: { connectTimeoutMs: 5000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 },
      mail: null,
      holidays: { calendarIds: [] },
      assistant: { disabledByDefault: [], llm: null },
      speech: {
        maxChars: 5000,
        rateWpm: 160,
        workers: 2,
        workerNice: 10,
        jobTimeoutMs: 30_000,
        perUserConcurrency: 3,
        google: null,
        prewarm: true,
      },
    });
    expect(c.sessionMaxMs).toBe(168 * 3600 * 1000);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.webDir).toBe(path.resolve('./dist/web'));
    expect(c.secretKeyFile).toBe('/home/ops/.config/adminease/secret.key');
    expect(c.metricsToken).toBeUndefined();
    expect(c.publicUrl).toBeUndefined();
  });

  it('reads every kind of setting', () => {
    const c = loadConfig({
      PORT: '8080',
      TRUST_PROXY: '1',
      ADMINEASE_SECURE_COOKIES: 'true',
      ADMINEASE_QUEUE_CACHE: '0',
      ADMINEASE_SESSION_CACHE: 'false',
      LOG_LEVEL: 'WARN',
      DATABASE_POOL_MAX: '7',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      METRICS_TOKEN: 'scrape',
      SMTP_HOST: 'mail.example.org',
      SMTP_PORT: '465',
      SMTP_USER: 'u',
      SMTP_PASSWORD: 'p',
      MAIL_FROM: 'Desk <desk@example.org>',
      ADMINEASE_PUBLIC_URL: 'https://desk.example.org/',
      EMAIL_ACTION_TTL_HOURS: '24',
      HOLIDAY_CALENDAR_API_KEY: ' key ',
      HOLIDAY_CALENDAR_IDS: 'a@group, ,b@group',
      ASSISTANT_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
      ASSISTANT_LLM_MODEL: 'llama',
      ASSISTANT_DISABLED_ROLES: 'HR, it',
      GOOGLE_TTS_API_KEY: 'g',
      TTS_WORKERS: '4',
      TTS_WORKER_NICE: '19',
      TTS_PREWARM: '0',
    });
    expect(c.port).toBe(8080);
    expect([c.trustProxy, c.secureCookies, c.queueCache, c.sessionCache]).toEqual([true, true, false, false]);
    expect(c.logLevel).toBe('warn');
    expect(c.databasePoolMax).toBe(7);
    expect(c.database.statementTimeoutMs).toBe(0);
    expect(c.metricsToken).toBe('scrape');
    // Port 465 means TLS from the start; the links in e-mails start with ADMINEASE_PUBLIC_URL (required with SMTP:
    // src/server/email/config-mail.test.ts).
    expect(c.mail).toEqual({
      transport: { host: 'mail.example.org', port: 465, secure: true, auth: { user: 'u', pass: 'p' } },
      from: 'Desk <desk@example.org>',
      publicUrl: 'https://desk.example.org',
      actionTtlHours: 24,
      digestHour: 8,
    });
    expect(c.holidays).toEqual({ apiKey: 'key', calendarIds: ['a@group', 'b@group'] });
    expect(c.assistant).toEqual({
      disabledByDefault: ['hr', 'it'],
      llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama', apiKey: '', timeoutMs: 30_000 },
    });
    expect(c.speech).toMatchObject({
      workers: 4,
      workerNice: 19,
      prewarm: false,
      google: { apiKey: 'g', endpoint: 'https://texttospeech.googleapis.com/v1/text:synthesize', timeoutMs: 10_000 },
    });
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org', ADMINEASE_PUBLIC_URL: 'https://portal.example.org/' }).mail).toEqual({
      transport: 'smtps://u:p@mail.example.org',
      from: 'AdminEase <no-reply@adminease.local>',
      publicUrl: 'https://portal.example.org',
      actionTtlHours: 72,
      digestHour: 8,
    });
  });

  it('stops on a value that does not fit, naming the variable and the value', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'abc' }, /PORT must be a port number from 0 to 65535, not 'abc'/],
      [{ PORT: '70000' }, /PORT must be/],
      [{ DATABASE_STATEMENT_TIMEOUT_MS: '-1' }, /DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds/],
      [{ DATABASE_CONNECT_TIMEOUT_MS: '1.5' }, /DATABASE_CONNECT_TIMEOUT_MS/],
      [{ DATABASE_POOL_MAX: '0' }, /DATABASE_POOL_MAX/],
      [{ ADMINEASE_LOGIN_RATE_LIMIT: 'ten' }, /ADMINEASE_LOGIN_RATE_LIMIT/],
      [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY must be 1 or 0, not 'yes'/],
      [{ ADMINEASE_DEMO: 'on' }, /ADMINEASE_DEMO must be 1 or 0/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
      [{ DATABASE_URL: 'mysql://db/x' }, /DATABASE_URL must be a postgres or postgresql URL/],
      [{ ADMINEASE_PUBLIC_URL: 'portal.example.org' }, /ADMINEASE_PUBLIC_URL must be a http or https URL/],
      [{ SMTP_URL: 'http://mail' }, /SMTP_URL/],
      [{ SMTP_PORT: '0' }, /SMTP_PORT/],
      [{ ASSISTANT_DISABLED_ROLES: 'employee,ceo' }, /ASSISTANT_DISABLED_ROLES must list assistant kinds .* not 'ceo'/],
      [{ ASSISTANT_LLM_TIMEOUT_MS: '50' }, /ASSISTANT_LLM_TIMEOUT_MS/],
      [{ TTS_WORKERS: '9' }, /TTS_WORKERS must be a whole number of worker threads from 1 to 8, not '9'/],
      [{ TTS_WORKER_NICE: '20' }, /TTS_WORKER_NICE must be a whole number from 0 \(normal priority\) to 19 \(lowest\), not '20'/],
      [{ TTS_MAX_CHARS: '-3' }, /TTS_MAX_CHARS/],
      [{ TTS_PREWARM: '2' }, /TTS_PREWARM/],
      [{ GOOGLE_TTS_ENDPOINT: 'not a url' }, /GOOGLE_TTS_ENDPOINT/],
      [
        { ADMINEASE_SECRET_KEY: Buffer.alloc(16, 1).toString('base64') },
        /ADMINEASE_SECRET_KEY must be the base64 encoding of 32 random bytes/,
      ],
      [{ ADMINEASE_SESSION_MAX_HOURS: 'Infinity' }, /ADMINEASE_SESSION_MAX_HOURS/],
      [{ ADMINEASE_RESET_PASSWORD_TTL_HOURS: '9000' }, /ADMINEASE_RESET_PASSWORD_TTL_HOURS/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
    // Every bad value at once, each named.
    try {
      loadConfig({ PORT: 'abc', TTS_WORKERS: '0' });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems.map((p) => p.split(' ')[0])).toEqual(['PORT', 'TTS_WORKERS']);
    }
  });

  it('treats a blank value as unset', () => {
    expect(loadConfig({ PORT: '', TRUST_PROXY: ' ', DATABASE_URL: '', LOG_LEVEL: '' })).toMatchObject({
      port: 3000,
      trustProxy: false,
      databaseUrl: undefined,
      logLevel: 'info',
    });
  });
});

/** The rows of the README's configuration table: the variables of each row and its default cell. */
function readmeRows(): Array<{ names: string[]; defaults: string }> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Configuration\n')[1].split('\n## ')[0];
  const table = section.split('\n\n').find((block) => block.trimStart().startsWith('| Variable |'))!;
  return table
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((line) => {
      const [names, defaults] = line.split(' | ');
      return { names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]), defaults: defaults.trim() };
    });
}

describe('the README configuration table', () => {
  it('lists exactly the variables of the schema, each once', () => {
    const listed = readmeRows().flatMap((r) => r.names);
    expect(listed.length, 'a variable is listed twice').toBe(new Set(listed).size);
    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('states the defaults the schema applies', () => {
    const shape = ENV_SCHEMA.shape as Record<string, { parse(v: unknown): unknown }>;
    let compared = 0;
    for (const row of readmeRows()) {
      // One default per variable of the row ('unset, `587`, unset' for three variables).
      const cells = row.names.length > 1 ? row.defaults.split(', ') : [row.defaults];
      if (cells.length !== row.names.length) continue;
      row.names.forEach((name, i) => {
        const cell = cells[i];
        const value = /^`([^`<]*)`( \(.*\))?$/.exec(cell)?.[1];
        if (value !== undefined) {
          expect(shape[name].parse(undefined), `${name}: README says ${cell}`).toEqual(shape[name].parse(value));
          compared += 1;
        } else if (/^unset\b/.test(cell)) {
          expect(shape[name].parse(undefined), `${name}: README says unset`).toBeUndefined();
          compared += 1;
        }
      });
    }
    expect(compared).toBeGreaterThan(30);
  });
});

describe('reading the environment', () => {
  it('happens in config.ts only (server modules take their settings from the configuration)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) {
          if (name !== 'test') walk(file);
          continue;
        }
        if (!/\.tsx?$/.test(name) || name.endsWith('.test.ts') || file === path.join(ROOT, 'src/server/config.ts')) continue;
        const lines = readFileSync(file, 'utf8').split('\n');
        lines.forEach((l, i) => {
          if (/process\.env\b/.test(l) && !/^\s*(\/\/|\*)/.test(l)) offenders.push(`${path.relative(ROOT, file)}:${i + 1}`);
        });
      }
    };
    walk(path.join(ROOT, 'src/server'));
    expect(offenders).toEqual([]);
  });
});

/** Runs the server's entry point with `env` and resolves with its exit code and output. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        DATABASE_URL: '',
        ADMINEASE_DATA_DIR: '/nonexistent/adminease-config-test',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('starting with a bad value', () => {
  it('stops before anything starts, with one log line naming the variable', async () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', '-1'],
    ] as const) {
      const { code, out } = await runMain({ [name]: value });
      expect(code, out).toBe(1);
      const lines = out.trim().split('\n');
      expect(lines, out).toHaveLength(1);
      const line = JSON.parse(lines[0]);
      expect(line.level).toBe('fatal');
      expect(line.msg).toContain(`${name} must be`);
      expect(line.msg).toContain(`not '${value}'`);
    }
  }, 120_000);
});
