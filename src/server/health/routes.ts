// Liveness and readiness: GET /api/health checks the database.
import type { FastifyInstance } from 'fastify';
import { PUBLIC_ROUTE } from '../http/edge.js';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/api/health', PUBLIC_ROUTE, async (_req, reply) => {
    try {
      await app.ctx.db.query('SELECT 1');
      return { status: 'ok', database: 'ok', time: app.ctx.clock.now().toISOString() };
    } catch {
      return reply.status(503).send({ status: 'error', database: 'unreachable' });
    }
  });
}
