// Form types and approval chains as data (issue 20): the admin API's shape of a type (`WireFormType`), its input
// schema, the mapping between it and registry entries (forms.ts), and the chain rules every channel shares: the
// approvers a stage may name, conditions on the request's fields, and which stages a request follows.
import { z } from 'zod';
import {
  type Category,
  type ChainStageDef,
  type FieldDef,
  type FieldType,
  type FormTypeDef,
  type Stage,
  STAGES,
  codeFormTypeDef,
} from './forms.js';

/** Field types as the admin API names them (docs/forms.md), and the registry type each maps onto. */
export const WIRE_FIELD_TYPES = ['text', 'long text', 'number', 'money', 'date', 'time', 'choice', 'yes/no'] as const;
export type WireFieldType = (typeof WIRE_FIELD_TYPES)[number];
const TO_REGISTRY: Record<WireFieldType, FieldType> = {
  text: 'text',
  'long text': 'longtext',
  number: 'number',
  money: 'money',
  date: 'date',
  time: 'time',
  choice: 'enum',
  'yes/no': 'enum',
};
/** The answers of a yes/no field (a choice of two on every channel). */
export const YES_NO: readonly string[] = ['Yes', 'No'];

export const CATEGORIES: readonly Category[] = [
  'Human Resources',
  'Finance',
  'Information Technology',
  'Facilities & Operations',
  'Legal',
  'Other',
];

export const CONDITION_OPS = ['>', '>=', '<', '<=', '=', '!='] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export interface Condition {
  field: string;
  op: ConditionOp;
  value: string | number;
}

export interface WireField {
  name: string;
  label: string;
  type: WireFieldType;
  required: boolean;
  options?: string[];
  min?: number;
  max?: number;
  help?: string;
}
export interface WireStage {
  approver: string;
  when?: Condition;
}
export interface WireFormType {
  form_type: string;
  title: string;
  category: Category;
  description: string;
  enabled: boolean;
  icon: string;
  keywords: string[];
  fields: WireField[];
  chain: WireStage[];
}

// ---- approvers ---------------------------------------------------------------------------------

/**
 * The groups every installation has: membership is the user_type (src/server/policies/groups.ts). `stage` is the
 * built-in stage whose record fields (hr_approval, finance_approval, ...) a data-defined stage of the group keeps.
 */
export const BUILTIN_GROUPS: Readonly<Record<string, { title: string; userType: string; stage: Stage | null }>> = {
  hr: { title: 'HR', userType: 'hr_staff', stage: 'hr' },
  finance: { title: 'Finance', userType: 'finance_staff', stage: 'finance' },
  it: { title: 'IT Support', userType: 'it_staff', stage: null },
  facilities_desk: { title: 'Facilities Desk', userType: 'facilities_staff', stage: 'facilities_desk' },
  facilities_manager: { title: 'Facilities Manager', userType: 'facilities_manager', stage: 'facilities_manager' },
};

export const GROUP_NAME = /^[a-z][a-z0-9_]{1,39}$/;
const EMPLOYEE_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

export type Approver =
  | { kind: 'line_manager' }
  | { kind: 'managers_manager' }
  | { kind: 'hr_contact' }
  | { kind: 'group'; name: string }
  | { kind: 'person'; code: string };

/**
 * Reads an approver ('line_manager', 'managers_manager', 'hr_contact', 'group:<name>', 'person:<employee_code>'); null
 * if malformed. 'hr_contact' is the requester's own HR contact (the built-in HR step), not any HR officer ('group:hr').
 */
export function parseApprover(spec: string): Approver | null {
  if (spec === 'line_manager' || spec === 'managers_manager' || spec === 'hr_contact') return { kind: spec };
  const group = /^group:(.+)$/.exec(spec);
  if (group) return GROUP_NAME.test(group[1]) ? { kind: 'group', name: group[1] } : null;
  const person = /^person:(.+)$/.exec(spec);
  if (person) return EMPLOYEE_CODE.test(person[1]) ? { kind: 'person', code: person[1].toUpperCase() } : null;
  return null;
}

