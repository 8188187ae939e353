// Routes of form types as data (issue 20). The administrators' API (GET/POST /api/admin/form-types,
// GET/PUT /api/admin/form-types/{form_type}, .../versions, GET/POST/PUT /api/admin/groups) registers inside the
// admin scope (admin/routes.ts ADMIN_PLUGINS); `formTypesRoutes` keeps the registry in step with the database and
// answers the signed-in catalogue of enabled types (GET /api/form-types).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FormTypeInputSchema, GROUP_NAME } from '../../domain/form-types.js';
import { FORM_TYPES, chainInWords } from '../../domain/forms.js';
import { createGroup, getGroup, listGroups, updateGroup } from './groups.js';
import { startRegistrySync } from './registry-sync.js';
import { createFormType, formTypeVersions, getFormType, listFormTypes, updateFormType } from './service.js';
import { wireFormType } from '../../domain/form-types.js';

const TypeParams = z.object({ formType: z.string().max(60) });
const GroupParams = z.object({ name: z.string().max(60) });
const GroupBody = z.object({
  name: z.string().trim().regex(GROUP_NAME, 'A group name is lower-case letters, digits and _ (2-40, starting with a letter)').optional(),
  title: z.string({ message: 'title is required' }).trim().min(1, 'title is required').max(80, 'title can have at most 80 characters'),
  members: z.array(z.string().trim().min(1).max(40), { message: 'members is a list of employee codes' }).max(500).default([]),
});

/** /api/admin/form-types and /api/admin/groups (administrators only: the admin scope's hook). */
export async function formTypeAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.ctx.db;

  app.get('/api/admin/form-types', async () => ({ form_types: listFormTypes() }));
  app.post('/api/admin/form-types', { schema: { body: FormTypeInputSchema } }, async (req, reply) => {
    const out = await createFormType(db, req.user.id, req.body);
    return reply.code(201).send({ form_type: out });
  });
  app.get('/api/admin/form-types/:formType', { schema: { params: TypeParams } }, async (req) => ({
    form_type: await getFormType(db, req.params.formType),
  }));
  app.put('/api/admin/form-types/:formType', { schema: { params: TypeParams, body: FormTypeInputSchema } }, async (req) => ({
    form_type: await updateFormType(db, req.user.id, req.params.formType, req.body),
  }));
  app.get('/api/admin/form-types/:formType/versions', { schema: { params: TypeParams } }, async (req) => ({
    versions: await formTypeVersions(db, req.params.formType),
  }));

  app.get('/api/admin/groups', async () => ({ groups: await listGroups(db) }));
  app.get('/api/admin/groups/:name', { schema: { params: GroupParams } }, async (req) => ({ group: await getGroup(db, req.params.name) }));
  app.post('/api/admin/groups', { schema: { body: GroupBody } }, async (req, reply) => {
    const b = req.body;
    if (!b.name) return reply.code(400).send({ error: 'name is required' });
    return reply.code(201).send({ group: await createGroup(db, req.user.id, { ...b, name: b.name }) });
  });
  app.put('/api/admin/groups/:name', { schema: { params: GroupParams, body: GroupBody } }, async (req) => ({
    group: await updateGroup(db, req.user.id, req.params.name, req.body),
  }));
}

/** Keeps the registry current on this instance; answers the enabled types to every signed-in person. */
export default async function formTypesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const stop = await startRegistrySync(app.ctx.db, app.log);
  app.ctx.onClose.push(stop);

  // The catalogue of enabled types as data: what the web's catalogue and generated forms render for types the
  // bundle does not know (and the same for the ones it does).
  app.get('/api/form-types', async () => ({
    form_types: FORM_TYPES.filter((t) => t.enabled !== false).map((t) => ({
      ...wireFormType(t),
      approval_chain: chainInWords(t.formType),
    })),
  }));
}
