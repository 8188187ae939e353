// The registry as data (issue 20): the form types an administrator saved (their own, and built-in ones they
// edited) are read from PostgreSQL into the one registry (src/domain/forms.ts) at start, and again whenever any
// instance saves a type: the form_types trigger signals 'adminease_form_types' (migration 140) and every
// instance's listener reloads. A type saved here is in the registry at once (the saving instance applies it itself).
import { type WireFormType, builtinChainAsWire, chainStageDef, registryDefOf, registryField } from '../../domain/form-types.js';
import { type FormTypeDef, codeFormTypeDef, formTypeDef, putFormTypeDef } from '../../domain/forms.js';
import { PgListener, type ListenerLogger } from '../db/listener.js';
import type { Db, Queryable } from '../db/pool.js';

export const FORM_TYPES_CHANNEL = 'adminease_form_types';

/** A saved type as stored (form_types.definition / form_type_versions.definition). */
export interface StoredDefinition extends WireFormType {
  id_prefix: string;
  /** The label of each chain stage, named when it was saved (a group's title, a person's name). */
  stage_labels: string[];
}

export interface StoredRow {
  form_type: string;
  builtin: boolean;
  version: number;
  enabled: boolean;
  definition: StoredDefinition;
}

const sameChain = (a: WireFormType['chain'], b: WireFormType['chain']) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The registry entry of a saved type. A built-in type keeps the code's definition (its spec behaviour, fields and
 * texts) plus what an administrator may change: new optional fields, its chain (as data, when it differs from the
 * code's) and the enabled flag.
 */
export function registryDefOfStored(row: StoredRow): FormTypeDef | null {
  const d = row.definition;
  if (!row.builtin)
    return registryDefOf({ ...d, enabled: row.enabled }, { idPrefix: d.id_prefix, version: row.version, stageLabels: d.stage_labels });
  const code = codeFormTypeDef(row.form_type);
  if (!code) return null;
  const known = new Set(code.fields.map((f) => f.name));
  const extra = d.fields.filter((f) => !known.has(f.name)).map(registryField);
  const chainEdited = !sameChain(d.chain, builtinChainAsWire(code.chain));
  return {
    ...code,
    fields: [...code.fields, ...extra],
    enabled: row.enabled,
    version: row.version,
    ...(chainEdited ? { stages: d.chain.map((s, i) => chainStageDef(s, d.stage_labels[i] ?? s.approver)) } : {}),
  };
}

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
