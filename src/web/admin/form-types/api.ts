// The administrator's form-type API (issue 20): the fixed paths and payload, the admin-defined groups a
// chain stage may name, and the people a 'named person' stage is searched from (the people API of issue 18).
import { api } from '../../api/client';

// The wire shapes are the domain's (src/domain/form-types.ts), shared with the server.
import type { ConditionOp, WireField, WireFieldType, WireStage } from '../../../domain/form-types';

export type { ConditionOp, WireField, WireFieldType, WireStage };

export interface FormTypeInput {
  form_type: string;
  title: string;
  category: string;
  icon?: string;
  description: string;
  enabled: boolean;
  fields: WireField[];
  chain: WireStage[];
}

/** A stored type as the API answers it: the input plus its version and use. */
export interface FormTypeRecord extends FormTypeInput {
  version?: number;
  /** Requests of the type (a number) or whether there are any. */
  in_use?: number | boolean;
  /** One of the 23 types the product ships with. */
  builtin?: boolean;
  updated_at?: string;
}

export interface ApproverGroup {
  name: string;
  title?: string;
  builtin?: boolean;
  members?: unknown[];
}

/** A list answered bare or under one of a few keys. */
function listOf<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object')
    for (const k of keys) {
      const inner = (body as Record<string, unknown>)[k];
      if (Array.isArray(inner)) return inner as T[];
    }
  return [];
}

const typePath = (formType: string) => `/api/admin/form-types/${encodeURIComponent(formType)}`;

/** One type, answered bare or as { form_type: {...} }. */
function typeOf(body: unknown): FormTypeRecord {
  const inner = body && typeof body === 'object' ? (body as { form_type?: unknown }).form_type : undefined;
  return (inner && typeof inner === 'object' ? inner : body) as FormTypeRecord;
}

export const formTypesApi = {
  list: async () => listOf<FormTypeRecord>(await api.get('/api/admin/form-types'), 'form_types', 'types'),
  get: async (formType: string) => typeOf(await api.get(typePath(formType))),
  create: async (t: FormTypeInput) => typeOf(await api.post('/api/admin/form-types', t)),
  update: async (formType: string, t: FormTypeInput) => typeOf(await api.put(typePath(formType), t)),
  groups: async () => listOf<ApproverGroup>(await api.get('/api/admin/groups'), 'groups'),
};

/** Whether a stored type has requests (then its fields can only gain optional ones). */
export const inUse = (t: Pick<FormTypeRecord, 'in_use'>): boolean => (typeof t.in_use === 'number' ? t.in_use > 0 : Boolean(t.in_use));
