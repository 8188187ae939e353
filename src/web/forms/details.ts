// What the details views (the employee's form-details modal and history screens, and the approver's details for
// types without a spec card) show of a record: the spec's details card of a form type, else a card built from the
// registry (its fields, labels and order) followed by whatever else the record holds (the generic field list, with
// the spec's hidden fields and Yes/No booleans), and value formatting.
import { derivedItSupportStatus } from '../../domain/approvals';
import {
  type DetailFieldDef,
  type DetailKind,
  type DetailValue,
  type FieldType,
  FORM_TYPES,
  STAGES,
  type Stage,
  detailsOf,
  formTitle,
  formTypeDef,
  humanise,
} from '../../domain/forms';
import { formatDate, formatText, formatUsd } from '../format';
import type { FormRecord } from './types';

export type FieldKind = DetailKind;
/** Which side a details view is for: the owner's, or an approver's (approver dashboards, the IT desk). */
export type DetailAudience = 'employee' | 'approver';
export type CardField = readonly [
  name: string,
  label: string,
  kind?: FieldKind,
  emptyText?: string,
  more?: Pick<DetailFieldDef, 'value' | 'audience'>,
];

export interface DetailCard {
  title: string;
  fields: readonly CardField[];
}

/** A type's own details card in the registry (its `details` entry), or undefined. */
function registryCard(formType: string): DetailCard | undefined {
  const d = detailsOf(formType);
  return d
    ? {
        title: d.title,
        fields: d.fields.map((x): CardField => [x.name, x.label, x.kind, x.emptyText, { value: x.value, audience: x.audience }]),
      }
    : undefined;
}

/** The details cards the registry gives (the spec's cards); other types get a card built from their fields. */
export const DETAIL_CARDS: Record<string, DetailCard> = Object.fromEntries(
  FORM_TYPES.flatMap((t) => {
    const card = registryCard(t.formType);
    return card ? [[t.formType, card] as const] : [];
  }),
);

const KIND_OF: Record<FieldType, FieldKind> = {
  text: 'text',
  longtext: 'long',
  date: 'date',
  time: 'time',
  integer: 'number',
  number: 'number',
  money: 'money',
  enum: 'text',
};

/**
 * The details card of a form type: the registry entry's `details` card where it has one, else the registry's fields in
 * their order, labelled as on the form (money labels without '(USD)': the value reads 'USD $...'). Undefined for a
 * type the registry does not know.
 */
export function detailCard(formType: string): DetailCard | undefined {
  // Read from the registry on each call: a type registered or changed at run time (types as data) has its own card.
  const card = registryCard(formType);
  if (card) return card;
  const def = formTypeDef(formType);
  if (!def) return undefined;
  return {
    title: `${def.title} Details`,
    fields: def.fields.map((fd): CardField => [fd.name, fd.label.replace(/\s*\(USD\)$/, ''), KIND_OF[fd.type]]),
  };
}

/**
 * Every row the details views show of a record: its card's rows, and for a registry-built card the record's other
 * fields after them (what the server or the approvers added); an unknown type shows the generic list. The one
 * renderer of the employee's and the approvers' sides: the approvers' side adds the card's approver rows.
 */
