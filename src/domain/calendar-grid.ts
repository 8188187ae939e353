// The form calendar popover's rules: Monday-first month grids, Saturday and Sunday as weekend, at most 2 event
// dots per day plus an overflow count, and which dates of a user's own forms (leave ranges, travel dates, bookings,
// submission dates) appear on it, plus holidays.
import { businessDate, isWeekend as businessWeekend, weekdayOf } from './business-time.js';
import { formTypeDef } from './forms.js';
import type { HolidayType } from './holidays.js';

export const MAX_DOTS_PER_DAY = 2;
/** Longest date range drawn for one form (a mistyped year must not paint months). */
export const MAX_RANGE_DAYS = 62;

export type CalendarEventKind = 'holiday' | 'leave' | 'travel' | 'booking' | 'submission';

export interface CalendarEvent {
  /** YYYY-MM-DD */
  date: string;
  kind: CalendarEventKind;
  title: string;
  /** Holidays: national, festival or public. */
  holidayType?: HolidayType;
  /** Forms: the request id, form type and status. */
  formId?: string;
  formType?: string;
  status?: string;
  /** Text for the day list, e.g. 'Annual leave, day 2 of 3' or '10:00-11:00 Board Room'. */
  detail?: string;
}

export interface DayCell {
  date: string;
  day: number;
  inMonth: boolean;
  weekend: boolean;
  today: boolean;
  events: CalendarEvent[];
  /** The first MAX_DOTS_PER_DAY events' kinds, one dot each. */
  dots: CalendarEvent[];
  /** Events beyond the dots ('+n'). */
  overflow: number;
}

/** Weekday headers, Monday first. */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Saturday and Sunday (the business calendar's weekend). */
export const isWeekend = businessWeekend;

/** Monday = 0 ... Sunday = 6. */
export function mondayIndex(date: string): number {
  return (weekdayOf(date) + 6) % 7;
}

/** Display order of event kinds within a day: holidays first, then what the user asked for. */
const KIND_ORDER: Record<CalendarEventKind, number> = { holiday: 0, leave: 1, travel: 2, booking: 3, submission: 4 };

export function groupByDate(events: readonly CalendarEvent[]): Map<string, CalendarEvent[]> {
  const map = new Map<string, CalendarEvent[]>();
  for (const e of events) {
    const list = map.get(e.date) ?? [];
    list.push(e);
    map.set(e.date, list);
  }
  for (const list of map.values()) list.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.title.localeCompare(b.title));
  return map;
}

/**
 * The weeks of a month (month 0-11), Monday first, padded with the neighbouring months' days to whole weeks.
 * `today` is a YYYY-MM-DD in the viewer's time zone.
 */
export function monthGrid(year: number, month: number, events: readonly CalendarEvent[], today = ''): DayCell[][] {
  const first = Date.UTC(year, month, 1);
  const last = Date.UTC(year, month + 1, 0);
  const start = first - mondayIndex(iso(first)) * DAY;
  const end = last + (6 - mondayIndex(iso(last))) * DAY;
  const byDate = groupByDate(events);
  const weeks: DayCell[][] = [];
  for (let t = start; t <= end; t += 7 * DAY) {
    const week: DayCell[] = [];
    for (let i = 0; i < 7; i += 1) {
      const d = new Date(t + i * DAY);
      const date = iso(d.getTime());
      const dayEvents = byDate.get(date) ?? [];
      week.push({
        date,
        day: d.getUTCDate(),
        inMonth: d.getUTCMonth() === month,
        weekend: i >= 5,
        today: date === today,
        events: dayEvents,
        dots: dayEvents.slice(0, MAX_DOTS_PER_DAY),
        overflow: Math.max(0, dayEvents.length - MAX_DOTS_PER_DAY),
      });
    }
    weeks.push(week);
  }
  return weeks;
}

/** The month after/before (month 0-11). */
export function shiftMonth(year: number, month: number, by: number): { year: number; month: number } {
  const m = year * 12 + month + by;
  return { year: Math.floor(m / 12), month: ((m % 12) + 12) % 12 };
}

type Rec = Record<string, unknown>;

const DATE_RE = /^\d{4}-\d{2}-\d{2}/;
function dateOf(v: unknown): string | null {
  if (typeof v !== 'string' || !DATE_RE.test(v)) return null;
  const d = v.slice(0, 10);
  return Number.isNaN(utc(d)) ? null : d;
}

