// Entity extraction for the built-in assistant: dates and date ranges (chrono-node plus the relative forms
// people type), times and time ranges, money, counts (participants, quantity at a unit price, distance,
// duration), request ids, rooms, systems, destinations and the purpose phrase of a request. Every hit keeps
// its position so that the form mapper can mask what it used and read the reason from what is left.
import * as chrono from 'chrono-node';
import { addDays, businessDate, businessReferenceDate, nextWeekdayAfter, weekdayOf } from '../../../domain/business-time.js';
import { workingDaysFrom } from '../../forms/leave.js';
import { INCIDENT_SYSTEM_WORDS } from '../corpus/entities.js';
import { escapeRe } from './text.js';

export interface Span {
  start: number;
  end: number;
}
export interface DateHit extends Span {
  start_date: string;
  end_date?: string;
  cue?: string;
  text: string;
}
export interface TimeHit extends Span {
  start_time: string;
  end_time?: string;
}
export interface MoneyHit extends Span {
  amount: number;
  each: boolean;
  total: boolean;
}
export interface CountHit extends Span {
  n: number;
  noun: string;
}
export interface QuantityItem extends Span {
  quantity: number;
  item: string;
  unitCost?: number;
}

export interface Extraction {
  text: string;
  lower: string;
  requestIds: string[];
  dates: DateHit[];
  time?: TimeHit;
  money: MoneyHit[];
  participants?: CountHit;
  quantityItem?: QuantityItem;
  counts: CountHit[];
  numbers: Array<Span & { n: number }>;
  distanceKm?: number;
  durationDays?: number;
  rooms: Array<Span & { room: string; specific: boolean }>;
  systems: Array<Span & { system: string }>;
  destination?: Span & { place: string };
}

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The business date (YYYY-MM-DD) of a moment: the organisation's calendar day, whatever the server's zone. */
export function isoDay(d: Date): string {
  return businessDate(d);
}

export { addDays };

/** The first `weekday` (0 Sunday ... 6 Saturday) strictly after `today`. */
export function nextWeekday(today: string, weekday: number): string {
  return nextWeekdayAfter(today, weekday);
}

/**
 * The end of an absence of `n` working days starting at `start`: weekends and the office's closed holidays are
 * skipped, exactly as the leave form counts its total days.
 */
