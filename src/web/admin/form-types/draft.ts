// The form-type editor's working copy: what the administrator is typing (strings, as the inputs hold them), how it
// becomes the API's payload, the checks made before sending (each message on the control it is about) and where a
// refusal of the server belongs. Pure functions: the editors and their tests share them.
import { FORM_TYPE_SLUG } from '../../../domain/form-types';
import { ApiError } from '../../api/client';
import type { ConditionOp, FormTypeInput, FormTypeRecord, WireField, WireFieldType, WireStage } from './api';

export const FIELD_TYPES: readonly { id: WireFieldType; label: string }[] = [
  { id: 'text', label: 'Text' },
  { id: 'long text', label: 'Long text' },
  { id: 'number', label: 'Number' },
  { id: 'money', label: 'Money (USD)' },
  { id: 'date', label: 'Date' },
  { id: 'time', label: 'Time' },
  { id: 'choice', label: 'Choice' },
  { id: 'yes/no', label: 'Yes / no' },
];

export { CATEGORIES } from '../../../domain/form-types';

export const OPS: readonly { id: ConditionOp; label: string }[] = [
  { id: '>', label: 'is more than' },
  { id: '>=', label: 'is at least' },
  { id: '<', label: 'is less than' },
  { id: '<=', label: 'is at most' },
  { id: '=', label: 'is' },
  { id: '!=', label: 'is not' },
];

/** Field types that compare by order (the others only by = and !=). */
const ORDERED: ReadonlySet<WireFieldType> = new Set(['number', 'money', 'date', 'time']);
/** Field types with bounds: a number's or money's least and greatest value, a text's length. */
export const BOUNDED: ReadonlySet<WireFieldType> = new Set(['number', 'money', 'text', 'long text']);

export const opsFor = (type: WireFieldType | undefined) => OPS.filter((o) => (type && ORDERED.has(type)) || o.id === '=' || o.id === '!=');

export type ApproverKind = 'line_manager' | 'managers_manager' | 'hr_contact' | 'group' | 'person';

export interface FieldDraft {
  /** React key, stable while fields move. */
  key: string;
  label: string;
  name: string;
  /** The name was typed (else it follows the label). */
  nameEdited: boolean;
  type: WireFieldType;
  required: boolean;
  /** One option a line. */
  options: string;
  min: string;
  max: string;
  help: string;
  /** Stored on a type that has requests: it stays (its name and type are fixed). */
  stored: boolean;
}

export interface StageDraft {
  key: string;
  kind: ApproverKind;
  group: string;
  /** Employee code of a named person, and how to show them. */
  person: string;
  personLabel: string;
  conditional: boolean;
  field: string;
  op: ConditionOp;
  value: string;
}

export interface TypeDraft {
  form_type: string;
  formTypeEdited: boolean;
  title: string;
  category: string;
  icon: string;
  description: string;
  enabled: boolean;
  fields: FieldDraft[];
  chain: StageDraft[];
}

/** Messages by place: 'title', 'fields', 'fields.2.options', 'chain.0.approver', 'chain.1.value', ... */
export type DraftErrors = Record<string, string>;

let counter = 0;
const key = () => `k${++counter}`;

/** 'Amount (USD)' -> 'amount_usd': the stored name of a field. */
export function nameFromLabel(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^[0-9_]+/, '')
    .slice(0, 40);
}

/** 'Conference Travel 2027' -> 'conference-travel': a type's name in URLs (lower-case words with dashes). */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

const FIELD_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

export function newField(): FieldDraft {
  return {
    key: key(),
    label: '',
    name: '',
    nameEdited: false,
    type: 'text',
    required: true,
    options: '',
    min: '',
    max: '',
    help: '',
    stored: false,
  };
}

export function newStage(kind: ApproverKind = 'line_manager'): StageDraft {
  return { key: key(), kind, group: '', person: '', personLabel: '', conditional: false, field: '', op: '>', value: '' };
}

export function emptyDraft(): TypeDraft {
  return {
    form_type: '',
    formTypeEdited: false,
    title: '',
    category: 'Other',
    icon: 'FileText',
    description: '',
    enabled: true,
    fields: [newField()],
    chain: [newStage()],
  };
}

const numText = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The editor's copy of a stored type. */
export function draftOf(t: FormTypeRecord, used: boolean): TypeDraft {
  return {
    form_type: t.form_type,
    formTypeEdited: true,
    title: t.title,
    category: t.category,
    icon: t.icon ?? 'FileText',
    description: t.description ?? '',
    enabled: t.enabled,
    fields: t.fields.map((f) => ({
      key: key(),
      label: f.label,
      name: f.name,
      nameEdited: true,
      type: f.type,
      required: f.required,
      options: (f.options ?? []).join('\n'),
      min: numText(f.min),
      max: numText(f.max),
      help: f.help ?? '',
      stored: used,
    })),
    chain: t.chain.map((s) => stageDraftOf(s)),
  };
}

