// The administrators' account routes, registered inside the /api/admin scope (src/server/admin/routes.ts answers
// 403 to everyone else): invitations, a forced password change at next sign-in, and whether single sign-on may
// create accounts. Each writes the audit log in the same transaction as its change.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invite, requirePasswordChange } from './service.js';
import { setSsoAutoCreate, ssoSetting } from './sso.js';

const CodeParams = z.object({ employeeCode: z.string().min(1).max(100) });
const Success = z.object({ success: z.literal(true) });
const SsoSetting = z.object({ configured: z.boolean(), provider_name: z.string().nullable(), auto_create: z.boolean() });

export default async function accountAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.post(
    '/api/admin/people/:employeeCode/invite',
    {
      schema: {
        params: CodeParams,
        response: { 200: z.object({ invite_url: z.string(), expires_at: z.string(), emailed: z.boolean() }) },
      },
    },
    async (req) => invite(ctx, req.user, req.params.employeeCode),
  );

  app.post(
    '/api/admin/people/:employeeCode/require-password-change',
    { schema: { params: CodeParams, response: { 200: Success } } },
    async (req) => {
      await requirePasswordChange(ctx, req.user, req.params.employeeCode);
      return { success: true as const };
    },
  );

  app.get('/api/admin/settings/sso', { schema: { response: { 200: SsoSetting } } }, async () => ssoSetting(ctx));
  app.put(
    '/api/admin/settings/sso',
    {
      schema: {
        body: z.object({ auto_create: z.boolean({ message: 'auto_create must be true or false' }) }),
        response: { 200: SsoSetting },
      },
    },
    async (req) => {
      await setSsoAutoCreate(ctx, req.user, req.body.auto_create);
      return ssoSetting(ctx);
    },
  );
}