/** The label of a stage whose approver needs no look-up; groups and people are named by the server. */
export function approverLabel(a: Approver): string {
  switch (a.kind) {
    case 'line_manager':
      return 'Line Manager';
    case 'managers_manager':
      return "Manager's Manager";
    case 'hr_contact':
      return STAGES.hr.label;
    case 'group':
      return BUILTIN_GROUPS[a.name]?.title ?? a.name;
    case 'person':
      return a.code;
  }
}

/**
 * The approval-row key of each stage of a data chain, in order: the line manager and the built-in groups keep the
 * built-in stage names (so a request's record keeps line_manager_approval, hr_approval, finance_approval, ...);
 * every other stage (and a second stage of the same kind) is stage_<position>.
 */
export function stageKeys(chain: readonly { approver: string }[]): string[] {
  const used = new Set<string>();
  return chain.map((s, i) => {
    const a = parseApprover(s.approver);
    let key = `stage_${i + 1}`;
    if (a?.kind === 'line_manager' || a?.kind === 'managers_manager') key = a.kind;
    else if (a?.kind === 'hr_contact') key = 'hr';
    else if (a?.kind === 'group' && BUILTIN_GROUPS[a.name]?.stage) key = BUILTIN_GROUPS[a.name].stage!;
    if (used.has(key)) key = `stage_${i + 1}`;
    used.add(key);
    return key;
  });
}

/**
 * A built-in chain in the admin API's words, each stage meaning what it does in the code: the HR step is the
 * requester's own HR contact (hr -> hr_contact), the group steps their groups (finance -> group:finance,
 * it_helpdesk -> group:it). Saved back unchanged, it stays the code's chain.
 */
export function builtinChainAsWire(chain: readonly Stage[]): WireStage[] {
  return chain.map((s) => {
    if (s === 'line_manager') return { approver: 'line_manager' };
    if (s === 'hr') return { approver: 'hr_contact' };
    if (s === 'it_helpdesk') return { approver: 'group:it' };
    return { approver: `group:${s}` };
  });
}

/** The same as the editor wrote it before 'hr_contact' existed (hr -> group:hr): a type saved so is unedited too. */
function legacyBuiltinChainAsWire(chain: readonly Stage[]): WireStage[] {
  return builtinChainAsWire(chain).map((s) => (s.approver === 'hr_contact' ? { approver: 'group:hr' } : s));
}

// ---- conditions --------------------------------------------------------------------------------

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Why a condition does not fit the type's fields (unknown field, an order on a choice, a value of the wrong kind), or null. */
export function conditionError(when: Condition, fields: readonly Pick<WireField, 'name' | 'type' | 'options' | 'label'>[]): string | null {
  const fd = fields.find((x) => x.name === when.field);
  if (!fd) return `The condition names a field the form does not have: ${when.field}`;
  if (!CONDITION_OPS.includes(when.op)) return `Unknown condition operator ${String(when.op)}; use one of ${CONDITION_OPS.join(' ')}`;
  const ordered = !['=', '!='].includes(when.op);
  switch (fd.type) {
    case 'number':
    case 'money':
      return Number.isFinite(Number(when.value)) && !blank(when.value) ? null : `The condition on ${fd.label} needs a number`;
    case 'date':
      return ISO_DATE.test(String(when.value)) ? null : `The condition on ${fd.label} needs a date as YYYY-MM-DD`;
    case 'time':
      return HHMM.test(String(when.value)) ? null : `The condition on ${fd.label} needs a time as HH:MM`;
    case 'choice':
    case 'yes/no': {
      if (ordered) return `The condition on ${fd.label} can only use = or !=`;
      const options = fd.type === 'yes/no' ? YES_NO : (fd.options ?? []);
      return options.includes(String(when.value)) ? null : `The condition on ${fd.label} must compare with one of: ${options.join(', ')}`;
    }
    default:
      return ordered ? `The condition on ${fd.label} can only use = or !=` : null;
  }
}

/**
 * Does the condition hold for the request's values? Numbers and money compare as numbers, dates and times in
 * calendar order, the rest as text. A blank field satisfies only '!='.
 */
