// Chat API: the event-stream format, approval actions for approvers, the automatic and login greetings,
// the non-streaming endpoints, the session endpoints with their defaults, 403s for other people's ids and
// sessions, persistence across an app restart, the maintenance switch and the sentence hook for speech.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDb } from '../db/pool.js';
import { sampleInput } from '../approvals/test-helpers.js';
import { factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { setRoleConfig } from './config.js';
import { registerSentenceHook } from './stream.js';
import { parseSse } from './testing/dialogue-runner.js';

let t: TestApp;
let alex: ApiClient;
let priya: ApiClient;
let meera: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
  priya = await t.login('priya.sharma@adminease.test');
  meera = await t.login('meera.iyer@adminease.test');
});
afterAll(async () => {
  await t?.close();
});

/** The assistant families of /ai/{family}/health and the chatbots /ai/status reports, all online (the spec's six and the administrator's). */
const FAMILIES = ['manager', 'hr', 'finance', 'it', 'facilities', 'simple', 'admin'] as const;
const ALL_ONLINE = {
  manager: 'online',
  hr: 'online',
  finance: 'online',
  it: 'online',
  facilities: 'online',
  employee: 'online',
  admin: 'online',
};

/** GET /ai/{family}/health of every family (public): family -> its status. */
async function healthOfEveryFamily(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const family of FAMILIES) {
    const res = await t.anonymous.get(`/ai/${family}/health`);
    expect(res.status, family).toBe(200);
    expect(res.body.family).toBe(family);
    out[family] = res.body.status;
  }
  return out;
}

/** A chat turn, text only unless the body says otherwise (a request that says nothing gets speech by the user's
 * sound preference, on by default). */
async function chat(client: ApiClient, url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await client.post(url, { tts: false, ...body }, headers);
  return { res, ...parseSse(res.text) };
}

