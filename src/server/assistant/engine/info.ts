// Answers that only read: the leave balance (leaveBalance of the forms feature), the status of the user's own
// requests (all, one type, one id, or matching words such as a destination), holidays (the calendar feature's
// offline list), greetings and what the assistant can do.
import { businessYear, wallClock } from '../../../domain/business-time.js';
import { FORM_TYPES, formTitle, leaveFormTypes } from '../../../domain/forms.js';
import { isApproverRole } from '../../../domain/roles.js';
import { HolidayService } from '../../calendar/service.js';
import { leaveBalance } from '../../forms/leave.js';
import { RECORD_SELECT, type RecordRow, type RequestRecord, toRecord } from '../../requests/repo.js';
import { FORM_TYPE_WORDS } from '../corpus/entities.js';
import { bestByDescription, descriptionWords } from './describe.js';
import { extract, isoDay } from './extract.js';
import { andList, days, longDate, requestGist, requestLine } from './format.js';
import { escapeRe, looksEnglish, vocab } from './text.js';
import { ASSISTANT_NAME, type Reply, type TurnContext, reply } from './types.js';

// ---- leave balance ---------------------------------------------------------------------------

export async function leaveBalanceReply(ctx: TurnContext, lower: string): Promise<Reply> {
  // the same year as GET /api/forms/employee-leave-balance
  const thisYear = businessYear(ctx.now);
  const yearMatch = /\b(20\d{2})\b/.exec(lower);
  const year = yearMatch
    ? Number(yearMatch[1])
    : /\bnext year\b/.test(lower)
      ? thisYear + 1
      : /\blast year\b/.test(lower)
        ? thisYear - 1
        : thisYear;
  const bal = await leaveBalance(ctx.db, ctx.user.id, year);
  const left = bal.annual_leave_total - bal.annual_leave_used;
  const pending = await ctx.db.query(
    `SELECT coalesce(sum((data->>'total_days')::numeric), 0) AS n FROM requests
      WHERE employee_id = $1 AND form_type = ANY($3::text[]) AND status = 'Pending' AND data->>'leave_type' = 'Annual' AND left(data->>'start_date', 4) = $2`,
    [ctx.user.id, String(year), leaveFormTypes()],
  );
  const pendingDays = Number(pending.rows[0]?.n ?? 0);
  let text = `You have ${days(left)} days of annual leave left for ${year} (${days(bal.annual_leave_total)} in total, ${days(bal.annual_leave_used)} used).`;
  if (pendingDays > 0) text += ` ${days(pendingDays)} more day(s) are in pending requests and will count once approved.`;
  if (bal.unpaid_leave_used > 0) text += ` Unpaid leave taken: ${days(bal.unpaid_leave_used)} day(s).`;
  if (/\bsick\b/.test(lower)) {
    const sick = await ctx.db.query(
      `SELECT coalesce(sum((data->>'total_days')::numeric), 0) AS n FROM requests
        WHERE employee_id = $1 AND form_type = ANY($3::text[]) AND status = 'Approved' AND data->>'leave_type' = 'Sick' AND left(data->>'start_date', 4) = $2`,
      [ctx.user.id, String(year), leaveFormTypes()],
    );
    text += ` Sick leave taken in ${year}: ${days(Number(sick.rows[0]?.n ?? 0))} day(s).`;
  }
  return reply(text, {
    intent: 'leave.balance',
    suggestions: ['Request leave', 'Show my requests', 'Upcoming holidays', 'Book meeting room'],
  });
}

// ---- status of my requests -------------------------------------------------------------------

