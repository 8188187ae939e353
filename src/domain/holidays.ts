// Holidays of the form calendar: the spec's typing by name (national, festival, public), the shipped table of
// India's lunar-calendar festivals that date-holidays does not compute, and which holidays close the office.

export type HolidayType = 'national' | 'festival' | 'public';

/** A holiday as GET /api/calendar/holidays answers it. */
export interface Holiday {
  /** YYYY-MM-DD */
  date: string;
  name: string;
  type: HolidayType;
  /** Whether the office is closed (leave days on it are not counted); when absent, decided by name (isClosedHoliday). */
  closed?: boolean;
}

/** Holiday names typed national; festival names are below, every other holiday is public. */
export const NATIONAL_HOLIDAY_NAMES = ['republic day', 'independence day', 'gandhi jayanti'] as const;

/**
 * Words that type a holiday as a festival (diwali, holi, eid, christmas and the other major festivals).
 * Matched case-insensitively anywhere in the name; everything that is neither national nor festival is public.
 */
export const FESTIVAL_KEYWORDS = [
  'diwali',
  'deepavali',
  'holi',
  'eid',
  'id-ul',
  "idu'l",
  'bakrid',
  'christmas',
  'dussehra',
  'vijaya dashami',
  'navratri',
  'durga puja',
  'ganesh chaturthi',
  'janmashtami',
  'raksha bandhan',
  'guru nanak',
  'mahavir jayanti',
  'buddha purnima',
  'pongal',
  'onam',
  'makar sankranti',
  'maha shivaratri',
  'ram navami',
  'chhath',
  'lohri',
  'baisakhi',
  'vaisakhi',
  'easter',
  'milad',
  'mawlid',
] as const;

/** The spec's rule: national by name, else festival by keyword, else public. */
export function holidayTypeOf(name: string): HolidayType {
  const n = name.trim().toLowerCase();
  if (NATIONAL_HOLIDAY_NAMES.some((k) => n.includes(k))) return 'national';
  // 'holi' must be a word of its own ('Holiday' is not Holi).
  if (FESTIVAL_KEYWORDS.some((k) => (k === 'holi' ? /\bholi\b/.test(n) : n.includes(k)))) return 'festival';
  return 'public';
}

/**
 * Lunar-calendar holidays of India, 2024-2030, by name and year (month-day).
 *
 * Sources:
 * - 2024, 2025, 2026: the Government of India's gazetted holiday lists for Central Government offices (Department of
 *   Personnel & Training office memoranda on holidays to be observed in Central Government offices during 2024,
 *   2025 and 2026), for the festivals on those lists; the other festivals (Raksha Bandhan, Ganesh Chaturthi,
 *   Makar Sankranti, Pongal, Onam, Maha Shivaratri, Chhath Puja) from the Drik Panchang / timeanddate.com India
 *   holiday pages.
 * - 2027-2030: Hindu, Jain, Buddhist and Sikh festivals from the panchang dates published by timeanddate.com
 *   (India holidays pages) and Drik Panchang; Islamic holidays from the Umm al-Qura calendar plus one day, which is
 *   how India's observance (moon sighting) has fallen in 2024-2026. These are projections: the gazetted list of
 *   each year is published in the preceding year and may move an Islamic holiday by one day. Update this table
 *   (or configure the calendar provider, see README) when a new list is published.
 */
