// Single sign-on against a REAL OpenID provider (oidc-provider) started by this test on a local port: the
// authorization code flow with PKCE runs over HTTP between AdminEase (openid-client) and the provider. The only
// test-side step is the provider's login interaction, which signs in the account the test chose.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';

const APP_URL = 'http://adminease.test';
const CLIENT = { client_id: 'adminease', client_secret: 'a-long-client-secret-for-the-test-provider-0123456789' };

interface Account {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}
const accounts = new Map<string, Account>();
/** The account the provider's login step signs in next. */
let signingIn = '';
/** Authorization requests as the provider received them. */
const authRequests: URL[] = [];

let server: http.Server;
let issuer: string;
let t: TestApp;
let f: Factories;

beforeAll(async () => {
  let provider: Provider | undefined = undefined;
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/auth?')) authRequests.push(new URL(req.url, issuer));
    if (req.url?.startsWith('/interaction/')) {
      // The provider's login page, answered at once for the chosen account.
      void provider!
        .interactionFinished(req, res, { login: { accountId: signingIn } }, { mergeWithLastSubmission: false })
        .catch((err: Error) => {
          res.statusCode = 500;
          res.end(err.message);
        });
      return;
    }
    provider!.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        ...CLIENT,
        redirect_uris: [`${APP_URL}/api/auth/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) }),
    // Consent is given: the grant covers what AdminEase asks for.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  t = await startTestApp({
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID: CLIENT.client_id,
    OIDC_CLIENT_SECRET: CLIENT.client_secret,
    OIDC_PROVIDER_NAME: 'Acme ID',
    ADMINEASE_PUBLIC_URL: APP_URL,
  });
  f = factories(t);
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => server?.close(r));
});

/** A tiny cookie jar for the browser's side of the provider. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
    },
  };
}

/**
 * A browser's single sign-on as `sub`: AdminEase's start, the provider's redirects, AdminEase's callback. Answers
 * the callback's redirect and the AdminEase session cookie it set (if any).
 */
async function signOn(sub: string, opts: { dropStateCookie?: boolean } = {}) {
  signingIn = sub;
  const start = await t.app.inject({ method: 'GET', url: '/api/auth/sso/start' });
  expect(start.statusCode).toBe(302);
  const stateCookie = start.cookies.find((c) => c.name === 'adminease_sso')!;
  const browser = jar();
  let location = String(start.headers.location);
  for (let hop = 0; hop < 10 && location.startsWith(issuer); hop += 1) {
    const res = await fetch(location, { redirect: 'manual', headers: { cookie: browser.header() } });
    browser.take(res);
    location = new URL(res.headers.get('location')!, location).href;
  }
  expect(location.startsWith(`${APP_URL}/api/auth/sso/callback?`)).toBe(true);
  const back = new URL(location);
  const callback = await t.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    cookies: opts.dropStateCookie ? {} : { adminease_sso: stateCookie.value },
  });
  expect(callback.statusCode).toBe(302);
  return { location: String(callback.headers.location), session: callback.cookies.find((c) => c.name === 'adminease_session')?.value };
}

const sessionCount = async (email: string) =>
  (
    await t.db.query(
      'SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE lower(u.email) = lower($1) AND s.revoked_at IS NULL',
      [email],
    )
  ).rows[0].n;

describe('single sign-on (OpenID Connect)', () => {
  it('is offered on the sign-in page by name', async () => {
    expect((await t.anonymous.get('/api/auth/config')).body.sso_provider).toBe('Acme ID');
  });

  it('signs in the person whose verified e-mail matches, with PKCE (S256) and a nonce', async () => {
    const person = await f.person();
    accounts.set('sub-match', { email: person.email.toUpperCase(), email_verified: true });
    const { location, session } = await signOn('sub-match');
    expect(location).toBe('/');
    expect(session).toBeTruthy();
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { adminease_session: session! } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(person.email);
    const asked = authRequests.at(-1)!;
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.searchParams.get('nonce')).toBeTruthy();
    expect(asked.searchParams.get('state')).toBeTruthy();
    expect(await t.db.query('SELECT 1 FROM oidc_logins')).toHaveProperty('rowCount', 0); // used once, gone
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const person = await f.person();
    accounts.set('sub-unverified', { email: person.email, email_verified: false });
    const { location, session } = await signOn('sub-unverified');
    expect(location).toBe('/?sso_error=unverified');
    expect(session).toBeUndefined();
    expect(await sessionCount(person.email)).toBe(0);
  });

  it('refuses an unknown e-mail and creates no account while auto-creation is off', async () => {
    accounts.set('sub-unknown', { email: 'stranger@elsewhere.test', email_verified: true });
    const { location, session } = await signOn('sub-unknown');
    expect(location).toBe('/?sso_error=unknown');
    expect(session).toBeUndefined();
    expect(await t.db.query(`SELECT 1 FROM users WHERE email = 'stranger@elsewhere.test'`)).toHaveProperty('rowCount', 0);
  });

  it('refuses a deactivated person', async () => {
    const person = await f.person();
    await t.db.query('UPDATE users SET active = false WHERE id = $1', [person.id]);
    accounts.set('sub-gone', { email: person.email, email_verified: true });
    const { location, session } = await signOn('sub-gone');
    expect(location).toBe('/?sso_error=unknown');
    expect(session).toBeUndefined();
  });

  it('refuses a callback that did not start in this browser (no state cookie)', async () => {
    const person = await f.person();
    accounts.set('sub-csrf', { email: person.email, email_verified: true });
    const { location, session } = await signOn('sub-csrf', { dropStateCookie: true });
    expect(location).toBe('/?sso_error=failed');
    expect(session).toBeUndefined();
    expect(await sessionCount(person.email)).toBe(0);
  });

  it('creates an employee account for an unknown verified e-mail only once an administrator turns that on', async () => {
    const employee = await f.login(await f.person());
    expect((await employee.put('/api/admin/settings/sso', { auto_create: true })).status).toBe(403);
    const admin = await f.login(await f.person({ kind: 'admin' }));
    expect((await admin.put('/api/admin/settings/sso', { auto_create: 'yes' })).status).toBe(400);
    const on = await admin.put('/api/admin/settings/sso', { auto_create: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ configured: true, provider_name: 'Acme ID', auto_create: true });

    accounts.set('sub-new', { email: 'new.starter@company.test', email_verified: true, given_name: 'Nia', family_name: 'Starter' });
    const { location, session } = await signOn('sub-new');
    expect(location).toBe('/');
    const created = await t.db.query(
      `SELECT id, first_name, last_name, role, user_type FROM users WHERE email = 'new.starter@company.test'`,
    );
    expect(created.rows[0]).toMatchObject({ first_name: 'Nia', last_name: 'Starter', role: 'Employee', user_type: 'employee' });
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { adminease_session: session! } });
    expect(me.json().user.email).toBe('new.starter@company.test');
    const events = await t.db.query('SELECT kind FROM account_events WHERE user_id = $1', [created.rows[0].id]);
    expect(events.rows).toEqual([{ kind: 'created_by_single_sign_on' }]);

    // still refused when unverified, even with auto-creation on
    accounts.set('sub-new-unverified', { email: 'other.starter@company.test', email_verified: false });
    expect((await signOn('sub-new-unverified')).location).toBe('/?sso_error=unverified');
    expect(await t.db.query(`SELECT 1 FROM users WHERE email = 'other.starter@company.test'`)).toHaveProperty('rowCount', 0);

    const audit = await t.db.query(`SELECT action, before, after FROM admin_audit WHERE target_type = 'setting'`);
    expect(audit.rows).toEqual([{ action: 'settings.sso_auto_create', before: { auto_create: false }, after: { auto_create: true } }]);

    await admin.put('/api/admin/settings/sso', { auto_create: false });
    accounts.set('sub-late', { email: 'late.starter@company.test', email_verified: true });
    expect((await signOn('sub-late')).location).toBe('/?sso_error=unknown');
  });
});
