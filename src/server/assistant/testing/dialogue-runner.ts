// Runs assistant dialogues (shared/assistant/dialogues.json format) through the HTTP API exactly as its
// 'about' describes: a fresh chat session per dialogue, turns over the streaming endpoints with the session
// id, setup submissions through POST /api/forms/{form_type}, and expectations checked through the API.
import { businessToday, nextWeekdayAfter } from '../../../domain/business-time.js';
import { DONE, jsonEventsOf } from '../../../domain/event-stream.js';
import { formKind } from '../../../domain/forms.js';
import { chatbotForRole, dashboardForRole, sessionFamilyForRole } from '../../../domain/roles.js';
import type { ApiClient, TestApp } from '../../test/harness.js';

export interface Dialogue {
  id: string;
  user: string;
  setup?: {
    as: string;
    submit: { form_type: string; fields: Record<string, unknown> };
    /** The employee's line manager (named in 'as') decides the submitted request before the turns. */
    decide?: { as: string; status: 'Approved' | 'Rejected'; reason?: string };
  };
  turns: string[];
  expect: {
    /** `exact`: stored text equal to the typed text (case and punctuation too); `contains`: stored text includes it. */
    creates?: {
      form_type: string;
      fields: Record<string, unknown>;
      exact?: Record<string, string>;
      contains?: Record<string, string>;
    };
    creates_nothing?: boolean;
    reply_contains?: string[];
    reply_contains_any?: string[];
    /** `reason`: the stored rejection reason of that stage, exactly as typed. */
    decided?: { stage: string; decision: string; reason?: string };
    status?: string;
  };
}

export interface SseEvent {
  type?: string;
  content?: string;
  [k: string]: unknown;
}

/** Parses an event-stream body into its JSON events; checks that it ends with [DONE]. */
export function parseSse(text: string): { events: SseEvent[]; done: boolean; content: string } {
  const all = jsonEventsOf<SseEvent>(text); // data that is not JSON is skipped, as clients do
  const events = all.filter((e): e is SseEvent => e !== DONE);
  const done = all.includes(DONE);
  const content = events
    .filter((e) => typeof e.content === 'string' && (e.type === undefined || e.type === 'content'))
    .map((e) => e.content)
    .join('');
  return { events, done, content };
}

/** The first given weekday strictly after today's business date, as an ISO date. */
export function nextWeekdayIso(weekday: number, today = new Date()): string {
  return nextWeekdayAfter(businessToday(today), weekday);
}

async function allMyRequests(client: ApiClient): Promise<any[]> {
  const res = await client.get('/api/forms/user-forms');
  if (res.status !== 200) throw new Error(`user-forms: ${res.status} ${res.text}`);
  return Object.values(res.body as Record<string, any[]>).flat();
}

const STAGE_OF_DASHBOARD: Record<string, { path: (u: any) => string; stage: string }> = {
  line_manager: { path: (u) => `/api/manager/queue?manager_id=${encodeURIComponent(u.profile.employee_code)}`, stage: 'line_manager' },
  hr: { path: (u) => `/api/hr/queue?hr_id=${encodeURIComponent(u.profile.hr_id ?? u.id)}`, stage: 'hr' },
  finance: { path: () => '/api/finance/queue', stage: 'finance' },
  facilities_desk: { path: () => '/api/facilities-desk/queue', stage: 'facilities_desk' },
  facilities_manager: { path: () => '/api/facilities-manager/queue', stage: 'facilities_manager' },
  it: { path: () => '/api/it-support/queue', stage: 'it_helpdesk' },
};

