// The business calendar: every 'today', year, weekday and working-day count of AdminEase is taken in one time
// zone, the organisation's (ADMINEASE_TIMEZONE, by default India's, where the demo company works), never in the
// server's or the browser's own zone. A moment (a Date, epoch milliseconds or an ISO timestamp) becomes a
// business date (YYYY-MM-DD) by reading the wall clock of that zone; dates themselves are plain calendar days and
// their arithmetic (adding days, weekdays, working days) does not depend on any zone.
//
// Shared by the server and the web: the server sets the zone from its configuration at start, the web from the
// server's answer to GET /api/auth/config.

/** The demo company's zone (Northwind Components works in India). */
export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Kolkata';

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether a name is an IANA time zone this runtime knows: an Area/Location name ('Asia/Kolkata') or UTC. Offsets
 * and abbreviations are not: 'IST' is India to one program and Israel or Ireland to another (PostgreSQL among them).
 */
export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone.trim() === '' || zone !== zone.trim()) return false;
  if (zone !== 'UTC' && !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let currentZone = DEFAULT_BUSINESS_TIME_ZONE;

/** Sets the organisation's zone (at start, from the configuration); an unknown zone is refused. */
export function setBusinessTimeZone(zone: string): void {
  if (!isValidTimeZone(zone)) throw new Error(`'${zone}' is not a known IANA time zone (for example Asia/Kolkata or Europe/Berlin)`);
  currentZone = zone;
}

/** The organisation's zone. */
export function businessTimeZone(): string {
  return currentZone;
}

// One formatter per zone: building an Intl.DateTimeFormat is far slower than using one.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function toDate(instant: Date | number | string): Date {
  const d = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a moment in time: ${String(instant)}`);
  return d;
}

/** The wall clock of the zone at a moment (month 1-12). */
export function wallClock(instant: Date | number | string = new Date(), zone: string = currentZone): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(toDate(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isoOf = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

// Offsets of a zone, cached by UTC day: on a day whose offset is the same at its start and at its end (every day
// but the few with a daylight-saving change) every moment has that offset. On the other days, by quarter hour:
// zones change their offset only at a whole quarter hour, so every moment of a quarter hour has the offset of its
// start. Formatting the dates of a list of records spread over years stays cheap.
const QUARTER_MS = 15 * 60_000;
const offsetCaches = new Map<string, { days: Map<number, number | null>; quarters: Map<number, number> }>();

function cachedOffsetMs(t: number, zone: string): number {
  let cache = offsetCaches.get(zone);
  if (!cache) offsetCaches.set(zone, (cache = { days: new Map(), quarters: new Map() }));
  const day = Math.floor(t / DAY_MS);
  let whole = cache.days.get(day);
  if (whole === undefined) {
    if (cache.days.size > 50_000) cache.days.clear();
    const atStart = zoneOffsetMinutes(day * DAY_MS, zone);
    whole = atStart === zoneOffsetMinutes((day + 1) * DAY_MS - 1, zone) ? atStart * 60_000 : null;
    cache.days.set(day, whole);
  }
  if (whole !== null) return whole;
  const bucket = Math.floor(t / QUARTER_MS);
  let off = cache.quarters.get(bucket);
  if (off === undefined) {
    if (cache.quarters.size > 5_000) cache.quarters.clear();
    off = zoneOffsetMinutes(bucket * QUARTER_MS, zone) * 60_000;
    cache.quarters.set(bucket, off);
  }
  return off;
}

/** The business date (YYYY-MM-DD) of a moment: the calendar day on the organisation's wall clock. */
export function businessDate(instant: Date | number | string = new Date(), zone: string = currentZone): string {
  const t = typeof instant === 'number' ? instant : toDate(instant).getTime();
  if (!Number.isFinite(t)) throw new RangeError(`not a moment in time: ${String(instant)}`);
  const local = new Date(t + cachedOffsetMs(t, zone));
  const y = local.getUTCFullYear();
  if (y < 1 || y > 9999) {
    const w = wallClock(instant, zone);
    return isoOf(w.year, w.month, w.day);
  }
  return isoOf(y, local.getUTCMonth() + 1, local.getUTCDate());
}

/** Today's business date. `now` is the caller's clock (tests inject one). */
export function businessToday(now: Date | number = new Date(), zone: string = currentZone): string {
  return businessDate(now, zone);
}

/** The current business year (the year of today's business date). */
export function businessYear(now: Date | number = new Date(), zone: string = currentZone): number {
  return wallClock(now, zone).year;
}

/**
 * A Date whose local fields (getFullYear, getDate, getHours, ...) show the organisation's wall clock at `now`,
 * whatever the process's own zone: the reference a date parser that reads local fields (chrono-node) needs so
 * that 'today', 'tomorrow' and 'next Monday' are counted from the business date.
 */
export function businessReferenceDate(now: Date | number = new Date(), zone: string = currentZone): Date {
  const w = wallClock(now, zone);
  return new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/** Offset of the zone from UTC at a moment, in minutes (Asia/Kolkata: 330). */
export function zoneOffsetMinutes(instant: Date | number = new Date(), zone: string = currentZone): number {
  const d = toDate(instant);
  const w = wallClock(d, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(d.getTime() / 1000) * 1000) / 60_000);
}

/** The moment the business date `iso` begins (00:00 on the organisation's wall clock). */
export function startOfBusinessDate(iso: string, zone: string = currentZone): Date {
  return businessMoment(iso, '00:00', zone);
}

/** The moment of a wall-clock time ('HH:MM') on a business date, such as a meeting room booking's start. */
export function businessMoment(iso: string, time: string, zone: string = currentZone): Date {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!m) throw new RangeError(`not a time (HH:MM): ${time}`);
  const t = utcMidnight(iso) + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
  // The offset can differ between the guess and the answer around a daylight-saving change: settle it twice.
  let guess = t - zoneOffsetMinutes(t, zone) * 60_000;
  guess = t - zoneOffsetMinutes(guess, zone) * 60_000;
  return new Date(guess);
}

// ---- calendar days (no zone involved) ----------------------------------------------------------------------

/** Whether a string is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === s;
}

function utcMidnight(iso: string): number {
  if (!isIsoDate(iso)) throw new RangeError(`not a date (YYYY-MM-DD): ${iso}`);
  return Date.parse(`${iso}T00:00:00Z`);
}

/** The date `days` calendar days after `iso` (before, when negative). */
export function addDays(iso: string, days: number): string {
  return new Date(utcMidnight(iso) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole calendar days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return Math.round((utcMidnight(b) - utcMidnight(a)) / DAY_MS);
}

/** Day of the week of a date: 0 Sunday ... 6 Saturday. */
export function weekdayOf(iso: string): number {
  return new Date(utcMidnight(iso)).getUTCDay();
}

/** Saturday and Sunday are the weekend. */
export function isWeekend(iso: string): boolean {
  const wd = weekdayOf(iso);
  return wd === 0 || wd === 6;
}

/** Holidays on which the office is closed: a set of dates or a test. */
export type ClosedDays = ReadonlySet<string> | ((iso: string) => boolean);

function closedTest(closed: ClosedDays | undefined): (iso: string) => boolean {
  if (!closed) return () => false;
  return typeof closed === 'function' ? closed : (iso) => closed.has(iso);
}

/** A working day: Monday to Friday and not a holiday on which the office is closed. */
export function isWorkingDay(iso: string, closed?: ClosedDays): boolean {
  return !isWeekend(iso) && !closedTest(closed)(iso);
}

/** Working days from `start` to `end`, both included: weekends and closed holidays are not counted (0 when end < start). */
export function countWorkingDays(start: string, end: string, closed?: ClosedDays): number {
  // Counted by arithmetic, not day by day: a queue row of a request waiting for years asks this on every answer.
  const first = utcMidnight(start) / DAY_MS;
  const total = utcMidnight(end) / DAY_MS - first + 1;
  if (total <= 0) return 0;
  const weekday = (dayNumber: number) => (((dayNumber + 4) % 7) + 7) % 7; // day 0 (1970-01-01) was a Thursday
  let n = Math.floor(total / 7) * 5;
  for (let i = total - (total % 7); i < total; i += 1) {
    const wd = weekday(first + i);
    if (wd !== 0 && wd !== 6) n += 1;
  }
  if (!closed) return n;
  if (typeof closed === 'function') {
    for (let i = 0; i < total; i += 1) {
      const wd = weekday(first + i);
      if (wd !== 0 && wd !== 6 && closed(new Date((first + i) * DAY_MS).toISOString().slice(0, 10))) n -= 1;
    }
    return n;
  }
  // A set names each closed date once: those inside the range that fall on a weekday are not worked.
  for (const d of closed) {
    if (d < start || d > end) continue;
    const dn = dayNumberOf(d);
    if (dn !== null && weekday(dn) !== 0 && weekday(dn) !== 6) n -= 1;
  }
  return n;
}

// Day numbers (days since 1970-01-01) of the dates sets of holidays name, remembered: the same few dozen
// holidays are looked at for every row of every queue. null: not a real date written YYYY-MM-DD.
const dayNumbers = new Map<string, number | null>();
function dayNumberOf(iso: string): number | null {
  let dn = dayNumbers.get(iso);
  if (dn === undefined) {
    if (dayNumbers.size > 10_000) dayNumbers.clear();
    dn = isIsoDate(iso) ? utcMidnight(iso) / DAY_MS : null;
    dayNumbers.set(iso, dn);
  }
  return dn;
}

/**
 * The last day of an absence of `n` working days starting at `start` (moved to the first working day when
 * `start` is none): weekends and closed holidays inside it are skipped, as countWorkingDays counts them.
 */
export function addWorkingDays(start: string, n: number, closed?: ClosedDays): { start: string; end: string } {
  const isClosed = closedTest(closed);
  const working = (d: string) => !isWeekend(d) && !isClosed(d);
  let first = start;
  // A closed stretch is never longer than a few weeks; the bound only guards against a test that closes every day.
  for (let i = 0; i < 366 && !working(first); i += 1) first = addDays(first, 1);
  let d = first,
    left = n - 1;
  for (let i = 0; left > 0 && i < 3660; i += 1) {
    d = addDays(d, 1);
    if (working(d)) left -= 1;
  }
  return { start: first, end: d };
}

/** The first date after `iso` that falls on `weekday` (0 Sunday ... 6 Saturday). */
export function nextWeekdayAfter(iso: string, weekday: number): string {
  const ahead = (weekday - weekdayOf(iso) + 7) % 7 || 7;
  return addDays(iso, ahead);
}
