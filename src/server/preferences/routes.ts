// GET/PUT /api/users/me/preferences: the signed-in user's sound, voice and display preferences.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PreferencesPatchSchema } from '../../domain/preferences.js';
import { getPreferences, updatePreferences } from './service.js';

export default async function preferencesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  app.get('/api/users/me/preferences', async (req) => getPreferences(db, req.user.id));
  app.put('/api/users/me/preferences', { schema: { body: PreferencesPatchSchema } }, async (req) =>
    updatePreferences(db, req.user.id, req.body),
  );
}