export function recordRows(
  r: FormRecord,
  audience: DetailAudience = 'employee',
): Array<{ name: string; label: string; value: string; kind?: FieldKind }> {
  const card = detailCard(String(r.form_type ?? ''));
  if (!card) return genericRows(r);
  const rows = cardRows(r, card, audience);
  // a registry card (also one registered at run time) is the whole view; a card built from the fields is followed by the rest
  if (detailsOf(String(r.form_type ?? ''))) return rows;
  const shown = new Set(card.fields.map(([name]) => name));
  return [...rows, ...genericRows(r).filter((row) => !shown.has(row.name))];
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A value as text: booleans Yes/No, money as 'USD $x.xx', dates in the app's format. */
export function formatValue(value: unknown, kind: FieldKind = 'text'): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (blank(value)) return '';
  if (kind === 'money') return formatUsd(value as number | string);
  if (kind === 'date') return formatDate(String(value));
  if (Array.isArray(value)) return value.map((v) => formatValue(v)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return formatText(String(value));
}

/** The non-empty fields of a type's details card, formatted (a blank field with an `emptyText` in the registry shows that text: facility access's Manager 'N/A'). */
export function cardRows(
  r: FormRecord,
  card: DetailCard,
  audience: DetailAudience = 'employee',
): Array<{ name: string; label: string; value: string; kind: FieldKind }> {
  const rows = [];
  for (const [name, label, kind = 'text', emptyText, more] of card.fields) {
    if (more?.audience === 'approver' && audience !== 'approver') continue;
    let v = more?.value ? computedValue(r, more.value) : r[name];
    if (emptyText !== undefined && blank(v)) v = emptyText;
    const text = formatValue(v, kind);
    if (text !== '') rows.push({ name, label, value: text, kind });
  }
  return rows;
}

/** A row's value computed from the whole record (the registry's `value` of a details field). */
function computedValue(r: FormRecord, value: DetailValue): string {
  switch (value) {
    case 'it-support-status':
      return blank(r.it_support_status) ? derivedItSupportStatus(r) : String(r.it_support_status);
    case 'password-set':
      return r.has_new_password === true || !blank(r.new_password) ? 'Set (visible only to the employee)' : 'Not set';
  }
}

/**
 * Fields the form-details modal's generic list never shows (ids, people, department, status, timestamps), plus the
 * server's bookkeeping.
 */
const HIDDEN = new Set([
  'id',
  'form_id',
  'employee_id',
  'created_at',
  'updated_at',
  'employee_name',
  'department',
  'status',
  'line_manager',
  'request_id',
  'manager',
  // shown elsewhere in the modal or internal
  'form_type',
  'title',
  'employee_user_id',
  'current_stage',
  'next_stage',
  'has_new_password',
  'success',
  'message',
  'formType',
  'icon',
  'category',
  'submissionNumber',
  'totalSubmissions',
  'version',
  // the approver queues' bookkeeping (the approver details use these rows too)
  'actionable',
  'view_only',
  'stage_state',
  'waiting_days',
  'overdue',
]);
const STAGE_PREFIXES = [
  'line_manager',
  'department_head',
  'hr',
  'finance',
  'facilities_desk',
  'facilities_manager',
  'it_helpdesk',
  'it',
  'procurement',
];

export function isHiddenGenericField(name: string): boolean {
  if (HIDDEN.has(name)) return true;
  if (/signature/.test(name)) return true;
  if (/(approval|acknowledgement|confirmation|clearance|verification)/.test(name)) return true;
  if (name.endsWith('_rejected_reason') || name.endsWith('_comments')) return true;
  // who decided for whom (delegation), shown by the delegation notes
  if (/(_on_behalf_of|_decided_as)/.test(name)) return true;
  // the decision dates and ids of the approval steps are shown in the steps
  if (STAGE_PREFIXES.some((p) => name === `${p}_date` || name === `${p}_id`)) return true;
  return false;
}

/** The title and rows a details view shows of a record (`recordRows`); employee and approver sides read the same. */
export function detailRows(
  r: FormRecord,
  audience: DetailAudience = 'employee',
): { title: string | null; rows: Array<{ name: string; label: string; value: string; kind?: FieldKind }> } {
  return { title: detailCard(String(r.form_type ?? ''))?.title ?? null, rows: recordRows(r, audience) };
}

/** Remaining fields sorted by name with humanised labels, hiding the spec's fields and empty values; booleans Yes/No. */
export function genericRows(r: FormRecord): Array<{ name: string; label: string; value: string }> {
  return Object.keys(r)
    .filter((k) => !isHiddenGenericField(k) && !blank(r[k]))
    .sort((a, b) => a.localeCompare(b))
    .map((k) => ({ name: k, label: humanise(k), value: formatValue(r[k], /(_date|_day)$/.test(k) ? 'date' : 'text') }))
    .filter((row) => row.value !== '');
}

/** Keys the web adds to records (submissions.ts) or the submit answer carries; not fields of the request. */
const DERIVED = new Set([
  'title',
  'success',
  'message',
  'has_new_password',
  'formType',
  'icon',
  'category',
  'submissionNumber',
  'totalSubmissions',
]);

/** One step of a record's `approval_chain` in words. */
function chainStepText(step: unknown): string {
  const s = (step ?? {}) as Record<string, unknown>;
  const label = s.label ? formatText(String(s.label)) : humanise(String(s.stage || 'step'));
  const decision = formatText(String(s.decision || 'Pending'));
  const by = s.signer_name ? ` by ${formatText(String(s.signer_name))}` : '';
  const on = s.date ? `, ${formatDate(String(s.date))}` : '';
  return `${label}: ${decision}${by}${on}`;
}

/** Every field of a record for the generic history's 'Record #n' cards (ids included), sorted by name. */
export function allRows(r: FormRecord): Array<{ label: string; value: string }> {
  return Object.keys(r)
    .filter((k) => !DERIVED.has(k) && !blank(r[k]))
    .sort((a, b) => a.localeCompare(b))
    .map((k) => ({ label: humanise(k), value: readableCode(k, r[k]) ?? formatValue(r[k]) }));
}

/**
 * A form type or a stage reads as its name ('Travel Request', 'IT Helpdesk'), never as its code; the approval chain of
 * a type defined as data as its steps ('Line Manager: Approved by Mara Lead, 29 Nov 2026; Finance: Not required').
 */
function readableCode(name: string, value: unknown): string | null {
  if (name === 'form_type') return formTitle(String(value));
  if (name === 'approval_chain' && Array.isArray(value)) return value.map(chainStepText).join('; ');
  if (typeof value === 'string' && value in STAGES) return STAGES[value as Stage].label;
  return null;
}
