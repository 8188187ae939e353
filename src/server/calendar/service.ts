// Holidays for the form calendar, for leave working days and for the assistant: offline from date-holidays for
// each regional calendar the company chose (India by default, with the shipped table of India's lunar-calendar
// festivals), the company's own holidays (src/server/calendar/company.ts), and optionally a public calendar
// provider when an API key is configured (each provider calendar's failure is logged and skipped; the offline
// list always answers).
import Holidays from 'date-holidays';
import { type Holiday, holidayTypeOf, indiaLunarHolidays, isClosedHoliday, mergeHolidays } from '../../domain/holidays.js';
import { type CalendarSettings, calendarSettings, calendarVersion, parseRegion } from './company.js';

export interface CalendarLogger {
  warn(obj: unknown, msg?: string): void;
}

export interface HolidayProvider {
  /** Fetches the holidays of one year; each calendar's failure is logged and skipped inside. */
  holidays(year: number): Promise<Holiday[]>;
}

/** Years the API answers around the asked one: the previous, the current and the next year. */
export function yearsAround(year: number): number[] {
  return [year - 1, year, year + 1];
}

const DAY = 86_400_000;

/** A holiday with whether the office is closed on it (leave days on it are not counted). */
type DayOff = Holiday & { closed: boolean };

const regionCalendars = new Map<string, Holidays>();
function regionCalendar(code: string): Holidays | undefined {
  let dh = regionCalendars.get(code);
  if (!dh) {
    const r = parseRegion(code);
    if (!r) return undefined;
    dh = r.state ? new Holidays(r.country, r.state) : new Holidays(r.country);
    regionCalendars.set(code, dh);
  }
  return dh;
}

/**
 * One regional calendar's holidays of a year. India's: date-holidays' list plus the lunar-calendar table, closed on
 * the gazetted holidays (isClosedHoliday); any other region's: closed on its public holidays.
 */
function regionHolidays(code: string, year: number): DayOff[] {
  const dh = regionCalendar(code);
  if (!dh) return [];
  const india = code === 'IN' || code.startsWith('IN-');
  const computed: DayOff[] = (dh.getHolidays(year, 'en') || [])
    .filter((h) => h.type !== 'observance')
    .map((h) => ({
      date: h.date.slice(0, 10),
      name: h.name,
      type: holidayTypeOf(h.name),
      closed: india ? isClosedHoliday(h.name) : h.type === 'public',
    }));
  const lunar = india ? indiaLunarHolidays(year).map((h) => ({ ...h, closed: isClosedHoliday(h.name) })) : [];
  return mergeHolidays(computed, lunar) as DayOff[];
}

/** The company's own holidays of a year (the most trusted list: they come first in a merge). */
function companyHolidays(settings: CalendarSettings, year: number): DayOff[] {
  const prefix = `${year}-`;
  return settings.holidays
    .filter((h) => h.date.startsWith(prefix))
    .map((h) => ({ date: h.date, name: h.name, type: holidayTypeOf(h.name), closed: h.closed }));
}

export class HolidayService {
  private readonly offlineCache = new Map<number, DayOff[]>();
  private cacheVersion = -1;
  private readonly providerCache = new Map<number, { at: number; holidays: Holiday[]; ok: boolean }>();

  /**
   * `country` fixes the regions to that one and leaves out company holidays (for tests and tools); without it the
   * service follows the company's calendar settings.
   */
  constructor(private readonly opts: { country?: string; provider?: HolidayProvider | null; now?: () => number; cacheMs?: number } = {}) {}

  private days(year: number): DayOff[] {
    const fixed = this.opts.country;
    if (!fixed && this.cacheVersion !== calendarVersion()) {
      this.offlineCache.clear();
      this.cacheVersion = calendarVersion();
    }
    const hit = this.offlineCache.get(year);
    if (hit) return hit;
    const settings: CalendarSettings = fixed ? { regions: [fixed], holidays: [] } : calendarSettings();
    const list = mergeHolidays(companyHolidays(settings, year), ...settings.regions.map((r) => regionHolidays(r, year))) as DayOff[];
    this.offlineCache.set(year, list);
    return list;
  }

  /** The offline holidays of a year: the company's own, then those of each regional calendar that applies. */
  offline(year: number): Holiday[] {
    return this.days(year).map(({ date, name, type }) => ({ date, name, type }));
  }

