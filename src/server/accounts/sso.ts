// Single sign-on through OpenID Connect (optional: OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET): the
// authorization code flow with PKCE, state and nonce through openid-client. A person signs in when the provider
// vouches for their e-mail (email_verified) and AdminEase has an account with it; an unknown e-mail gets an
// account only when an administrator turned that on (installation_settings 'sso_auto_create'). Nothing else about
// the account comes from the provider. The sign-in under way is kept in the database (any instance may receive
// the callback) and bound to the browser by a cookie holding its state.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { businessToday } from '../../domain/business-time.js';
import { hashPassword, hashToken, openSession } from '../auth/service.js';
import { SESSION_COOKIE } from '../auth/routes.js';
import type { OidcSettings } from '../config.js';
import type { Queryable } from '../db/pool.js';
import type { AppContext } from '../http/context.js';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { currentLogger } from '../logger.js';
import { writeAudit } from '../admin/audit.js';
import type { AuthUser } from '../people/service.js';
import { publicBase, recordAccountEvent } from './service.js';

export const SSO_STATE_COOKIE = 'adminease_sso';
const AUTO_CREATE_KEY = 'sso_auto_create';
/** How long a sign-in may stay at the provider. */
const PENDING_MS = 10 * 60 * 1000;

/** Why a single sign-on was refused: the sign-in page shows a text for each (`/?sso_error=<reason>`). */
export type SsoRefusal = 'unverified' | 'unknown' | 'failed';

export async function ssoAutoCreate(c: Queryable): Promise<boolean> {
  const r = await c.query('SELECT value FROM installation_settings WHERE key = $1', [AUTO_CREATE_KEY]);
  return r.rows[0]?.value === '1';
}

/** Whether single sign-on is configured, and whether it may create accounts (the administrators' setting). */
export async function ssoSetting(ctx: AppContext) {
  return { configured: ctx.config.oidc !== null, provider_name: ctx.config.oidc?.name ?? null, auto_create: await ssoAutoCreate(ctx.db) };
}

export async function setSsoAutoCreate(ctx: AppContext, admin: AuthUser, autoCreate: boolean): Promise<void> {
  await ctx.db.tx(async (c) => {
    const before = await ssoAutoCreate(c);
    await c.query(
      `INSERT INTO installation_settings (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [AUTO_CREATE_KEY, autoCreate ? '1' : '0'],
    );
    if (before !== autoCreate)
      await writeAudit(c, {
        actorId: admin.id,
        action: 'settings.sso_auto_create',
        targetType: 'setting',
        targetId: AUTO_CREATE_KEY,
        before: { auto_create: before },
        after: { auto_create: autoCreate },
      });
  });
}

/** The provider's configuration, discovered on first use (and again after a failure). */
function providerOf(settings: OidcSettings) {
  let pending: Promise<oidc.Configuration> | undefined;
  return () => {
    pending ??= oidc
      .discovery(
        new URL(settings.issuerUrl),
        settings.clientId,
        undefined,
        oidc.ClientSecretBasic(settings.clientSecret),
        // A plain-http issuer is accepted only as configured (e.g. a provider on this machine or in a test).
        new URL(settings.issuerUrl).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err) => {
        pending = undefined;
        throw err;
      });
    return pending;
  };
}

/** The account a verified e-mail signs in to: an existing person, or (when allowed) a new employee. */
async function personFor(ctx: AppContext, claims: Record<string, unknown>): Promise<number | SsoRefusal> {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || claims.email_verified !== true) return 'unverified';
  const found = await ctx.db.query<{ id: number; active: boolean }>('SELECT id, active FROM users WHERE lower(email) = lower($1)', [email]);
  // A deactivated (offboarded) person is refused like an unknown one.
  if (found.rows[0]) return found.rows[0].active ? found.rows[0].id : 'unknown';
  if (!(await ssoAutoCreate(ctx.db))) return 'unknown';
  const local = email.split('@')[0];
  const first = (typeof claims.given_name === 'string' && claims.given_name.trim()) || local;
  const last = (typeof claims.family_name === 'string' && claims.family_name.trim()) || '-';
  // An unusable password: the person signs in through the provider (or sets one from an invitation).
  const hash = await hashPassword(randomBytes(32).toString('base64'));
  const now = ctx.clock.now();
  return ctx.db.tx(async (c) => {
    const r = await c.query<{ id: number }>(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, employee_code, join_date)
       VALUES ($1, $2, $3, $4, 'Employee', 'employee', $5, $6)
       ON CONFLICT DO NOTHING RETURNING id`,
      [email, hash, first.slice(0, 100), last.slice(0, 100), `SSO-${randomBytes(4).toString('hex').toUpperCase()}`, businessToday(now)],
    );
    const id = r.rows[0]?.id ?? (await c.query('SELECT id FROM users WHERE lower(email) = lower($1)', [email])).rows[0]?.id;
    if (!id) return 'failed';
    if (r.rows[0]) await recordAccountEvent(c, { userId: id, actorId: null, kind: 'created_by_single_sign_on', at: now });
    return id;
  });
}