export function conditionHolds(when: Condition, values: Record<string, unknown>): boolean {
  const raw = Object.hasOwn(values, when.field) ? values[when.field] : undefined;
  if (blank(raw)) return when.op === '!=';
  const num = Number(raw);
  const target = Number(when.value);
  const numeric =
    typeof raw === 'number' || (Number.isFinite(num) && Number.isFinite(target) && !blank(when.value) && typeof when.value === 'number');
  const a: number | string = numeric ? num : String(raw).trim();
  const b: number | string = numeric ? target : String(when.value).trim();
  switch (when.op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '=':
      return a === b;
    case '!=':
      return a !== b;
  }
}

/** 'Finance when Amount > 5000' */
export function conditionText(when: Condition, fields: readonly Pick<FieldDef, 'name' | 'label'>[]): string {
  const label = fields.find((f) => f.name === when.field)?.label ?? when.field;
  return `${label} ${when.op} ${String(when.value)}`;
}

// ---- the input schema ----------------------------------------------------------------------------

export const FORM_TYPE_SLUG = /^[a-z][a-z-]{1,48}$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** Names the server sets on every request (or the record shape uses): a field may not take them. */
const RESERVED_FIELDS = new Set([
  'id',
  'request_id',
  'form_id',
  'form_type',
  'form_type_version',
  'title',
  'employee_id',
  'employee_user_id',
  'employee_name',
  'department',
  'line_manager',
  'manager',
  'status',
  'current_stage',
  'created_at',
  'updated_at',
  'next_stage',
  'version',
  'employee_signature',
  'employee_signature_date',
  'approval_chain',
]);

const trimmed = (what: string, max: number) =>
  z
    .string({ message: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} can have at most ${max} characters`);

export const WireFieldSchema = z
  .object({
    name: z
      .string({ message: 'Each field needs a name' })
      .trim()
      .regex(FIELD_NAME, 'A field name is lower-case letters, digits and _ (starting with a letter, at most 40)'),
    label: trimmed('A field label', 80),
    type: z.enum(WIRE_FIELD_TYPES, { message: `A field type is one of: ${WIRE_FIELD_TYPES.join(', ')}` }),
    required: z.boolean({ message: 'required must be true or false' }).default(false),
    options: z.array(trimmed('An option', 80)).max(30, 'A choice can have at most 30 options').nullish(),
    min: z.number({ message: 'min must be a number' }).finite().nullish(),
    max: z.number({ message: 'max must be a number' }).finite().nullish(),
    help: z.string().trim().max(200, 'Help text can have at most 200 characters').nullish(),
  })
  .transform((f) => {
    const out: WireField = { name: f.name, label: f.label, type: f.type, required: f.required };
    if (f.type === 'choice' && f.options) out.options = f.options;
    if (f.min !== null && f.min !== undefined) out.min = f.min;
    if (f.max !== null && f.max !== undefined) out.max = f.max;
    if (f.help) out.help = f.help;
    return out;
  });

export const ConditionSchema = z.object({
  field: z.string({ message: 'A condition names a field' }).trim().min(1, 'A condition names a field'),
  op: z.enum(CONDITION_OPS, { message: `A condition's op is one of ${CONDITION_OPS.join(' ')}` }),
  value: z.union([z.string().trim().max(200), z.number().finite()], { message: "A condition's value is a number or text" }),
});

export const WireStageSchema = z.object({
  approver: z
    .string({ message: 'Each stage names its approver' })
    .trim()
    .refine(
      (s) => parseApprover(s) !== null,
      'An approver is line_manager, managers_manager, hr_contact, group:<name> or person:<employee_code>',
    ),
  when: ConditionSchema.nullish().transform((w) => w ?? undefined),
});