  /** A year's holidays: offline ones first, then the provider's (cached; a failed fetch is retried after 10 minutes). */
  async year(year: number): Promise<Holiday[]> {
    const offline = this.offline(year);
    const provider = this.opts.provider;
    if (!provider) return offline;
    const now = (this.opts.now ?? Date.now)();
    const cached = this.providerCache.get(year);
    const ttl = cached?.ok ? (this.opts.cacheMs ?? 12 * 3_600_000) : 10 * 60_000;
    let fromProvider = cached && now - cached.at < ttl ? cached.holidays : null;
    if (!fromProvider) {
      let ok = true;
      try {
        fromProvider = await provider.holidays(year);
      } catch {
        ok = false;
        fromProvider = [];
      }
      this.providerCache.set(year, { at: now, holidays: fromProvider, ok: ok && fromProvider.length > 0 });
    }
    return mergeHolidays(offline, fromProvider);
  }

  /** Holidays of the previous, given and next year, sorted by date. */
  async around(year: number): Promise<Holiday[]> {
    const lists = await Promise.all(yearsAround(year).map((y) => this.year(y)));
    return lists.flat();
  }

  /**
   * Dates between start and end (inclusive, YYYY-MM-DD) on which the office is closed: the company's closed
   * holidays and the closed holidays of its regional calendars, offline, so leave totals never depend on a remote
   * service.
   */
  closedDates(start: string, end: string): Set<string> {
    return new Set(this.closedDays(start, end).keys());
  }

  /** The same closed days with their names (date to name, in date order), to say which holidays a leave includes. */
  closedDays(start: string, end: string): Map<string, string> {
    const out = new Map<string, string>();
    const a = Date.parse(`${start}T00:00:00Z`);
    const b = Date.parse(`${end}T00:00:00Z`);
    if (Number.isNaN(a) || Number.isNaN(b) || b < a || b - a > 3 * 366 * DAY) return out;
    for (let y = Number(start.slice(0, 4)); y <= Number(end.slice(0, 4)); y += 1) {
      for (const h of this.days(y)) if (h.date >= start && h.date <= end && h.closed && !out.has(h.date)) out.set(h.date, h.name);
    }
    return out;
  }
}

/** The two public holiday calendars the holidays come from: India's holidays and Hindu festivals (Google Calendar). */
export const DEFAULT_PROVIDER_CALENDARS = [
  'en.indian#holiday@group.v.calendar.google.com',
  'en.hinduism#holiday@group.v.calendar.google.com',
];

/**
 * The public calendar provider (Google Calendar API v3 events of public holiday calendars): for each calendar,
 * timeMin/timeMax covering the year, ordered by start time, at most 100 results. One calendar's failure is logged
 * and skipped.
 */
export function googleCalendarProvider(opts: {
  apiKey: string;
  calendars?: string[];
  fetch?: typeof fetch;
  log: CalendarLogger;
  timeoutMs?: number;
}): HolidayProvider {
  const doFetch = opts.fetch ?? fetch;
  const calendars = opts.calendars?.length ? opts.calendars : DEFAULT_PROVIDER_CALENDARS;
  return {
    async holidays(year: number): Promise<Holiday[]> {
      const results = await Promise.all(
        calendars.map(async (calendarId) => {
          const params = new URLSearchParams({
            timeMin: `${year}-01-01T00:00:00Z`,
            timeMax: `${year + 1}-01-01T00:00:00Z`,
            orderBy: 'startTime',
            singleEvents: 'true',
            maxResults: '100',
          });
          const url = `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?${params}`;
          try {
            // The key goes in a header, never in the URL (which proxies and logs keep).
            const res = await doFetch(url, {
              headers: { 'x-goog-api-key': opts.apiKey },
              signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
            });
            if (!res.ok) throw new Error(`HTTP ${res.status}`);
            const body = (await res.json()) as { items?: Array<{ summary?: string; start?: { date?: string; dateTime?: string } }> };
            return (body.items ?? [])
              .map((item) => ({ date: (item.start?.date ?? item.start?.dateTime ?? '').slice(0, 10), name: (item.summary ?? '').trim() }))
              .filter((h) => /^\d{4}-\d{2}-\d{2}$/.test(h.date) && h.name !== '' && h.date.startsWith(String(year)))
              .map((h) => ({ ...h, type: holidayTypeOf(h.name) }));
          } catch (err) {
            opts.log.warn({ calendar: calendarId, year, err: (err as Error).message }, 'holiday calendar failed; skipped');
            return [] as Holiday[];
          }
        }),
      );
      return mergeHolidays(...results);
    },
  };
}

/**
 * The configured provider, or null: HOLIDAY_CALENDAR_API_KEY (a Google API key with the Calendar API enabled) and
 * optionally HOLIDAY_CALENDAR_IDS (calendar ids; none given: the two above).
 */
export function providerFromConfig(holidays: { apiKey?: string; calendarIds: string[] }, log: CalendarLogger): HolidayProvider | null {
  if (!holidays.apiKey) return null;
  return googleCalendarProvider({ apiKey: holidays.apiKey, calendars: holidays.calendarIds, log });
}