export const INDIA_LUNAR_HOLIDAYS: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  'Makar Sankranti': { 2024: '01-14', 2025: '01-14', 2026: '01-14', 2027: '01-15', 2028: '01-15', 2029: '01-14', 2030: '01-14' },
  Pongal: { 2024: '01-15', 2025: '01-14', 2026: '01-14', 2027: '01-15', 2028: '01-15', 2029: '01-14', 2030: '01-14' },
  'Maha Shivaratri': { 2024: '03-08', 2025: '02-26', 2026: '02-15', 2027: '03-06', 2028: '02-23', 2029: '02-11', 2030: '03-02' },
  Holi: { 2024: '03-25', 2025: '03-14', 2026: '03-04', 2027: '03-22', 2028: '03-11', 2029: '03-01', 2030: '03-20' },
  'Ram Navami': { 2024: '04-17', 2025: '04-06', 2026: '03-26', 2027: '04-15', 2028: '04-03', 2029: '04-22', 2030: '04-12' },
  'Mahavir Jayanti': { 2024: '04-21', 2025: '04-10', 2026: '03-31', 2027: '04-18', 2028: '04-07', 2029: '04-26', 2030: '04-16' },
  'Buddha Purnima': { 2024: '05-23', 2025: '05-12', 2026: '05-01', 2027: '05-20', 2028: '05-08', 2029: '05-27', 2030: '05-17' },
  'Raksha Bandhan': { 2024: '08-19', 2025: '08-09', 2026: '08-28', 2027: '08-17', 2028: '08-05', 2029: '08-23', 2030: '08-13' },
  Janmashtami: { 2024: '08-26', 2025: '08-16', 2026: '09-04', 2027: '08-25', 2028: '08-13', 2029: '09-01', 2030: '08-21' },
  'Ganesh Chaturthi': { 2024: '09-07', 2025: '08-27', 2026: '09-14', 2027: '09-04', 2028: '08-23', 2029: '09-11', 2030: '09-01' },
  Onam: { 2024: '09-15', 2025: '09-05', 2026: '08-26', 2027: '09-12', 2028: '09-01', 2029: '08-22', 2030: '09-09' },
  Dussehra: { 2024: '10-12', 2025: '10-02', 2026: '10-20', 2027: '10-09', 2028: '09-27', 2029: '10-16', 2030: '10-06' },
  Diwali: { 2024: '10-31', 2025: '10-20', 2026: '11-08', 2027: '10-29', 2028: '10-17', 2029: '11-05', 2030: '10-26' },
  'Chhath Puja': { 2024: '11-07', 2025: '10-28', 2026: '11-15', 2027: '11-04', 2028: '10-23', 2029: '11-11', 2030: '11-01' },
  'Guru Nanak Jayanti': { 2024: '11-15', 2025: '11-05', 2026: '11-24', 2027: '11-14', 2028: '11-02', 2029: '11-21', 2030: '11-10' },
  'Eid al-Fitr': { 2024: '04-11', 2025: '03-31', 2026: '03-21', 2027: '03-10', 2028: '02-27', 2029: '02-15', 2030: '02-05' },
  'Eid al-Adha (Bakrid)': { 2024: '06-17', 2025: '06-07', 2026: '05-27', 2027: '05-17', 2028: '05-06', 2029: '04-25', 2030: '04-14' },
  Muharram: { 2024: '07-17', 2025: '07-06', 2026: '06-26', 2027: '06-16', 2028: '06-04', 2029: '05-24', 2030: '05-14' },
  'Milad-un-Nabi': { 2024: '09-16', 2025: '09-05', 2026: '08-26', 2027: '08-15', 2028: '08-04', 2029: '07-25', 2030: '07-14' },
};

export const LUNAR_TABLE_YEARS = { first: 2024, last: 2030 } as const;

/** The shipped lunar-calendar holidays of a year (empty outside 2024-2030). */
export function indiaLunarHolidays(year: number): Holiday[] {
  const out: Holiday[] = [];
  for (const [name, byYear] of Object.entries(INDIA_LUNAR_HOLIDAYS)) {
    const md = byYear[year];
    if (md) out.push({ date: `${year}-${md}`, name, type: holidayTypeOf(name) });
  }
  return out.sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
}

/**
 * Holidays on which the office is closed, so leave days on them are not counted: the 14 compulsory holidays of
 * Central Government offices in India (DoPT): Republic Day, Independence Day, Gandhi Jayanti, Buddha Purnima,
 * Christmas, Dussehra, Diwali, Good Friday, Guru Nanak Jayanti, Eid al-Fitr, Eid al-Adha, Mahavir Jayanti, Muharram
 * and Milad-un-Nabi. Other festivals (Holi, Janmashtami, Raksha Bandhan, ...) are on the calendar but are working
 * days (in Government offices they are optional or restricted holidays chosen per state).
 */
const CLOSED_HOLIDAY_PATTERNS = [
  /republic day/,
  /independence day/,
  /gandhi jayanti/,
  /buddha purnima/,
  /christmas/,
  /dussehra/,
  /diwali|deepavali/,
  /good friday/,
  /guru nanak/,
  /eid al-fitr|id-ul-fitr|idu'l fitr/,
  /eid al-adha|bakrid|id-ul-zuha|idu'l zuha/,
  /mahavir jayanti/,
  /muharram/,
  /milad/,
];

export function isClosedHoliday(name: string): boolean {
  const n = name.trim().toLowerCase();
  return CLOSED_HOLIDAY_PATTERNS.some((p) => p.test(n));
}

/**
 * The dates between start and end (inclusive, YYYY-MM-DD) on which the office is closed, from a list of holidays:
 * those marked closed (the company's settings, as GET /api/calendar/holidays answers them), else the closed ones by
 * name (isClosedHoliday). The web form counts with the holidays answer, the server with the same settings.
 */
export function closedHolidayDates(holidays: readonly Holiday[], start: string, end: string): Set<string> {
  const out = new Set<string>();
  for (const h of holidays) if (h.date >= start && h.date <= end && (h.closed ?? isClosedHoliday(h.name))) out.add(h.date);
  return out;
}

const normaliseName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Merges holiday lists: one entry per date and name, where names are compared loosely (case, punctuation, and one
 * name containing the other: 'Diwali' and 'Diwali/Deepavali' are the same holiday). Sorted by date then name.
 * Earlier lists win, so pass the most trusted first.
 */
export function mergeHolidays(...lists: ReadonlyArray<readonly Holiday[]>): Holiday[] {
  const byDate = new Map<string, string[]>();
  const out: Holiday[] = [];
  for (const list of lists) {
    for (const h of list) {
      const name = normaliseName(h.name);
      const names = byDate.get(h.date) ?? [];
      if (names.some((n) => n === name || n.includes(name) || name.includes(n))) continue;
      names.push(name);
      byDate.set(h.date, names);
      out.push(h);
    }
  }
  return out.sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
}