/** The body of POST /api/admin/form-types and PUT /api/admin/form-types/{form_type}. */
export const FormTypeInputSchema = z
  .object({
    form_type: z.string({ message: 'form_type is required' }).trim(),
    title: trimmed('title', 80),
    category: z.enum(CATEGORIES as [Category, ...Category[]], { message: `category is one of: ${CATEGORIES.join(', ')}` }),
    description: z.string().trim().max(300, 'description can have at most 300 characters').default(''),
    enabled: z.boolean({ message: 'enabled must be true or false' }).default(true),
    icon: z
      .string()
      .trim()
      .regex(/^[A-Z][A-Za-z0-9]{1,39}$/, 'icon is a lucide icon name such as FileText')
      .default('FileText'),
    keywords: z.array(z.string().trim().min(1).max(40)).max(20, 'At most 20 keywords').default([]),
    fields: z
      .array(WireFieldSchema, { message: 'fields must be a list' })
      .min(1, 'A form needs at least one field')
      .max(40, 'At most 40 fields'),
    chain: z
      .array(WireStageSchema, { message: 'chain must be a list' })
      .min(1, 'A chain needs at least one stage')
      .max(10, 'At most 10 stages'),
  })
  .superRefine((t, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!FORM_TYPE_SLUG.test(t.form_type))
      issue('form_type is a slug of lower-case letters and dashes, 2-49 characters, such as conference-budget');
    const names = new Set<string>();
    for (const f of t.fields) {
      if (names.has(f.name)) issue(`Two fields are named ${f.name}`);
      names.add(f.name);
      if (RESERVED_FIELDS.has(f.name) || /_(approval|signature|rejected_reason|comments)$/.test(f.name))
        issue(`The field name ${f.name} is reserved`);
      if (f.type === 'choice' && (!f.options || f.options.length < 2)) issue(`The choice ${f.label} needs at least two options`);
      if (f.type === 'choice' && f.options && new Set(f.options).size !== f.options.length)
        issue(`The choice ${f.label} lists an option twice`);
      if (f.min !== undefined && f.max !== undefined && f.min > f.max) issue(`${f.label}: min is above max`);
    }
    for (const s of t.chain) {
      if (s.when) {
        const err = conditionError(s.when, t.fields);
        if (err) issue(err);
      }
    }
    // The requester fills in the fields conditions read: with every stage conditional they could choose values that
    // skip them all and have a request approved by nobody.
    if (t.chain.length > 0 && t.chain.every((s) => s.when))
      issue('At least one stage of the chain must apply to every request (without a condition)');
  });
export type FormTypeInput = z.output<typeof FormTypeInputSchema>;

// ---- wire <-> registry ---------------------------------------------------------------------------

/** The admin API's type of a registry field. */
export function wireTypeOf(fd: FieldDef): WireFieldType {
  if (fd.wireType) return fd.wireType;
  switch (fd.type) {
    case 'longtext':
      return 'long text';
    case 'integer':
      return 'number';
    case 'enum':
      return fd.options?.length === 2 && fd.options[0] === 'Yes' && fd.options[1] === 'No' ? 'yes/no' : 'choice';
    default:
      return fd.type;
  }
}

export function wireField(fd: FieldDef): WireField {
  const type = wireTypeOf(fd);
  const out: WireField = { name: fd.name, label: fd.label, type, required: fd.required };
  if (type === 'choice') out.options = [...(fd.options ?? [])];
  if (fd.min !== undefined) out.min = fd.min;
  if (fd.max !== undefined) out.max = fd.max;
  if (fd.help) out.help = fd.help;
  return out;
}

/** The question the assistant asks for a field of a data-defined type. */
function questionFor(f: WireField): string {
  const what = f.label.replace(/\s*\(.*\)\s*$/, '').toLowerCase();
  if (f.type === 'yes/no') return `${f.label}: yes or no?`;
  if (f.type === 'choice') return `Which ${what} (${(f.options ?? []).join(', ')})?`;
  if (f.type === 'date') return `Which date is the ${what}?`;
  if (f.type === 'money') return `What is the ${what}, in USD?`;
  return `What is the ${what}?`;
}

/** A registry field from an admin-defined one (text bounds are lengths, number bounds values). */
export function registryField(f: WireField): FieldDef {
  const fd: FieldDef = {
    name: f.name,
    label: f.label,
    type: TO_REGISTRY[f.type],
    required: f.required,
    question: questionFor(f),
    wireType: f.type,
  };
  if (f.type === 'choice') fd.options = f.options;
  if (f.type === 'yes/no') fd.options = YES_NO;
  if (f.min !== undefined && f.type !== 'text' && f.type !== 'long text') fd.min = f.min;
  if (f.max !== undefined) fd.max = f.max;
  if (f.help) fd.help = f.help;
  return fd;
}

