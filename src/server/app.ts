// Builds the Fastify app from the feature plugins. main.ts and the tests build it the same way.
import cookie from '@fastify/cookie';
import helmet, { type HelmetOptions } from 'helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { type Clock, LoginLimiter, systemClock } from './auth/service.js';
import { SessionCache } from './auth/session-cache.js';
import { effectiveDemoMode } from './auth/demo-mode.js';
import type { Config } from './config.js';
import { setBusinessTimeZone } from '../domain/business-time.js';
import { isClientRoute } from '../domain/web-routes.js';
import type { Db } from './db/pool.js';
import type { AppContext } from './http/context.js';
import { HttpError } from './http/errors.js';
import { DATABASE_RETRY_AFTER_S, databaseTrouble, recordDatabaseTrouble, unavailableBody } from './db/unavailable.js';
import { installEdge, requestIdOf } from './http/edge.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerOpenApi, useZodSchemas } from './http/openapi.js';
import { FEATURES } from './features.js';
import { JobScheduler } from './jobs/scheduler.js';
import { appLogger, withRequestLogger } from './logger.js';

export interface BuildOptions {
  db: Db;
  config: Config;
  clock?: Clock;
  logger?: boolean;
}

/** The version in package.json (the nearest one above this file), shown in the API documentation. */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return String(JSON.parse(readFileSync(file, 'utf8')).version ?? '0.0.0');
    const up = path.dirname(dir);
    if (up === dir) return '0.0.0';
    dir = up;
  }
}

/** The headers helmet sets with `options`, collected once. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (k: string, v: string) => {
      headers[k.toLowerCase()] = String(v);
    },
    removeHeader: (k: string) => {
      delete headers[k.toLowerCase()];
    },
  };
  helmet(options)({} as never, res as never, () => undefined);
  if (!headers['content-security-policy']) throw new Error('helmet set no security headers');
  return headers;
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const clock = opts.clock ?? systemClock;
  // Every business date, year and working-day count is taken in the organisation's zone.
  setBusinessTimeZone(opts.config.timeZone);
  const app = Fastify({
    // The process's one logger at this app's level (none for in-process test apps that ask for none).
    ...(opts.logger === false ? { logger: false } : { loggerInstance: appLogger(opts.config.logLevel) }),
    genReqId: (req) => requestIdOf(req.headers['x-request-id']),
    bodyLimit: 1024 * 1024,
    trustProxy: opts.config.trustProxy,
  });
  // Route inputs are zod schemas, validated by Fastify before the handler (src/server/http/openapi.ts).
  useZodSchemas(app);

  const ctx: AppContext = {
    db: opts.db,
    clock,
    config: opts.config,
    limiter: new LoginLimiter(opts.config.loginRateLimit, opts.config.loginRateWindowMs, clock),
    sessionIdleMs: opts.config.sessionIdleMs,
    sessionMaxMs: opts.config.sessionMaxMs,
    sessionEnded: [],
    onClose: [],
    jobs: new JobScheduler({
      db: opts.db,
      now: () => clock.now(),
      pollMs: opts.config.jobsPollMs,
      log: appLogger(opts.config.logLevel).child({ module: 'jobs' }),
    }),
  };
  ctx.demo = await effectiveDemoMode(opts.db, opts.config.demo);
  // Signed-in sessions answered from memory between refreshes (ADMINEASE_SESSION_CACHE=0 turns this off).
  if (opts.config.sessionCache) {
    const sessions = new SessionCache(opts.db, { warn: (o, m) => app.log.warn(o, m) });
    await sessions.start();
    ctx.sessions = sessions;
    ctx.onClose.push(() => sessions.stop());
  }
  app.decorate('ctx', ctx);
  // Everything a request starts runs with its logger as the current one, so services deeper down log with the
  // request id (currentLogger in logger.ts) without being handed the logger.
  app.addHook('onRequest', (req, _reply, done) => {
    withRequestLogger(req.log, done);
  });
  app.decorateRequest('user', null as any);
  app.decorateRequest('tokenHash', '');
  app.addHook('onClose', async () => {
    await ctx.jobs.stop(); // the job in progress finishes before the pool closes
    for (const fn of ctx.onClose) await fn();
  });
  // A listening server runs the background jobs; in-process test apps call ctx.jobs.runDue() when they mean to.
  app.addHook('onListen', async () => {
    ctx.jobs.start();
  });

  await app.register(cookie);
  // Security headers: computed once by helmet at start-up, then set on every answer (no per-request work).
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Only behind HTTPS: on plain HTTP under a host name the browser would fetch every script over https.
        upgradeInsecureRequests: opts.config.secureCookies ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });

  // Security headers, request id, sessions and the same-origin rule for writes (src/server/http/edge.ts).
  installEdge(app, ctx, securityHeaders);

  app.setErrorHandler((err: any, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ error: err.message, ...err.extra });
    if (err.validation) return reply.status(400).send({ error: err.message });
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.status(415).send({ error: 'Send a JSON body (Content-Type: application/json)' });
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ error: 'Request body is too large' });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const msg = err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err instanceof SyntaxError ? 'Request body is not valid JSON' : err.message;
      return reply.status(err.statusCode).send({ error: msg });
    }
    // The database being unreachable, out of resources or read-only is not a bug of this request: 503, retry later.
    const trouble = databaseTrouble(err);
    if (trouble) {
      recordDatabaseTrouble(ctx.db, trouble);
      req.log.warn({ err: err?.message, code: trouble.code, reason: trouble.reason }, 'database unavailable');
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_S)).send(unavailableBody(trouble));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'Internal server error' });
  });

  // Mutations accept JSON only (with SameSite cookies and no CORS this is the CSRF defence).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const e = new HttpError(400, 'Request body is not valid JSON');
      done(e, undefined);
    }
  });

  // Idempotency-Key on the writes that change requests (src/server/http/idempotency.ts).
  registerIdempotency(app, opts.db, () => clock.now());

  // The OpenAPI document of every route registered from here on, and its page at /api/docs.
  await registerOpenApi(app, packageVersion());

  for (const feature of FEATURES) await app.register(feature);

  if (existsSync(path.join(opts.config.webDir, 'index.html'))) {
    // The files of the built web app are public: every route registered from here on is one of them (the
    // hook sees only later routes). Source maps are never served (nor built for production).
    // They are not part of the API, so the OpenAPI document leaves them out.
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true };
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(fastifyStatic, {
      root: opts.config.webDir,
      wildcard: false,
      index: 'index.html',
      allowedPath: (p) => !p.toLowerCase().endsWith('.map'),
    });
    // SPA fallback: the web app's own URLs (/forms/..., /requests/<id>; domain/web-routes.ts) get its page, so a
    // reload or a link from an e-mail opens the screen. Anything else (the API, /ai, /metrics, a missing asset) is a
    // JSON 404: the fallback never answers for a path that is not a screen.
    app.setNotFoundHandler((req, reply) => {
      const p = req.url.split('?')[0];
      if ((req.method === 'GET' || req.method === 'HEAD') && isClientRoute(p)) return reply.sendFile('index.html');
      return reply.status(404).send({ error: 'Not found' });
    });
  } else {
    app.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: 'Not found' }));
  }
  return app;
}
