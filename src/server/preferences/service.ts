// Reading and updating the signed-in user's preferences (users.preferences jsonb), merged over the defaults.
import { type Preferences, type PreferencesPatch, resolvePreferences } from '../../domain/preferences.js';
import type { Db } from '../db/pool.js';

export async function getPreferences(db: Db, userId: number): Promise<Preferences> {
  const r = await db.query('SELECT preferences FROM users WHERE id = $1', [userId]);
  return resolvePreferences(r.rows[0]?.preferences);
}

/** Applies a validated partial update atomically (jsonb concatenation) and answers the full preferences. */
export async function updatePreferences(db: Db, userId: number, patch: PreferencesPatch): Promise<Preferences> {
  const r = await db.query('UPDATE users SET preferences = preferences || $2::jsonb WHERE id = $1 RETURNING preferences', [
    userId,
    JSON.stringify(patch),
  ]);
  return resolvePreferences(r.rows[0]?.preferences);
}