/** The Pending tile of the approver's dashboard, computed the way the about text says. */
export async function pendingCount(client: ApiClient): Promise<number> {
  const u = client.user;
  const dash = dashboardForRole(u.role, u.user_type);
  const q = STAGE_OF_DASHBOARD[dash];
  if (!q) return 0;
  const res = await client.get(q.path(u));
  if (res.status !== 200) throw new Error(`queue ${q.path(u)}: ${res.status} ${res.text}`);
  const body = res.body;
  if (body && !Array.isArray(body) && body.summary && typeof body.summary.total_pending === 'number') return body.summary.total_pending;
  const items: any[] = Array.isArray(body) ? body : (body.forms ?? body.tickets ?? []);
  return items
    .filter((r) => formKind(r.form_type) !== 'it-ticket')
    .filter((r) => (r.stage_state ?? r[`${q.stage}_approval`] ?? 'Pending') === 'Pending').length;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

function fieldMatches(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return Number(actual) === expected;
  return (
    String(actual ?? '')
      .trim()
      .toLowerCase() === String(expected).trim().toLowerCase()
  );
}

export interface DialogueResult {
  id: string;
  ok: boolean;
  problems: string[];
  transcript: Array<{ user: string; bot: string }>;
}

/**
 * Runs one dialogue. `clients` (optional) keeps signed-in API clients per user across dialogues: signing in costs a
 * password hash, and a large set would spend most of its time there; each dialogue still opens its own chat session.
 */
export async function runDialogue(t: TestApp, d: Dialogue, clients?: Map<string, ApiClient>): Promise<DialogueResult> {
  const problems: string[] = [];
  const signIn = async (email: string): Promise<ApiClient> => {
    const known = clients?.get(email);
    if (known) return known;
    const c = await t.login(email);
    clients?.set(email, c);
    return c;
  };
  const transcript: Array<{ user: string; bot: string }> = [];
  const client = await signIn(d.user);
  const u = client.user;
  const userId = u.profile?.hr_id ?? u.id;
  const vars: Record<string, string[]> = {};

  let setupRequestId: string | undefined;
  let setupClient: ApiClient | undefined;
  if (d.setup) {
    setupClient = d.setup.as === d.user ? client : await signIn(d.setup.as);
    const res = await setupClient.post(`/api/forms/${d.setup.submit.form_type}`, d.setup.submit.fields);
    if (res.status !== 201 && res.status !== 200)
      return { id: d.id, ok: false, problems: [`setup failed: ${res.status} ${res.text}`], transcript };
    setupRequestId = res.body.request_id;
    vars.request_id = [setupRequestId!];
    if (d.setup.decide) {
      const approver = await signIn(d.setup.decide.as);
      const dec = await approver.post('/api/manager/update-status', {
        form_id: setupRequestId,
        form_type: d.setup.submit.form_type,
        status: d.setup.decide.status,
        manager_id: approver.user.profile?.employee_code,
        rejection_reason: d.setup.decide.reason,
      });
      if (dec.status !== 200) return { id: d.id, ok: false, problems: [`setup decision failed: ${dec.status} ${dec.text}`], transcript };
    }
  }

  const before = await allMyRequests(client);
  const beforeIds = new Set(before.map((r) => r.request_id));

  const family = sessionFamilyForRole(u.role);
  const login = await client.post(`/ai/${family}/session/login`, { user_id: userId, user_role: u.role });
  if (login.status !== 200) return { id: d.id, ok: false, problems: [`session login: ${login.status} ${login.text}`], transcript };
  const sessionId = login.body.session_id as string;
  const kind = chatbotForRole(u.role);
  const url = kind === 'employee' ? '/ai/streaming-chat' : `/ai/${kind}/chat-stream`;

  const fill = (s: string) => s.replace(/\{request_id\}/g, setupRequestId ?? '{request_id}');
  let last = '';
  for (const turn of d.turns) {
    const message = fill(turn);
    const body =
      kind === 'employee'
        ? {
            message,
            stream: true,
            sessionId,
            user_id: userId,
            userInfo: { firstName: u.firstName, lastName: u.lastName, role: u.role },
            tts: false,
          }
        : {
            message,
            user_id: userId,
            user_info: { firstName: u.firstName, lastName: u.lastName, role: u.role },
            auto_greeting: false,
            sessionId,
            tts: false,
          };
    const res = await client.post(url, body, { 'x-session-id': sessionId });
    if (res.status !== 200) {
      problems.push(`turn '${message}': HTTP ${res.status} ${res.text}`);
      break;
    }
    const sse = parseSse(res.text);
    if (!sse.done) problems.push(`turn '${message}': stream did not end with [DONE]`);
    last = sse.content;
    transcript.push({ user: message, bot: last });
  }

  // placeholders of the expectations
  if (JSON.stringify(d.expect).includes('{annual_left}')) {
    const b = await client.get(`/api/forms/employee-leave-balance/${u.id}`);
    const left = Number(b.body.annual_leave_total) - Number(b.body.annual_leave_used);
    vars.annual_left = Number.isInteger(left) ? [String(left), left.toFixed(1)] : [left.toFixed(1)];
  }
  if (JSON.stringify(d.expect).includes('{pending_count}')) vars.pending_count = [String(await pendingCount(client))];
  WEEKDAYS.forEach((name, i) => (vars[`next_${name}`] = [nextWeekdayIso(i)]));
  const variants = (text: string): string[] => {
    const m = /\{(\w+)\}/.exec(text);
    if (!m || !vars[m[1]]) return [text];
    return vars[m[1]].flatMap((v) => variants(text.replace(m[0], v)));
  };
  const resolve = (v: unknown) => (typeof v === 'string' ? variants(v)[0] : v);

  const e = d.expect;
  const lower = last.toLowerCase();
  for (const want of e.reply_contains ?? []) {
    if (!variants(want).some((w) => lower.includes(w.toLowerCase()))) problems.push(`reply lacks '${variants(want).join("' or '")}'`);
  }
  if (e.reply_contains_any && !e.reply_contains_any.flatMap(variants).some((w) => lower.includes(w.toLowerCase()))) {
    problems.push(`reply has none of ${JSON.stringify(e.reply_contains_any)}`);
  }
  if (e.creates || e.creates_nothing) {
    const after = await allMyRequests(client);
    const fresh = after.filter((r) => !beforeIds.has(r.request_id));
    if (e.creates_nothing && fresh.length > 0) problems.push(`created ${fresh.map((r) => r.request_id).join(', ')}`);
    if (e.creates) {
      const ofType = fresh.filter((r) => r.form_type === e.creates!.form_type);
      if (ofType.length !== 1)
        problems.push(
          `expected one new ${e.creates.form_type}, found ${ofType.length} (new: ${fresh.map((r) => `${r.request_id}/${r.form_type}`).join(', ') || 'none'})`,
        );
      else {
        for (const [k, v] of Object.entries(e.creates.fields)) {
          if (!fieldMatches(ofType[0][k], resolve(v)))
            problems.push(`field ${k} is ${JSON.stringify(ofType[0][k])}, expected ${JSON.stringify(resolve(v))}`);
        }
        for (const [k, v] of Object.entries(e.creates.exact ?? {}))
          if (ofType[0][k] !== v) problems.push(`field ${k} is ${JSON.stringify(ofType[0][k])}, expected exactly ${JSON.stringify(v)}`);
        for (const [k, v] of Object.entries(e.creates.contains ?? {}))
          if (!String(ofType[0][k] ?? '').includes(v))
            problems.push(`field ${k} is ${JSON.stringify(ofType[0][k])}, expected to contain ${JSON.stringify(v)}`);
      }
    }
  }
  if (e.decided || e.status) {
    const owner = setupClient ?? client;
    const rec = (await allMyRequests(owner)).find((r) => r.request_id === setupRequestId);
    if (!rec) problems.push(`request ${setupRequestId} not found`);
    else {
      if (e.decided && rec[`${e.decided.stage}_approval`] !== e.decided.decision)
        problems.push(`${e.decided.stage}_approval is ${rec[`${e.decided.stage}_approval`]}, expected ${e.decided.decision}`);
      const storedReason = e.decided ? rec[`${e.decided.stage}_rejected_reason`] : undefined;
      if (e.decided?.reason !== undefined && storedReason !== e.decided.reason)
        problems.push(
          `${e.decided.stage}_rejected_reason is ${JSON.stringify(storedReason)}, expected ${JSON.stringify(e.decided.reason)}`,
        );
      if (e.status && rec.status !== e.status) problems.push(`status is ${rec.status}, expected ${e.status}`);
    }
  }
  return { id: d.id, ok: problems.length === 0, problems, transcript };
}
