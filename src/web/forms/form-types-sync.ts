// The form types as the server has them now (issue 20): GET /api/form-types answers every enabled type, built-in
// or an administrator's, and the web puts each into its copy of the registry (src/domain/forms.ts) with the same
// function the server's registry sync uses (registryDefOfStored), so the catalogue, the generated form, the
// details rows, the labels and icons of every list know a type the bundle was built without. A type missing from
// the answer was disabled: it leaves the catalogue (its requests still show).
import { useQuery } from '@tanstack/react-query';
import { type StoredRow, type WireFormType, registryDefOfStored } from '../../domain/form-types';
import { FORM_TYPES, formTypeDef, putFormTypeDef } from '../../domain/forms';
import { api } from '../api/client';

export type ServerFormType = WireFormType & { version?: number; builtin?: boolean; id_prefix?: string; approval_chain?: string[] };

export const FORM_TYPES_QUERY_KEY = ['form-types'] as const;

/** Puts the server's types into the web's registry; answers how many entries changed. */
export function applyServerFormTypes(types: readonly ServerFormType[]): number {
  let changed = 0;
  const listed = new Set(types.map((t) => t.form_type));
  for (const t of types) {
    const version = t.version ?? 1;
    const known = formTypeDef(t.form_type);
    if (known && (known.version ?? 1) === version && known.enabled !== false) continue;
    const row: StoredRow = {
      form_type: t.form_type,
      builtin: t.builtin !== false,
      version,
      enabled: true,
      definition: { ...t, id_prefix: t.id_prefix ?? known?.idPrefix ?? '', stage_labels: t.approval_chain ?? [] },
    };
    // A built-in type at its code's version is the bundle's own entry.
    const def = row.builtin && version === 1 && known ? { ...known, enabled: true } : registryDefOfStored(row);
    if (def) {
      putFormTypeDef(def);
      changed += 1;
    }
  }
  for (const def of [...FORM_TYPES]) {
    if (!listed.has(def.formType) && def.enabled !== false) {
      putFormTypeDef({ ...def, enabled: false });
      changed += 1;
    }
  }
  return changed;
}

async function fetchFormTypes(): Promise<number> {
  const body = await api.get<{ form_types?: ServerFormType[] }>('/api/form-types');
  applyServerFormTypes(body.form_types ?? []);
  // The query's data is the registry's revision: screens that list types re-render when it changes.
  return Date.now();
}

/**
 * Keeps the web's registry in step with the server's (on sign-in, when the window regains focus, and after an
 * administrator saves a type). `ready` once the first answer came (or failed: the bundle's types still work).
 */
export function useFormTypesSync(enabled = true) {
  const q = useQuery({ queryKey: FORM_TYPES_QUERY_KEY, queryFn: fetchFormTypes, enabled, staleTime: 60_000, retry: 1 });
  return { ready: !enabled || !q.isPending || q.isError, revision: q.data ?? 0 };
}
