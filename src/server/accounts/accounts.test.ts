// Accounts through the HTTP API: invitations (expiry, single use, resend), the strength rules, changing one's own
// password (other sessions end, the old password is refused), a forced change and the first-run set-up.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { hashToken } from '../auth/service.js';
import { loadConfig } from '../config.js';
import { migrate } from '../db/migrate.js';
import { createDb } from '../db/pool.js';
import { type Factories, type Person, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { DEAD_LINK, SETUP_DONE, firstRunSetupLink } from './service.js';

const STRONG = 'correct-Horse-7-battery';
const STRONGER = 'violet Lantern 42 harbour';

let t: TestApp;
let f: Factories;
let admin: Person;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.person({ kind: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const login = (email: string, password: string) => t.anonymous.post('/api/auth/login', { email, password });
const passwordHashOf = async (id: number) =>
  (await t.db.query('SELECT password_hash FROM users WHERE id = $1', [id])).rows[0].password_hash;
const eventsOf = async (id: number) =>
  (await t.db.query('SELECT kind, actor_id FROM account_events WHERE user_id = $1 ORDER BY id', [id])).rows as Array<{
    kind: string;
    actor_id: number | null;
  }>;

describe('invitations', () => {
  it('are for administrators only (403), and 404 for a person who does not exist', async () => {
    const person = await f.person();
    const manager = await f.login(await f.person({ kind: 'line_manager' }));
    const refused = await manager.post(`/api/admin/people/${person.employee_code}/invite`);
    expect(refused.status).toBe(403);
    expect(await t.db.query('SELECT 1 FROM password_tokens WHERE user_id = $1', [person.id])).toHaveProperty('rowCount', 0);
    const missing = await (await f.login(admin)).post('/api/admin/people/NOPE-404/invite');
    expect(missing.status).toBe(404);
  });

  it('answer a single-use link whose token is stored only as a hash; it sets a password once', async () => {
    const person = await f.person({ first_name: 'Ines', last_name: 'Okoro' });
    const res = await (await f.login(admin)).post(`/api/admin/people/${person.employee_code}/invite`);
    expect(res.status).toBe(200);
    expect(res.body.invite_url).toMatch(/^http:\/\/localhost:\d+\/set-password\?token=[\w-]{40,}$/);
    expect(res.body.emailed).toBe(false); // no SMTP configured
    const token = tokenOf(res.body.invite_url);
    const stored = await t.db.query('SELECT token_hash, created_by, expires_at FROM password_tokens WHERE user_id = $1', [person.id]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].token_hash).toBe(hashToken(token));
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    expect(stored.rows[0].created_by).toBe(admin.id);

    const info = await t.anonymous.post('/api/auth/password-link', { token });
    expect(info.body).toEqual({ purpose: 'invite', email: person.email, first_name: 'Ines', last_name: 'Okoro' });

    const before = await passwordHashOf(person.id);
    const set = await t.anonymous.post('/api/auth/set-password', { token, password: STRONG });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ success: true, email: person.email });
    const after = await passwordHashOf(person.id);
    expect(after).not.toBe(before);
    expect(after).toMatch(/^\$argon2id\$/);
    expect((await login(person.email, STRONG)).status).toBe(200);
    expect((await login(person.email, 'Demo@12345')).status).toBe(401);

    const again = await t.anonymous.post('/api/auth/set-password', { token, password: STRONGER });
    expect(again.status).toBe(410);
    expect(again.body.error).toBe(DEAD_LINK);
    expect(await passwordHashOf(person.id)).toBe(after);
    expect((await t.anonymous.post('/api/auth/password-link', { token })).status).toBe(410);
    expect((await eventsOf(person.id)).map((e) => e.kind)).toEqual(['invitation_created', 'password_set_from_invitation']);
    const audit = await t.db.query(
      `SELECT actor_id, action, before, after FROM admin_audit WHERE target_type = 'person' AND target_id = $1`,
      [person.employee_code],
    );
    expect(audit.rows).toEqual([
      {
        actor_id: admin.id,
        action: 'person.invite',
        before: { open_invitations: 0 },
        after: { open_invitations: 1, expires_at: res.body.expires_at, resent: false },
      },
    ]);
    expect(JSON.stringify(audit.rows)).not.toContain(token);
  });

  it('are refused for a deactivated person, and a link dies when its person is deactivated', async () => {
    const person = await f.person();
    const a = await f.login(admin);
    const res = await a.post(`/api/admin/people/${person.employee_code}/invite`);
    await t.db.query('UPDATE users SET active = false, deactivated_at = now() WHERE id = $1', [person.id]);
    const set = await t.anonymous.post('/api/auth/set-password', { token: tokenOf(res.body.invite_url), password: STRONG });
    expect(set.status).toBe(410);
    const again = await a.post(`/api/admin/people/${person.employee_code}/invite`);
    expect(again.status).toBe(409);
    expect((await t.db.query('SELECT count(*)::int AS n FROM password_tokens WHERE user_id = $1', [person.id])).rows[0].n).toBe(1);
  });

  it('expire after the configured time', async () => {
    const app = await startTestApp({ ADMINEASE_INVITE_TTL_HOURS: '2' });
    try {
      const ff = factories(app);
      const [a, person] = await Promise.all([ff.person({ kind: 'admin' }), ff.person()]);
      const res = await (await ff.login(a)).post(`/api/admin/people/${person.employee_code}/invite`);
      expect(Date.parse(res.body.expires_at) - app.clock.now().getTime()).toBeGreaterThan(2 * 3_600_000 - 5_000);
      app.clock.advance(2 * 3_600_000 + 1_000);
      const late = await app.anonymous.post('/api/auth/set-password', { token: tokenOf(res.body.invite_url), password: STRONG });
      expect(late.status).toBe(410);
      expect((await app.db.query('SELECT used_at FROM password_tokens WHERE user_id = $1', [person.id])).rows[0].used_at).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('resent: the older link is dead, the newer one works', async () => {
    const person = await f.person();
    const a = await f.login(admin);
    const first = await a.post(`/api/admin/people/${person.employee_code}/invite`);
    const second = await a.post(`/api/admin/people/${person.employee_code}/invite`);
    expect(second.body.invite_url).not.toBe(first.body.invite_url);
    const old = await t.anonymous.post('/api/auth/set-password', { token: tokenOf(first.body.invite_url), password: STRONG });
    expect(old.status).toBe(410);
    const ok = await t.anonymous.post('/api/auth/set-password', { token: tokenOf(second.body.invite_url), password: STRONG });
    expect(ok.status).toBe(200);
    expect((await eventsOf(person.id)).map((e) => e.kind)).toEqual([
      'invitation_created',
      'invitation_resent',
      'password_set_from_invitation',
    ]);
  });

  it('refuse an unknown token like a used one', async () => {
    const res = await t.anonymous.post('/api/auth/set-password', { token: 'made-up-token', password: STRONG });
    expect(res.status).toBe(410);
    expect(res.body.error).toBe(DEAD_LINK);
  });

  it('ends every session the person had when the password is set', async () => {
    const person = await f.person();
    const client = await f.login(person);
    const res = await (await f.login(admin)).post(`/api/admin/people/${person.employee_code}/invite`);
    await t.anonymous.post('/api/auth/set-password', { token: tokenOf(res.body.invite_url), password: STRONG });
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });
});

describe('password strength', () => {
  it('refuses a weak password with every broken rule named, and changes nothing', async () => {
    const person = await f.person({ first_name: 'Bartholomew', email: `bartholomew.${Date.now()}@factory.test` });
    const res = await (await f.login(admin)).post(`/api/admin/people/${person.employee_code}/invite`);
    const token = tokenOf(res.body.invite_url);
    const before = await passwordHashOf(person.id);
    const cases: Array<[string, string[]]> = [
      ['short-1', ['12 to 256 characters']],
      ['onlylettersherefolks', ['Letters and at least one number or symbol']],
      ['bartholomew-2024!', ['Does not contain your name or e-mail']],
      ['MyPassword-2024', ['Not a common or published password']],
      ['Demo@12345', ['12 to 256 characters', 'Not a common or published password']],
    ];
    for (const [password, problems] of cases) {
      const weak = await t.anonymous.post('/api/auth/set-password', { token, password });
      expect(weak.status, password).toBe(400);
      expect(weak.body.problems, password).toEqual(problems);
    }
    expect((await t.anonymous.post('/api/auth/set-password', { token, password: '' })).status).toBe(400);
    expect((await t.anonymous.post('/api/auth/set-password', { token, password: 'x'.repeat(5000) })).status).toBe(400);
    expect(await passwordHashOf(person.id)).toBe(before);
    // the link is still live after refusals
    expect((await t.anonymous.post('/api/auth/set-password', { token, password: STRONG })).status).toBe(200);
  });
});

describe('POST /api/auth/change-password', () => {
  it('needs the current password, then ends every other session of the person and refuses the old password', async () => {
    const person = await f.person();
    const here = await t.login(person.email);
    const elsewhere = await t.login(person.email);
    const other = await f.login(await f.person());
    const before = await passwordHashOf(person.id);

    const wrong = await here.post('/api/auth/change-password', { current_password: 'not-it', new_password: STRONG });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Your current password is not correct.');
    const weak = await here.post('/api/auth/change-password', { current_password: 'Demo@12345', new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(await passwordHashOf(person.id)).toBe(before);
    expect((await elsewhere.get('/api/auth/me')).status).toBe(200);

    const ok = await here.post('/api/auth/change-password', { current_password: 'Demo@12345', new_password: STRONG });
    expect(ok.status).toBe(200);
    expect((await elsewhere.get('/api/auth/me')).status).toBe(401);
    expect((await here.get('/api/auth/me')).status).toBe(200);
    expect((await other.get('/api/auth/me')).status).toBe(200); // someone else's sessions are untouched
    const sessions = await t.db.query('SELECT token_hash, revoked_at FROM sessions WHERE user_id = $1', [person.id]);
    expect(sessions.rows.filter((s) => s.revoked_at === null).map((s) => s.token_hash)).toEqual([hashToken(here.token)]);
    expect((await login(person.email, 'Demo@12345')).status).toBe(401);
    expect((await login(person.email, STRONG)).status).toBe(200);
    expect((await eventsOf(person.id)).map((e) => [e.kind, e.actor_id])).toEqual([['password_changed', person.id]]);
  });

  it('ends the other sessions on another instance at once (its session cache is told)', async () => {
    const person = await f.person();
    const url = t.url;
    const db2 = createDb(url, 4);
    const config = { ...loadConfig({ ...process.env, ADMINEASE_DEMO: '1' }), databaseUrl: url, logLevel: 'silent' };
    const second = await buildApp({ db: db2, config, logger: false });
    try {
      const here = await t.login(person.email);
      const there = await t.login(person.email);
      const me = () => second.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${there.token}` } });
      expect((await me()).statusCode).toBe(200);
      expect((await me()).statusCode).toBe(200); // now answered from the second instance's cache
      await here.post('/api/auth/change-password', { current_password: 'Demo@12345', new_password: STRONG });
      let status = 200;
      for (let i = 0; i < 50 && status === 200; i += 1) {
        status = (await me()).statusCode;
        if (status === 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(401);
    } finally {
      await second.close();
      await db2.close();
    }
  });

  it('answers 401 without a session', async () => {
    const res = await t.anonymous.post('/api/auth/change-password', { current_password: 'a', new_password: STRONG });
    expect(res.status).toBe(401);
  });
});

describe('a forced password change', () => {
  it('is for administrators only', async () => {
    const person = await f.person();
    const hr = await f.login(await f.person({ kind: 'hr' }));
    expect((await hr.post(`/api/admin/people/${person.employee_code}/require-password-change`)).status).toBe(403);
    expect((await hr.post(`/api/admin/people/${person.employee_code}/invite`)).status).toBe(403);
    expect((await t.db.query('SELECT must_change_password FROM users WHERE id = $1', [person.id])).rows[0].must_change_password).toBe(
      false,
    );
  });

  it('is carried by the sign-in answer, holds back every other call until the password is changed', async () => {
    const person = await f.person();
    const open = await t.login(person.email);
    expect(open.user.must_change_credentials).toBe(false);
    const res = await (await f.login(admin)).post(`/api/admin/people/${person.employee_code}/require-password-change`);
    expect(res.status).toBe(200);
    const signIn = await t.login(person.email);
    expect(signIn.user.must_change_credentials).toBe(true);
    for (const c of [open, signIn]) {
      const blocked = await c.get('/api/users/me/preferences');
      expect(blocked.status).toBe(403);
      expect(blocked.body).toEqual({ error: 'You must change your password before you continue.', must_change_credentials: true });
      expect((await c.get('/api/auth/me')).body.user.must_change_credentials).toBe(true);
    }
    const changed = await signIn.post('/api/auth/change-password', { current_password: 'Demo@12345', new_password: STRONG });
    expect(changed.status).toBe(200);
    expect((await signIn.get('/api/users/me/preferences')).status).toBe(200);
    expect((await signIn.get('/api/auth/me')).body.user.must_change_credentials).toBe(false);
    expect((await open.get('/api/auth/me')).status).toBe(401);
    expect((await eventsOf(person.id)).map((e) => [e.kind, e.actor_id])).toEqual([
      ['password_change_required', admin.id],
      ['password_changed', person.id],
    ]);
    const audit = await t.db.query(`SELECT action, before, after FROM admin_audit WHERE target_id = $1`, [person.employee_code]);
    expect(audit.rows).toEqual([
      { action: 'person.require_password_change', before: { must_change_password: false }, after: { must_change_password: true } },
    ]);
  });
});

describe('first run', () => {
  /** An empty, migrated database (no demo organisation) and two app instances on it, as two servers would be. */
  async function emptyInstallation() {
    const adminUrl = inject('adminDbUrl');
    const name = `ae_t_${inject('templateDb').slice(7)}_${process.pid}_first_run`;
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.query(`CREATE DATABASE ${name}`);
    await a.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    const dbs = [createDb(url, 4), createDb(url, 4)];
    await migrate(dbs[0]);
    const config = { ...loadConfig({ ...process.env, ADMINEASE_DEMO: '0', PORT: '3999' }), databaseUrl: url, logLevel: 'silent' };
    const apps = await Promise.all(dbs.map((db) => buildApp({ db, config, logger: false })));
    return {
      dbs,
      config,
      apps,
      post: (i: number, path: string, body: unknown) =>
        apps[i].inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
      async close() {
        for (const app of apps) await app.close();
        for (const db of dbs) await db.close();
        const b = new pg.Client({ connectionString: adminUrl });
        await b.connect();
        await b.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await b.end();
      },
    };
  }

  it('prints no set-up link for a demo database', async () => {
    expect(await firstRunSetupLink(t.db, loadConfig({ ...process.env }))).toBeUndefined();
  });

  it('creates the first administrator once only, across restarts and instances', async () => {
    const inst = await emptyInstallation();
    try {
      // two starts (or two instances) each print a link
      const link1 = await firstRunSetupLink(inst.dbs[0], inst.config);
      const link2 = await firstRunSetupLink(inst.dbs[1], inst.config);
      expect(link1).toMatch(/^http:\/\/localhost:3999\/set-password\?token=/);
      const [t1, t2] = [tokenOf(link1!), tokenOf(link2!)];
      expect((await inst.post(0, '/api/auth/password-link', { token: t1 })).json()).toEqual({ purpose: 'setup' });

      const who = { first_name: 'Ada', last_name: 'Quinn', email: 'ada.quinn@company.test' };
      const missing = await inst.post(0, '/api/auth/set-password', { token: t1, password: STRONG });
      expect(missing.statusCode).toBe(400);
      const weak = await inst.post(0, '/api/auth/set-password', { token: t1, password: 'quinn-2024-ok!', ...who });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().problems).toEqual(['Does not contain your name or e-mail']);

      // both links used at the same moment on two instances: exactly one administrator
      const answers = await Promise.all([
        inst.post(0, '/api/auth/set-password', { token: t1, password: STRONG, ...who }),
        inst.post(1, '/api/auth/set-password', { token: t2, password: STRONG, ...who, email: 'other@company.test' }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 410]);
      expect([SETUP_DONE, DEAD_LINK]).toContain(answers.find((r) => r.statusCode === 410)!.json().error);
      const admins = await inst.dbs[0].query(`SELECT email, role, user_type, employee_code FROM users`);
      expect(admins.rows).toHaveLength(1);
      expect(admins.rows[0]).toMatchObject({ role: 'System Administrator', user_type: 'admin', employee_code: 'ADM-001' });
      const winner = admins.rows[0].email;

      const signIn = await inst.post(1, '/api/auth/login', { email: winner, password: STRONG });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().user.user_type).toBe('admin');

      // afterwards every link is dead, a restart prints none
      for (const token of [t1, t2]) {
        const again = await inst.post(0, '/api/auth/set-password', { token, password: STRONGER, ...who, email: 'late@company.test' });
        expect(again.statusCode).toBe(410);
      }
      expect(await firstRunSetupLink(inst.dbs[1], inst.config)).toBeUndefined();
      expect((await inst.dbs[0].query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(1);
      const events = await inst.dbs[0].query('SELECT kind FROM account_events');
      expect(events.rows).toEqual([{ kind: 'first_administrator_created' }]);
    } finally {
      await inst.close();
    }
  });
});
