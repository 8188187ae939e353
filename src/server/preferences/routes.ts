// GET/PUT /api/users/me/preferences: the signed-in user's sound, voice and display preferences.
import type { FastifyInstance } from 'fastify';
import { PreferencesPatchSchema } from '../../domain/preferences.js';
import { parse } from '../http/parse.js';
import { getPreferences, updatePreferences } from './service.js';

export default async function preferencesRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  app.get('/api/users/me/preferences', async (req) => getPreferences(db, req.user.id));
  app.put('/api/users/me/preferences', async (req) => updatePreferences(db, req.user.id, parse(PreferencesPatchSchema, req.body)));
}
