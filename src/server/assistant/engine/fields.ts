// From a message to form fields: which extracted entity fills which field of a form type (dates to the
// date fields in order or as a range, money to the amount, people to participants, option words to enum
// fields, the purpose phrase to the reason field), and how one answer fills the field that was asked.
import { type FieldDef, type FormTypeDef, allowsPastDates, formTypeDef, isLeaveType } from '../../../domain/forms.js';
import { FIELD_LEXICONS, PASSWORD_SYSTEM_WORDS, WEAK_LEAVE_WORDS } from '../corpus/entities.js';
import { type Extraction, type Span, addDays, addWorkingDays, extract, purposeOf } from './extract.js';
import { editDistance, escapeRe, hasPhrase, normalise } from './text.js';

export type Fields = Record<string, unknown>;

/**
 * Does a message about `def` read its open dates backwards ('since monday', 'on friday' means last friday): the
 * registry's `allowPast` (allowsPastDates). A type retrospective by nature always does; a conditional rule (a sick
 * leave) only once the form already holds (`known`) or the message names one of its values, so an annual leave 'on
 * friday' is still next friday.
 */
export function readsDatesBackwards(def: FormTypeDef, lower: string, known: Fields = {}): boolean {
  const allow = def.allowPast;
  if (!allow) return false;
  if (allow === true) return true;
  const fd = def.fields.find((f) => f.name === allow.field);
  const value = known[allow.field] ?? (fd ? enumFromText(fd, lower)?.value : undefined);
  return value !== undefined && value !== null && value !== '' && allowsPastDates(def.formType, { [allow.field]: value });
}

const DATE_PAIRS: Array<[string, string]> = [
  ['start_date', 'end_date'],
  ['departure_date', 'return_date'],
];

/** The first longtext field that holds the reason or purpose of a request. */
const PURPOSE_FIELDS = [
  'reason',
  'travel_purpose',
  'purpose',
  'purpose_of_purchase',
  'justification',
  'business_justification',
  'description',
  'summary',
];
/** Longtext fields that describe a problem: the whole message is the description. */
const DESCRIPTION_FIELDS = ['incident_description', 'issue_description'];
const PROBLEM_WORDS =
  /\b(not|won'?t|can'?t|cannot|doesn'?t|isn'?t|broken|error|crash\w*|freez\w*|slow|down|fail\w*|stuck|leak\w*|flicker\w*|blocked|drop\w*|disconnect\w*|keeps?|stopped|no (sound|signal|power|internet)|problem|issue|jam\w*|damaged|injur\w*|slipped|fell|hazard|since)\b/;

/** Canonical option of an enum field named in `lower`, preferring explicit phrases over weak hints. */
export function enumFromText(fd: FieldDef, lower: string, opts: { answer?: boolean } = {}): { value: string; span?: Span } | undefined {
  const lex = FIELD_LEXICONS[fd.name] ?? {};
  let best: { value: string; len: number; weak: boolean; index: number; phrase: string } | undefined;
  const options = fd.options ?? [];
  for (const opt of options) {
    const phrases = [opt.toLowerCase(), ...(lex[opt] ?? [])];
    for (const p of phrases) {
      const m = new RegExp(`(^|[^a-z0-9])(${escapeRe(p.toLowerCase())})($|[^a-z0-9])`).exec(lower);
      if (!m) continue;
      const weak = fd.name === 'leave_type' && WEAK_LEAVE_WORDS.has(p);
      const cand = { value: opt, len: p.length, weak, index: m.index + m[1].length, phrase: p };
      // explicit words beat hints; then the first mentioned ('my VPN password ... a phishing mail'); then the longest
      const better =
        !best ||
        (best.weak && !weak) ||
        (best.weak === weak && (cand.index < best.index || (cand.index === best.index && cand.len > best.len))) ||
        (best.weak === weak && cand.index < best.index + best.len && cand.index >= best.index && cand.len > best.len);
      if (better) best = cand;
    }
  }
  if (best) return { value: best.value, span: { start: best.index, end: best.index + best.phrase.length } };
  if (!opts.answer) return undefined;
  const s = lower.replace(/[^a-z0-9 ]+/g, ' ').trim();
  // '1' / 'the second one' picks from the listed options
  const ordinals = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];
  const n = /^\d$/.test(s) ? Number(s) : ordinals.findIndex((o) => new RegExp(`\\b${o}\\b`).test(s)) + 1;
  if (n >= 1 && n <= options.length) return { value: options[n - 1] };
  for (const opt of options) {
    const o = opt.toLowerCase();
    if (s === o || (s.length >= 4 && editDistance(s, o, 2) <= 2)) return { value: opt };
  }
  if (options.includes('Other') && s.length > 0 && s.split(' ').length <= 4 && fd.name !== 'leave_type') return { value: 'Other' };
  return undefined;
}

