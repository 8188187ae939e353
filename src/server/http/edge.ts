// The HTTP edge every call passes before a handler: which routes need a session, proof that a cookie-carried
// write came from AdminEase's own page, a trustworthy request id, and no caching of API answers.
//
// Public or protected is decided on the route the router matched (its template and its `config.public`),
// never on the URL text: the router decodes and matches `/%61pi/auth/me` as `/api/auth/me`, so a prefix test
// on the raw URL would let it through. Every route needs a session unless it is marked `config: { public: true }`.
// A URL that matches no route needs no session and is answered by the not-found handler (the web page or a
// plain 404), which reveals nothing.
import { activeCoversAt } from '../policies/cover.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { authenticate } from '../auth/service.js';
import { SESSION_COOKIE } from '../auth/routes.js';
import type { AppContext } from './context.js';
import { HttpError, forbidden } from './errors.js';
import { PASSWORD_CHANGE_REQUIRED, ROUTES_BEFORE_PASSWORD_CHANGE } from '../policies/accounts.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered without a session (sign-in, health checks, metrics). Every other route needs one. */
    public?: boolean;
  }
}

/** A client's X-Request-Id is kept only when it is this plain (it ends up in every log line of the call). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CROSS_SITE_MESSAGE = 'Cross-site request refused: this call must come from the AdminEase page itself';

/**
 * Why a write that a browser sent with the session cookie did not come from AdminEase's own page, or null.
 * A browser names the page's origin (Origin) and how it relates to the target (Sec-Fetch-Site); another port
 * of the same host is 'same-site', not 'same-origin', and is refused. A client that sends neither header is
 * not a browser page, so it cannot have been tricked into the call.
 */
export function crossSiteWrite(req: FastifyRequest, publicOrigin?: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    // The request's own origin: scheme and Host (X-Forwarded-Proto and -Host when TRUST_PROXY=1).
    // A proxy that rewrites Host without forwarding it is covered by ADMINEASE_PUBLIC_URL, the page's address.
    const own = `${req.protocol}://${req.host}`.toLowerCase();
    const given = String(origin).toLowerCase();
    if (given !== own && given !== publicOrigin) return true;
  }
  return false;
}

function bearerOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

/** True for routes of the API (their answers are personal and never cached). */
const isApiRoute = (url: string | undefined) => url !== undefined && (url.startsWith('/api/') || url.startsWith('/ai/'));

/** The origin of ADMINEASE_PUBLIC_URL when it is set (lower case), else undefined. */
export function publicOriginOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

export function installEdge(app: FastifyInstance, ctx: AppContext, securityHeaders: Record<string, string>): void {
  const publicOrigin = publicOriginOf(ctx.config.publicUrl);
  app.decorateRequest('sessionExpiresAt', 0);
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    reply.headers(securityHeaders);
    reply.header('x-request-id', req.id);
    const route = req.is404 ? undefined : req.routeOptions.url;
    if (isApiRoute(route)) reply.header('cache-control', 'no-store');
    if (route === undefined) return;
    if (req.routeOptions.config?.public === true) {
      // A public write (signing in) must come from the page too: another site's page must not sign the browser in
      // to an account of its choosing (login CSRF). Non-browser clients send neither header and are not affected.
      if (UNSAFE_METHODS.has(req.method) && crossSiteWrite(req, publicOrigin)) throw forbidden(CROSS_SITE_MESSAGE);
      return;
    }
    const bearer = bearerOf(req);
    const token = bearer || req.cookies[SESSION_COOKIE];
    // A write carried by the cookie alone must come from the page itself; a bearer token is never sent by a
    // browser on its own, so calls with one need no such proof.
    if (!bearer && token && UNSAFE_METHODS.has(req.method) && crossSiteWrite(req, publicOrigin)) throw forbidden(CROSS_SITE_MESSAGE);
    const { user, tokenHash, expiresAtMs } = await authenticate(ctx, token);
    if (user.must_change_password && !ROUTES_BEFORE_PASSWORD_CHANGE.has(route))
      throw new HttpError(403, PASSWORD_CHANGE_REQUIRED, { must_change_credentials: true });
    // The people the user decides for as a delegate today (the app clock's business date).
    req.user = user.cover_periods?.length ? { ...user, covers: activeCoversAt(user.cover_periods, ctx.clock.now()) } : user;
    req.tokenHash = tokenHash;
    req.sessionExpiresAt = expiresAtMs;
  });
}

/** Route options of a route answered without a session: `app.get(url, PUBLIC_ROUTE, handler)`. */
export const PUBLIC_ROUTE = { config: { public: true } } as const;
