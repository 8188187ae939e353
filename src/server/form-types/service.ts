// Administering form types (issue 20): list, read, create and edit them. Every save is a new version (kept in
// form_type_versions, audited in admin_audit) and is put into the registry at once; other instances reload it
// from PostgreSQL (registry-sync.ts). Requests keep the version and chain they were submitted with.
import {
  BUILTIN_GROUPS,
  type FormTypeInput,
  type WireField,
  type WireFormType,
  approverLabel,
  builtinChainAsWire,
  idPrefixFor,
  parseApprover,
  wireField,
  wireFormType,
} from '../../domain/form-types.js';
import { FORM_TYPES, codeFormTypeDef, formKind, formTypeDef, putFormTypeDef } from '../../domain/forms.js';
import { writeAudit } from '../admin/audit.js';
import type { Db, Queryable } from '../db/pool.js';
import { HttpError, badRequest, conflict, notFound } from '../http/errors.js';
import { type StoredDefinition, type StoredRow, registryDefOfStored } from './registry-sync.js';

/** Serialises saves of form types (advisory lock key). */
const FORM_TYPES_LOCK = 742_140;

export type FormTypeView = ReturnType<typeof wireFormType> & { in_use?: boolean };

/** Every type in registry order (the catalogue's), in the admin API's shape. */
export function listFormTypes(): FormTypeView[] {
  return FORM_TYPES.map(wireFormType);
}

/** One type with whether requests of it exist (a type in use may only gain optional fields and chain changes). */
export async function getFormType(db: Queryable, formType: string): Promise<FormTypeView> {
  const def = formTypeDef(formType);
  if (!def) throw notFound(`Unknown form type: ${formType}`);
  return { ...wireFormType(def), in_use: await inUse(db, formType) };
}

/** The versions saved of a type, newest first (version 1 of a built-in type is the code's). */
export async function formTypeVersions(db: Queryable, formType: string) {
  if (!formTypeDef(formType)) throw notFound(`Unknown form type: ${formType}`);
  const r = await db.query(
    `SELECT v.version, v.created_at, v.definition, u.employee_code AS saved_by
       FROM form_type_versions v LEFT JOIN users u ON u.id = v.created_by WHERE v.form_type = $1 ORDER BY v.version DESC`,
    [formType],
  );
  return r.rows;
}

async function inUse(c: Queryable, formType: string): Promise<boolean> {
  const r = await c.query('SELECT EXISTS (SELECT 1 FROM requests WHERE form_type = $1) AS used', [formType]);
  return r.rows[0].used === true;
}

/** The label of each stage, checking that each group and person it names exists (400 otherwise). */
async function stageLabels(c: Queryable, chain: FormTypeInput['chain']): Promise<string[]> {
  const out: string[] = [];
  for (const s of chain) {
    const a = parseApprover(s.approver)!;
    if (a.kind === 'group' && !BUILTIN_GROUPS[a.name]) {
      const g = await c.query('SELECT title FROM approver_groups WHERE name = $1', [a.name]);
      if (!g.rows[0])
        throw badRequest(
          `Unknown group: ${a.name} (built-in groups: ${Object.keys(BUILTIN_GROUPS).join(', ')}; others are defined under /api/admin/groups)`,
        );
      out.push(g.rows[0].title);
    } else if (a.kind === 'person') {
      const p = await c.query(`SELECT first_name || ' ' || last_name AS name FROM users WHERE upper(employee_code) = $1 AND active`, [
        a.code,
      ]);
      if (!p.rows[0]) throw badRequest(`Unknown person: no active employee has the code ${a.code}`);
      out.push(p.rows[0].name);
    } else out.push(approverLabel(a));
  }
  return out;
}

const fieldShape = (f: WireField) => JSON.stringify({ type: f.type, options: f.options ?? null });

/**
 * What may change on a type that requests already use: fields may be added when optional, never removed, nor change
 * type or become required; chain, texts and the enabled flag may change. Throws 409 with the reason.
 */
function assertCompatible(before: readonly WireField[], after: readonly WireField[], why: string): void {
  const next = new Map(after.map((f) => [f.name, f]));
  for (const f of before) {
    const n = next.get(f.name);
    if (!n) throw conflict(`The field ${f.name} cannot be removed: ${why}`);
    if (n.type !== f.type) throw conflict(`The field ${f.name} cannot change its type: ${why}`);
    if (f.type === 'choice' && (f.options ?? []).some((o) => !(n.options ?? []).includes(o)))
      throw conflict(`Options of ${f.name} cannot be removed: ${why}`);
    if (n.required && !f.required) throw conflict(`The field ${f.name} cannot become required: ${why}`);
  }
  const known = new Set(before.map((f) => f.name));
  for (const f of after) {
    if (!known.has(f.name) && f.required) throw conflict(`A required field (${f.name}) cannot be added: ${why}; add it as optional`);
  }
}

