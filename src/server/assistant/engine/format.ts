// How the assistant writes values and requests in its replies: dates with weekdays, 'USD $45.50',
// leave days, and one-line descriptions of a request for lists and confirmations.
import { isIsoDate, weekdayOf } from '../../../domain/business-time.js';
import { type FieldDef, formTitle, formTypeDef } from '../../../domain/forms.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** '2027-01-26' -> 'Tuesday, 26 January 2027'. */
export function longDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m || !isIsoDate(m[0])) return iso;
  return `${DAYS[weekdayOf(m[0])]}, ${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}

/** '2027-01-26' -> '26 Jan 2027 (Tue)'. */
export function shortDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m || !isIsoDate(m[0])) return iso;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1].slice(0, 3)} ${m[1]} (${DAYS[weekdayOf(m[0])].slice(0, 3)})`;
}

/** '2027-01-26' -> '26 Jan 2027' (the web's date format), for the short descriptions of requests. */
export function compactDate(iso: string | undefined): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  if (!m || !isIsoDate(m[0])) return iso;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1].slice(0, 3)} ${m[1]}`;
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 2800 -> 'USD $2,800.00' (the web's money format). */
export function usd(n: unknown): string {
  const v = Number(n);
  return Number.isFinite(v) ? `USD $${money.format(v)}` : String(n ?? '');
}

/** 9 -> '9', 9.5 -> '9.5' (one decimal at most). */
export function days(n: number): string {
  const r = Math.round(n * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

export function fieldValue(fd: FieldDef, v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  if (fd.type === 'date') return shortDate(String(v));
  if (fd.type === 'money') return usd(v);
  return String(v);
}

/** At most 60 characters of a value, cut at a word where one is near ('…' marks the cut). */
function clip(text: string, max = 60): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A short description of a request: what it is about, from its most telling fields. */
export function requestGist(rec: Record<string, unknown>): string {
  const s = (k: string) => (rec[k] === undefined || rec[k] === null || rec[k] === '' ? undefined : String(rec[k]));
  const d = (k: string) => compactDate(s(k));
  switch (rec.form_type) {
    case 'leave-request':
      return [
        s('leave_type') && `${s('leave_type')} leave`,
        s('start_date') &&
          (s('end_date') && s('end_date') !== s('start_date') ? `${d('start_date')} to ${d('end_date')}` : d('start_date')),
        s('total_days') && `${days(Number(s('total_days')))} ${Number(s('total_days')) === 1 ? 'day' : 'days'}`,
      ]
        .filter(Boolean)
        .join(', ');
    case 'travel-request':
      return [
        s('destination') && `to ${s('destination')}`,
        s('departure_date') && `${d('departure_date')} to ${d('return_date') ?? '?'}`,
        s('total_estimated_cost') && usd(s('total_estimated_cost')),
      ]
        .filter(Boolean)
        .join(', ');
    case 'petty-cash':
      return [s('amount_requested') && usd(s('amount_requested')), s('purpose')].filter(Boolean).join(' for ');
    case 'purchase-requisition':
      return [
        s('quantity') && s('item_description') && `${s('quantity')} x ${s('item_description')}`,
        s('estimated_total') && usd(s('estimated_total')),
      ]
        .filter(Boolean)
        .join(', ');
    case 'meeting-room':
      return [
        s('room_requested'),
        d('booking_date'),
        s('start_time') && `${s('start_time')}-${s('end_time') ?? '?'}`,
        s('participants_count') && `${s('participants_count')} people`,
      ]
        .filter(Boolean)
        .join(', ');
    case 'it-incident':
      return [s('affected_system'), s('incident_description')?.slice(0, 60)].filter(Boolean).join(': ');
    case 'password-reset':
      return [s('system_for_reset'), s('reset_reason')].filter(Boolean).join(', ');
    case 'info-update':
      return s('update_type') ?? '';
    case 'facility-access':
      return [s('access_request_type'), s('facilities_requested')].filter(Boolean).join(': ');
    default: {
      // Every other type (the registry's and those an administrator adds): its first two required fields that have a
      // value, dates and money written as in the cases above, long texts cut short.
      const def = formTypeDef(String(rec.form_type));
      const shown = (def?.fields ?? []).filter((f) => f.required && s(f.name)).slice(0, 2);
      return shown.map((f) => (f.type === 'date' ? d(f.name)! : f.type === 'money' ? usd(s(f.name)) : clip(s(f.name)!))).join(', ');
    }
  }
}

/** 'LR-000123 · Leave Request (Annual leave, 12 Apr 2027 to 13 Apr 2027, 2 days)'. */
export function requestLine(rec: Record<string, unknown>, opts: { who?: boolean } = {}): string {
  const gist = requestGist(rec);
  const who = opts.who && rec.employee_name ? ` from ${rec.employee_name}` : '';
  return `${rec.request_id} · ${formTitle(String(rec.form_type))}${who}${gist ? ` (${gist})` : ''}`;
}

/** Joins ['a', 'b', 'c'] as 'a, b and c'. */
export function andList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
