// Liveness and readiness: GET /api/health checks that the database answers AND accepts a write (one row of
// health_probe is updated), so a read-only server, a full disk or exhausted connections are reported, not
// just a refused connection. It answers 503 (with Retry-After) when the probe fails, naming the cause, and
// 503 'degraded' when the probe passes but requests were refused for lack of database resources in the
// last RECENT_TROUBLE_MS (e.g. a disk too full for new pages while the probe's row still fits in its page).
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/pool.js';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { DATABASE_RETRY_AFTER_S, type DatabaseTrouble, databaseTrouble, recentDatabaseTrouble } from '../db/unavailable.js';

const RECENT_TROUBLE_MS = 15_000;
const RESOURCE_TROUBLE = new Set<DatabaseTrouble['reason']>([
  'disk-full',
  'out-of-memory',
  'too-many-connections',
  'insufficient-resources',
  'read-only',
]);

/** What the database probe found: 'ok', or the trouble (`degraded`: requests met resource errors very recently). */
export type DatabaseHealth =
  | { status: 'ok' }
  | { status: 'error'; reason: string; code?: string }
  | { status: 'degraded'; recent: { reason: string; code?: string; at: string } };

const probes = new WeakMap<Db, () => Promise<DatabaseHealth>>();

/**
 * The one database health check of both health routes: a write to health_probe, then whether requests met a
 * resource error in the last RECENT_TROUBLE_MS. Calls arriving while a probe runs share it (a burst is one write).
 */
export function databaseHealth(db: Db): Promise<DatabaseHealth> {
  let check = probes.get(db);
  if (!check) {
    let running: Promise<DatabaseHealth> | null = null;
    const once = async (): Promise<DatabaseHealth> => {
      try {
        await db.query('UPDATE health_probe SET checked_at = now() WHERE id = 1');
      } catch (err) {
        const trouble = databaseTrouble(err);
        return { status: 'error', reason: trouble?.reason ?? 'unreachable', ...(trouble?.code ? { code: trouble.code } : {}) };
      }
      const recent = recentDatabaseTrouble(db, RECENT_TROUBLE_MS);
      if (recent && RESOURCE_TROUBLE.has(recent.reason))
        return { status: 'degraded', recent: { reason: recent.reason, code: recent.code, at: recent.at } };
      return { status: 'ok' };
    };
    check = () =>
      (running ??= once().finally(() => {
        running = null;
      }));
    probes.set(db, check);
  }
  return check();
}

export default async function healthRoutes(app: FastifyInstance) {
  const db = app.ctx.db;
  app.get('/api/health', PUBLIC_ROUTE, async (_req, reply) => {
    const h = await databaseHealth(db);
    if (h.status === 'error') {
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ status: 'error', database: h.reason, ...(h.code ? { code: h.code } : {}) });
    }
    if (h.status === 'degraded') {
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ status: 'degraded', database: 'ok', recent_error: h.recent });
    }
    return { status: 'ok', database: 'ok', time: app.ctx.clock.now().toISOString() };
  });
}