/** A built-in type keeps the code's identity, texts and fields: only new optional fields, its chain and enabled change. */
function assertBuiltinEdit(formType: string, input: FormTypeInput): void {
  const code = codeFormTypeDef(formType)!;
  const wire = wireFormType(code);
  for (const k of ['title', 'category', 'description'] as const) {
    if (input[k] !== wire[k]) throw badRequest(`The ${k} of a built-in type cannot change (it is '${wire[k]}')`);
  }
  const mine = new Map(input.fields.map((f) => [f.name, f]));
  for (const f of code.fields.map(wireField)) {
    const g = mine.get(f.name);
    if (!g) throw conflict(`The built-in field ${f.name} cannot be removed`);
    if (fieldShape(g) !== fieldShape(f) || g.required !== f.required || g.label !== f.label)
      throw badRequest(`The built-in field ${f.name} cannot change`);
  }
  assertCompatible(code.fields.map(wireField), input.fields, 'the type is built in');
  if (formKind(formType) === 'it-ticket' && JSON.stringify(input.chain) !== JSON.stringify(builtinChainAsWire(code.chain)))
    throw badRequest('The chain of an IT ticket type cannot change: IT support works these tickets');
}

async function save(
  c: Queryable,
  actorId: number,
  input: FormTypeInput,
  opts: { builtin: boolean; version: number; idPrefix: string; before: WireFormType | null },
): Promise<FormTypeView> {
  const labels = await stageLabels(c, input.chain);
  const definition: StoredDefinition = {
    form_type: input.form_type,
    title: input.title,
    category: input.category,
    description: input.description,
    enabled: input.enabled,
    icon: input.icon,
    keywords: input.keywords,
    fields: input.fields,
    chain: input.chain,
    id_prefix: opts.idPrefix,
    stage_labels: labels,
  };
  await c.query(
    `INSERT INTO form_types (form_type, builtin, version, enabled, definition) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (form_type) DO UPDATE SET version = EXCLUDED.version, enabled = EXCLUDED.enabled, definition = EXCLUDED.definition, updated_at = now()`,
    [input.form_type, opts.builtin, opts.version, input.enabled, JSON.stringify(definition)],
  );
  await c.query('INSERT INTO form_type_versions (form_type, version, definition, created_by) VALUES ($1, $2, $3, $4)', [
    input.form_type,
    opts.version,
    JSON.stringify(definition),
    actorId,
  ]);
  const row: StoredRow = { form_type: input.form_type, builtin: opts.builtin, version: opts.version, enabled: input.enabled, definition };
  const def = registryDefOfStored(row)!;
  const view = wireFormType(def);
  await writeAudit(c, {
    actorId,
    action: opts.before ? 'form_type.update' : 'form_type.create',
    targetType: 'form_type',
    targetId: input.form_type,
    ...(opts.before ? { before: opts.before } : {}),
    after: view,
  });
  return { ...view, def } as FormTypeView & { def: typeof def };
}

/** POST /api/admin/form-types: a new type (409 when the name is taken). */
export async function createFormType(db: Db, actorId: number, input: FormTypeInput): Promise<FormTypeView> {
  const out = await db.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [FORM_TYPES_LOCK]);
    const taken = await c.query('SELECT 1 FROM form_types WHERE form_type = $1', [input.form_type]);
    if (formTypeDef(input.form_type) || taken.rows[0]) throw conflict(`A form type named ${input.form_type} already exists`);
    const prefixes = new Set(FORM_TYPES.map((t) => t.idPrefix));
    const stored = await c.query(`SELECT definition->>'id_prefix' AS p FROM form_types`);
    for (const r of stored.rows) prefixes.add(r.p);
    return save(c, actorId, input, { builtin: false, version: 1, idPrefix: idPrefixFor(input.form_type, prefixes), before: null });
  });
  return applied(out);
}

/** PUT /api/admin/form-types/{form_type}: a new version of an existing type. */
export async function updateFormType(db: Db, actorId: number, formType: string, input: FormTypeInput): Promise<FormTypeView> {
  if (input.form_type !== formType) throw badRequest(`form_type is ${formType} here; a type cannot be renamed`);
  const out = await db.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [FORM_TYPES_LOCK]);
    const current = formTypeDef(formType);
    if (!current) throw notFound(`Unknown form type: ${formType}`);
    const stored = await c.query('SELECT version, definition FROM form_types WHERE form_type = $1', [formType]);
    const builtin = current.custom !== true;
    const before = wireFormType(current);
    if (builtin) assertBuiltinEdit(formType, input);
    else if (await inUse(c, formType)) assertCompatible(before.fields, input.fields, 'requests of this type exist');
    const version = Number(stored.rows[0]?.version ?? 1) + 1;
    const idPrefix = stored.rows[0]?.definition?.id_prefix ?? current.idPrefix;
    // A built-in type keeps its own keywords and icon (the assistant and the catalogue know it by them).
    const kept = builtin ? { ...input, icon: current.icon, keywords: [...(codeFormTypeDef(formType)?.keywords ?? [])] } : input;
    return save(c, actorId, kept, { builtin, version, idPrefix, before });
  });
  return applied(out);
}

/** Puts a saved type into this instance's registry now (other instances reload it on the signal). */
function applied(out: FormTypeView): FormTypeView {
  const { def, ...view } = out as FormTypeView & { def: Parameters<typeof putFormTypeDef>[0] };
  putFormTypeDef(def);
  return view;
}

/** The refusal of a submission of a disabled type. */
export function disabledTypeError(title: string): HttpError {
  return conflict(`${title} is disabled: new requests of this type are not accepted`);
}