function stageDraftOf(s: WireStage): StageDraft {
  const d = newStage();
  if (s.approver.startsWith('group:')) Object.assign(d, { kind: 'group', group: s.approver.slice(6) });
  else if (s.approver.startsWith('person:'))
    Object.assign(d, { kind: 'person', person: s.approver.slice(7), personLabel: s.approver.slice(7) });
  else d.kind = s.approver === 'managers_manager' || s.approver === 'hr_contact' ? s.approver : 'line_manager';
  if (s.when) Object.assign(d, { conditional: true, field: s.when.field, op: s.when.op, value: String(s.when.value) });
  return d;
}

export const optionsOf = (f: Pick<FieldDraft, 'options'>) =>
  f.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);

const isNum = (s: string) => s.trim() !== '' && Number.isFinite(Number(s));

/** The checks the editor makes before sending; the server makes them again (and more) and has the last word. */
export function validateDraft(d: TypeDraft, isNew: boolean, used = false): DraftErrors {
  const e: DraftErrors = {};
  if (!d.title.trim()) e.title = 'Title is required';
  if (isNew && !FORM_TYPE_SLUG.test(d.form_type))
    e.form_type = d.form_type ? 'Use lower-case letters and dashes only (2 to 49), e.g. conference-travel' : 'Form type id is required';
  if (!d.description.trim()) e.description = 'Description is required';

  if (d.fields.length === 0) e.fields = 'Add at least one field';
  const seen = new Map<string, number>();
  d.fields.forEach((f, i) => {
    const p = `fields.${i}`;
    if (!f.label.trim()) e[`${p}.label`] = 'Label is required';
    else if (!FIELD_NAME_PATTERN.test(f.name)) e[`${p}.name`] = 'Name must start with a letter: lower-case letters, digits and _';
    else if (seen.has(f.name)) e[`${p}.name`] = `Another field (${seen.get(f.name)! + 1}) already has the name ${f.name}`;
    else seen.set(f.name, i);
    if (used && !f.stored && f.required) e[`${p}.required`] = 'Requests exist already: a new field must be optional';
    if (f.type === 'choice') {
      const opts = optionsOf(f);
      if (opts.length < 2) e[`${p}.options`] = 'A choice needs at least two options, one a line';
      else if (new Set(opts.map((o) => o.toLowerCase())).size !== opts.length) e[`${p}.options`] = 'Each option may appear only once';
    }
    if (BOUNDED.has(f.type)) {
      if (f.min.trim() && !isNum(f.min)) e[`${p}.min`] = 'Minimum must be a number';
      if (f.max.trim() && !isNum(f.max)) e[`${p}.max`] = 'Maximum must be a number';
      if (isNum(f.min) && isNum(f.max) && Number(f.max) < Number(f.min)) e[`${p}.max`] = 'Maximum cannot be less than the minimum';
      if (f.type !== 'number' && f.type !== 'money' && isNum(f.min) && Number(f.min) < 0) e[`${p}.min`] = 'A length cannot be negative';
    }
  });

  if (d.chain.length === 0) e.chain = 'Add at least one approval stage';
  d.chain.forEach((s, i) => {
    const p = `chain.${i}`;
    if (s.kind === 'group' && !s.group) e[`${p}.approver`] = 'Choose a group';
    if (s.kind === 'person' && !s.person) e[`${p}.approver`] = 'Choose a person';
    if (!s.conditional) return;
    const field = d.fields.find((f) => f.name === s.field && f.label.trim());
    if (!field) {
      e[`${p}.field`] = 'Choose the field the condition is about';
      return;
    }
    if (!opsFor(field.type).some((o) => o.id === s.op)) e[`${p}.op`] = `${field.label} can only be compared with "is" or "is not"`;
    const v = s.value.trim();
    if (!v) e[`${p}.value`] = 'Enter the value to compare with';
    else if ((field.type === 'number' || field.type === 'money') && !isNum(v)) e[`${p}.value`] = 'The value must be a number';
    else if (field.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) e[`${p}.value`] = 'The value must be a date';
    else if (field.type === 'choice' && !optionsOf(field).includes(v)) e[`${p}.value`] = `Choose one of the options of ${field.label}`;
  });
  return e;
}

function conditionValue(s: StageDraft, fields: FieldDraft[]): string | number {
  const type = fields.find((f) => f.name === s.field)?.type;
  if (type === 'number' || type === 'money') return Number(s.value);
  return s.value.trim();
}

