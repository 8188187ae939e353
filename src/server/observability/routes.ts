// Operations: GET /metrics (Prometheus text format) with request counts and latency histograms per route
// template, pool and event-loop gauges; and the catalogue of every registered route (metrics and the
// hardening tests read it). Registered first in features.ts and at the root, so it sees every route.
import type { FastifyInstance } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MetricsRegistry } from './metrics.js';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { queueCacheFor } from '../approvals/queue-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: MetricsRegistry;
  }
}

/** Label for responses that matched no route (404s, probes): one series, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6. */
export function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

async function observabilityRoutes(app: FastifyInstance) {
  const registry = new MetricsRegistry();
  app.decorate('metrics', registry);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods)
      if (m !== 'HEAD')
        registry.routes.push({
          method: m,
          url: route.url,
          // Read when asked: an onRoute hook added later (the web app's files) may still mark the route public.
          get public() {
            return route.config?.public === true;
          },
        });
  });

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions?.url ?? UNMATCHED_ROUTE;
    registry.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_TIMER_MS });
  loopDelay.enable();
  app.ctx.onClose.push(() => {
    loopDelay.disable();
  });

  // METRICS_TOKEN set: scrapers send `Authorization: Bearer <token>`. Unset: only clients on this machine get an
  // answer: the connection's own peer is loopback and nothing was forwarded (a proxy on this machine passing on a
  // remote client, or a forged X-Forwarded-For, is not 'this machine'); everyone else 403.
  const token = app.ctx.config.metricsToken ?? '';

  const forwarded = (h: Record<string, unknown>) =>
    h['x-forwarded-for'] !== undefined || h.forwarded !== undefined || h['x-real-ip'] !== undefined;

  app.get('/metrics', PUBLIC_ROUTE, async (req, reply) => {
    if (token) {
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!tokenMatches(given, token)) return reply.status(401).send({ error: 'Metrics require the METRICS_TOKEN bearer token' });
    } else if (!isLoopback(req.socket.remoteAddress) || forwarded(req.headers)) {
      return reply.status(403).send({ error: 'Metrics answer only on this machine unless METRICS_TOKEN is set' });
    }
    const pool = app.ctx.db.pool;
    const cache = queueCacheFor(app.ctx.db)?.stats();
    const late = loopLateness(loopDelay);
    const body = registry.render([
      ...(cache
        ? [
            {
              name: 'adminease_answer_cache_hits_total',
              help: "Queue and list answers served from this instance's cache.",
              value: cache.hits,
              type: 'counter' as const,
            },
            {
              name: 'adminease_answer_cache_misses_total',
              help: 'Queue and list answers computed (not in the cache).',
              value: cache.misses,
              type: 'counter' as const,
            },
            { name: 'adminease_answer_cache_entries', help: 'Answers held in the cache.', value: cache.entries },
            {
              name: 'adminease_answer_cache_changes_total',
              help: 'Changes that dropped cached answers.',
              value: cache.changes,
              type: 'counter' as const,
            },
            {
              name: 'adminease_answer_cache_full_changes_total',
              help: 'Changes that dropped every cached answer.',
              value: cache.fullChanges,
              type: 'counter' as const,
            },
          ]
        : []),
      { name: 'adminease_db_pool_connections', help: 'Connections open in the database pool.', value: pool.totalCount },
      { name: 'adminease_db_pool_idle_connections', help: 'Idle connections in the database pool.', value: pool.idleCount },
      { name: 'adminease_db_pool_waiting_clients', help: 'Queries waiting for a pool connection.', value: pool.waitingCount },
      {
        name: 'nodejs_eventloop_delay_p99_seconds',
        help: `p99 of how late the event loop ran its ${LOOP_TIMER_MS} ms sampling timer since the last scrape (0: on time), in seconds.`,
        value: late.p99,
      },
      {
        name: 'nodejs_eventloop_delay_max_seconds',
        help: 'The most the event loop was late since the last scrape, in seconds.',
        value: late.max,
      },
    ]);
    loopDelay.reset();
    return reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8').header('cache-control', 'no-store').send(body);
  });
}

/** The event-loop histogram's sampling timer (ms). */
export const LOOP_TIMER_MS = 20;

/**
 * How late the event loop was (p99 and largest, seconds): Node's histogram records the whole interval between two
 * runs of its timer, so an idle loop reads LOOP_TIMER_MS; the timer's own interval is taken off.
 */
export function loopLateness(h: { percentile(p: number): number; max: number }): { p99: number; max: number } {
  const late = (ns: number) => Math.max(0, ns / 1e9 - LOOP_TIMER_MS / 1e3);
  return { p99: late(h.percentile(99)), max: late(h.max) };
}

// Not encapsulated (what fastify-plugin does): the hooks apply to the routes of every other feature.
(observabilityRoutes as any)[Symbol.for('skip-override')] = true;

export default observabilityRoutes;