export function addWorkingDays(start: string, n: number): string {
  return workingDaysFrom(start, n).end;
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

function monthLater(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-${pad(d)}` : `${y}-${pad(m + 1)}-${pad(d)}`;
}

function componentIso(c: chrono.ParsedComponents): string {
  return `${c.get('year')}-${pad(c.get('month') ?? 1)}-${pad(c.get('day') ?? 1)}`;
}

// ---- dates ---------------------------------------------------------------------------------

function extractDates(text: string, now: Date, taken: Span[], past: boolean): DateHit[] {
  const today = isoDay(now);
  // chrono reads the local fields of its reference: give it the organisation's wall clock, so that 'tomorrow'
  // or 'next Monday' count from the business date even on a server running in another zone.
  const reference = businessReferenceDate(now);
  const hits: DateHit[] = [];
  const lower = text.toLowerCase();
  const push = (h: DateHit) => {
    if (hits.some((x) => overlaps(x, h)) || taken.some((t) => overlaps(t, h))) return;
    hits.push(h);
  };

  // 'next week' / 'this week' as a Monday-Friday range
  for (const m of lower.matchAll(
    /\b(?:the\s+)?(?:whole\s+(?:of\s+)?)?(next|this|coming)\s+week\b(?!\s*(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun))/g,
  )) {
    const monday = m[1] === 'this' ? addDays(today, -((weekdayOf(today) + 6) % 7)) : nextWeekday(today, 1);
    push({ start: m.index, end: m.index + m[0].length, start_date: monday, end_date: addDays(monday, 4), text: m[0] });
  }
  // ordinal days without a month: 'from the 5th to the 9th', 'on the 12th'
  const ordinal = new RegExp(
    `\\b(?:from\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)(?:\\s*(?:to|-|until|till|through)\\s*(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th))?\\b(?!\\s*(?:of\\s+)?(?:${MONTHS}))`,
    'g',
  );
  for (const m of lower.matchAll(ordinal)) {
    const dayOf = (d: number) => {
      let y = Number(today.slice(0, 4)),
        mo = Number(today.slice(5, 7));
      if (d < Number(today.slice(8, 10)) && !past) {
        mo += 1;
        if (mo > 12) {
          mo = 1;
          y += 1;
        }
      }
      return `${y}-${pad(mo)}-${pad(d)}`;
    };
    // '3rd to 5th of February': a month follows, so chrono reads the whole range
    if (
      new RegExp(`^\\s*(?:(?:to|-|until|till|through|and)\\s*(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\s*)?(?:of\\s+)?(?:${MONTHS})\\b`).test(
        lower.slice(m.index + m[0].length),
      )
    )
      continue;
    const a = Number(m[1]),
      b = m[2] ? Number(m[2]) : undefined;
    if (a < 1 || a > 31 || (b !== undefined && (b < 1 || b > 31))) continue;
    const s = dayOf(a);
    let e = b !== undefined ? dayOf(b) : undefined;
    if (e && e < s) e = monthLater(e);
    push({ start: m.index, end: m.index + m[0].length, start_date: s, end_date: e, text: m[0] });
  }

  // 'between 5 march and 7 march' reads as a range (same-length rewrite keeps the positions)
  const prepared = text
    .replace(/\bbetween\s(.{1,25}?)\sand\s/i, (_all, a) => `   from ${a}  to `)
    // 'april 20' is the 20th of April, not April 2020 (same-length swap keeps the positions)
    .replace(
      new RegExp(`\\b(${MONTHS}) (\\d{1,2}(?:st|nd|rd|th)?)\\b(?!\\s*(?::|\\d|am\\b|pm\\b))`, 'gi'),
      (_all, mon: string, d: string) => `${d} ${mon}`,
    );
  const results = chrono.en.GB.parse(prepared, reference, { forwardDate: !past });
  for (const r of results) {
    const known = (r.start as any).knownValues as Record<string, number>;
    const isDateLike = ['day', 'weekday', 'month', 'year'].some((k) => k in known);
    if (!isDateLike) continue; // time-only: handled by extractTimes
    // 'for 3 days' / '2 days annual leave' are durations, not dates
    if (
      /^(for|within)\s/i.test(r.text) ||
      /^(a|an|one|\d+)\s+(working\s+|business\s+)?(days?|weeks?|months?|hours?|minutes?)$/i.test(r.text.trim())
    )
      continue;
    let start = componentIso(r.start);
    let end = r.end ? componentIso(r.end) : undefined;
    // a weekday on its own ('next monday', 'on friday') is the first such day after today; in a message read
    // backwards (an incident, a sick leave) the last such day before it, unless the words say which way
    // ('next friday', 'coming monday' ahead; 'last friday' back)
    if ('weekday' in known && !('day' in known) && !/\bweek\b/i.test(r.text)) {
      const wd = known.weekday;
      const said = text.slice(Math.max(0, r.index - 16), r.index + r.text.length).toLowerCase();
      const back = /\b(next|coming|upcoming)\b/.test(said) ? false : /\b(last|past|previous)\b/.test(said) ? true : past;
      start = back ? addDays(today, -((weekdayOf(today) - wd + 7) % 7 || 7)) : nextWeekday(today, wd);
      if (r.end) {
        const ek = (r.end as any).knownValues as Record<string, number>;
        if ('weekday' in ek && !('day' in ek)) {
          end = start;
          while (weekdayOf(end) !== ek.weekday) end = addDays(end, 1);
        }
      }
    }
    // chrono orders a range itself; keep the order the user typed so that 'from 10 May to 7 May' is caught as an error
    if (end && end > start) {
      const sides = r.text.split(/\s+(?:to|until|till|through|and)\s+|\s*[-–]\s*(?=\D)/i);
      if (sides.length === 2) {
        const left = chrono.en.GB.parse(sides[0], reference, { forwardDate: !past })[0];
        const right = chrono.en.GB.parse(sides[1], reference, { forwardDate: !past })[0];
        const full = (x?: chrono.ParsedResult) => x && ['day', 'month'].every((k) => k in ((x.start as any).knownValues as object));
        if (full(left) && full(right)) {
          const l = componentIso(left.start),
            rr = componentIso(right.start);
          if (l > rr && l === end && rr === start) {
            start = l;
            end = rr;
          }
        }
      }
    }
    if (end === start) end = undefined;
    const index = r.index;
    const before = text.slice(Math.max(0, index - 14), index).toLowerCase();
    const cue = /\b(from|by|until|till|before|on|since|starting|from the|effective|after)\s*(the\s*)?$/.exec(before)?.[1];
    push({ start: index, end: index + r.text.length, start_date: start, end_date: end, cue, text: r.text });
  }
  hits.sort((a, b) => a.start - b.start);
  return withoutCorrectedDates(lower, hits);
}

/** Words by which a message corrects itself ('tomorrow... actually 2 Feb', 'Friday, I mean Monday'). */
const SELF_CORRECTION = /\b(?:actually|i mean|i meant|no wait|wait no|make (?:it|that)|correction|scratch that|sorry)\b/g;

/**
 * A self-correction followed by a date replaces the date said just before it ('departing 3 March, back 5 March,
 * actually 6 March': 3 and 6 March); the dates before that one stay.
 */
function withoutCorrectedDates(lower: string, hits: DateHit[]): DateHit[] {
  if (hits.length < 2) return hits;
  const dropped = new Set<DateHit>();
  for (const m of lower.matchAll(SELF_CORRECTION)) {
    if (!hits.some((h) => h.start >= m.index)) continue;
    const before = hits.filter((h) => h.end <= m.index && !dropped.has(h)).pop();
    if (before) dropped.add(before);
  }
  return dropped.size ? hits.filter((h) => !dropped.has(h)) : hits;
}

// ---- times ---------------------------------------------------------------------------------

const T = String.raw`(\d{1,2})(?!\d)(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?`;

function toHm(h: number, m: number): string | undefined {
  if (h > 23 || m > 59) return undefined;
  return `${pad(h)}:${pad(m)}`;
}

function to24(h: number, mer: string | undefined, guessBusiness: boolean): number {
  const mr = mer?.replace(/\./g, '');
  if (mr === 'pm' && h < 12) return h + 12;
  if (mr === 'am' && h === 12) return 0;
  if (!mr && guessBusiness && h >= 1 && h <= 6) return h + 12;
  return h;
}

function extractTimes(lower: string, taken: Span[]): TimeHit | undefined {
  const named = (s: string) => s.replace(/\b(noon|midday)\b/g, '12:00pm').replace(/\bmidnight\b/g, '12:00am');
  const text = named(lower);
  const shift = text.length === lower.length; // spans only reliable when lengths match
  const range = new RegExp(
    String.raw`(?:\b(from|between|at)\s+)?\b${T}\s*(?:-|–|to|till|until|and)\s*${T}(?!\s*(?:st|nd|rd|th|people|persons|participants|attendees|days?|weeks?|hours?|${MONTHS})\b)`,
    'g',
  );
  for (const m of text.matchAll(range)) {
    const [, cue, h1, m1, mer1, h2, m2, mer2] = m;
    const span = { start: m.index, end: m.index + m[0].length };
    if (shift && taken.some((t) => overlaps(t, span))) continue;
    const strong = Boolean(m1 || m2 || mer1 || mer2 || cue === 'from' || cue === 'at' || cue === 'between');
    // 'thursday 2 till 3' / '11 to 12': bare hours count where a time slot is meant (a room, a meeting, a weekday)
    const slot =
      Number(h1) <= 12 &&
      Number(h2) <= 12 &&
      /\b(room|meeting|call|slot|huddle|boardroom|conference|reserve|book|booking|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow)\b/.test(
        text,
      );
    if (!strong && !slot) continue;
    let a = Number(h1),
      b = Number(h2);
    const ma = Number(m1 ?? 0),
      mb = Number(m2 ?? 0);
    const merA = mer1 ?? (mer2 && !(mer2.startsWith('p') && a > b && a < 12) ? mer2 : undefined);
    a = to24(a, merA, !m1 || a < 7);
    b = to24(b, mer2 ?? merA, true);
    if (b <= a && !mer2 && b + 12 < 24) b += 12;
    const s = toHm(a, ma),
      e = toHm(b, mb);
    if (s && e) {
      const hit: TimeHit = { ...span, start_time: s, end_time: e };
      const dur = /^\s*for\s+(?:an?|one|1)\s+hour/.exec(text.slice(span.end));
      void dur;
      return hit;
    }
  }
  const single = new RegExp(
    String.raw`(?:\b(at|from|starting(?: at)?|by|@)\s*)?\b${T}(?!\s*(?:st|nd|rd|th|people|persons|participants|attendees|days?|weeks?|hours?|minutes?|mins?|pm\b|%|each|per|apiece|dollars?|usd|bucks|${MONTHS})\b)`,
    'g',
  );
  for (const m of text.matchAll(single)) {
    const [, cue, h1, m1, mer1] = m;
    if (!m1 && !mer1 && !(cue === 'at' || cue === '@')) continue;
    if (m1 && /[.]/.test(m[0]) && !mer1 && !cue) continue; // 45.50 is money, not a time
    const span = { start: m.index, end: m.index + m[0].length };
    if (shift && taken.some((t) => overlaps(t, span))) continue;
    const h = to24(Number(h1), mer1, !m1);
    const s = toHm(h, Number(m1 ?? 0));
    if (!s) continue;
    const hit: TimeHit = { ...span, start_time: s };
    const after = text.slice(span.end);
    const dur =
      /^\s*for\s+(?:(an?|one|1|2|3|half an?)\s+hours?|(\d{1,3})\s*(?:minutes|mins?)|(\d(?:\.\d)?)\s*hours?|(an?|one)\s+hour and a half)/.exec(
        after,
      );
    if (dur) {
      let minutes = 60;
      if (dur[2]) minutes = Number(dur[2]);
      else if (dur[3]) minutes = Number(dur[3]) * 60;
      else if (dur[4]) minutes = 90;
      else if (dur[1] && /half/.test(dur[1])) minutes = 30;
      else if (dur[1] && /^\d$/.test(dur[1])) minutes = Number(dur[1]) * 60;
      const total = h * 60 + Number(m1 ?? 0) + minutes;
      if (total < 24 * 60) hit.end_time = toHm(Math.floor(total / 60), total % 60);
      hit.end = span.end + dur[0].length;
    }
    return hit;
  }
  return undefined;
}

// ---- money, counts ---------------------------------------------------------------------------

const NUM = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)`;
const num = (s: string) => Number(s.replace(/,/g, ''));

function extractMoney(lower: string, taken: Span[]): MoneyHit[] {
  const hits: MoneyHit[] = [];
  const add = (m: RegExpMatchArray, valueGroup: number, kShift = false) => {
    const span = { start: m.index!, end: m.index! + m[0].length };
    if (taken.some((t) => overlaps(t, span)) || hits.some((h) => overlaps(h, span))) return;
    let amount = num(m[valueGroup]);
    if (kShift) amount *= 1000;
    const after = lower.slice(span.end, span.end + 24);
    const before = lower.slice(Math.max(0, span.start - 24), span.start);
    const each =
      /\b(each|apiece|a piece|per\s+\w+)\s*$/.test(m[0]) ||
      /^\s*(each|apiece|a piece|per\s+\w+|\/\s*\w+|a unit|an item|a pop)\b/.test(after) ||
      /\b(each|per unit|unit (cost|price))\b[^\d]*$/.test(before);
    const total =
      /\b(total|in total|altogether|overall|estimated total)\b[^\d]*$/.test(before) || /^\s*(in total|total|altogether)\b/.test(after);
    hits.push({ ...span, amount, each, total });
  };
  const cur = String.raw`(?:\$|usd|us\$|€|eur|£|gbp|₹|inr|rs\.?)`;
  for (const m of lower.matchAll(new RegExp(String.raw`${cur}\s*${NUM}(k\b)?`, 'g'))) add(m, 1, Boolean(m[2]));
  for (const m of lower.matchAll(
    new RegExp(String.raw`\b${NUM}\s*(k\s*)?(?:dollars?|usd|bucks|euros?|eur|pounds?|gbp|rupees?|inr|rs\b|\$)`, 'g'),
  ))
    add(m, 1, Boolean(m[2]));
  for (const m of lower.matchAll(
    new RegExp(
      String.raw`\b(?:cost(?:s|ing)?|price[ds]?|budget|amount(?: requested)?|total(?: cost| amount)?|worth|fee|fares?|spend|spent|paid|claim(?:ing)?|estimated(?: cost| total)?|estimate|value[ds]?|about|around|approx(?:imately)?)\s*(?:of|is|at|:|would be|will be|roughly|about|around|approximately|be)?\s*${NUM}\b(?!\s*(?:people|persons|participants|days?|hours?|km|miles|am|pm|:))`,
      'g',
    ),
  ))
    add(m, 1);
  for (const m of lower.matchAll(new RegExp(String.raw`(?:\bat|@)\s*${NUM}\s*(?:each|apiece|a piece|per\s+\w+)`, 'g'))) add(m, 1);
  for (const m of lower.matchAll(new RegExp(String.raw`\b${NUM}\s*(?:each|apiece|a piece|per (?:unit|item|piece))\b`, 'g'))) add(m, 1);
  hits.sort((a, b) => a.start - b.start);
  return hits;
}

const PEOPLE = 'people|persons?|participants?|attendees?|guests?|colleagues|members|pax|heads|delegates|visitors|passengers|folks|ppl';
const UNIT_NOUNS = new Set([
  'days',
  'day',
  'weeks',
  'week',
  'hours',
  'hour',
  'minutes',
  'mins',
  'dollars',
  'dollar',
  'usd',
  'km',
  'miles',
  'am',
  'pm',
  'bucks',
  'euros',
  'rupees',
  'months',
  'month',
  'years',
  'year',
  'times',
  'percent',
  'nights',
  'night',
]);

function extractCounts(lower: string, taken: Span[]) {
  const counts: CountHit[] = [];
  let participants: CountHit | undefined;
  for (const m of lower.matchAll(
    new RegExp(String.raw`\b(?:(?:team|group|party) of\s+(\d{1,4})|(\d{1,4})\s+(?:of us|(?:\w+\s+)?(?:${PEOPLE})\b))`, 'g'),
  )) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (taken.some((t) => overlaps(t, span))) continue;
    participants ??= { ...span, n: Number(m[1] ?? m[2]), noun: 'people' };
  }
  // 'only me, nobody else' / 'just me' / 'me + 2' / 'we are 3'
  const people: Array<[RegExp, (m: RegExpMatchArray) => number]> = [
    [/\bme\s*(?:\+|and|plus)\s*(\d{1,3})\b(?!\s*(?:days?|hours?|am|pm|:))/, (m) => Number(m[1]) + 1],
    [
      /\b(?:we(?:'re| are| will be| ll be|'ll be)|there(?:'s| is| are| will be)|it'?s)\s+(?:just\s+)?(\d{1,4})(?:\s+of us)?\b(?!\s*(?:days?|hours?|am|pm|:|usd|dollars))/,
      (m) => Number(m[1]),
    ],
    [
      /\b(?:only|just)\s+(?:me|myself)\b|\bme\s+(?:alone|only)\b|\bnobody else\b|\bno one else\b|\bby myself\b|\bjust 1\b|\bsolo\b/,
      () => 1,
    ],
  ];
  if (!participants) {
    for (const [re, n] of people) {
      const m = re.exec(lower);
      if (!m) continue;
      const span = { start: m.index, end: m.index + m[0].length };
      if (taken.some((t) => overlaps(t, span))) continue;
      participants = { ...span, n: n(m), noun: 'people' };
      break;
    }
  }
  let quantityItem: QuantityItem | undefined;
  const qi = new RegExp(
    String.raw`\b(\d{1,5})\s*(?:x\s+)?((?:[a-z][a-z'-]*\s+){0,3}?[a-z][a-z'-]*)\s+(?:at|@|for|costing|priced at|of)\s*(?:\$|usd\s*)?${NUM}\s*(?:dollars|usd|\$|bucks)?\s*(?:each|apiece|a piece|per\s+\w+|\/\s*\w+|a unit|an item)`,
    'g',
  );
  for (const m of lower.matchAll(qi)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (taken.some((t) => overlaps(t, span))) continue;
    quantityItem = { ...span, quantity: Number(m[1]), item: m[2].trim(), unitCost: num(m[3]) };
    break;
  }
  for (const m of lower.matchAll(/\b(\d{1,5})\s+((?:new\s+|more\s+|extra\s+)?[a-z][a-z'-]+(?:\s+[a-z][a-z'-]+)?)/g)) {
    const noun = m[2].split(/\s+/);
    if (
      UNIT_NOUNS.has(noun[0]) ||
      new RegExp(`^(${PEOPLE})$`).test(noun[0]) ||
      /^(to|and|or|at|on|of|for|from|in|by|st|nd|rd|th|x)$/.test(noun[0])
    )
      continue;
    const span = { start: m.index, end: m.index + m[0].length };
    if (taken.some((t) => overlaps(t, span))) continue;
    counts.push({ ...span, n: Number(m[1]), noun: m[2] });
  }
  let durationDays: number | undefined;
  const N = String.raw`(\d{1,3}|a|an|one)\s+(?:working\s+|business\s+)?(days?|weeks?)`;
  const dur =
    new RegExp(String.raw`\bfor\s+${N}\b`).exec(lower) ??
    new RegExp(String.raw`\b${N}\s+(?:off|of\s+(?:\w+\s+)?leave|(?:\w+\s+)?leave)\b`).exec(lower) ??
    new RegExp(String.raw`\b(?:take|taking|need|want|request|requesting|book|apply for)\s+${N}\b`).exec(lower);
  if (dur) {
    const n = /^\d+$/.test(dur[1]) ? Number(dur[1]) : 1;
    durationDays = /week/.test(dur[2]) ? n * 5 : n;
  }
  let distanceKm: number | undefined;
  const dist = new RegExp(String.raw`\b${NUM}\s*(km|kms|kilometers|kilometres|miles|mi)\b`).exec(lower);
  if (dist) distanceKm = Math.round(num(dist[1]) * (/^mi/.test(dist[2]) ? 1.609 : 1) * 10) / 10;
  return { counts, participants, quantityItem, durationDays, distanceKm };
}

// ---- rooms, systems, places, ids -----------------------------------------------------------

const ROOM_KINDS = 'conference|meeting|huddle|training|discussion|seminar|interview|video|focus|board|quiet|phone|collaboration|war';
const NOT_ROOM_NAMES = new Set([
  'book',
  'reserve',
  'need',
  'want',
  'get',
  'a',
  'an',
  'the',
  'any',
  'my',
  'our',
  'this',
  'that',
  'big',
  'small',
  'large',
  'free',
  'available',
  'same',
  'team',
  'legal',
  'new',
  'empty',
  'spare',
  'bigger',
  'smaller',
]);

function titleCase(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => (/^[a-z]$/i.test(w) ? w.toUpperCase() : /^\d/.test(w) ? w : w[0].toUpperCase() + w.slice(1).toLowerCase()))
    .join(' ');
}

function extractRooms(text: string): Array<Span & { room: string; specific: boolean }> {
  const lower = text.toLowerCase();
  const rooms: Array<Span & { room: string; specific: boolean }> = [];
  const add = (start: number, end: number, room: string, specific: boolean) => {
    if (rooms.some((r) => overlaps(r, { start, end }))) return;
    rooms.push({ start, end, room, specific });
  };
  for (const m of lower.matchAll(/\b(a|an|any|the|one)?\s*\bboard\s?room\b/g))
    add(m.index, m.index + m[0].length, 'Board Room', m[1] !== 'a' && m[1] !== 'any');
  const kinds = new RegExp(
    String.raw`\b(a|an|any|the|one|some)?\s*\b(${ROOM_KINDS})\s+room\b(?:\s+(?:no\.?\s*|number\s+|#\s*)?([a-z](?![a-z0-9])|[a-z]?\d{1,3}[a-z]?\b|one\b|two\b|three\b))?`,
    'g',
  );
  for (const m of lower.matchAll(kinds)) {
    let ident: string | undefined = m[3];
    if (ident && /^[a-z]$/.test(ident)) {
      // a single letter names the room only when typed as a capital ('Conference Room A') or at the end ('room b.')
      const at = m.index + m[0].length - 1;
      const typedCapital = /[A-Z]/.test(text[at] ?? '');
      const after = lower.slice(at + 1);
      const atEnd = /^\s*([,.;!?]|$)/.test(after);
      // 'conference room b on friday': a letter followed by a preposition or a date word names the room
      const beforeWord = /^\s+(for|on|at|from|tomorrow|today|tonight|next|this|between|in|by|with)\b/.test(after);
      if (!(typedCapital || atEnd || beforeWord)) ident = undefined;
    }
    const base = `${m[2]} room`;
    const generic = (m[2] === 'meeting' || m[2] === 'conference') && !ident && m[1] !== 'the';
    const end = ident ? m.index + m[0].length : m.index + m[0].length - (m[3] ? m[0].length - m[0].lastIndexOf(m[3]) : 0);
    add(
      m.index,
      end,
      titleCase(ident ? `${base} ${ident}` : base),
      ident ? true : !generic && m[1] !== 'a' && m[1] !== 'an' && m[1] !== 'any',
    );
  }
  for (const m of lower.matchAll(
    /\broom\s+(?:no\.?\s*|number\s+|#\s*)?([a-z]?\d{1,4}[a-z]?|[a-z])\b(?!\s*(?:for|at|on|to|people|persons))/g,
  )) {
    if (m[1] === 'a' || m[1] === 'i') continue;
    add(m.index, m.index + m[0].length, titleCase(`room ${m[1]}`), true);
  }
  for (const m of text.matchAll(/\b((?:[A-Z][a-z]+\s+){0,1}[A-Z][a-z]+)\s+[Rr]oom\b/g)) {
    const first = m[1].split(/\s+/)[0].toLowerCase();
    if (NOT_ROOM_NAMES.has(first) || new RegExp(`^(${ROOM_KINDS})$`).test(m[1].toLowerCase())) continue;
    add(m.index, m.index + m[0].length, titleCase(`${m[1]} room`), true);
  }
  rooms.sort((a, b) => a.start - b.start);
  return rooms;
}

function extractSystems(lower: string): Array<Span & { system: string }> {
  const out: Array<Span & { system: string }> = [];
  for (const [system, phrases] of Object.entries(INCIDENT_SYSTEM_WORDS)) {
    for (const p of phrases) {
      const m = new RegExp(`(^|[^a-z0-9])(${escapeRe(p)})($|[^a-z0-9])`).exec(lower);
      if (m) {
        out.push({ start: m.index + m[1].length, end: m.index + m[1].length + p.length, system });
        break;
      }
    }
  }
  return out; // in lexicon order: services before devices
}

const PLACE_STOP = new Set([
  'the',
  'a',
  'an',
  'my',
  'our',
  'work',
  'office',
  'home',
  'next',
  'this',
  'tomorrow',
  'today',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'attend',
  'meet',
  'see',
  'visit',
  'be',
  'go',
  'get',
  'do',
  'take',
  'have',
  'reset',
  'approve',
  'submit',
  'buy',
  'book',
  'the client',
  'travel',
  'fly',
  'me',
  'us',
  'you',
  'it',
  'them',
]);

function extractDestination(text: string): (Span & { place: string }) | undefined {
  const labelled = /\b(?:destination|travel(?: request)?|trip)\s*[:\-–]\s*([A-Za-z][A-Za-z'-]+(?:\s+[A-Z][A-Za-z'-]+){0,2})/i.exec(text);
  if (labelled) {
    const start = labelled.index + labelled[0].length - labelled[1].length;
    return { start, end: start + labelled[1].length, place: labelled[1].replace(/\b\w/g, (c) => c.toUpperCase()) };
  }
  const re = /\b(?:to|in|visit(?:ing)?|towards)\s+((?:the\s+)?[A-Za-z][A-Za-z'-]+(?:\s+[A-Za-z][A-Za-z'-]+){0,3})/g;
  const lowerText = text.toLowerCase();
  const travelish =
    /\b(travel|trip|fly|flying|flight|go|going|visit|visiting|head|heading|journey|destination|to|cab|taxi|ride|shuttle)\b/.test(lowerText);
  if (!travelish) return undefined;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // matches overlap ('to travel to Berlin'): try again from the next word
    re.lastIndex = m.index + 1;
    let place = m[1].replace(/^the\s+/i, '').trim();
    // cut at words that end a place name
    place = place
      .split(
        /\s+(?:for|from|on|next|this|between|starting|until|till|by|at|in|to|with|and|via|since|during|over|around|tomorrow|today|tonight|the|a|an|i|we|it|is|are|was|estimated|costing|cost|leaving|returning|departing|coming|back|monday|tuesday|wednesday|thursday|friday|saturday|sunday|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*|\d\S*)\b/i,
      )[0]
      .trim();
    // capitalised names continue only with capitalised words ('New York', 'Rio de Janeiro' is typed as is)
    if (/^[A-Z]/.test(place)) place = place.split(/\s+(?=[a-z])(?!(?:de|del|la|le|am|upon|on|da|do|dos)\b)/)[0];
    const first = place.split(/\s+/)[0].toLowerCase();
    if (PLACE_STOP.has(first) || PLACE_STOP.has(place.toLowerCase()) || WEEKDAYS.includes(first) || new RegExp(`^(${MONTHS})$`).test(first))
      continue;
    if (/^\d/.test(place) || place.length < 2) continue;
    const isCap = /^[A-Z]/.test(place);
    // lower-case places only right after a travel verb ('fly to berlin')
    if (
      !isCap &&
      !/\b(travel|travelling|traveling|trip|fly|flying|go|going|visit|visiting|head|heading|cab|taxi|ride|car|shuttle|transport|drive|drop|drop me|pickup|pick me up)\s+(?:off\s+)?(?:to\s+)?$/i.test(
        text.slice(Math.max(0, m.index - 16), m.index + m[0].length - m[1].length),
      )
    )
      continue;
    if (/^(in)$/i.test(m[0].split(/\s+/)[0]) && !isCap) continue;
    const start = m.index + m[0].length - m[1].length + (m[1].length - m[1].replace(/^the\s+/i, '').length);
    return { start, end: start + place.length, place: isCap ? place : titleCase(place) };
  }
  return undefined;
}