/** Request-id prefix of a new type: the initials of its slug, made unique against `taken`. */
export function idPrefixFor(formType: string, taken: ReadonlySet<string>): string {
  const base =
    formType
      .split('-')
      .filter(Boolean)
      .map((w) => w[0])
      .join('')
      .toUpperCase()
      .slice(0, 4) || 'REQ';
  const stem = base.length >= 2 ? base : `${base}${formType.replace(/-/g, '')[1]?.toUpperCase() ?? 'X'}`;
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n += 1) if (!taken.has(`${stem}${n}`)) return `${stem}${n}`;
}

/** A data-defined stage as the registry keeps it: the approver, its label (named by the server) and condition. */
export function chainStageDef(s: WireStage, label: string): ChainStageDef {
  return { approver: s.approver, label, ...(s.when ? { when: s.when } : {}) };
}

/** The registry entry of an admin-defined type. */
export function registryDefOf(
  t: FormTypeInput | WireFormType,
  opts: { idPrefix: string; version: number; stageLabels: readonly string[] },
): FormTypeDef {
  const fields = t.fields.map(registryField);
  const money = t.fields.find((f) => f.type === 'money');
  const long = t.fields.find((f) => f.type === 'long text');
  const dates = t.fields.filter((f) => f.type === 'date');
  const words = t.title
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2);
  return {
    formType: t.form_type,
    title: t.title,
    category: t.category,
    icon: t.icon,
    idPrefix: opts.idPrefix,
    chain: [],
    stages: t.chain.map((s, i) => chainStageDef(s, opts.stageLabels[i] ?? s.approver)),
    fields,
    keywords: [...new Set([t.title.toLowerCase(), ...t.keywords.map((k) => k.toLowerCase()), ...words])],
    ...(money ? { amountField: money.name } : {}),
    ...(long ? { purposeField: long.name } : {}),
    catalogue: { description: t.description, estimatedTime: '3-5 min', priority: 'medium' },
    ...(dates.length
      ? {
          calendar: {
            kind: 'booking' as const,
            start: dates[0].name,
            ...(dates[1] ? { end: dates[1].name } : {}),
            label: () => t.title,
          },
        }
      : {}),
    enabled: t.enabled,
    version: opts.version,
    custom: true,
  };
}

/** A registry entry in the admin API's shape. */
export function wireFormType(def: FormTypeDef): WireFormType & { version: number; builtin: boolean; id_prefix: string } {
  return {
    form_type: def.formType,
    title: def.title,
    category: def.category,
    description: def.catalogue.description,
    enabled: def.enabled !== false,
    icon: def.icon,
    keywords: [...def.keywords],
    fields: def.fields.map(wireField),
    chain: def.stages
      ? def.stages.map((s) => ({ approver: s.approver, ...(s.when ? { when: s.when } : {}) }))
      : builtinChainAsWire(def.chain),
    version: def.version ?? 1,
    builtin: def.custom !== true,
    id_prefix: def.idPrefix,
  };
}

/** The label of a stage key on records (built-in stage labels, else the data chain's own label). */
export function stageKeyLabel(key: string): string {
  return key in STAGES ? STAGES[key as Stage].label : key === 'managers_manager' ? "Manager's Manager" : key;
}

// ---- stored types -> registry entries (the server's registry sync and the web's) ----------------------------

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
  const chainEdited = !sameChain(d.chain, builtinChainAsWire(code.chain)) && !sameChain(d.chain, legacyBuiltinChainAsWire(code.chain));
  return {
    ...code,
    fields: [...code.fields, ...extra],
    enabled: row.enabled,
    version: row.version,
    ...(chainEdited ? { stages: d.chain.map((s, i) => chainStageDef(s, d.stage_labels[i] ?? s.approver)) } : {}),
  };
}