/** The API's payload of the draft. */
export function payloadOf(d: TypeDraft): FormTypeInput {
  return {
    form_type: d.form_type,
    title: d.title.trim(),
    category: d.category,
    icon: d.icon,
    description: d.description.trim(),
    enabled: d.enabled,
    fields: d.fields.map((f): WireField => {
      const out: WireField = { name: f.name, label: f.label.trim(), type: f.type, required: f.required };
      if (f.type === 'choice') out.options = optionsOf(f);
      if (BOUNDED.has(f.type) && isNum(f.min)) out.min = Number(f.min);
      if (BOUNDED.has(f.type) && isNum(f.max)) out.max = Number(f.max);
      if (f.help.trim()) out.help = f.help.trim();
      return out;
    }),
    chain: d.chain.map((s): WireStage => ({
      approver: s.kind === 'group' ? `group:${s.group}` : s.kind === 'person' ? `person:${s.person}` : s.kind,
      ...(s.conditional ? { when: { field: s.field, op: s.op, value: conditionValue(s, d.fields) } } : {}),
    })),
  };
}

/** A path ('fields.2.options', ['chain', 0, 'when', 'value'], 'title') cut to the places the editor shows. */
function placeOfPath(parts: string[]): string {
  const [head, index, ...rest] = parts;
  if (head === 'fields' || head === 'chain') {
    if (index === undefined || !/^\d+$/.test(index)) return head;
    let leaf = rest.filter((r) => r !== 'when')[0];
    if (head === 'chain') leaf = leaf === 'field' || leaf === 'op' || leaf === 'value' ? leaf : 'approver';
    else leaf = ['label', 'name', 'options', 'min', 'max', 'type', 'required', 'help'].includes(leaf ?? '') ? leaf : 'label';
    return `${head}.${index}.${leaf}`;
  }
  return ['title', 'form_type', 'category', 'description', 'icon', 'enabled'].includes(head) ? head : '';
}

const splitPath = (raw: string) =>
  raw
    .replace(/\[(\d+)\]/g, '.$1')
    .split(/[./]/)
    .filter(Boolean);

/**
 * Where a refusal of the server belongs, and its text: the body's `path` / `field`, else the validation message's
 * own path ('body/fields/1/label Label is required'), else what the message names in the draft (a field by its
 * name, a group or person of a stage, a condition's field); '' for the whole form.
 */
export function serverError(err: unknown, d?: TypeDraft): { place: string; message: string } {
  const message = err instanceof Error && err.message ? err.message : 'Something went wrong. Please try again.';
  if (!(err instanceof ApiError)) return { place: '', message };
  const body = (err.body ?? {}) as { field?: unknown; path?: unknown };
  const raw = body.path ?? body.field;
  if (Array.isArray(raw) || typeof raw === 'string') {
    const place = placeOfPath(Array.isArray(raw) ? raw.map(String) : splitPath(raw));
    if (place) return { place, message };
  }
  const prefixed = /^body\/(\S+)\s+(.+)$/s.exec(message);
  if (prefixed) return { place: placeOfPath(splitPath(prefixed[1])), message: prefixed[2] };
  if (!d) return { place: '', message };
  const text = message.toLowerCase();
  const words = new Set(text.split(/[^a-z0-9_:-]+/));
  if (/condition/.test(text)) {
    const i = d.chain.findIndex((s) => s.conditional && s.field && words.has(s.field.toLowerCase()));
    const j =
      i >= 0
        ? i
        : d.chain.findIndex((s) => s.conditional && d.fields.some((f) => f.name === s.field && text.includes(f.label.toLowerCase())));
    if (j >= 0) return { place: `chain.${j}.${/field/.test(text) && !/needs|compare|only use/.test(text) ? 'field' : 'value'}`, message };
  }
  const stage = d.chain.findIndex(
    (s) =>
      (s.kind === 'group' && s.group && words.has(s.group.toLowerCase())) ||
      (s.kind === 'person' && s.person && words.has(s.person.toLowerCase())),
  );
  if (stage >= 0) return { place: `chain.${stage}.approver`, message };
  const field = d.fields.findIndex((f) => f.name && (words.has(f.name.toLowerCase()) || text.includes(`(${f.name.toLowerCase()})`)));
  if (field >= 0) return { place: `fields.${field}.${/required/.test(text) ? 'required' : /type/.test(text) ? 'type' : 'name'}`, message };
  if (/form.?type|slug|already exists/.test(text)) return { place: 'form_type', message };
  if (/title/.test(text)) return { place: 'title', message };
  return { place: '', message };
}
