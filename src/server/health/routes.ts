// Liveness and readiness: GET /api/health checks that the database answers AND accepts a write (one row of
// health_probe is updated), so a read-only server, a full disk or exhausted connections are reported, not
// just a refused connection. It answers 503 (with Retry-After) when the probe fails, naming the cause, and
// 503 'degraded' when the probe passes but requests were refused for lack of database resources in the
// last RECENT_TROUBLE_MS (e.g. a disk too full for new pages while the probe's row still fits in its page).
import type { FastifyInstance } from 'fastify';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { DATABASE_RETRY_AFTER_S, type DatabaseTrouble, databaseTrouble, recentDatabaseTrouble } from '../db/unavailable.js';

const RECENT_TROUBLE_MS = 15_000;
const RESOURCE_TROUBLE = new Set<DatabaseTrouble['reason']>(['disk-full', 'out-of-memory', 'too-many-connections', 'insufficient-resources', 'read-only']);

export default async function healthRoutes(app: FastifyInstance) {
  const db = app.ctx.db;
  // Calls arriving while a probe runs share it: a burst of health checks is one write.
  let running: Promise<void> | null = null;
  const probe = () => {
    running ??= db.query('UPDATE health_probe SET checked_at = now() WHERE id = 1').then(() => undefined).finally(() => { running = null; });
    return running;
  };

  app.get('/api/health', PUBLIC_ROUTE, async (_req, reply) => {
    try {
      await probe();
    } catch (err) {
      const trouble = databaseTrouble(err);
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ status: 'error', database: trouble?.reason ?? 'unreachable', ...(trouble?.code ? { code: trouble.code } : {}) });
    }
    const recent = recentDatabaseTrouble(db, RECENT_TROUBLE_MS);
    if (recent && RESOURCE_TROUBLE.has(recent.reason)) {
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ status: 'degraded', database: 'ok', recent_error: { reason: recent.reason, code: recent.code, at: recent.at } });
    }
    return { status: 'ok', database: 'ok', time: app.ctx.clock.now().toISOString() };
  });
}
