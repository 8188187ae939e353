// The registry as data (issue 20): the form types an administrator saved (their own, and built-in ones they
// edited) are read from PostgreSQL into the one registry (src/domain/forms.ts) at start, and again whenever any
// instance saves a type: the form_types trigger signals 'adminease_form_types' (migration 140) and every
// instance's listener reloads. A type saved here is in the registry at once (the saving instance applies it itself).
import { type StoredRow, registryDefOfStored } from '../../domain/form-types.js';
import { formTypeDef, putFormTypeDef } from '../../domain/forms.js';
import { PgListener, type ListenerLogger } from '../db/listener.js';
import type { Db, Queryable } from '../db/pool.js';

export const FORM_TYPES_CHANNEL = 'adminease_form_types';

// The stored shape and its registry entry are pure (the web builds the same entries from GET /api/form-types).
export { type StoredDefinition, type StoredRow, registryDefOfStored } from '../../domain/form-types.js';

/** Puts every saved type into the registry (a type whose saved version is already there is left as it is). */
export async function loadFormTypes(db: Queryable): Promise<number> {
  const r = await db.query('SELECT form_type, builtin, version, enabled, definition FROM form_types ORDER BY created_at, form_type');
  let changed = 0;
  for (const row of r.rows as StoredRow[]) {
    const current = formTypeDef(row.form_type);
    if (current && (current.version ?? 1) === row.version && (current.enabled !== false) === row.enabled) continue;
    const def = registryDefOfStored(row);
    if (def) {
      putFormTypeDef(def);
      changed += 1;
    }
  }
  return changed;
}

/** Loads the saved types and keeps them current while the app runs (one LISTEN connection per instance). */
export async function startRegistrySync(db: Db, log: ListenerLogger): Promise<() => Promise<void>> {
  await loadFormTypes(db);
  let reloading: Promise<unknown> = Promise.resolve();
  const reload = () => {
    reloading = reloading
      .then(() => loadFormTypes(db))
      .catch((err) => log.warn({ err: (err as Error).message }, 'form types reload failed'));
  };
  const listener = new PgListener(db, [FORM_TYPES_CHANNEL], { onMessage: reload, onReset: reload }, log, 'form types');
  await listener.start();
  return async () => {
    await listener.stop();
    await reloading;
  };
}
