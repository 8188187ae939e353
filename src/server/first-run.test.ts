// First run without demo data (docs/accounts.md, 'First run'): the real server process (src/server/main.ts) started
// with demo mode off on an empty database prints a warning line with a one-time set-up link; the link read from that
// log creates the first administrator once, a second use is refused (410), and a restart prints no link any more.
// Runs once, in the embedded project, on that project's database server.
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type ServerProcess, httpCall, scratchDatabase, startServerProcess, waitFor } from './test/server-process.js';

const STRONG = 'correct-Horse-7-battery';
const started: ServerProcess[] = [];

afterAll(async () => {
  for (const s of started) if (s.running()) s.child.kill('SIGKILL');
});

/** The JSON log records of a server whose message mentions `text`. */
function logged(server: ServerProcess, text: string): Array<{ level: number | string; msg: string }> {
  return server.lines.map((l) => JSON.parse(l)).filter((r) => typeof r.msg === 'string' && r.msg.includes(text));
}

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

describe.skipIf(inject('dbTarget') !== 'embedded')('first run without demo data', () => {
  const db = scratchDatabase(inject('adminDbUrl'), 'ae_first_run');
  const url = db.url;
  afterAll(() => db.drop());

  it('the start log prints a one-time set-up link; it creates the first administrator once, then it is dead and no link is printed', async () => {
    await db.create();
    const env = { DATABASE_URL: url, ADMINEASE_DEMO: '0', LOG_LEVEL: 'info' };
    const first = await startServerProcess(env, started);
    // the demo mode lines follow 'AdminEase listening'; the link comes right after
    await waitFor(() => logged(first, 'first run').length > 0 || !first.running(), 20_000, "the 'first run' log line");
    expect(logged(first, 'demo mode is off: no demo accounts')).toHaveLength(1);
    const lines = logged(first, 'first run: create the first administrator at ');
    expect(lines, first.lines.join('\n')).toHaveLength(1);
    expect(lines[0].level).toBe('warn');
    const link = /at (\S+) \(a one-time link/.exec(lines[0].msg)?.[1];
    expect(link).toMatch(new RegExp(`^http://localhost:${first.port}/set-password\\?token=[\\w-]{40,}$`));
    const token = new URL(link!).searchParams.get('token')!;

    // the page's first question: what is this link for?
    const what = await httpCall(first.port, 'POST', '/api/auth/password-link', { token });
    expect(what.status).toBe(200);
    expect(what.body).toEqual({ purpose: 'setup' });

    const who = { first_name: 'Ada', last_name: 'Quinn', email: 'ada.quinn@company.test' };
    const set = await httpCall(first.port, 'POST', '/api/auth/set-password', { token, password: STRONG, ...who });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const signIn = await httpCall(first.port, 'POST', '/api/auth/login', { email: who.email, password: STRONG });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ user_type: 'admin', role: 'System Administrator' });

    // used once: the same link again is dead and creates nobody
    const again = await httpCall(first.port, 'POST', '/api/auth/set-password', {
      token,
      password: `${STRONG}-2`,
      ...who,
      email: 'late@company.test',
    });
    expect(again.status).toBe(410);
    expect((await httpCall(first.port, 'POST', '/api/auth/password-link', { token })).status).toBe(410);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      expect((await c.query('SELECT email, user_type FROM users')).rows).toEqual([{ email: who.email, user_type: 'admin' }]);
    } finally {
      await c.end();
    }
    await stop(first);

    // a restart prints no link: the first administrator exists
    const second = await startServerProcess(env, started);
    await waitFor(() => logged(second, 'demo mode is off').length > 0, 20_000, "the 'demo mode is off' log line");
    // the link would be printed right after that line, before the first request is answered
    expect((await httpCall(second.port, 'GET', '/api/health')).status).toBe(200);
    expect(logged(second, 'first run')).toEqual([]);
    expect(second.lines.join('\n')).not.toContain('set-password?token=');
    await stop(second);
  }, 240_000);
});