export default async function ssoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const settings = ctx.config.oidc;

  if (!settings) return;
  const provider = providerOf(settings);
  const redirectUri = `${publicBase(ctx.config)}/api/auth/sso/callback`;
  const fail = (reply: FastifyReply, reason: SsoRefusal) => {
    reply.clearCookie(SSO_STATE_COOKIE, { path: '/api/auth/sso' });
    return reply.redirect(`/?sso_error=${reason}`, 302);
  };

  // Starts a sign-in: to the provider with a PKCE challenge, a state and a nonce.
  app.get('/api/auth/sso/start', PUBLIC_ROUTE, async (req, reply) => {
    let config: oidc.Configuration;
    try {
      config = await provider();
    } catch (err) {
      req.log.warn({ err: (err as Error).message }, 'single sign-on provider unreachable');
      return fail(reply, 'failed');
    }
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const now = ctx.clock.now();
    await ctx.db.query('DELETE FROM oidc_logins WHERE created_at < $1', [new Date(now.getTime() - PENDING_MS)]);
    await ctx.db.query('INSERT INTO oidc_logins (state_hash, code_verifier, nonce, created_at) VALUES ($1, $2, $3, $4)', [
      hashToken(state),
      verifier,
      nonce,
      now,
    ]);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    // Lax: the provider sends the browser back with a top-level GET from its own site.
    reply.setCookie(SSO_STATE_COOKIE, state, {
      path: '/api/auth/sso',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.secureCookies,
      maxAge: PENDING_MS / 1000,
    });
    return reply.redirect(url.href, 302);
  });

  // The provider's answer: the code is exchanged (with the PKCE verifier), the ID token checked, the e-mail matched.
  app.get(
    '/api/auth/sso/callback',
    { ...PUBLIC_ROUTE, schema: { querystring: z.looseObject({ state: z.string().max(500).optional() }) } },
    async (req, reply) => {
      const state = req.query.state;
      const cookieState = req.cookies[SSO_STATE_COOKIE];
      // The sign-in must have started in this browser, and each one ends here once.
      if (!state || !cookieState || state !== cookieState) return fail(reply, 'failed');
      const pending = await ctx.db.query<{ code_verifier: string; nonce: string; created_at: Date }>(
        'DELETE FROM oidc_logins WHERE state_hash = $1 RETURNING code_verifier, nonce, created_at',
        [hashToken(state)],
      );
      const row = pending.rows[0];
      if (!row || ctx.clock.now().getTime() - new Date(row.created_at).getTime() > PENDING_MS) return fail(reply, 'failed');
      let claims: Record<string, unknown>;
      try {
        const config = await provider();
        const tokens = await oidc.authorizationCodeGrant(config, new URL(req.url, publicBase(ctx.config)), {
          pkceCodeVerifier: row.code_verifier,
          expectedState: state,
          expectedNonce: row.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims()!;
        claims = { ...idClaims };
        if (claims.email === undefined || claims.email_verified === undefined)
          claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...claims };
      } catch (err) {
        currentLogger().warn({ err: (err as Error).message }, 'single sign-on refused by the code exchange');
        return fail(reply, 'failed');
      }
      const who = await personFor(ctx, claims);
      if (typeof who === 'string') {
        req.log.info({ reason: who }, 'single sign-on refused');
        return fail(reply, who);
      }
      const token = await openSession(ctx, who);
      reply.clearCookie(SSO_STATE_COOKIE, { path: '/api/auth/sso' });
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.config.secureCookies,
        maxAge: Math.floor(ctx.config.sessionMaxMs / 1000),
      });
      return reply.redirect('/', 302);
    },
  );
}