/** Request ids like LR-000123 (also 'lr-123'), normalised to the stored form. */
export function extractRequestIds(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(/\b([A-Za-z]{2,4})\s?-\s?(\d{1,9})\b/g)) {
    const id = `${m[1].toUpperCase()}-${m[2].length < 6 ? m[2].padStart(6, '0') : m[2]}`;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Every entity of one message. `past` reads open dates backwards (an incident 'on friday' was last friday). */
export function extract(text: string, now: Date, opts: { past?: boolean } = {}): Extraction {
  const lower = text.toLowerCase();
  const idSpans: Span[] = [];
  for (const m of text.matchAll(/\b[A-Za-z]{2,4}\s?-\s?\d{1,9}\b/g)) idSpans.push({ start: m.index, end: m.index + m[0].length });
  const time = extractTimes(lower, idSpans);
  const taken = [...idSpans, ...(time ? [time] : [])];
  // a date phrase may contain the times ('on 20 January from 10:00 to 11:30'): only ids block dates
  const dates = extractDates(text, now, idSpans, Boolean(opts.past));
  const taken2 = [...taken, ...dates];
  const money = extractMoney(lower, taken2);
  const c = extractCounts(lower, [...taken2, ...money.filter((x) => !x.each)]);
  const taken3 = [...taken2, ...money, ...(c.participants ? [c.participants] : [])];
  const numbers: Array<Span & { n: number }> = [];
  for (const m of lower.matchAll(/(?<![\w.:-])(\d+(?:\.\d+)?)(?![\w:-])/g)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (idSpans.some((t) => overlaps(t, span))) continue;
    numbers.push({ ...span, n: Number(m[1]) });
  }
  void taken3;
  return {
    text,
    lower,
    requestIds: extractRequestIds(text),
    dates,
    time,
    money,
    participants: c.participants,
    quantityItem: c.quantityItem,
    counts: c.counts,
    numbers,
    distanceKm: c.distanceKm,
    durationDays: c.durationDays,
    rooms: extractRooms(text),
    systems: extractSystems(lower),
    destination: extractDestination(text),
  };
}

// ---- purpose / reason ----------------------------------------------------------------------

const FILLER = /^(a|an|some|just|the purpose of|purpose|reason|it|that|this)\s+/i;
const NOT_PURPOSE =
  /^(me|us|it|that|this|them|him|her|you|now|today|tomorrow|tonight|next\s+\w+|this\s+\w+|the\s+(day|week|month)|approval|review|leave|annual leave|sick leave|a leave|the leave|a day|a week|\d+\s+\w+|a meeting room|a room|the room|petty cash|cash|a purchase requisition|purchase|a password reset|password reset|travel|a trip|a business trip|the team|my team|everyone|all|some|people|the whole day|the day|the morning|the afternoon|one|two|later|now please|me please|how long|long|both|ever|good|real|sure|days?|weeks?|hours?)$/i;
const REQUEST_VERBS =
  /\b(book|apply|take|request|need|want|submit|raise|reserve|schedule|get|would like|'d like|have to|can i|could i|please|put in|file|log|report|create|open|make|i'm|i am|it's|its|it is|can you|could you|off|yes|no)\b/i;

/**
 * The reason or purpose a message gives ('for a family wedding', 'because my flat flooded', or a
 * trailing clause like ', personal errands'), read from the text with the used entity spans masked.
 */
export function purposeOf(text: string, used: Span[]): string | undefined {
  let masked = '';
  let last = 0;
  for (const s of [...used].sort((a, b) => a.start - b.start)) {
    if (s.start < last) {
      last = Math.max(last, s.end);
      continue;
    }
    // a span that swallowed the comma after it ('next thursday,') keeps the comma: it separates the reason
    masked += text.slice(last, s.start) + (/,\s*$/.test(text.slice(s.start, s.end)) ? ' ¦ , ' : ' ¦ ');
    last = s.end;
  }
  masked += text.slice(last);
  // a reason after a comma, as typed: 'annual leave 3 to 5 March, Dentist appt - pls cover standup'
  const afterComma = masked
    .split(/[,;]/)
    .slice(1)
    .map((seg) => seg.trim())
    .find(
      (seg) =>
        seg.length >= 3 &&
        !seg.includes('¦') &&
        /[a-z]{3,}/i.test(seg) &&
        !REQUEST_VERBS.test(seg.replace(/\b(pls|please)\b/gi, '')) &&
        !NOT_PURPOSE.test(seg.replace(/[\s.!?]+$/, '')) &&
        !/^(thanks?|thank you|cheers|ty|thx|asap|urgent(ly)?|ok|okay|if possible|pls|please)\b/i.test(seg),
    );
  if (afterComma && afterComma.split(/\s+/).length <= 40) return afterComma.replace(/\s+/g, ' ').replace(/[\s,;]+$/, '');
  // a reason told first: 'my grandad passed away, i need bereavement leave ...', 'so my mum is visiting and I'd love ...'
  const parts = masked.split(/[,;.!?]|\s(?:and|so) (?=i\b|i'|can i|could i)/i);
  const requestAt = parts.findIndex((p) => p.includes('¦'));
  const first = (
    parts
      .slice(0, Math.max(0, requestAt))
      .filter((p) => p.trim().length > 0 && !/^\s*(hey|hi|hello|ok|okay|so|well)\s*$/i.test(p))
      .pop() ?? ''
  )
    .replace(/^\s*(?:hey|hi|hello|so|well|ok|okay|um+|hmm+)\b[\s,!.]*/gi, '')
    .replace(/^\s*(?:so|well)\s+/i, '')
    .trim();
  if (
    first &&
    !first.includes('¦') &&
    first.split(/\s+/).length >= 3 &&
    /\b(my|our|is|was|has|have|got|passed|visiting|moving|sick|ill|wedding|funeral)\b/i.test(first) &&
    !REQUEST_VERBS.test(first) &&
    masked.length > first.length + 5
  )
    return first;
  const clean = (s: string) =>
    s
      .replace(/\s+/g, ' ')
      .replace(FILLER, '')
      .replace(FILLER, '')
      .replace(/[\s,.;:!?-]+$/, '')
      .replace(/(\s+(in|on|at|for|to|of|from|by|with|the|a|an|and|during))+$/i, '')
      .trim();
  const cue =
    /(?:\b(?:for|because(?: of)?|due to|as i|since i|since my|reason(?: is|:)?|purpose(?: is|:)?|so that|so i can|in order to)\s+|(?=\bto (?:attend|meet|visit|present|see|discuss|join|support|deliver|run|give|train|sign|audit|install|review|celebrate)\b))(.+?)(?=$|[,.;!?¦]|\s(?:from|on|between|starting|until|till|by|at|and i|i'll|i will|estimated|costing|cost|with a budget|next|this coming|please)\b)/gi;
  for (const m of masked.matchAll(cue)) {
    const phrase = clean(m[1]);
    if (phrase.length < 2 || NOT_PURPOSE.test(phrase) || /^(the\s+)?(next|this|coming)\b/i.test(phrase)) continue;
    // 'to attend the ¦': a verb and an article are not a purpose
    const content = phrase
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length >= 3 && !/^(the|and|for|with|our|my|your|to|attend|meet|visit|see|join|this|that|these|those)$/.test(w));
    if (content.length === 0) continue;
    if (phrase.split(/\s+/).length > 25) continue;
    return phrase;
  }
  const segments = masked
    .split(/[,;.!?]|\s-\s|\s–\s/)
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = segments.length - 1; i >= 1; i -= 1) {
    const seg = clean(segments[i]);
    if (seg.includes('¦') || seg.length < 3 || REQUEST_VERBS.test(seg) || NOT_PURPOSE.test(seg)) continue;
    if (!/[a-z]{3,}/i.test(seg)) continue;
    return seg;
  }
  // a terse message ends with its purpose, after the amount and the date: 'pc 20 usd 3 march 2027 props'
  const tail = clean(masked.slice(masked.lastIndexOf('¦') + 1));
  if (
    text.length <= 80 &&
    masked.includes('¦') &&
    tail.length >= 3 &&
    tail.split(/\s+/).length <= 6 &&
    /[a-z]{3,}/i.test(tail) &&
    !REQUEST_VERBS.test(tail) &&
    !NOT_PURPOSE.test(tail) &&
    !/^(if|when|is that|would|could|can you|thanks?|thank you|cheers|ty|thx|asap|urgent(ly)?|ok|okay|pls|please|people|persons?|pax|participants|attendees|days?|hours?|weeks?)\b/i.test(
      tail,
    )
  )
    return tail;
  return undefined;
}