describe('stream format', () => {
  it('streams content pieces, suggestions and complete, ending with [DONE]', async () => {
    const { res, events, done, content } = await chat(alex, '/ai/streaming-chat', {
      message: 'hello',
      stream: true,
      user_id: alex.user.id,
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/event-stream/);
    expect(res.text.trim().endsWith('data: [DONE]')).toBe(true);
    for (const block of res.text.split('\n\n').filter((b) => b.trim())) expect(block.startsWith('data: ')).toBe(true);
    expect(done).toBe(true);
    const pieces = events.filter((e) => e.type === 'content');
    expect(pieces.length).toBeGreaterThan(3);
    expect(content).toContain('Chief Smile Officer');
    expect(content).toContain('Alex');
    const sugg = events.find((e) => e.type === 'suggestions');
    expect(sugg?.suggestions).toEqual(['Request leave', 'Book meeting room', 'Report IT issue', 'Update info']);
    const complete = events.filter((e) => e.type === 'complete');
    expect(complete).toHaveLength(1);
    expect(complete[0].show_approval_action).toBe(false);
    // complete comes after every content piece
    expect(events.indexOf(complete[0])).toBe(events.length - 1);
  });

  it('gives approvers approval_actions with Approve, Reject and View, the flag and the pointing-down emoji', async () => {
    const { events, content } = await chat(priya, '/ai/manager/chat-stream', {
      message: 'what is waiting for my approval?',
      user_id: priya.user.id,
      auto_greeting: false,
    });
    const actions = events.filter((e) => e.type === 'approval_actions');
    expect(actions.length).toBeGreaterThan(0);
    const a = actions[0].approval_action as any;
    expect(a.buttons.map((b: any) => b.label)).toEqual(['Approve', 'Reject', 'View']);
    expect(a.request_id).toMatch(/^[A-Z]{2,4}-\d{6,}$/);
    expect(a.buttons[0].message).toBe(`approve ${a.request_id}`);
    expect(content).toContain('👇');
    expect(content).toContain('[View Approvals]');
    expect(events.find((e) => e.type === 'complete')?.show_approval_action).toBe(true);
  });

  it('summarises what waits for an approver on the automatic greeting (empty message)', async () => {
    const { content, events } = await chat(priya, '/ai/manager/chat-stream', { message: '', user_id: priya.user.id, auto_greeting: true });
    expect(content).toMatch(/Priya/);
    expect(content).toMatch(/waiting for your approval/);
    expect(events.find((e) => e.type === 'complete')?.show_approval_action).toBe(true);
  });

  it('answers the login greeting personally', async () => {
    const res = await priya.post('/ai/manager/login-greeting', {
      user_id: priya.user.id,
      user_info: { user_id: priya.user.id, firstName: 'Priya', lastName: 'Sharma', role: 'Department Manager', department: 'ENG' },
    });
    expect(res.status).toBe(200);
    expect(res.body.greeting).toMatch(/Priya/);
    expect(res.body.greeting).toMatch(/waiting for your approval/);
    const emp = await alex.post('/ai/simple-login-greeting', { user_id: alex.user.id });
    expect(emp.body.greeting).toMatch(/Alex/);
    expect(emp.body.greeting).not.toMatch(/approval/);
  });

  it('answers JSON on /ai/{family}/chat and /ai/simple-chat, and streams on /ai/simple-chat/stream', async () => {
    const j = await priya.post('/ai/manager/chat', { message: 'how many leave days do I have left?', user_id: priya.user.id });
    expect(j.status).toBe(200);
    expect(j.body.success).toBe(true);
    expect(j.body.response).toMatch(/annual leave left/);
    expect(Array.isArray(j.body.suggestions)).toBe(true);
    const s = await alex.post('/ai/simple-chat', { message: 'what can you do?' });
    expect(s.body.response).toMatch(/leave/);
    const st = await chat(alex, '/ai/simple-chat/stream', { message: 'thanks' });
    expect(st.done).toBe(true);
    expect(st.content).toMatch(/welcome/i);
  });

  it('refuses a message that is too long or a user_id that is not the caller', async () => {
    const long = await alex.post('/ai/streaming-chat', { message: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/2000/);
    const other = await alex.post('/ai/streaming-chat', { message: 'hi', user_id: priya.user.id });
    expect(other.status).toBe(403);
    const other2 = await alex.post('/ai/manager/chat-stream', { message: 'hi', user_id: 'MGR-001' });
    expect(other2.status).toBe(403);
    const unknown = await alex.post('/ai/legal/chat-stream', { message: 'hi' });
    expect(unknown.status).toBe(400);
  });

  it('needs a session for chat but not for health and status', async () => {
    expect((await t.anonymous.post('/ai/streaming-chat', { message: 'hi' })).status).toBe(401);
    expect((await t.anonymous.post('/ai/manager/chat-stream', { message: 'hi' })).status).toBe(401);
    expect(await healthOfEveryFamily()).toEqual(Object.fromEntries(FAMILIES.map((f) => [f, 'healthy'])));
    const status = await t.anonymous.get('/ai/status');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'ok', engine: 'built-in', assistant: 'Chief Smile Officer' });
    expect(status.body.chatbots).toEqual(ALL_ONLINE);
  });

  it("never shows an employee somebody else's request, nor changes it", async () => {
    const f = factories(t);
    const { employee: owner } = await f.team();
    const input = { ...sampleInput('travel-request'), destination: 'Reykjavik', travel_purpose: 'Geothermal plant visit' };
    const rec = await f.request({ owner, formType: 'travel-request', input });
    const asker = await f.login((await f.team()).employee);
    const before = await stateFingerprint(t, ['requests', 'approvals', 'request_events', 'notifications']);
    for (const message of [
      `status of ${rec.request_id}`,
      `show details of ${rec.request_id}`,
      `approve ${rec.request_id}`,
      `cancel request ${rec.request_id}`,
    ]) {
      const { content } = await chat(asker, '/ai/streaming-chat', { message });
      expect(content).not.toMatch(/Reykjavik|Geothermal/);
      expect(content).not.toContain(owner.last_name);
      expect(content).toMatch(/couldn't find|can't|cannot|only/i);
    }
    // no status, approval, history event or notification changed
    expect(await stateFingerprint(t, ['requests', 'approvals', 'request_events', 'notifications'])).toEqual(before);
  });
});