const STATUS_WORDS: Array<[RegExp, (r: RequestRecord) => boolean]> = [
  // 'why did they refuse my trip?' asks about the rejected ones (their reasons are shown)
  [
    /\b(rejected|declined|refused|refuse|turned down|knocked back|denied|why|how come|reason|not approved)\b/,
    (r) => String(r.status).toLowerCase() === 'rejected',
  ],
  [
    /\b(pending|waiting|open|outstanding|in progress)\b/,
    (r) => ['pending', 'open', 'in progress', 'resolved'].includes(String(r.status).toLowerCase()),
  ],
  [/\b(approved|accepted)\b(?! yet)/, (r) => String(r.status).toLowerCase() === 'approved'],
  [/\b(cancelled|withdrawn)\b/, (r) => String(r.status).toLowerCase() === 'cancelled'],
];

/** Form types named in a message ('my travel request', 'leave'). */
export function formTypesIn(lower: string): string[] {
  const found: Array<{ ft: string; len: number }> = [];
  for (const [ft, words] of Object.entries(FORM_TYPE_WORDS)) {
    for (const w of words) if (new RegExp(`\\b${escapeRe(w)}\\b`).test(lower)) found.push({ ft, len: w.length });
  }
  if (found.length === 0) return [];
  found.sort((a, b) => b.len - a.len);
  // the longest naming wins ('meeting room booking' over 'booking'); keep others of equal strength
  const top = found[0].len;
  return [...new Set(found.filter((f) => f.len >= Math.min(top, 6)).map((f) => f.ft))];
}

function stageText(r: RequestRecord): string {
  const st = String(r.status);
  if (/^rejected$/i.test(st)) {
    const reason = Object.entries(r).find(([k, v]) => k.endsWith('_rejected_reason') && typeof v === 'string' && v.trim() !== '')?.[1];
    return reason ? ` Reason: ${reason}` : '';
  }
  if (/^cancelled$/i.test(st)) return ' (withdrawn)';
  return r.next_stage ? ` — next: ${r.next_stage}` : '';
}

