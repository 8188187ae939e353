// The employee's submissions as the 'Your Forms & Requests' lists show them:
// one newest-first list with title, icon, category and '#n of total', the date windows, chips and filters.
import { businessToday, businessYear, startOfBusinessDate } from '../../domain/business-time';
import { formTypeDef, humanise } from '../../domain/forms';
import { type StatusFilter, matchesStatusFilter } from '../../domain/status';
import type { FormRecord, UserFormsByType } from './types';

export interface Submission extends FormRecord {
  formType: string;
  title: string;
  /** lucide-react icon name. */
  icon: string;
  category: string;
  /** 1 for the person's first request of this type. */
  submissionNumber: number;
  totalSubmissions: number;
}

const time = (r: { created_at: string }) => {
  const t = Date.parse(r.created_at);
  return Number.isNaN(t) ? 0 : t;
};

/** Newest first by created_at (ties: higher id first). */
export function newestFirst<T extends { created_at: string; id?: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => time(b) - time(a) || (b.id ?? 0) - (a.id ?? 0));
}

/** Derives title, icon, category and submission numbers, and merges the per-type lists newest first. */
export function flattenUserForms(byType: UserFormsByType | null | undefined): Submission[] {
  const out: Submission[] = [];
  for (const [formType, list] of Object.entries(byType ?? {})) {
    if (!Array.isArray(list)) continue;
    const def = formTypeDef(formType);
    const oldestFirst = newestFirst(list).reverse();
    oldestFirst.forEach((r, i) => {
      out.push({
        ...r,
        formType,
        title: def?.title ?? humanise(formType),
        icon: def?.icon ?? 'FileText',
        category: def?.category ?? 'Other',
        submissionNumber: i + 1,
        totalSubmissions: oldestFirst.length,
      });
    });
  }
  return newestFirst(out);
}

/** One record as a submission (numbered alone: its place among the person's others is not known). */
export function submissionOf(record: FormRecord): Submission | null {
  return flattenUserForms({ [record.form_type]: [record] })[0] ?? null;
}

export const DATE_FILTERS = ['All Time', 'Today', 'This Week', 'This Month', 'Last 3 Months', 'Last 6 Months', 'This Year'] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

/**
 * Start of a date window: today and this year begin at midnight of the organisation's calendar (its time zone,
 * as the server counts days); the week is the last 7 days, the month 1 month, then 3 and 6 months back.
 */
export function dateFilterStart(filter: DateFilter, now: Date = new Date()): Date | null {
  const d = new Date(now);
  switch (filter) {
    case 'All Time':
      return null;
    case 'Today':
      return startOfBusinessDate(businessToday(now));
    case 'This Week':
      return new Date(now.getTime() - 7 * 86_400_000);
    case 'This Month':
      d.setMonth(d.getMonth() - 1);
      return d;
    case 'Last 3 Months':
      d.setMonth(d.getMonth() - 3);
      return d;
    case 'Last 6 Months':
      d.setMonth(d.getMonth() - 6);
      return d;
    case 'This Year':
      return startOfBusinessDate(`${businessYear(now)}-01-01`);
  }
}

export function matchesDateFilter(createdAt: string, filter: DateFilter, now: Date = new Date()): boolean {
  const start = dateFilterStart(filter, now);
  if (!start) return true;
  const t = Date.parse(createdAt);
  return !Number.isNaN(t) && t >= start.getTime();
}

/** 'All Forms' plus the categories found in the list, alphabetically. */
export function categoryOptions(list: readonly Submission[]): string[] {
  return ['All Forms', ...[...new Set(list.map((s) => s.category))].sort((a, b) => a.localeCompare(b))];
}

export interface SubmissionFilters {
  category?: string;
  date?: DateFilter;
  /** Externally supplied form type ('all' or undefined for every type). */
  formType?: string;
  /** Externally supplied status filter. */
  status?: StatusFilter;
}

export function filterSubmissions(list: readonly Submission[], f: SubmissionFilters, now: Date = new Date()): Submission[] {
  return list.filter(
    (s) =>
      (!f.category || f.category === 'All Forms' || s.category === f.category) &&
      (!f.date || matchesDateFilter(s.created_at, f.date, now)) &&
      (!f.formType || matchesChip(f.formType, s.formType)) &&
      (!f.status || matchesStatusFilter(f.status, s.status)),
  );
}

/** The dashboard's form-type chips in the spec's order (a chip shows only when its count is above 0). */
export const DASHBOARD_CHIPS: ReadonlyArray<{ id: string; label: string }> = [
  { id: 'all', label: 'All Forms' },
  { id: 'leave-request', label: 'Leave Request' },
  { id: 'travel-request', label: 'Travel Request' },
  { id: 'petty-cash', label: 'Petty Cash' },
  { id: 'it-incident', label: 'IT Incident' },
  { id: 'meeting-room', label: 'Meeting Room' },
  { id: 'info-update', label: 'Info Update' },
  { id: 'facility-access', label: 'Facility Access' },
  { id: 'purchase-requisition', label: 'Purchase Requisitions' },
  { id: 'password-reset', label: 'Password Reset' },
];

/** Chip for the form types that have no chip of their own, so the chips always add up to All Forms. */
export const OTHER_FORMS_CHIP = { id: 'other', label: 'Other Forms' } as const;

const CHIP_TYPES = new Set(DASHBOARD_CHIPS.map((c) => c.id).filter((id) => id !== 'all'));

/** Whether a request passes a form-type chip ('all', a form type, or 'other' for the types without a chip). */
export function matchesChip(chip: string, formType: string): boolean {
  if (chip === 'all') return true;
  if (chip === OTHER_FORMS_CHIP.id) return !CHIP_TYPES.has(formType);
  return formType === chip;
}

/** Chips with their counts, only those above 0; the type chips add up to All Forms. */
export function visibleChips(list: readonly Submission[]): Array<{ id: string; label: string; count: number }> {
  return [...DASHBOARD_CHIPS, OTHER_FORMS_CHIP]
    .map((c) => ({ ...c, count: list.filter((s) => matchesChip(c.id, s.formType)).length }))
    .filter((c) => c.count > 0);
}

/** Requests still open for the person (the header's tasks list): not yet finally decided, newest first. */
export function openRequests(list: readonly Submission[]): Submission[] {
  const done = ['approved', 'rejected', 'cancelled', 'closed', 'completed'];
  return list.filter(
    (s) =>
      !done.includes(
        String(s.status ?? '')
          .trim()
          .toLowerCase(),
      ),
  );
}
