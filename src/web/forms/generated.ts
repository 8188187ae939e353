// The rules of a form generated from the registry (src/domain/forms.ts): its react-hook-form resolver, which runs
// the SAME zod schema the server validates with (formSchema) plus the server's date-window rule, so the messages
// are the server's; where a form-level message belongs (a field named by its label, or the whole form); the
// input values of a stored record; and the working days a leave takes.
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { businessToday, countWorkingDays, isIsoDate } from '../../domain/business-time';
import { type FieldDef, type FormTypeDef, dateWindowError, formSchema, formTypeDef } from '../../domain/forms';
import { type Holiday, closedHolidayDates } from '../../domain/holidays';
import type { FormRecord } from './types';

/** What the inputs hold: every value as the text of its control. */
export type FormValues = Record<string, string>;

/** A label without its unit: 'Estimated total (USD)' -> 'Estimated total'. */
const bareLabel = (label: string) => label.replace(/\s*\([^)]*\)\s*$/, '').trim();

/**
 * The field a form-level message is about: the one whose label starts the message ('End date cannot be before
 * start date' -> end_date; the longest label wins), or null for a message about the whole form.
 */
export function fieldOfMessage(def: FormTypeDef, message: string): string | null {
  const m = message.toLowerCase();
  let best: FieldDef | null = null;
  for (const fd of def.fields) {
    const l = bareLabel(fd.label).toLowerCase();
    if (m.startsWith(`${l} `) && (!best || l.length > bareLabel(best.label).length)) best = fd;
  }
  return best?.name ?? null;
}

/** Puts a form-level message on its field, or on the form (errors.root.server). */
function placeMessage(def: FormTypeDef, errors: FieldErrors<FormValues>, message: string): FieldErrors<FormValues> {
  const field = fieldOfMessage(def, message);
  if (field && !errors[field]) return { ...errors, [field]: { type: 'server-rule', message } };
  if (field) return errors;
  return { ...errors, root: { server: { type: 'server-rule', message } } } as unknown as FieldErrors<FormValues>;
}

/**
 * The resolver of a registry form: zodResolver over formSchema(formType) (the server's schema), its form-level
 * issues placed on their field, then the date-window rule the server applies for the same `today`.
 */
export function registryResolver(formType: string, today: () => string = () => businessToday()): Resolver<FormValues> {
  const def = formTypeDef(formType);
  if (!def) throw new Error(`Unknown form type ${formType}`);
  // The schema's input is unknown JSON; the form hands it strings, which it coerces exactly as it does the API's.
  const zr = zodResolver(formSchema(formType) as never) as unknown as Resolver<FormValues>;
  return async (values, context, options) => {
    const r = await zr(values, context, options);
    let errors = { ...(r.errors as FieldErrors<FormValues>) };
    const rootIssue = (errors as Record<string, { message?: string } | undefined>)[''];
    if (rootIssue) {
      delete (errors as Record<string, unknown>)[''];
      if (rootIssue.message) errors = placeMessage(def, errors, rootIssue.message);
    }
    if (Object.keys(errors).length === 0) {
      const windowError = dateWindowError(formType, r.values, today());
      if (windowError) errors = placeMessage(def, errors, windowError);
    }
    return Object.keys(errors).length === 0 ? { values: r.values, errors: {} } : { values: {}, errors };
  };
}

/** Text of a money value with two decimals ('12.5' -> '12.50'); anything that is not a number stays as typed. */
export function moneyText(value: string): string {
  const t = value.trim();
  if (!/^-?\d+(\.\d*)?$|^-?\.\d+$/.test(t)) return value;
  const n = Number(t);
  return Number.isFinite(n) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6 ? n.toFixed(2) : value;
}

/** The empty values of a form type, or those of a stored record (for editing it); money with two decimals. */
export function initialValues(formType: string, record?: FormRecord | null): FormValues {
  const def = formTypeDef(formType);
  const out: FormValues = {};
  for (const fd of def?.fields ?? []) {
    const v = record?.[fd.name];
    const text = v === undefined || v === null ? '' : String(v);
    out[fd.name] = fd.type === 'money' && text !== '' ? moneyText(text) : fd.type === 'date' ? text.slice(0, 10) : text;
  }
  return out;
}

/**
 * Working days a leave from `start` to `end` takes: Monday to Friday, without the office's closed holidays of the
 * list (GET /api/calendar/holidays), counted by the domain's countWorkingDays as the server counts them. Null
 * while a date is missing or the end comes first.
 */
export function leaveWorkingDays(start: string, end: string, holidays: readonly Holiday[]): number | null {
  if (!isIsoDate(start) || !isIsoDate(end) || end < start) return null;
  return countWorkingDays(start, end, closedHolidayDates(holidays, start, end));
}