/** Words of a message that may name a value of a request (a destination, a room): not vocabulary, not ids. */
function contentWords(original: string): string[] {
  const v = vocab();
  return (original.match(/[A-Za-z][A-Za-z'-]{2,}/g) ?? [])
    .map((w) => w.toLowerCase().replace(/'s$/, ''))
    .filter((w) => !v.has(w) && !['status', 'request', 'requests', 'what', 'whats', "what's"].includes(w));
}

export async function myRequestsReply(ctx: TurnContext, original: string, lower: string): Promise<Reply> {
  const ids = extract(original, ctx.now).requestIds;
  const rows = await ctx.db.query(`${RECORD_SELECT} WHERE r.employee_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT 200`, [
    ctx.user.id,
  ]);
  const mine = (rows.rows as RecordRow[]).map(toRecord);
  const suggestions = ['Check leave balance', 'Request leave', 'Book meeting room', 'Report IT issue'];
  if (ids.length > 0) {
    const found = mine.filter((r) => ids.includes(r.request_id));
    const missing = ids.filter((id) => !found.some((r) => r.request_id === id));
    const lines = found.map(
      (r) => `Your ${formTitle(r.form_type)} ${r.request_id}${requestGist(r) ? ` (${requestGist(r)})` : ''} is ${r.status}.${stageText(r)}`,
    );
    if (missing.length) lines.push(`I couldn't find ${andList(missing)} among your requests.`);
    ctx.state.lastRefs = found.map((r) => r.request_id);
    return reply(lines.join('\n'), { intent: 'requests.status', suggestions });
  }
  let list = mine;
  const types = formTypesIn(lower);
  if (types.length) list = list.filter((r) => types.includes(r.form_type));
  const words = contentWords(original);
  if (words.length) {
    const narrowed = list.filter((r) => words.some((w) => JSON.stringify(Object.values(r)).toLowerCase().includes(w)));
    if (narrowed.length) list = narrowed;
  }
  // 'my pending requests' filters; 'has my trip been approved?' asks for the status, so an empty filter falls back
  // 'has my Lisbon trip been approved?' is answered with its status, whatever it is; 'why ...' asks about refusals
  const yesNo =
    /^(?:(?:hey|hi|so|ok|and|please|pls)\W+)*(?:did|has|have|is|was|were|are|am)\b/.test(lower.trim()) &&
    !/\b(which|list|show|how many)\b/.test(lower);
  for (const [i, [re, keep]] of STATUS_WORDS.entries()) {
    if (!re.test(lower)) continue;
    if (yesNo && i > 0) break;
    const filtered = list.filter(keep);
    if (filtered.length > 0 || (/\b(show|list|which|what|any|all)\b/.test(lower) && !/\b(has|have|is|was|were|did)\b/.test(lower)))
      list = filtered;
    break;
  }
  const what = types.length === 1 ? `${formTitle(types[0])} requests` : 'requests';
  if (list.length === 0) {
    return reply(
      mine.length === 0
        ? "You haven't submitted any requests yet. I can help you submit one — just tell me what you need."
        : `I couldn't find any matching ${what} of yours.`,
      { intent: 'requests.status', suggestions },
    );
  }
  ctx.state.lastRefs = list.slice(0, 8).map((r) => r.request_id);
  if (list.length === 1) {
    const r = list[0];
    return reply(
      `Your ${formTitle(r.form_type)} ${r.request_id}${requestGist(r) ? ` (${requestGist(r)})` : ''} is ${r.status}.${stageText(r)}`,
      { intent: 'requests.status', suggestions },
    );
  }
  const counts = new Map<string, number>();
  for (const r of list) counts.set(String(r.status), (counts.get(String(r.status)) ?? 0) + 1);
  const breakdown = [...counts.entries()].map(([s, n]) => `${n} ${s.toLowerCase()}`).join(', ');
  const shown = list.slice(0, 8).map((r) => `• ${requestLine(r)} — ${r.status}${stageText(r)}`);
  const more = list.length > 8 ? `\n…and ${list.length - 8} more in 'Your Forms & Requests'.` : '';
  return reply(`You have ${list.length} ${what} (${breakdown}):\n${shown.join('\n')}${more}`, { intent: 'requests.status', suggestions });
}

// ---- holidays --------------------------------------------------------------------------------

const holidays = new HolidayService();
const NAME_STOP = new Set([
  'day',
  'good',
  'maha',
  'puja',
  'jayanti',
  'the',
  'of',
  'al',
  'un',
  'ul',
  'new',
  'festival',
  'holiday',
  'eve',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'year',
  'navami',
  'purnima',
]);

/** Names of the holidays the assistant knows (this and the next two years), for intent detection. */
export function holidayNames(now: Date): string[] {
  const y = businessYear(now);
  const names = new Set<string>();
  for (const yr of [y - 1, y, y + 1, y + 2]) for (const h of holidays.offline(yr)) names.add(h.name);
  const keys = new Set<string>();
  for (const n of names) {
    keys.add(n.toLowerCase());
    for (const w of n.toLowerCase().split(/[^a-z]+/)) if (w.length >= 3 && !NAME_STOP.has(w)) keys.add(w);
  }
  keys.add('deepavali');
  return [...keys];
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

export async function holidayReply(ctx: TurnContext, original: string, lower: string): Promise<Reply> {
  const today = isoDay(ctx.now);
  const thisYear = businessYear(ctx.now);
  const yearMatch = /\b(20\d{2})\b/.exec(lower);
  const askedYear = yearMatch ? Number(yearMatch[1]) : /\bnext year\b/.test(lower) ? thisYear + 1 : undefined;
  const years = askedYear ? [askedYear] : [thisYear, thisYear + 1];
  const all = years.flatMap((y) => holidays.offline(y));
  const text = lower.replace(/\bdeepavali\b/g, 'diwali');
  const suggestions = ['Upcoming holidays', 'Request leave', 'Check leave balance', 'Book meeting room'];

  // a named holiday: score by how many of its distinctive words the message names
  const scored = all
    .map((h) => {
      const words = h.name
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 3 && !NAME_STOP.has(w));
      const full = new RegExp(`\\b${escapeRe(h.name.toLowerCase())}\\b`).test(text);
      const hits = words.filter((w) => new RegExp(`\\b${escapeRe(w)}\\b`).test(text)).length;
      return { h, score: full ? 10 : hits };
    })
    .filter((x) => x.score > 0);
  if (scored.length > 0) {
    const top = Math.max(...scored.map((x) => x.score));
    let hits = scored.filter((x) => x.score === top).map((x) => x.h);
    if (!askedYear) {
      const upcoming = hits.filter((h) => h.date >= today);
      hits = upcoming.length ? upcoming : hits;
      // the next occurrence of each holiday
      const byName = new Map<string, (typeof hits)[number]>();
      for (const h of hits) if (!byName.has(h.name) || h.date < byName.get(h.name)!.date) byName.set(h.name, h);
      hits = [...byName.values()];
    }
    const lines = hits.slice(0, 4).map((h) => `${h.name} is on ${longDate(h.date)} (${h.type} holiday).`);
    return reply(lines.join('\n'), { intent: 'holiday.info', suggestions });
  }

  // 'is friday a holiday' / 'is 26 january a holiday'
  const ex = extract(original, ctx.now);
  if (ex.dates.length > 0 && /\b(is|are)\b/.test(lower)) {
    const d = ex.dates[0];
    const end = d.end_date ?? d.start_date;
    const found = holidays
      .offline(Number(d.start_date.slice(0, 4)))
      .concat(holidays.offline(Number(end.slice(0, 4))))
      .filter((h, i, arr) => h.date >= d.start_date && h.date <= end && arr.findIndex((x) => x.date === h.date && x.name === h.name) === i);
    if (found.length === 0)
      return reply(`${longDate(d.start_date)}${d.end_date ? ` to ${longDate(end)}` : ''} is not a holiday on our calendar.`, {
        intent: 'holiday.info',
        suggestions,
      });
    return reply(found.map((h) => `${longDate(h.date)} is ${h.name} (${h.type} holiday).`).join('\n'), {
      intent: 'holiday.info',
      suggestions,
    });
  }

  // a month, this month, next N, a year
  const monthIdx = MONTH_NAMES.findIndex((m) => new RegExp(`\\b${m}\\b`).test(lower));
  let list = all;
  let title: string;
  if (monthIdx >= 0) {
    const y = askedYear ?? (monthIdx < Number(today.slice(5, 7)) - 1 ? thisYear + 1 : thisYear);
    list = holidays.offline(y).filter((h) => Number(h.date.slice(5, 7)) === monthIdx + 1);
    title = `Holidays in ${MONTH_NAMES[monthIdx][0].toUpperCase()}${MONTH_NAMES[monthIdx].slice(1)} ${y}`;
  } else if (/\bthis month\b/.test(lower)) {
    const m = today.slice(0, 7);
    list = holidays.offline(thisYear).filter((h) => h.date.startsWith(m));
    title = 'Holidays this month';
  } else if (askedYear) {
    title = `Holidays in ${askedYear}`;
  } else {
    list = all.filter((h) => h.date >= today).slice(0, /\bnext (public )?holiday\b/.test(lower) ? 1 : 6);
    title = list.length === 1 ? 'The next holiday' : 'Upcoming holidays';
  }
  if (list.length === 0) return reply(`${title}: none on our calendar.`, { intent: 'holiday.info', suggestions });
  if (list.length === 1) return reply(`${title} is ${list[0].name} on ${longDate(list[0].date)}.`, { intent: 'holiday.info', suggestions });
  const max = askedYear && monthIdx < 0 ? 30 : 10;
  return reply(
    `${title}:\n${list
      .slice(0, max)
      .map((h) => `• ${longDate(h.date)} — ${h.name}`)
      .join('\n')}`,
    { intent: 'holiday.info', suggestions },
  );
}

// ---- greetings and help ----------------------------------------------------------------------

/** Morning, afternoon or evening on the organisation's wall clock. */
export function partOfDay(now: Date): string {
  const h = wallClock(now).hour;
  return h < 12 ? 'Good morning' : h < 17 ? 'Good afternoon' : 'Good evening';
}

export function greetingReply(ctx: TurnContext): Reply {
  const approver = isApproverRole(ctx.user.role);
  const text = `${partOfDay(ctx.now)}, ${ctx.user.first_name}! 😊 I'm ${ASSISTANT_NAME}, your AdminEase assistant. ${approver ? 'I can show what is waiting for your approval, approve or reject requests, and ' : 'I can '}submit requests for you (leave, meeting rooms, IT issues and more), tell you their status, your leave balance and the holidays. What can I do for you?`;
  return reply(text, {
    intent: 'greet',
    suggestions: approver ? ['Show pending approvals', 'Request leave', 'Book meeting room', 'Report IT issue'] : undefined,
  });
}

export function helpReply(ctx: TurnContext): Reply {
  const approver = isApproverRole(ctx.user.role);
  const forms = FORM_TYPES.map((t) => t.title.toLowerCase());
  const lines = [
    `Here is what I can do for you, ${ctx.user.first_name}:`,
    '• Submit requests by chat: leave, meeting room bookings, IT issues, password resets, petty cash, travel, purchase requisitions and more (' +
      forms.length +
      ' kinds). Just say e.g. "book the Board Room tomorrow 2pm to 3pm for 6 people".',
    '• Tell you the status of your requests ("what\'s the status of my travel request?") and withdraw a pending one.',
    '• Tell you your leave balance and the holidays ("when is Diwali?").',
  ];
  if (approver)
    lines.push('• Show what is waiting for your approval, give you the details, and approve or reject requests ("approve LR-000123").');
  return reply(lines.join('\n'), {
    intent: 'help',
    suggestions: approver ? ['Show pending approvals', 'Request leave', 'Book meeting room', 'Report IT issue'] : undefined,
  });
}

// ---- a bare mention of something the user already asked for ----------------------------------

const NEW_REQUEST_WORDS =
  /\b(need|needs|want|wanna|book|apply|request|raise|submit|reserve|order|buy|new|another|plan|planning|going|fly|flying|take|get|gimme|give me|can i|could i|may i|i'?d like|like to|please|pls|create|start|file|report|open|log|claim|reset|broken|not working|again|forgot|lost|locked)\b/;

/**
 * 'Berlin trip' when the user already has a trip to Berlin: check on it, or request a new one? Undefined when the
 * message asks for something new (a request verb, dates or amounts) or names nothing the user already has.
 */
export async function clarifyExisting(ctx: TurnContext, original: string, lower: string, formType: string): Promise<Reply | undefined> {
  if (NEW_REQUEST_WORDS.test(lower) || /\d/.test(lower) || lower.split(/\s+/).length > 6) return undefined;
  // only words that are not everyday English name something of theirs ('Berlin', 'Globex'), not 'forgot' or 'slow'
  const words = descriptionWords(original).filter((w) => !looksEnglish(w));
  if (words.length === 0) return undefined;
  const rows = await ctx.db.query(
    `${RECORD_SELECT} WHERE r.employee_id = $1 AND r.form_type = $2 ORDER BY r.created_at DESC, r.id DESC LIMIT 50`,
    [ctx.user.id, formType],
  );
  const mine = (rows.rows as RecordRow[]).map(toRecord);
  const match = bestByDescription(mine, words)[0];
  if (!match) return undefined;
  const gist = requestGist(match);
  ctx.state.lastRefs = [match.request_id];
  ctx.state.clarify = { formType, requestId: match.request_id };
  return reply(
    `Do you want me to check on your ${formTitle(formType)} ${match.request_id}${gist ? ` (${gist})` : ''}, or request a new one?`,
    { intent: 'clarify', suggestions: [`Status of ${match.request_id}`, `New ${formTitle(formType)}`] },
  );
}