describe('sessions', () => {
  it('keeps a conversation per session id and shows it in conversation-history (default 10) and chat-history (default 20)', async () => {
    const login = await alex.post('/ai/simple/session/login', { user_id: alex.user.id, user_role: 'Software Engineer' });
    expect(login.status).toBe(200);
    const sid = login.body.session_id;
    expect(login.body).toMatchObject({ success: true, user_id: alex.user.id, user_role: 'Software Engineer' });
    // a form flow across turns lives in the session
    await chat(alex, '/ai/streaming-chat', { message: 'I need a meeting room', sessionId: sid }, { 'x-session-id': sid });
    const second = await chat(alex, '/ai/streaming-chat', { message: 'Board Room', sessionId: sid }, { 'x-session-id': sid });
    expect(second.content).toMatch(/which date/i);
    // another session has its own state
    const other = await alex.post('/ai/simple/session/login', { user_id: alex.user.id });
    const fresh = await chat(alex, '/ai/streaming-chat', { message: '17 March 2027' }, { 'x-session-id': other.body.session_id });
    expect(fresh.content).not.toMatch(/meeting room|from what time/i);
    for (const m of ['17 March 2027', '10am to 11am', '6 people', 'no'])
      await chat(alex, '/ai/streaming-chat', { message: m }, { 'x-session-id': sid });

    const conv = await alex.post('/ai/simple/session/conversation-history', { user_id: alex.user.id }, { 'x-session-id': sid });
    expect(conv.status).toBe(200);
    expect(conv.body.history).toHaveLength(10);
    expect(conv.body.history.at(-1).role).toBe('assistant');
    expect(conv.body.history.at(-1).content).toMatch(/cancelled/i);
    const conv3 = await alex.post(
      '/ai/simple/session/conversation-history',
      { user_id: alex.user.id, max_items: 3 },
      { 'x-session-id': sid },
    );
    expect(conv3.body.history).toHaveLength(3);

    // more than 20 stored messages (each turn stores the question and the answer), whatever ran before this test
    const stored = async () =>
      Number((await t.db.query('SELECT count(*) AS n FROM chat_messages WHERE user_id = $1', [alex.user.id])).rows[0].n);
    while ((await stored()) <= 22) await chat(alex, '/ai/streaming-chat', { message: 'thanks' });
    const hist = await alex.post('/ai/simple/session/chat-history', { user_id: alex.user.id });
    expect(Array.isArray(hist.body)).toBe(true);
    // the default is the newest 20, oldest first
    expect(hist.body).toHaveLength(20);
    const all = await alex.post('/ai/simple/session/chat-history', { user_id: alex.user.id, max_messages: 200 });
    expect(all.body.length).toBeGreaterThan(20);
    expect(all.body.slice(-20)).toEqual(hist.body);
    expect(hist.body.at(-1)).toMatchObject({ message_type: 'bot' });
  });

  it('saves chat messages, reports status and stats, cleans up idle sessions and logs out', async () => {
    let sam = await t.login('sam.wilson@adminease.test');
    const s = await sam.post('/ai/simple/session/login', { user_id: 'EMP-1003' });
    const saved = await sam.post(
      '/ai/simple/session/save-chat',
      { user_id: sam.user.id, message_type: 'user', content: 'hello there', metadata: { via: 'test' } },
      { 'x-session-id': s.body.session_id },
    );
    expect(saved.body).toMatchObject({ success: true });
    const hist = await sam.post('/ai/simple/session/chat-history', { user_id: sam.user.id });
    expect(hist.body.at(-1)).toMatchObject({
      message_type: 'user',
      content: 'hello there',
      metadata: { via: 'test' },
      session_id: s.body.session_id,
    });

    const status = await sam.post('/ai/simple/session/status', { user_id: sam.user.id });
    expect(status.body.active).toBe(true);
    expect(status.body.session).toMatchObject({
      sessionId: s.body.session_id,
      userId: sam.user.id,
      userRole: 'Sales Executive',
      isManager: false,
    });
    const pStatus = await priya.post('/ai/manager/session/login', { user_id: priya.user.id });
    expect(pStatus.status).toBe(200);
    expect((await priya.post('/ai/manager/session/status', { user_id: priya.user.id })).body.session.isManager).toBe(true);

    const stats = await sam.get('/ai/simple/session/stats');
    expect(stats.body).toMatchObject({ success: true, family: 'simple', active_sessions: 1, total_messages: 1 });

    // cleanup ends sessions idle for longer than `hours` (default 24)
    expect((await sam.post('/ai/simple/session/cleanup', {})).body).toMatchObject({ cleaned: 0, hours: 24 });
    t.clock.advance(2 * 3_600_000);
    expect((await sam.post('/ai/simple/session/cleanup', { hours: 1 })).body.cleaned).toBe(1);
    expect((await sam.post('/ai/simple/session/status', { user_id: sam.user.id })).body.active).toBe(false);

    const s2 = await sam.post('/ai/simple/session/login', { user_id: sam.user.id });
    expect((await sam.post('/ai/simple/session/logout', { user_id: sam.user.id })).body.sessions_ended).toBe(1);
    // (that logout also ended Sam's sign-in session: session-logout.test.ts)
    sam = await t.login('sam.wilson@adminease.test');
    expect((await sam.post('/ai/simple/session/status', { user_id: sam.user.id })).body).toMatchObject({
      active: false,
      session: { sessionId: s2.body.session_id },
    });
    t.clock.offsetMs = 0;
  });

  it('accepts the HR id of HR staff as their user id', async () => {
    const res = await meera.post('/ai/hr/session/login', { user_id: 'HR-001' });
    expect(res.status).toBe(200);
    const hist = await meera.post('/ai/hr/session/chat-history', { user_id: 'HR-001' });
    expect(hist.status).toBe(200);
  });

  it('answers 403 for a user_id that is not the caller', async () => {
    const other = priya.user.id;
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/ai/simple/session/login', { user_id: other }],
      ['/ai/simple/session/logout', { user_id: other }],
      ['/ai/simple/session/status', { user_id: other }],
      ['/ai/simple/session/conversation-history', { user_id: other }],
      ['/ai/simple/session/save-chat', { user_id: other, message_type: 'user', content: 'x' }],
      ['/ai/simple/session/chat-history', { user_id: 'MGR-001' }],
      ['/ai/simple/session/chat-history', { user_id: 'HR-001' }],
    ];
    for (const [url, body] of calls) {
      const res = await alex.post(url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(403);
    }
  });

  it('uses only session ids the server issued to the caller: a chosen or foreign id is never adopted, and both answer alike', async () => {
    const count = async (id: string) =>
      (await t.db.query('SELECT count(*)::int AS n FROM ai_sessions WHERE session_id = $1', [id])).rows[0].n;
    // A client-chosen id is not adopted: the answer names the id the server issued, and the chosen id stays unknown.
    const chosen = 'simple-squatted-id-0001';
    const first = await alex.post('/ai/simple-chat', { message: 'hello', sessionId: chosen }, { 'x-session-id': chosen });
    expect(first.status).toBe(200);
    expect(first.body.session_id).not.toBe(chosen);
    expect(first.body.session_id).toMatch(/^simple-[0-9a-f]{32}$/);
    expect(await count(chosen)).toBe(0);
    // ... so nobody can squat it for someone else either.
    const byPriya = await priya.post('/ai/simple-chat', { message: 'hello' }, { 'x-session-id': chosen });
    expect(byPriya.status).toBe(200);
    expect(byPriya.body.session_id).not.toBe(chosen);
    expect(await count(chosen)).toBe(0);
    // A multi-turn flow with a stale id keeps one server-issued session (the id in the answers stays the same).
    const stale = 'simple-stale-id-00000002';
    const a1 = await alex.post('/ai/simple-chat', { message: 'I need a meeting room' }, { 'x-session-id': stale });
    const a2 = await alex.post('/ai/simple-chat', { message: 'Board Room' }, { 'x-session-id': stale });
    expect(a2.body.session_id).toBe(a1.body.session_id);
    expect(a2.body.response).not.toMatch(/not sure I understood/);
    await alex.post('/ai/simple-chat', { message: 'cancel' }, { 'x-session-id': stale });

    // Another user's id answers exactly like an unknown one: no 403, nothing read from or written to that session.
    const ps = await priya.post('/ai/manager/session/login', { user_id: priya.user.id });
    const foreignId = ps.body.session_id;
    await priya.post('/ai/manager/chat', { message: 'hello' }, { 'x-session-id': foreignId });
    const before = await t.db.query('SELECT count(*)::int AS n FROM chat_messages WHERE session_id = $1', [foreignId]);
    const unknownId = 'manager-0123456789abcdef0123456789abcdef';
    for (const id of [foreignId, unknownId]) {
      const steal = await alex.post('/ai/streaming-chat', { message: 'hi', tts: false }, { 'x-session-id': id });
      expect(steal.status).toBe(200);
      const complete = parseSse(steal.text).events.find((e) => e.type === 'complete') as any;
      expect(complete?.session_id).not.toBe(id);
      const peek = await alex.post('/ai/manager/session/conversation-history', { user_id: alex.user.id }, { 'x-session-id': id });
      expect({ status: peek.status, body: peek.body }).toEqual({
        status: 200,
        body: { success: true, session_id: null, history: [], count: 0 },
      });
      const saved = await alex.post(
        '/ai/manager/session/save-chat',
        { user_id: alex.user.id, message_type: 'user', content: 'x' },
        { 'x-session-id': id },
      );
      expect(saved.status).toBe(200);
    }
    const after = await t.db.query(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE user_id <> $2)::int AS foreign FROM chat_messages WHERE session_id = $1',
      [foreignId, priya.user.id],
    );
    expect(after.rows[0]).toEqual({ n: before.rows[0].n, foreign: 0 });
    expect(await count(unknownId)).toBe(0);
  });

  it('keeps chat history across a restart of the app', async () => {
    const before = await alex.post('/ai/simple/session/chat-history', { user_id: alex.user.id, max_messages: 500 });
    const db2 = createDb(t.url, 2);
    const app2 = await buildApp({ db: db2, config: { ...loadConfig(process.env), databaseUrl: t.url, logLevel: 'silent' }, logger: false });
    try {
      const res = await app2.inject({
        method: 'POST',
        url: '/ai/simple/session/chat-history',
        headers: { authorization: `Bearer ${alex.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ user_id: alex.user.id, max_messages: 500 }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(before.body);
    } finally {
      await app2.close();
      await db2.close();
    }
  });
});

describe('maintenance switch', () => {
  it('answers the maintenance message for a disabled role and nothing else changes', async () => {
    await setRoleConfig(t.db, 'employee', { enabled: false, message: 'CSO is being upgraded, back at 3pm.' });
    try {
      const { content, done } = await chat(alex, '/ai/streaming-chat', { message: 'book annual leave next monday, errands' });
      expect(done).toBe(true);
      expect(content).toBe('CSO is being upgraded, back at 3pm.');
      // only the employee assistant is in maintenance; every other family stays healthy
      expect(await healthOfEveryFamily()).toEqual({ ...Object.fromEntries(FAMILIES.map((f) => [f, 'healthy'])), simple: 'maintenance' });
      expect((await t.anonymous.get('/ai/status')).body.chatbots).toEqual({ ...ALL_ONLINE, employee: 'maintenance' });
      expect((await alex.post('/ai/simple-chat', { message: 'hi' })).body).toMatchObject({ maintenance: true });
      // managers keep their assistant
      const p = await chat(priya, '/ai/manager/chat-stream', { message: 'hello' });
      expect(p.content).toMatch(/Chief Smile Officer/);
    } finally {
      await setRoleConfig(t.db, 'employee', { enabled: true });
    }
    const { content } = await chat(alex, '/ai/streaming-chat', { message: 'hello' });
    expect(content).toMatch(/Chief Smile Officer/);
    expect((await t.anonymous.get('/ai/status')).body.chatbots).toEqual(ALL_ONLINE);
    expect(await healthOfEveryFamily()).toEqual(Object.fromEntries(FAMILIES.map((f) => [f, 'healthy'])));
  });
});

describe('sentence hook (speech integration point)', () => {
  it("interleaves the hook's events per sentence; its end events follow complete, before [DONE]", async () => {
    const off = registerSentenceHook((_req, body) =>
      body.test_hook === true
        ? {
            sentence: (text, index, emit) => emit({ type: 'tts_chunk', chunk_index: index, text }),
            end: (emit) => emit({ type: 'tts', fallback_used: false }),
          }
        : undefined,
    );
    try {
      // tts: false leaves the reply to this hook (a request that says nothing gets speech by the sound preference)
      const { events, content } = await chat(alex, '/ai/streaming-chat', { message: 'what can you do?', test_hook: true, tts: false });
      const chunks = events.filter((e) => e.type === 'tts_chunk');
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_c, i) => i));
      expect(content.replace(/\s+/g, ' ')).toContain(String(chunks[0].text));
      const types = events.map((e) => e.type);
      // complete does not wait for speech still being synthesised: the hook's end events follow it
      expect(types.indexOf('tts')).toBeGreaterThan(types.indexOf('complete'));
      // the first sentences are announced while the text still streams
      expect(types.indexOf('tts_chunk')).toBeLessThan(types.lastIndexOf('content'));
      const plain = await chat(alex, '/ai/streaming-chat', { message: 'hello', tts: false });
      expect(plain.events.some((e) => e.type === 'tts_chunk')).toBe(false);
    } finally {
      off();
    }
  });
});

describe('first piece', () => {
  it('arrives quickly over a real connection and the reply comes in several pieces', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const started = Date.now();
    const res = await fetch(`${address}/ai/streaming-chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alex.token}` },
      body: JSON.stringify({ message: 'what can you help me with?', tts: false }), // the text pieces only
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstAt = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!firstAt && text.includes('"type":"content"')) firstAt = Date.now() - started;
    }
    expect(firstAt).toBeGreaterThan(0);
    expect(firstAt).toBeLessThan(1500);
    expect(parseSse(text).events.filter((e) => e.type === 'content').length).toBeGreaterThan(5);
  });
});

describe('confirmations of the built-in engine', () => {
  it("approves only the request whose question was shown: another request's Approve button is no yes to it", async () => {
    const submit = async (start: string, end: string) =>
      (await alex.post('/api/forms/leave-request', { leave_type: 'Annual', start_date: start, end_date: end, reason: 'Family visit' })).body
        .request_id as string;
    const first = await submit('2027-09-13', '2027-09-14');
    const second = await submit('2027-09-20', '2027-09-21');
    const stage = async (id: string) =>
      (
        await t.db.query(
          `SELECT a.decision FROM approvals a JOIN requests q ON q.id = a.request_pk WHERE q.request_id = $1 AND a.stage = 'line_manager'`,
          [id],
        )
      ).rows[0].decision;
    const sid = (await priya.post('/ai/manager/session/login', { user_id: priya.user.id })).body.session_id;
    const say = (message: string) => chat(priya, '/ai/manager/chat-stream', { message }, { 'x-session-id': sid });
    expect((await say(`approve ${first}`)).content).toMatch(/\(yes \/ no\)/);
    await say(`approve ${second}`); // the panel's button of the other request
    expect(await stage(first)).toBe('Pending');
    expect(await stage(second)).toBe('Pending');
    await say('ok, tell me more about it before I approve it');
    expect(await stage(second)).toBe('Pending');
    // an explicit yes to the question shown last approves that request, and only that one
    expect((await say('yes')).content).toMatch(/is approved/);
    expect(await stage(second)).toBe('Approved');
    expect(await stage(first)).toBe('Pending');
  });

  it('applies a confirmed decision only to the content its summary showed: an edit in between refuses it', async () => {
    const created = await alex.post('/api/forms/petty-cash', {
      amount_requested: 42.5,
      expected_settlement_date: '2027-02-03',
      purpose: 'Team lunch',
    });
    expect(created.status).toBe(201);
    const id = created.body.request_id as string;
    const sid = (await priya.post('/ai/manager/session/login', { user_id: priya.user.id })).body.session_id;
    const say = (message: string) => chat(priya, '/ai/manager/chat-stream', { message }, { 'x-session-id': sid });
    expect((await say(`approve ${id}`)).content).toMatch(/\(yes \/ no\)/);
    const edited = await alex.put(`/api/forms/petty-cash/${id}`, {
      amount_requested: 48000,
      expected_settlement_date: '2027-02-03',
      purpose: 'Team lunch',
    });
    expect(edited.status).toBe(200);
    expect((await say('yes')).content).toMatch(/changed after you opened it/);
    const decision = (
      await t.db.query(
        `SELECT a.decision FROM approvals a JOIN requests q ON q.id = a.request_pk WHERE q.request_id = $1 AND a.stage = 'line_manager'`,
        [id],
      )
    ).rows[0].decision;
    expect(decision).toBe('Pending');
  });
});
