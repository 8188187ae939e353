// The company's calendar settings, as every part that counts or shows holidays uses them (the form calendar,
// leave working days, the assistant): the regional calendars that apply and the company's own holidays. Kept in
// memory so that working days are counted without a database round trip; loaded at start and reloaded on every
// instance when PostgreSQL signals a change (migration 120), or when the signal connection is re-established.
import Holidays from 'date-holidays';
import { type ListenerLogger, PgListener } from '../db/listener.js';
import type { Db, Queryable } from '../db/pool.js';

export const CALENDAR_CHANNEL = 'adminease_calendar';

/** The regions before an administrator chooses: India, as the spec's calendar. */
export const DEFAULT_REGIONS: readonly string[] = ['IN'];

export interface CompanyHoliday {
  id: number;
  /** YYYY-MM-DD */
  date: string;
  name: string;
  /** The office is closed: leave days on it are not counted. */
  closed: boolean;
}

export interface CalendarSettings {
  /** Regional calendars, 'IN' or with a state or province, 'US-CA' (date-holidays codes). */
  regions: readonly string[];
  holidays: readonly CompanyHoliday[];
}

let current: CalendarSettings = { regions: DEFAULT_REGIONS, holidays: [] };
let version = 0;

/** The settings in force on this instance. */
export function calendarSettings(): CalendarSettings {
  return current;
}

/** Bumped on every change, so caches of derived lists know to recompute. */
export function calendarVersion(): number {
  return version;
}

export function setCalendarSettings(next: CalendarSettings): void {
  current = next;
  version += 1;
}

/** Reads the settings from the database. */
export async function readCalendarSettings(db: Queryable): Promise<CalendarSettings> {
  // One after the other: `db` may be a transaction's client, which runs one statement at a time.
  const regions = await db.query(`SELECT value FROM company_settings WHERE key = 'holiday_regions'`);
  const holidays = await db.query(`SELECT id, to_char(date, 'YYYY-MM-DD') AS date, name, closed FROM company_holidays ORDER BY date, name`);
  const stored = regions.rows[0]?.value;
  return {
    regions: Array.isArray(stored) ? stored.map(String) : DEFAULT_REGIONS,
    holidays: holidays.rows.map((r) => ({ id: Number(r.id), date: r.date, name: r.name, closed: r.closed })),
  };
}

export async function reloadCalendarSettings(db: Queryable): Promise<void> {
  setCalendarSettings(await readCalendarSettings(db));
}

/** Loads the settings and keeps them current on this instance; answers a function that stops listening. */
export async function followCalendarSettings(db: Db, log: ListenerLogger): Promise<() => Promise<void>> {
  const reload = () =>
    void reloadCalendarSettings(db).catch((err: Error) => log.warn({ err: err.message }, 'company calendar reload failed'));
  const listener = new PgListener(db, [CALENDAR_CHANNEL], { onMessage: reload, onReset: reload }, log, 'company calendar');
  await reloadCalendarSettings(db);
  await listener.start();
  return () => listener.stop();
}

// ---- regions ----------------------------------------------------------------------------------

const catalogue = new Holidays();

export interface Region {
  code: string;
  name: string;
}

/** Every country date-holidays knows, by name. */
export function availableCountries(): Region[] {
  return Object.entries(catalogue.getCountries('en') ?? {})
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The states or provinces of a country that have their own holidays. */
export function availableStates(country: string): Region[] {
  return Object.entries(catalogue.getStates(country, 'en') ?? {})
    .map(([code, name]) => ({ code: `${country}-${code}`, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** 'IN' or 'US-CA' split into country and state, or undefined when date-holidays does not know it. */
export function parseRegion(code: string): { country: string; state?: string } | undefined {
  const m = /^([A-Z]{2})(?:-([A-Z0-9]{1,3}))?$/.exec(code);
  if (!m) return undefined;
  const countries = catalogue.getCountries('en') ?? {};
  if (!countries[m[1]]) return undefined;
  if (m[2] && !(catalogue.getStates(m[1], 'en') ?? {})[m[2]]) return undefined;
  return m[2] ? { country: m[1], state: m[2] } : { country: m[1] };
}

/** A region's name: 'India', 'United States of America (California)'. */
export function regionName(code: string): string {
  const r = parseRegion(code);
  if (!r) return code;
  const country = (catalogue.getCountries('en') ?? {})[r.country] ?? r.country;
  return r.state ? `${country} (${(catalogue.getStates(r.country, 'en') ?? {})[r.state] ?? r.state})` : country;
}
