// Leave rules that real leave systems enforce (end not before start, working days without weekends and
// holidays, no overlap with one's own pending or approved leave, annual leave within the balance) and the
// leave balance, computed from approved leave of the year rather than stored by hand.
import { addDays, addWorkingDays, countWorkingDays, isIsoDate, isWeekend } from '../../domain/business-time.js';
import { isLeaveType, leaveFormTypes } from '../../domain/forms.js';
import { HolidayService } from '../calendar/service.js';
import type { Queryable } from '../db/pool.js';
import { badRequest } from '../http/errors.js';
import type { AuthUser } from '../people/service.js';

/**
 * Holiday dates (YYYY-MM-DD) on which the office is closed between two dates: by default the offline closed
 * holidays of the company's calendar settings (its own holidays and its regional calendars, so leave totals never
 * depend on a remote service); the calendar feature registers its own service at start.
 */
const offlineHolidays = new HolidayService();
/** Closed days between two dates: date to holiday name. */
type HolidaySource = (start: string, end: string) => Map<string, string>;
let holidaySource: HolidaySource = (start, end) => offlineHolidays.closedDays(start, end);
export function setHolidaySource(fn: HolidaySource) {
  holidaySource = fn;
}

/** The closed holidays between two dates, for counting working days. */
export function closedHolidays(start: string, end: string): Set<string> {
  return end < start ? new Set() : new Set(holidaySource(start, end).keys());
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * What a leave from `start` to `end` says about the closed holidays inside it that fall on working days (those
 * are the ones that change the count): 'Includes 25 Dec (Christmas Day), a company holiday: not counted', or
 * undefined. The submit answer, the request's details and the assistant's summary all show it.
 */
export function leaveHolidayNote(start: unknown, end: unknown): string | undefined {
  if (!isIsoDate(start) || !isIsoDate(end) || end < start) return undefined;
  const days = [...holidaySource(start, end)].filter(([date]) => !isWeekend(date));
  if (days.length === 0) return undefined;
  const names = days.map(([date, name]) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]} (${name})`);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Includes ${list}, ${days.length === 1 ? 'a company holiday' : 'company holidays'}: not counted`;
}

/**
 * Working days between two ISO dates inclusive: Monday to Friday, closed holidays excluded. The one count of
 * leave days: the leave form, the leave balance, the assistant and the demo seed all use it.
 */
export function workingDays(start: string, end: string): number {
  if (!isIsoDate(start) || !isIsoDate(end)) return 0;
  return countWorkingDays(start, end, closedHolidays(start, end));
}

/** The start (moved to a working day) and last day of an absence of `n` working days from `start`. */
export function workingDaysFrom(start: string, n: number): { start: string; end: string } {
  // n working days never stretch over more than n weeks plus a month of holidays.
  return addWorkingDays(start, n, closedHolidays(start, addDays(start, 7 * n + 31)));
}

export interface LeaveBalance {
  annual_leave_total: number;
  annual_leave_used: number;
  unpaid_leave_used: number;
  year: number;
}

/** Balance of a calendar year from approved leave (by start date), excluding `excludePk`. */
export async function leaveBalance(c: Queryable, userId: number, year: number, excludePk?: number): Promise<LeaveBalance> {
  const r = await c.query(
    `SELECT u.annual_leave_total,
            coalesce(sum((q.data->>'total_days')::numeric) FILTER (WHERE q.data->>'leave_type' = 'Annual'), 0) AS annual_used,
            coalesce(sum((q.data->>'total_days')::numeric) FILTER (WHERE q.data->>'leave_type' = 'Unpaid'), 0) AS unpaid_used
       FROM users u
       LEFT JOIN requests q ON q.employee_id = u.id AND q.form_type = ANY($4::text[]) AND q.status = 'Approved'
            AND left(q.data->>'start_date', 4) = $2 AND ($3::bigint IS NULL OR q.id <> $3)
      WHERE u.id = $1
      GROUP BY u.annual_leave_total`,
    [userId, String(year), excludePk ?? null, leaveFormTypes()],
  );
  const row = r.rows[0] ?? { annual_leave_total: 12, annual_used: 0, unpaid_used: 0 };
  return {
    annual_leave_total: Number(row.annual_leave_total),
    annual_leave_used: Number(row.annual_used),
    unpaid_leave_used: Number(row.unpaid_used),
    year,
  };
}

/** Annual leave still pending approval in a year (it counts against the balance at submission). */
async function pendingAnnual(c: Queryable, userId: number, year: number, excludePk?: number): Promise<number> {
  const r = await c.query(
    `SELECT coalesce(sum((data->>'total_days')::numeric), 0) AS n FROM requests
      WHERE employee_id = $1 AND form_type = ANY($4::text[]) AND status = 'Pending' AND data->>'leave_type' = 'Annual'
        AND left(data->>'start_date', 4) = $2 AND ($3::bigint IS NULL OR id <> $3)`,
    [userId, String(year), excludePk ?? null, leaveFormTypes()],
  );
  return Number(r.rows[0].n);
}

/** Checks a leave request of `user`; returns the server-computed fields (total_days). */
export async function checkLeaveRules(
  c: Queryable,
  user: AuthUser,
  f: Record<string, unknown>,
  excludePk?: number,
): Promise<{ total_days: number }> {
  const start = String(f.start_date),
    end = String(f.end_date);
  if (end < start) throw badRequest('End date cannot be before start date');
  const total = workingDays(start, end);
  if (total === 0) throw badRequest('The chosen dates contain no working days (weekends and holidays are not counted)');
  const overlap = await c.query(
    `SELECT request_id FROM requests
      WHERE employee_id = $1 AND form_type = ANY($5::text[]) AND status IN ('Pending', 'Approved')
        AND data->>'start_date' <= $3 AND data->>'end_date' >= $2 AND ($4::bigint IS NULL OR id <> $4)
      LIMIT 1`,
    [user.id, start, end, excludePk ?? null, leaveFormTypes()],
  );
  if (overlap.rows[0]) throw badRequest(`These dates overlap your leave request ${overlap.rows[0].request_id}`);
  if (f.leave_type === 'Annual') {
    if (start.slice(0, 4) !== end.slice(0, 4))
      throw badRequest('Annual leave cannot span two calendar years; please split it into two requests');
    const year = Number(start.slice(0, 4));
    const bal = await leaveBalance(c, user.id, year, excludePk);
    const left = bal.annual_leave_total - bal.annual_leave_used - (await pendingAnnual(c, user.id, year, excludePk));
    if (total > left) throw badRequest(`Not enough annual leave: ${total} day(s) requested, ${Math.max(0, left)} day(s) left in ${year}`);
  }
  return { total_days: total };
}

/** `{ holiday_note }` for a leave record whose dates include closed holidays on working days; else nothing. */
export function holidayNoteOf(rec: Record<string, unknown>): { holiday_note?: string } {
  if (!isLeaveType(String(rec.form_type ?? ''))) return {};
  const note = leaveHolidayNote(rec.start_date, rec.end_date);
  return note ? { holiday_note: note } : {};
}
