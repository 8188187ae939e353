// The administration API (issue 18): every route under /api/admin, registered in one encapsulated scope whose
// single hook answers 403 to everyone but an administrator (policies/admin.ts), before any input is read. Admin
// features add their routes to ADMIN_PLUGINS; a route outside /api/admin cannot be registered here.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../http/errors.js';
import { isAdministrator } from '../policies/admin.js';
import accountAdminRoutes from '../accounts/admin-routes.js';
import { listAudit } from './audit.js';
import departmentRoutes from './departments.js';
import peopleRoutes from './people-routes.js';
import { PageQuery, timeBound } from './schemas.js';
import settingsRoutes from '../settings/routes.js';
import { delegationAdminRoutes } from '../delegation/routes.js';
import { formTypeAdminRoutes } from '../form-types/routes.js';

export const ADMIN_PREFIX = '/api/admin';
export const NOT_ADMIN_MESSAGE = 'Only an administrator can do that';

const AuditQuerySchema = z.object({
  actor: z.string().trim().max(320).optional(),
  action: z.string().trim().max(100).optional(),
  target: z.string().trim().max(200).optional(),
  from: timeBound('from', false),
  to: timeBound('to', true),
  ...PageQuery,
});

async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/audit', { schema: { querystring: AuditQuerySchema } }, async (req) => {
    const q = req.query;
    const { entries, total } = await listAudit(app.ctx.db, {
      actor: q.actor,
      action: q.action,
      target: q.target,
      from: q.from,
      to: q.to,
      page: q.page,
      pageSize: q.page_size,
    });
    return { entries, total, page: q.page, page_size: q.page_size };
  });
}

/** The admin features, each a plugin of /api/admin routes registered inside the administrators-only scope. */
export const ADMIN_PLUGINS: Array<(app: FastifyInstance) => Promise<void>> = [
  auditRoutes,
  peopleRoutes,
  departmentRoutes,
  accountAdminRoutes,
  settingsRoutes,
  delegationAdminRoutes,
  formTypeAdminRoutes,
];

export default async function adminRoutes(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (route.url !== ADMIN_PREFIX && !route.url.startsWith(`${ADMIN_PREFIX}/`))
      throw new Error(`admin routes: ${route.method} ${route.url} is outside ${ADMIN_PREFIX}`);
  });
  // After the edge's session check (registered on the root before every feature): req.user is the caller.
  app.addHook('onRequest', async (req) => {
    if (!isAdministrator(req.user)) throw forbidden(NOT_ADMIN_MESSAGE);
  });
  for (const plugin of ADMIN_PLUGINS) await app.register(plugin);
}