function cleanAnswer(text: string): string {
  return text
    .replace(/^\s*(it'?s|it is|that'?s|that is|the|i want|i'd like|i would like|i need|please|to|in|at|for|on|from)\s+/i, '')
    .replace(/^\s*(the)\s+/i, '')
    .replace(/[\s.!?]+$/, '')
    .trim();
}

function titleCase(s: string): string {
  return s
    .split(/\s+/)
    .map((w) => (w.length <= 2 && /^[a-z]$/i.test(w) ? w.toUpperCase() : w[0] ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** 'the new legal team room' -> keeps it, 'my laptop' -> 'laptop': the noun phrase after a buy/need verb. */
function objectPhrase(lower: string, verbs: string): string | undefined {
  const m = new RegExp(
    `\\b(?:${verbs})\\s+(?:(?:a|an|some|the|new|two|three|another|more|me|us)\\s+)*([a-z][a-z0-9 '-]{1,40}?)(?=$|[,.;!?]|\\s(?:for|at|to|because|by|from|on|with|costing|priced|at|so|and i|please)\\b)`,
  ).exec(lower);
  if (!m) return undefined;
  const p = m[1].trim();
  if (/^(to|it|a|the|some|this|that|purchase requisition|requisition|purchase order|equipment|help|access)$/.test(p)) return undefined;
  return p;
}

/**
 * Fields of `formType` that the message states, and the spans it used (so the purpose phrase is read from
 * the rest). Never invents a value the message does not contain.
 */
export function extractFields(
  formType: string,
  text: string,
  now: Date,
  known: Fields = {},
): { fields: Fields; used: Span[]; ex: Extraction } {
  const def = formTypeDef(formType) as FormTypeDef;
  const ex = extract(text, now, { past: readsDatesBackwards(def, text.toLowerCase(), known) });
  const lower = ex.lower;
  const fields: Fields = {};
  const used: Span[] = [];
  const has = (name: string) => def.fields.some((f) => f.name === name);

  // dates
  const dateFields = def.fields.filter((f) => f.type === 'date').map((f) => f.name);
  const pair = DATE_PAIRS.find(([a, b]) => dateFields.includes(a) && dateFields.includes(b));
  const dates = [...ex.dates];
  if (pair) {
    const [a, b] = pair;
    const range = dates.find((d) => d.end_date);
    if (range) {
      fields[a] = range.start_date;
      fields[b] = range.end_date;
      used.push(range);
      dates.splice(dates.indexOf(range), 1);
    } else if (dates.length >= 2) {
      fields[a] = dates[0].start_date;
      fields[b] = dates[1].start_date;
      used.push(dates[0], dates[1]);
      dates.splice(0, 2);
    } else if (dates.length === 1) {
      const d = dates[0];
      used.push(d);
      dates.splice(0, 1);
      if (d.cue === 'until' || d.cue === 'till' || (d.cue === 'by' && !isLeaveType(formType))) fields[b] = d.start_date;
      else if (ex.durationDays) {
        fields[a] = d.start_date;
        fields[b] = isLeaveType(formType) ? addWorkingDays(d.start_date, ex.durationDays) : addDays(d.start_date, ex.durationDays - 1);
      } else {
        fields[a] = d.start_date;
        // 'take next monday off': one day, unless the message says where it starts ('from the 5th')
        if (isLeaveType(formType) && !['from', 'starting', 'since', 'after'].includes(d.cue ?? '')) fields[b] = d.start_date;
      }
    }
  }
  for (const name of dateFields) {
    if (fields[name] !== undefined || (pair && pair.includes(name))) continue;
    const d = dates.shift();
    if (!d) break;
    fields[name] = d.start_date;
    used.push(d);
  }

  // times
  if (ex.time) {
    if (has('start_time')) {
      fields.start_time = ex.time.start_time;
      if (ex.time.end_time) fields.end_time = ex.time.end_time;
      used.push(ex.time);
    } else if (has('travel_time')) {
      fields.travel_time = ex.time.start_time;
      used.push(ex.time);
    }
  }

  // counts
  if (ex.participants) {
    for (const name of ['participants_count', 'passengers'])
      if (has(name)) {
        fields[name] = ex.participants.n;
        used.push(ex.participants);
      }
  } else if (has('participants_count')) {
    // 'Conference Room B on Tuesday 9-10am for 4'
    const m = /\bfor\s+(\d{1,3})(?![\d:.])\b(?!\s*(?:days?|hours?|minutes?|mins?|am|pm|usd|dollars|\$|%|h\b|hrs?))/.exec(lower);
    if (m && !(ex.time && m.index >= ex.time.start && m.index < ex.time.end)) {
      fields.participants_count = Number(m[1]);
      used.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  if (has('quantity')) {
    if (ex.quantityItem) {
      fields.quantity = ex.quantityItem.quantity;
      used.push(ex.quantityItem);
    } else {
      const c = ex.counts.find((x) => !/^(people|participants|days?|hours?)$/.test(x.noun));
      if (c) {
        fields.quantity = c.n;
        used.push(c);
      }
    }
  }
  if (has('distance_km') && ex.distanceKm !== undefined) fields.distance_km = ex.distanceKm;

  // money
  const moneyFields = def.fields.filter((f) => f.type === 'money').map((f) => f.name);
  const ct = def.computedTotal;
  if (ct) {
    // A type with a computed total (quantity x unit cost): '... at $x each' is the unit cost, 'total $y' the total.
    const unit = ex.quantityItem?.unitCost ?? ex.money.find((m) => m.each)?.amount;
    if (unit !== undefined) fields[ct.unitCost] = unit;
    const total = ex.money.find((m) => m.total && !m.each);
    if (total) fields[ct.field] = total.amount;
    else if (unit === undefined && fields[ct.quantity] === undefined && ex.money.length === 1) fields[ct.unitCost] = ex.money[0].amount;
    used.push(...ex.money);
  } else if (moneyFields.length > 0) {
    const m = ex.money.find((x) => !x.each) ?? ex.money[0];
    if (m) {
      let amount = m.amount;
      const q = Number(fields.quantity);
      if (m.each && formType === 'equipment-request' && q > 0) amount = Math.round(amount * q * 100) / 100;
      fields[moneyFields[0]] = amount;
      used.push(m);
    }
  }

  // enum fields
  for (const fd of def.fields) {
    if (fd.type !== 'enum') continue;
    const hit = enumFromText(fd, lower);
    if (!hit) continue;
    fields[fd.name] = hit.value;
    if (hit.span) used.push(hit.span);
  }
  if (formType === 'password-reset' && fields.system_for_reset === undefined) {
    const named = /\b(?:my|the|our)\s+([a-z][a-z0-9-]{1,20})\s+(?:password|account|login)\b/.exec(lower);
    if (named && !['own', 'new', 'old', 'work', 'user', 'email', 'current'].includes(named[1])) {
      const known = Object.entries(PASSWORD_SYSTEM_WORDS).find(([, ws]) => ws.includes(named[1]));
      fields.system_for_reset = known ? known[0] : 'Other';
    }
  }

  // text fields
  for (const fd of def.fields) {
    if ((fd.type !== 'text' && fd.type !== 'longtext') || fields[fd.name] !== undefined) continue;
    switch (fd.name) {
      case 'room_requested': {
        const room = ex.rooms.find((r) => r.specific);
        if (room) {
          fields.room_requested = room.room;
          used.push(room);
        }
        break;
      }
      case 'destination':
        if (ex.destination) {
          fields.destination = ex.destination.place;
          used.push(ex.destination);
        }
        break;
      case 'pickup_location': {
        const m = /\bfrom\s+(?:the\s+)?([a-z][a-z ]{1,30}?)(?=$|[,.;!?]|\s(?:to|at|on|for|tomorrow|today|next)\b)/.exec(lower);
        if (m) fields.pickup_location = titleCase(m[1]);
        break;
      }
      case 'affected_system':
        if (ex.systems[0]) {
          fields.affected_system = ex.systems[0].system;
          used.push(ex.systems[0]);
        }
        break;
      case 'requested_systems': {
        const names = ex.systems
          .filter((s) => !['Laptop', 'Desktop', 'Monitor', 'Keyboard', 'Mouse', 'Headset', 'Phone', 'Printer'].includes(s.system))
          .map((s) => s.system);
        const m =
          /\baccess (?:to|for|on)\s+(?:the\s+)?([a-z0-9][a-z0-9 &-]{1,40}?)(?=$|[,.;!?]|\s(?:for|because|so|as|system|please)\b)/.exec(
            lower,
          );
        if (names.length) fields.requested_systems = names.join(', ');
        else if (m) fields.requested_systems = m[1].toUpperCase() === m[1] ? m[1] : titleCase(m[1]);
        break;
      }
      case 'facilities_requested': {
        const m =
          /\b(?:access to|into|for)\s+(?:the\s+)?([a-z0-9][a-z0-9 ,'-]{2,40}?)(?=$|[.;!?]|\s(?:because|so|as|since|for|from|until|after|during|on|at night|please)\b)/.exec(
            lower,
          );
        if (m && !/^(me|us|a|an|new access card|access card|temporary access)$/.test(m[1])) fields.facilities_requested = titleCase(m[1]);
        break;
      }
      case 'equipment_type': {
        const c = ex.counts[0];
        const p = c ? c.noun.replace(/^(new|more|extra)\s+/, '') : objectPhrase(lower, 'need|want|request|get|order|requesting');
        if (p) fields.equipment_type = titleCase(p);
        break;
      }
      case 'counterparty': {
        const m = /\b(?:with|for|between us and)\s+([A-Z][\w&.-]*(?:\s+(?:[A-Z][\w&.-]*|Ltd|Inc|LLC|GmbH))*)/.exec(text);
        if (m) fields.counterparty = m[1];
        break;
      }
      case 'training_program': {
        const m =
          /\b(?:training|course|certification|workshop|class|bootcamp)\s+(?:on|in|for|about)\s+([a-z0-9][a-z0-9 +#.-]{1,40}?)(?=$|[,.;!?]|\s(?:by|from|with|at|on|starting|next|costing|for)\b)/i.exec(
            text,
          ) ??
          /\b(?:the|a|an)\s+((?:[A-Z0-9][\w+#.-]*\s+){0,5}?[A-Z0-9][\w+#.-]*)\s+(?:training|course|certification|workshop|class|bootcamp)\b/.exec(
            text,
          );
        if (m) fields.training_program = m[1].trim();
        break;
      }
      case 'training_provider':
      case 'provider': {
        const m = /\b(?:by|from|with|at|through)\s+((?:the\s+)?[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})/.exec(text);
        if (
          m &&
          !/^(the\s+)?(January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|I)$/i.test(
            m[1],
          )
        )
          fields[fd.name] = m[1].replace(/^the\s+/i, '');
        break;
      }
      case 'new_hire_name': {
        const m =
          /\b(?:hire|joiner|starter|employee|member|colleague|named|called)\s*[:,]?\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,2})/.exec(
            text,
          ) ?? /\b([A-Z][a-z'-]+\s+[A-Z][a-z'-]+)\s+(?:joins|is joining|will join|starts|is starting)\b/.exec(text);
        if (m) fields.new_hire_name = m[1];
        break;
      }
      case 'position': {
        const m = /\bas\s+(?:a|an|our|the)?\s*([A-Za-z][\w -]{1,40}?)(?=$|[,.;!?]|\s(?:on|from|starting|in|at|next|this|with|and)\b)/.exec(
          text,
        );
        if (m) fields.position = m[1].trim();
        break;
      }
      case 'contract_title': {
        const m = /\b(?:the|a|an|our)\s+([a-z0-9][\w '&-]{2,40}?)\s+(?:contract|agreement)\b/i.exec(text);
        if (m && !/^(new|vendor|this|that|service)$/i.test(m[1])) fields.contract_title = titleCase(m[1]);
        break;
      }
      case 'event_name': {
        const m =
          /\b(?:attend|register (?:me )?for|participate in|go to|speak at)\s+(?:the\s+)?([A-Za-z0-9][\w &'-]{2,50}?)(?=$|[,.;!?]|\s(?:in|on|at|next|this|from|for)\b)/.exec(
            text,
          );
        if (m && !/^(a|an|conference|event|meetup|summit|training)$/i.test(m[1])) fields.event_name = m[1];
        break;
      }
      case 'location': {
        const PLACE = String.raw`((?:\d+(?:st|nd|rd|th)\s+floor|(?:[a-z0-9'-]+\s+){0,3}(?:kitchen|office|room|floor|corridor|stairwell|stairs|car park|parking|lobby|warehouse|wing|toilet|restroom|canteen|building|hall|lab|reception|entrance|cafeteria|pantry)))\b`;
        // 'in the lobby' names a place; 'on the wet floor' rather describes it
        const m =
          new RegExp(String.raw`\b(?:in|at|near|outside)\s+(?:the\s+)?${PLACE}`).exec(lower) ??
          new RegExp(String.raw`\bon\s+(?:the\s+)?${PLACE}`).exec(lower);
        if (m) fields.location = titleCase(m[1]);
        else if (formType === 'event-participation' && ex.destination) fields.location = ex.destination.place;
        break;
      }
      case 'expense_period': {
        const m =
          /\b(?:for|in|during)\s+((?:january|february|march|april|may|june|july|august|september|october|november|december)(?:\s+\d{4})?)\b/.exec(
            lower,
          );
        if (m) fields.expense_period = titleCase(m[1]);
        break;
      }
      case 'item_description':
        if (ex.quantityItem) fields.item_description = ex.quantityItem.item;
        else {
          const c = ex.counts[0];
          const p = c ? c.noun : objectPhrase(lower, 'buy|purchase|order|requisition for|purchase requisition for|need to buy|need');
          if (p) fields.item_description = p;
        }
        break;
      default:
        break;
    }
  }

  // long text: a problem description is the message itself; a reason is the purpose phrase
  for (const name of DESCRIPTION_FIELDS) {
    if (has(name) && fields[name] === undefined && PROBLEM_WORDS.test(lower) && text.split(/\s+/).length >= 4) fields[name] = text.trim();
  }
  if (has('new_information') && fields.update_type !== undefined) {
    const m = /^.*\b(?:to|is|now)\s+([^;]{3,200})$|^.*:\s*([^;]{3,200})$/.exec(text);
    if (m) fields.new_information = (m[1] ?? m[2]).trim();
  }
  const purposeField = PURPOSE_FIELDS.find((n) => has(n) && def.fields.find((f) => f.name === n)?.type === 'longtext');
  if (purposeField && fields[purposeField] === undefined) {
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value !== 'string' || value.length < 2) continue;
      const fd = def.fields.find((f) => f.name === name);
      if (fd && (fd.type === 'text' || fd.type === 'enum')) {
        const m = new RegExp(escapeRe(value.toLowerCase())).exec(lower);
        if (m) used.push({ start: m.index, end: m.index + value.length });
      }
    }
    const p = purposeOf(text, used);
    if (p) fields[purposeField] = p;
  }
  return { fields, used, ex };
}

/**
 * The fields one answer fills when `asked` was the question: the asked field read leniently from the
 * whole answer, plus anything else the answer states explicitly.
 */
export function interpretAnswer(formType: string, asked: string, answer: string, now: Date, current: Fields): Fields {
  const def = formTypeDef(formType) as FormTypeDef;
  const fd = def.fields.find((f) => f.name === asked);
  const nm = normalise(answer);
  const { fields: found, ex } = extractFields(formType, nm.fixed, now, current);
  const out: Fields = {};
  // other fields only when still missing (an answer does not silently overwrite what was said before)
  for (const [k, v] of Object.entries(found)) if (current[k] === undefined && k !== asked) out[k] = v;
  if (!fd) return out;
  const lower = nm.lower;
  const setAsked = (v: unknown) => {
    if (v !== undefined && v !== null && v !== '') out[asked] = v;
  };
  switch (fd.type) {
    case 'enum':
      setAsked(enumFromText(fd, lower, { answer: true })?.value);
      break;
    case 'date': {
      const pair = DATE_PAIRS.find((p) => p.includes(asked));
      const d = ex.dates[0];
      if (!d) break;
      if (pair && asked === pair[0]) {
        setAsked(d.start_date);
        if (d.end_date) out[pair[1]] = d.end_date;
        else if (ex.durationDays)
          out[pair[1]] = isLeaveType(formType) ? addWorkingDays(d.start_date, ex.durationDays) : addDays(d.start_date, ex.durationDays - 1);
        else if (found[pair[1]] !== undefined && current[pair[1]] === undefined) out[pair[1]] = found[pair[1]];
      } else if (pair && asked === pair[1]) {
        setAsked(d.end_date ?? d.start_date);
        if (d.end_date && current[pair[0]] === undefined) out[pair[0]] = d.start_date;
      } else setAsked(d.start_date);
      break;
    }
    case 'time': {
      if (ex.time) {
        if (asked === 'end_time' && !ex.time.end_time) setAsked(ex.time.start_time);
        else {
          setAsked(ex.time.start_time);
          if (ex.time.end_time && asked === 'start_time') out.end_time = ex.time.end_time;
        }
      } else {
        const m = /^\s*(?:at|from|until|till|to)?\s*(\d{1,2})(?:[:.](\d{2}))?\s*$/.exec(lower);
        if (m) {
          let h = Number(m[1]);
          const min = Number(m[2] ?? 0);
          if (h >= 1 && h <= 6) h += 12; // a bare 2 in office hours is 2pm
          if (h < 24 && min < 60) setAsked(`${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`);
        }
      }
      break;
    }
    case 'integer': {
      const n =
        asked === 'participants_count' || asked === 'passengers'
          ? (ex.participants?.n ?? ex.numbers[0]?.n)
          : (ex.quantityItem?.quantity ?? ex.numbers[0]?.n);
      if (n !== undefined && Number.isInteger(n)) setAsked(n);
      break;
    }
    case 'money': {
      const m = ex.money[0]?.amount ?? ex.numbers[0]?.n;
      setAsked(m);
      break;
    }
    case 'number':
      setAsked(asked === 'distance_km' ? (ex.distanceKm ?? ex.numbers[0]?.n) : ex.numbers[0]?.n);
      break;
    case 'text': {
      if (asked === 'room_requested') {
        const room = ex.rooms[0];
        setAsked(room ? room.room : titleCase(cleanAnswer(nm.fixed)));
        break;
      }
      if (asked === 'destination') {
        setAsked(ex.destination?.place ?? titleCase(cleanAnswer(nm.fixed)));
        break;
      }
      if (asked === 'affected_system') {
        setAsked(ex.systems[0]?.system ?? cleanAnswer(nm.original));
        break;
      }
      const v = cleanAnswer(nm.original);
      setAsked(v.length > 0 ? v : undefined);
      break;
    }
    case 'longtext': {
      const v = nm.original.trim();
      if (v.length >= 2) setAsked(v);
      // a longtext answer is the whole message: nothing else is read from it
      for (const k of Object.keys(out)) if (k !== asked) delete out[k];
      break;
    }
  }
  if (fd.type !== 'longtext' && out[asked] === undefined && hasPhrase(lower, 'skip') && !fd.required) out[asked] = null;
  return out;
}

/** Which field an error message of the form rules is about (to ask it again). */
export function fieldsOfError(formType: string, message: string): string[] {
  const m = message.toLowerCase();
  if (/overlap|no working days|not enough annual leave|span two calendar years/.test(m)) return ['start_date', 'end_date'];
  if (/end date cannot be before start date/.test(m)) return ['end_date'];
  if (/return date cannot be before departure/.test(m)) return ['return_date'];
  if (/end time must be after start time/.test(m)) return ['end_time'];
  if (/estimated total must equal/.test(m)) return ['estimated_total'];
  const def = formTypeDef(formType);
  const fd = def?.fields.find((f) => m.startsWith(f.label.toLowerCase()) || m.includes(f.name));
  return fd ? [fd.name] : [];
}

/**
 * Fields read from a message with free text kept as typed: dates, amounts and options come from the
 * normalised text (abbreviations expanded, typos corrected), text fields (a reason, a destination) from the
 * user's own words when they can be read there, so that what is stored is what was typed.
 */
export function extractFieldsAsTyped(formType: string, fixed: string, original: string, now: Date): Fields {
  const { fields } = extractFields(formType, fixed, now);
  if (fixed === original) return fields;
  const def = formTypeDef(formType) as FormTypeDef;
  const typed = extractFields(formType, original, now).fields;
  for (const fd of def.fields) {
    if (fd.type !== 'text' && fd.type !== 'longtext') continue;
    if (typeof typed[fd.name] === 'string' && typeof fields[fd.name] === 'string') fields[fd.name] = typed[fd.name];
  }
  return fields;
}

/** Words that announce a correction of something already said. */
const CORRECTION_CUE =
  /\b(actually|change|changed|make (?:it|that|the)|sorry|wait|should be|instead|correction|i meant|meant|update|set the|fix the|not .{1,30} but|oops|my bad|i come back|i'?m back|coming back|come back)\b|^(?:no|nope)\b[, ]/;

/** How a user names each kind of field in a correction. */
function fieldAliases(def: FormTypeDef): Array<{ name: string; re: RegExp }> {
  const out: Array<{ name: string; re: RegExp }> = [];
  const has = (n: string) => def.fields.some((f) => f.name === n);
  const pair = DATE_PAIRS.find(([a, b]) => has(a) && has(b));
  if (pair) {
    out.push({
      name: pair[1],
      re: /\b(end(?:ing)?(?: date)?|last day|until|till|return(?:ing)?(?: date)?|come back|coming back|back on|get back|getting back|finish(?:es|ing)?(?: date)?|ends?)\b/,
    });
    out.push({
      name: pair[0],
      re: /\b(start(?:ing)?(?: date)?|first day|from|depart(?:ure|ing)?(?: date)?|leav(?:e|ing) on|begin(?:s|ning)?|fly out|flying out)\b/,
    });
  }
  if (has('start_time') && has('end_time')) {
    out.push({ name: 'end_time', re: /\b(end(?:ing)? time|finish(?:ing)? time|until|till|finish(?:es)? at|ends? at|end)\b/ });
    out.push({ name: 'start_time', re: /\b(start(?:ing)? time|start(?:s|ing)? at|from|begin(?:s|ning)? at|start)\b/ });
  }
  for (const n of ['participants_count', 'passengers'])
    if (has(n))
      out.push({ name: n, re: /\b(people|persons?|participants?|attendees?|guests?|pax|of us|heads|passengers?)\b|^(?:only|just) me\b/ });
  if (has('quantity')) out.push({ name: 'quantity', re: /\b(quantity|qty|units?|pieces|pcs|of them|how many)\b/ });
  if (has('room_requested')) out.push({ name: 'room_requested', re: /\broom\b(?! booking)/ });
  for (const f of def.fields) {
    if (f.type === 'date' && !(pair && pair.includes(f.name)))
      out.push({ name: f.name, re: f.name.includes('settlement') ? /\b(settle\w*|date|day|by)\b/ : /\b(date|day)\b/ });
    if (f.type === 'money') out.push({ name: f.name, re: /\b(cost|amount|budget|price|total|sum|\$|usd|dollars|bucks)\b|\$/ });
    if (f.type === 'longtext' && PURPOSE_FIELDS.includes(f.name))
      out.push({ name: f.name, re: /\b(reason|purpose|justification|description|because|it'?s for|for what)\b/ });
    if (f.name === 'destination') out.push({ name: f.name, re: /\b(destination|going to|travel(?:l)?ing to|city)\b/ });
  }
  return out;
}

/** The value part of a correction: what follows 'is', 'to', 'should be', ':' after the field's name. */
function valueAfter(text: string, at: number): string {
  const rest = text.slice(at);
  const m =
    /^\s*(?:date|time|count)?\s*(?:is|are|will be|should be|to|=|:|->|on|at|as|of)?\s*(?:actually\s+)?(?:is|be|to|:)?\s*(.*)$/is.exec(rest);
  return (m ? m[1] : rest).replace(/\s+(instead|please|pls|thanks|thank you)\s*[.!]*$/i, '').trim();
}

/**
 * A correction of one field of the form being filled ('actually the end date is the 12th', 'make it 7
 * people', 'change the cost to 2300', 'the reason is: ...'): the fields it changes, only those it names, or
 * undefined when the message is not such a correction.
 */
export function fieldCorrection(formType: string, original: string, now: Date, current: Fields): Fields | undefined {
  const def = formTypeDef(formType) as FormTypeDef;
  const nm = normalise(original);
  const lower = nm.lower;
  if (!CORRECTION_CUE.test(lower) && !/\b(is|should be|to)\b/.test(lower)) return undefined;
  // a whole new range ('actually from 3 March to 5 March') replaces both dates
  const pair = DATE_PAIRS.find(([a, b]) => def.fields.some((f) => f.name === a) && def.fields.some((f) => f.name === b));
  if (pair) {
    const ex = extract(nm.fixed, now, { past: readsDatesBackwards(def, lower, current) });
    const range = ex.dates.find((d) => d.end_date);
    if (range) return { [pair[0]]: range.start_date, [pair[1]]: range.end_date };
  }
  for (const { name, re } of fieldAliases(def)) {
    const m = re.exec(lower);
    if (!m) continue;
    const fd = def.fields.find((f) => f.name === name)!;
    // the value as typed (for text), or the normalised words (for dates, numbers, options)
    const typedAt = new RegExp(re.source, 'i').exec(original);
    let value =
      fd.type === 'longtext' || fd.type === 'text'
        ? valueAfter(original, typedAt ? typedAt.index + typedAt[0].length : 0)
        : valueAfter(nm.fixed, m.index + m[0].length);
    if (fd.type === 'integer' && /\b(of us|people|persons?|participants?|pax)\b|^(only|just) me\b/.test(lower)) value = nm.fixed;
    if (['money', 'integer', 'number'].includes(fd.type) && !/\d/.test(value)) value = nm.fixed;
    if (!value) continue;
    if (fd.type === 'date') {
      // 'the 12th': that day in the month of the date it replaces
      const day = /^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s*[.!]*$/i.exec(value);
      const base = String(current[name] ?? current[DATE_PAIRS.find((p) => p.includes(name))?.[0] ?? ''] ?? '');
      if (day && /^\d{4}-\d{2}-\d{2}$/.test(base)) {
        const d = Number(day[1]);
        if (d >= 1 && d <= 31) return { [name]: `${base.slice(0, 8)}${String(d).padStart(2, '0')}` };
      }
    }
    const rest: Fields = { ...current };
    delete rest[name];
    const got = interpretAnswer(formType, name, value, now, { ...current });
    if (got[name] === undefined) continue;
    return { [name]: got[name] };
  }
  // 'make it sick leave instead': an option named with a correction word
  if (CORRECTION_CUE.test(lower)) {
    for (const fd of def.fields) {
      if (fd.type !== 'enum') continue;
      const hit = enumFromText(fd, lower);
      if (hit && hit.value !== current[fd.name]) return { [fd.name]: hit.value };
    }
    // 'make it 25' with one amount field and no other number in play
    const money = def.fields.filter((f) => f.type === 'money');
    const bare =
      /\b(?:make it|make that|it'?s|should be|change it to)\s+\$?\s*(\d+(?:\.\d{1,2})?)\s*(?:usd|dollars|bucks|\$)?\s*[.!]*$/.exec(lower);
    if (bare && money.length >= 1) return { [money[0].name]: Number(bare[1]) };
  }
  return undefined;
}