/** A timestamp's business date, the organisation's calendar day (a plain YYYY-MM-DD stays as it is). */
function localDateOf(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  if (v.length <= 10) return dateOf(v);
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return null;
  return businessDate(d);
}

function range(start: string, end: string | null): string[] {
  const a = utc(start);
  const b = end && utc(end) >= a ? utc(end) : a;
  const out: string[] = [];
  for (let t = a; t <= b && out.length < MAX_RANGE_DAYS; t += DAY) out.push(iso(t));
  return out;
}

/** Which date fields of a form type are drawn, and as what: its registry entry's `calendar`; every other form shows on its submission date. */
const datedForm = (formType: string) => formTypeDef(formType)?.calendar;

function formTitleOf(r: Rec): string {
  return typeof r.title === 'string' && r.title ? r.title : String(r.form_type ?? 'Form');
}

/**
 * Calendar events of the signed-in user's forms. `forms` is GET /api/forms/user-forms (an object keyed by form type,
 * each a list) or a flat list; forms whose employee_id is not `employeeCode` are left out (the spec: 'Only forms whose
 * employee_id equals the current user are shown'). Dated forms (leave, travel, bookings) show on their dates,
 * rejected ones too (marked by status); every form also shows on its submission date.
 */
export function formEvents(
  forms: Record<string, readonly Rec[]> | readonly Rec[] | null | undefined,
  employeeCode: string,
): CalendarEvent[] {
  if (!forms) return [];
  const list: Rec[] = Array.isArray(forms)
    ? [...(forms as readonly Rec[])]
    : Object.entries(forms as Record<string, readonly Rec[]>).flatMap(([type, items]) =>
        Array.isArray(items) ? items.map((r) => ({ form_type: type, ...r })) : [],
      );
  const out: CalendarEvent[] = [];
  for (const r of list) {
    if (!r || String(r.employee_id ?? '') !== employeeCode) continue;
    const formType = String(r.form_type ?? '');
    const formId = String(r.request_id ?? r.form_id ?? r.id ?? '');
    const status = r.status == null ? undefined : String(r.status);
    const title = formTitleOf(r);
    const dated = datedForm(formType);
    const start = dated ? dateOf(r[dated.start]) : null;
    if (dated && start) {
      const days = range(start, dated.end ? dateOf(r[dated.end]) : null);
      days.forEach((date, i) => {
        out.push({
          date,
          kind: dated.kind,
          title: dated.label(r),
          formId,
          formType,
          status,
          detail: days.length > 1 ? `${formId} · day ${i + 1} of ${days.length}` : formId,
        });
      });
    }
    const submitted = localDateOf(r.created_at);
    if (submitted) out.push({ date: submitted, kind: 'submission', title: `${title} submitted`, formId, formType, status, detail: formId });
  }
  return out;
}

/** Calendar events of holidays. */
export function holidayEvents(
  holidays: ReadonlyArray<{ date: string; name: string; type: HolidayType }> | null | undefined,
): CalendarEvent[] {
  return (holidays ?? [])
    .filter((h) => dateOf(h.date))
    .map((h) => ({ date: h.date.slice(0, 10), kind: 'holiday' as const, title: h.name, holidayType: h.type }));
}

/**
 * The day the calendar's keyboard moves to from `date` ('YYYY-MM-DD'): arrows by a day (left/right) or a week
 * (up/down), Home/End to the week's Monday/Sunday, PageUp/PageDown by a month (the same day, or the month's last day).
 * Null for any other key.
 */
export function moveDay(date: string, key: string): string | null {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return null;
  const byDays = (n: number) => new Date(d.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  switch (key) {
    case 'ArrowLeft':
      return byDays(-1);
    case 'ArrowRight':
      return byDays(1);
    case 'ArrowUp':
      return byDays(-7);
    case 'ArrowDown':
      return byDays(7);
    case 'Home':
      return byDays(-mondayIndex(date));
    case 'End':
      return byDays(6 - mondayIndex(date));
    case 'PageUp':
    case 'PageDown': {
      const { year, month } = shiftMonth(d.getUTCFullYear(), d.getUTCMonth(), key === 'PageUp' ? -1 : 1);
      const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
      return new Date(Date.UTC(year, month, Math.min(d.getUTCDate(), last))).toISOString().slice(0, 10);
    }
    default:
      return null;
  }
}
