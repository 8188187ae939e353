// The optional external model, against a local server that speaks the OpenAI chat-completions streaming
// protocol (content deltas, tool-call deltas with split arguments, [DONE]): tools answer with the engine's
// data under the user's permissions, prepared actions wait for the built-in confirmation, and a provider
// failure falls back to the built-in engine with a logged warning.
import { businessYear } from '../../domain/business-time.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { parseSse } from './testing/dialogue-runner.js';

/** A scripted answer: chunks are SSE data objects, or { wait: ms } (a pause) or { die: true } (the connection drops). */
type Script = (body: any) => { status?: number; chunks?: any[]; raw?: string };
let script: Script = () => ({ chunks: [] });
const received: any[] = [];
let server: http.Server;
let t: TestApp;
let alex: ApiClient;
let priya: ApiClient;

const content = (text: string) => ({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
const stop = () => ({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
/** A tool call streamed the way providers do: id and name first, the JSON arguments in pieces. */
function toolCall(name: string, args: Record<string, unknown>, id = 'call_1'): any[] {
  const json = JSON.stringify(args);
  const half = Math.ceil(json.length / 2);
  return [
    {
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] },
          finish_reason: null,
        },
      ],
    },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: json.slice(0, half) } }] }, finish_reason: null }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: json.slice(half) } }] }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ];
}
const lastUser = (body: any) => [...body.messages].reverse().find((m: any) => m.role === 'user')?.content as string | undefined;
const lastToolResult = (body: any) => [...body.messages].reverse().find((m: any) => m.role === 'tool')?.content as string | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw);
      received.push({ url: req.url, auth: req.headers.authorization, body });
      const out = script(body);
      if (out.status && out.status !== 200) {
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      if (out.raw !== undefined) {
        res.end(out.raw);
        return;
      }
      void (async () => {
        for (const c of out.chunks ?? []) {
          if (res.destroyed) return;
          if (typeof c.wait === 'number') {
            await new Promise((r) => setTimeout(r, c.wait));
            continue;
          }
          if (c.die) {
            res.socket?.destroy();
            return;
          }
          res.write(`data: ${JSON.stringify(c)}\n\n`);
        }
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  process.env.ASSISTANT_LLM_BASE_URL = `http://127.0.0.1:${port}/v1`;
  process.env.ASSISTANT_LLM_MODEL = 'test-model';
  process.env.ASSISTANT_LLM_API_KEY = 'sk-test';
  process.env.ASSISTANT_LLM_TIMEOUT_MS = '1000';
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
  priya = await t.login('priya.sharma@adminease.test');
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => server.close(() => r()));
  delete process.env.ASSISTANT_LLM_BASE_URL;
  delete process.env.ASSISTANT_LLM_MODEL;
  delete process.env.ASSISTANT_LLM_API_KEY;
  delete process.env.ASSISTANT_LLM_TIMEOUT_MS;
});

async function ask(client: ApiClient, message: string, sessionId?: string, path = '/ai/streaming-chat') {
  // text only (a request that does not say gets speech by the user's sound preference)
  const res = await client.post(path, { message, tts: false }, sessionId ? { 'x-session-id': sessionId } : {});
  return { res, ...parseSse(res.text) };
}

async function newSession(client: ApiClient, family = 'simple'): Promise<string> {
  const s = await client.post(`/ai/${family}/session/login`, { user_id: client.user.id });
  return s.body.session_id;
}

describe('external model (OpenAI-compatible)', () => {
  it("streams the model's answer and answers its tool calls with the user's own data", async () => {
    received.length = 0;
    script = (body) => {
      const tool = lastToolResult(body);
      if (!tool) return { chunks: toolCall('get_leave_balance', { year: businessYear() }) };
      return { chunks: [content('From the records: '), content(tool), stop()] };
    };
    const { events, content: text, done } = await ask(alex, 'how much leave have I got?');
    expect(done).toBe(true);
    expect(text).toMatch(/^From the records: You have \d+(\.\d)? days of annual leave left/);
    expect(events.filter((e) => e.type === 'content').length).toBeGreaterThan(1);
    expect(received).toHaveLength(2);
    expect(received[0].url).toBe('/v1/chat/completions');
    expect(received[0].auth).toBe('Bearer sk-test');
    expect(received[0].body).toMatchObject({ model: 'test-model', stream: true });
    expect(received[0].body.tools.map((x: any) => x.function.name)).toContain('prepare_form_submission');
    expect(received[0].body.messages[0].content).toMatch(/Chief Smile Officer/);
    // the second request carries the assistant's tool call and the tool's answer
    const msgs = received[1].body.messages;
    expect(msgs.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'get_leave_balance' } }] });
    expect(msgs.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    const bal = await alex.get(`/api/forms/employee-leave-balance/${alex.user.id}`);
    const left = bal.body.annual_leave_total - bal.body.annual_leave_used;
    expect(text).toContain(`You have ${left}`);
  });

  it("prepares a submission through a tool; the user's yes submits it through the built-in confirmation", async () => {
    script = (body) => {
      const tool = lastToolResult(body);
      if (!tool && lastUser(body) === 'yes') return { chunks: toolCall('confirm_pending_action', {}) };
      if (!tool)
        return {
          chunks: toolCall('prepare_form_submission', {
            form_type: 'meeting-room',
            fields: {
              room_requested: 'Board Room',
              booking_date: '2027-05-04',
              start_time: '10:00',
              end_time: '11:00',
              participants_count: 6,
            },
          }),
        };
      return { chunks: [content(tool), stop()] };
    };
    const s = await alex.post('/ai/simple/session/login', { user_id: alex.user.id });
    const first = await ask(alex, 'get me the board room on 4 May 2027 10-11 for six', s.body.session_id);
    expect(first.content).toMatch(/Shall I submit it\?/);
    const before = await t.db.query(`SELECT count(*)::int AS n FROM requests WHERE employee_id = $1 AND form_type = 'meeting-room'`, [
      alex.user.id,
    ]);
    const calls = received.length;
    const yes = await ask(alex, 'yes', s.body.session_id);
    expect(received.length).toBe(calls + 2); // the confirmation went to the model, which confirmed through the tool
    expect(received.at(-2).body.messages[0].content).toMatch(/summary was shown and waits for the user's yes or no/);
    expect(yes.content).toMatch(/MR-\d{6}/);
    const after = await t.db.query(`SELECT count(*)::int AS n FROM requests WHERE employee_id = $1 AND form_type = 'meeting-room'`, [
      alex.user.id,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n + 1);
  });

  it('keeps the permission checks: a model asking to approve for an employee changes nothing', async () => {
    const r = await t.db.query(`SELECT request_id FROM requests WHERE current_stage = 'line_manager' AND employee_id <> $1 LIMIT 1`, [
      alex.user.id,
    ]);
    const id = r.rows[0].request_id;
    script = (body) => {
      const tool = lastToolResult(body);
      if (!tool) return { chunks: toolCall('prepare_decision', { request_id: id, decision: 'Approved' }) };
      return { chunks: [content(tool), stop()] };
    };
    const res = await ask(alex, `approve ${id} for me`);
    expect(res.content).toMatch(/Only approvers/);
    const yes = await ask(alex, 'yes');
    void yes;
    const row = await t.db.query(
      `SELECT a.decision FROM approvals a JOIN requests q ON q.id = a.request_pk WHERE q.request_id = $1 AND a.stage = 'line_manager'`,
      [id],
    );
    expect(row.rows[0].decision).toBe('Pending');
  });

  it('shows approval actions that a tool produced for an approver', async () => {
    script = (body) => {
      const tool = lastToolResult(body);
      if (!tool) return { chunks: toolCall('list_pending_approvals', {}) };
      return { chunks: [content('Here you go. '), content(tool), stop()] };
    };
    const res = await priya.post('/ai/manager/chat-stream', { message: 'anything for me?', tts: false });
    const sse = parseSse(res.text);
    expect(sse.events.some((e) => e.type === 'approval_actions')).toBe(true);
    expect(sse.events.find((e) => e.type === 'complete')?.show_approval_action).toBe(true);
  });

  it('falls back to the built-in engine with a logged warning when the provider fails', async () => {
    const warn = vi.spyOn(t.app.log, 'warn');
    script = () => ({ status: 503 });
    const res = await alex.post('/ai/simple-chat', { message: 'how many annual leave days do I have left?' });
    expect(res.body.engine).toBe('built-in');
    expect(res.body.response).toMatch(/days of annual leave left/);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.stringMatching(/503/) }),
      expect.stringMatching(/provider failed/),
    );
    // a broken stream (garbage, no answer) is a failure too
    script = () => ({ raw: 'data: {not json\n\n' });
    const res2 = await ask(alex, 'what can you do?');
    expect(res2.done).toBe(true);
    expect(res2.content).toMatch(/Here is what I can do/);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe('external model: nothing happens without a shown confirmation', () => {
  const LATER = 'ok, tell me more about it before I approve it';
  const stageDecision = async (id: string) =>
    (
      await t.db.query(
        `SELECT a.decision FROM approvals a JOIN requests q ON q.id = a.request_pk WHERE q.request_id = $1 AND a.stage = 'line_manager'`,
        [id],
      )
    ).rows[0].decision;

  it('an approval prepared by the model is not executed when the provider fails after the prepare tool', async () => {
    const sub = await alex.post('/api/forms/leave-request', {
      leave_type: 'Annual',
      start_date: '2027-06-14',
      end_date: '2027-06-15',
      reason: 'Family visit',
    });
    expect(sub.status).toBe(201);
    const id = sub.body.request_id as string;
    script = (body) =>
      lastToolResult(body) ? { status: 503 } : { chunks: toolCall('prepare_decision', { request_id: id, decision: 'Approved' }) };
    const sid = await newSession(priya, 'manager');
    const first = await ask(priya, `ok, tell me more about ${id} before I approve it`, sid, '/ai/manager/chat-stream');
    expect(first.done).toBe(true);
    expect(await stageDecision(id)).toBe('Pending');
    const second = await ask(priya, LATER, sid, '/ai/manager/chat-stream');
    expect(second.done).toBe(true);
    expect(second.content).not.toMatch(/is approved/);
    expect(await stageDecision(id)).toBe('Pending');
    const mine = Object.values((await alex.get('/api/forms/user-forms')).body as Record<string, any[]>)
      .flat()
      .find((r) => r.request_id === id);
    expect(mine.status).toBe('Pending');
  });

  it('a room booking prepared by the model is not submitted after the provider dies; an explicit yes to the shown summary is', async () => {
    const count = async () =>
      (await t.db.query(`SELECT count(*)::int AS n FROM requests WHERE employee_id = $1 AND form_type = 'meeting-room'`, [alex.user.id]))
        .rows[0].n;
    const before = await count();
    script = (body) =>
      lastToolResult(body)
        ? { chunks: [content('Here is your booking. '), content('It will go to'), { wait: 150 }, { die: true }] }
        : {
            chunks: toolCall('prepare_form_submission', {
              form_type: 'meeting-room',
              fields: {
                room_requested: 'Board Room',
                booking_date: '2027-07-06',
                start_time: '10:00',
                end_time: '11:00',
                participants_count: 6,
              },
            }),
          };
    const sid = await newSession(alex);
    const first = await ask(alex, 'book the board room on 6 July 2027 from 10am to 11am for 6 people', sid);
    expect(first.done).toBe(true);
    expect(first.content).toMatch(/Shall I submit it\?/); // the built-in engine's own summary
    expect(await count()).toBe(before);
    const second = await ask(alex, LATER, sid);
    expect(second.done).toBe(true);
    expect(await count()).toBe(before);
    const yes = await ask(alex, 'yes', sid);
    expect(yes.content).toMatch(/MR-\d{6}/);
    expect(await count()).toBe(before + 1);
  });

  it('a withdrawal prepared by the model is not carried out when the provider fails after the prepare tool', async () => {
    const sub = await alex.post('/api/forms/petty-cash', {
      amount_requested: 30,
      expected_settlement_date: '2027-05-03',
      purpose: 'Team coffee',
    });
    expect(sub.status, sub.text).toBe(201);
    const id = sub.body.request_id as string;
    script = (body) => (lastToolResult(body) ? { status: 500 } : { chunks: toolCall('prepare_withdrawal', { request_id: id }) });
    const sid = await newSession(alex);
    const first = await ask(alex, `withdraw ${id}`, sid);
    expect(first.done).toBe(true);
    const second = await ask(alex, LATER, sid);
    expect(second.done).toBe(true);
    const row = await t.db.query('SELECT status FROM requests WHERE request_id = $1', [id]);
    expect(row.rows[0].status).toBe('Pending');
  });
});

describe('external model: time limit, interrupted answers and claims', () => {
  const balanceText = async () => {
    script = () => ({ status: 503 });
    return (await alex.post('/ai/simple-chat', { message: 'how much leave have I got?' }, { 'x-session-id': await newSession(alex) })).body
      .response as string;
  };

  it('a slow but steady answer longer than the time limit arrives complete', async () => {
    const parts = ['Here is ', 'a long ', 'and steady ', 'answer ', 'that takes ', 'its time ', 'to arrive ', 'in full.'];
    script = () => ({ chunks: [...parts.flatMap((p) => [{ wait: 300 }, content(p)]), stop()] });
    const started = Date.now();
    const res = await ask(alex, 'tell me something long', await newSession(alex));
    expect(Date.now() - started).toBeGreaterThan(2000); // well over the 1000 ms limit
    expect(res.done).toBe(true);
    expect(res.content).toBe(parts.join(''));
  });

  it('a provider that stalls longer than the limit between pieces gives way to the built-in engine', async () => {
    const engineText = await balanceText();
    script = () => ({ chunks: [content('Let me look. '), { wait: 1800 }, content('You have'), stop()] });
    const res = await ask(alex, 'how much leave have I got?', await newSession(alex));
    expect(res.done).toBe(true);
    expect(res.content.startsWith('Let me look.')).toBe(true);
    expect(res.content.endsWith(engineText)).toBe(true);
    expect(res.content).not.toMatch(/You have\s*$/);
  });

  it("an answer cut mid-stream ends with the built-in engine's answer, not half a sentence", async () => {
    const engineText = await balanceText();
    script = () => ({
      chunks: [content('Let me check that for you. '), content('Your leave balance for this year is'), { wait: 150 }, { die: true }],
    });
    const res = await ask(alex, 'how much leave have I got?', await newSession(alex));
    expect(res.done).toBe(true);
    expect(res.events.find((e) => e.type === 'complete')).toBeTruthy();
    expect(res.content).toContain('Let me check that for you.');
    expect(res.content).not.toContain('Your leave balance for this year is');
    expect(res.content).toMatch(/cut off/);
    expect(res.content.endsWith(engineText)).toBe(true);
    expect(res.content).not.toMatch(/lost my train of thought/);
  });

  it('a claimed action without a tool result is not passed through', async () => {
    const count = async () =>
      (await t.db.query(`SELECT count(*)::int AS n FROM requests WHERE employee_id = $1 AND form_type = 'leave-request'`, [alex.user.id]))
        .rows[0].n;
    const before = await count();
    const message = 'please submit my annual leave from 2 August 2027 to 3 August 2027 for a trip';
    script = () => ({ chunks: [content('Done! '), content('Your leave LR-009999 has been submitted.'), stop()] });
    const a = await ask(alex, message, await newSession(alex));
    expect(a.done).toBe(true);
    expect(a.content).not.toMatch(/Done!|LR-009999|has been submitted/);
    expect(a.content).toMatch(/Shall I submit it\?/);
    // after a harmless first sentence: the claim never shows, a correction and the engine's answer follow
    script = () => ({ chunks: [content('Sure thing. '), content('I have submitted your leave request.'), stop()] });
    const b = await ask(alex, message, await newSession(alex));
    expect(b.content.startsWith('Sure thing.')).toBe(true);
    expect(b.content).not.toMatch(/I have submitted/);
    expect(b.content).toMatch(/nothing has been changed/);
    expect(b.content).toMatch(/Shall I submit it\?/);
    // a status with an id no tool gave
    script = () => ({ chunks: [content('Your request LR-123456 is pending with your manager.'), stop()] });
    const c = await ask(alex, 'what is the status of my requests?', await newSession(alex));
    expect(c.content).not.toContain('LR-123456');
    expect(await count()).toBe(before);
  });

  it('does not name the model or the provider in the public /ai/status', async () => {
    const status = await t.anonymous.get('/ai/status');
    expect(status.status).toBe(200);
    expect(status.body.engine).toBe('llm');
    const text = JSON.stringify(status.body);
    expect(text).not.toContain('test-model');
    expect(text).not.toContain('127.0.0.1');
    const health = await t.anonymous.get('/ai/manager/health');
    expect(JSON.stringify(health.body)).not.toContain('test-model');
  });
});

describe('the provider time limit setting', () => {
  it('is a whole number of milliseconds; anything else stops the start with a clear message', async () => {
    const { loadConfig } = await import('../config.js');
    const assistantSettings = (env: Record<string, string>) => loadConfig(env).assistant;
    const env = { ASSISTANT_LLM_BASE_URL: 'http://127.0.0.1:9/v1', ASSISTANT_LLM_MODEL: 'm' };
    expect(assistantSettings(env).llm?.timeoutMs).toBe(30_000);
    expect(assistantSettings({ ...env, ASSISTANT_LLM_TIMEOUT_MS: '2500' }).llm?.timeoutMs).toBe(2500);
    for (const bad of ['abc', '0', '-5', '1.5', '99999999'])
      expect(() => assistantSettings({ ...env, ASSISTANT_LLM_TIMEOUT_MS: bad }), bad).toThrow(/ASSISTANT_LLM_TIMEOUT_MS/);
  });
});

describe('statements the model may not make on its own (unbackedClaim)', () => {
  it('lets relayed tool text, statuses from read tools and plans through; stops claims and invented ids', async () => {
    const { unbackedClaim } = await import('./llm.js');
    const none = { outputs: [], readOutputs: [], known: '' };
    const prepared = { outputs: ['Approve LR-000001 (Annual Leave from Alex Johnson)? (yes / no)'], readOutputs: [], known: '' };
    const status = {
      outputs: ['LR-000001 · Annual Leave, 2027-01-11 to 2027-01-13: Approved'],
      readOutputs: ['LR-000001 · Annual Leave, 2027-01-11 to 2027-01-13: Approved'],
      known: '',
    };
    for (const [sentence, ev] of [
      ['Approve LR-000001 (Annual Leave from Alex Johnson)? (yes / no)', prepared],
      ['Your leave LR-000001 has been approved.', status],
      ['Nothing is submitted until you say yes.', none],
      ['Once you confirm, it will be submitted.', none],
      ['The COVID-19 rules still apply.', none],
      ['You have 9 days of annual leave left.', none],
    ] as const)
      expect(unbackedClaim(sentence, ev), sentence).toBeUndefined();
    for (const [sentence, ev] of [
      ['Done!', none],
      ['I have approved LR-000001 for you.', prepared],
      ["I've submitted your leave request.", none],
      ['LR-000001 has been approved.', prepared],
      ['Your room is booked.', none],
      ['Your request LR-123456 is pending.', none],
      ['All set, your trip was successfully filed.', none],
    ] as const)
      expect(unbackedClaim(sentence, ev), sentence).toBeDefined();
  });
});

describe('external model inside a form or a decision', () => {
  const leaves = async (reason: string) =>
    (
      await t.db.query(
        `SELECT request_id, data FROM requests WHERE employee_id = $1 AND form_type = 'leave-request' AND data->>'reason' = $2`,
        [alex.user.id, reason],
      )
    ).rows;
  /** The model's script of a whole conversation: a tool call per user message, then the tool's text relayed. */
  const byMessage =
    (calls: Record<string, [string, Record<string, unknown>]>): Script =>
    (body) => {
      const tool = lastToolResult(body);
      if (tool) return { chunks: [content(tool), stop()] };
      const call = calls[lastUser(body) ?? ''];
      return call ? { chunks: toolCall(call[0], call[1]) } : { chunks: [content('Happy to help.'), stop()] };
    };

  it('sends every turn of a form to the model with the state, fills fields through a tool, and submits only on the yes', async () => {
    const reason = `Family visit ${Date.now()}, pls approve`;
    script = byMessage({
      'annual leave from 13 Sept 2027 please': [
        'prepare_form_submission',
        { form_type: 'leave-request', fields: { leave_type: 'Annual', start_date: '2027-09-13' } },
      ],
      [`till the 14th, ${reason}`]: ['update_form_fields', { fields: { end_date: '2027-09-14', reason } }],
      'hmm, what is my balance first?': ['confirm_pending_action', {}],
      yes: ['confirm_pending_action', {}],
    });
    const sid = await newSession(alex);
    const first = await ask(alex, 'annual leave from 13 Sept 2027 please', sid);
    expect(first.content).toMatch(/Until which date/);
    const n = received.length;
    const second = await ask(alex, `till the 14th, ${reason}`, sid);
    expect(received.length).toBe(n + 2); // inside the form: the model, with the engine's state
    const prompt = received[n].body.messages[0].content as string;
    expect(prompt).toMatch(/filling a Leave Request \(leave-request\)/);
    expect(prompt).toContain('Fields collected: leave_type="Annual", start_date="2027-09-13"');
    expect(prompt).toMatch(/Required fields missing: end_date .*reason/);
    expect(prompt).toMatch(/Asked last: end_date/);
    expect(second.content).toMatch(/Shall I submit it\? \(yes \/ no\)/);
    expect(await leaves(reason)).toHaveLength(0);
    // the model tries to confirm without the user's yes: refused, nothing stored, the question stays open
    const third = await ask(alex, 'hmm, what is my balance first?', sid);
    expect(third.content).toMatch(/not an explicit yes/);
    expect(third.content).toMatch(/\(yes \/ no\)/);
    expect(await leaves(reason)).toHaveLength(0);
    const yes = await ask(alex, 'yes', sid);
    expect(yes.content).toMatch(/LR-\d{6} has been submitted/);
    const stored = await leaves(reason);
    expect(stored).toHaveLength(1);
    expect(stored[0].data.reason).toBe(reason); // exactly as typed
    expect(stored[0].data.end_date).toBe('2027-09-14');
  });

  it('a summary prepared in the same turn cannot be confirmed by the model', async () => {
    const reason = `Dentist ${Date.now()}`;
    script = (body) => {
      const tools = body.messages.filter((m: any) => m.role === 'tool').length;
      if (tools === 0)
        return {
          chunks: toolCall('prepare_form_submission', {
            form_type: 'leave-request',
            fields: { leave_type: 'Casual', start_date: '2027-09-20', end_date: '2027-09-20', reason },
          }),
        };
      if (tools === 1) return { chunks: toolCall('confirm_pending_action', {}, 'call_2') };
      return { chunks: [content('Let me know.'), stop()] };
    };
    const res = await ask(alex, 'yes, casual leave on 20 Sept 2027 for the dentist, submit it', await newSession(alex));
    expect(res.content).toMatch(/Shall I submit it\?/);
    const confirmAnswer = [...received.at(-1).body.messages].reverse().find((m: any) => m.role === 'tool').content;
    expect(confirmAnswer).toMatch(/has not seen this summary/);
    expect(await leaves(reason)).toHaveLength(0);
  });

  it("keeps the permission checks: a model cannot prepare or confirm withdrawing someone else's request", async () => {
    const other = (
      await t.db.query(`SELECT request_id FROM requests WHERE status = 'Pending' AND employee_id <> $1 LIMIT 1`, [alex.user.id])
    ).rows[0].request_id as string;
    script = byMessage({ [`withdraw ${other}`]: ['prepare_withdrawal', { request_id: other }], yes: ['confirm_pending_action', {}] });
    const sid = await newSession(alex);
    const first = await ask(alex, `withdraw ${other}`, sid);
    expect(first.content).toMatch(/I can only withdraw your own requests/);
    const yes = await ask(alex, 'yes', sid);
    expect(yes.content).toMatch(/Nothing is waiting for confirmation/);
    const row = await t.db.query('SELECT status FROM requests WHERE request_id = $1', [other]);
    expect(row.rows[0].status).toBe('Pending');
  });

  it('a booking the model prepares for a past date is refused by the date rule and the date asked again', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    script = byMessage({
      'room for yesterday': [
        'prepare_form_submission',
        {
          form_type: 'meeting-room',
          fields: { room_requested: 'Board Room', booking_date: yesterday, start_time: '10:00', end_time: '11:00', participants_count: 4 },
        },
      ],
    });
    const res = await ask(alex, 'room for yesterday', await newSession(alex));
    expect(res.content).toMatch(/Date cannot be in the past/);
    expect(res.content).not.toMatch(/Shall I submit/);
  });

  it('falls back to the built-in engine in the middle of a form when the model fails, keeping the form', async () => {
    const reason = `Wedding ${Date.now()}`;
    script = byMessage({
      'leave please': [
        'prepare_form_submission',
        { form_type: 'leave-request', fields: { leave_type: 'Annual', start_date: '2027-10-04' } },
      ],
    });
    const sid = await newSession(alex);
    const first = await ask(alex, 'leave please', sid);
    expect(first.content).toMatch(/Until which date/);
    script = () => ({ status: 503 });
    const say = async (message: string) =>
      (await alex.post('/ai/simple-chat', { message }, { 'x-session-id': sid })).body as { response: string; engine: string };
    const second = await say('2027-10-05');
    expect(second.engine).toBe('built-in');
    expect(second.response).toMatch(/reason/i);
    const third = await say(reason);
    expect(third.response).toMatch(/Shall I submit it\?/);
    // the model dies mid-answer after preparing something else: the engine's open summary still holds
    script = (body) =>
      lastToolResult(body)
        ? { chunks: [{ die: true }] }
        : { chunks: toolCall('prepare_form_submission', { form_type: 'meeting-room', fields: {} }) };
    const yes = await say('yes');
    expect(yes.engine).toBe('built-in');
    expect(yes.response).toMatch(/LR-\d{6} has been submitted/);
    expect(await leaves(reason)).toHaveLength(1);
  });
});

describe('external model inside a decision', () => {
  const stage = async (id: string) =>
    (
      await t.db.query(
        `SELECT a.decision FROM approvals a JOIN requests q ON q.id = a.request_pk WHERE q.request_id = $1 AND a.stage = 'line_manager'`,
        [id],
      )
    ).rows[0].decision as string;
  const leaveOfAlex = async (day: string) => {
    const sub = await alex.post('/api/forms/leave-request', { leave_type: 'Casual', start_date: day, end_date: day, reason: 'Errand' });
    expect(sub.status, sub.text).toBe(201);
    return sub.body.request_id as string;
  };
  const script2 =
    (id: string): Script =>
    (body) => {
      const tool = lastToolResult(body);
      if (tool) return { chunks: [content(tool), stop()] };
      const said = lastUser(body) ?? '';
      if (said.startsWith('approve')) return { chunks: toolCall('prepare_decision', { request_id: id, decision: 'Approved' }) };
      return { chunks: toolCall('confirm_pending_action', {}) };
    };

  it("the approver's yes goes to the model with the prepared decision, which it confirms through the tool", async () => {
    const id = await leaveOfAlex('2027-11-09');
    script = script2(id);
    const sid = await newSession(priya, 'manager');
    const first = await ask(priya, `approve ${id}`, sid, '/ai/manager/chat-stream');
    expect(first.content).toMatch(/\(yes \/ no\)/);
    expect(await stage(id)).toBe('Pending');
    const n = received.length;
    const yes = await ask(priya, 'yes', sid, '/ai/manager/chat-stream');
    expect(received[n].body.messages[0].content).toContain(`Open state: approving ${id} was shown`);
    expect(yes.done).toBe(true);
    expect(await stage(id)).toBe('Approved');
  });

  it('a model confirming a decision the approver did not say yes to changes nothing', async () => {
    const id = await leaveOfAlex('2027-11-10');
    script = script2(id);
    const sid = await newSession(priya, 'manager');
    await ask(priya, `approve ${id}`, sid, '/ai/manager/chat-stream');
    const later = await ask(priya, 'hmm, who else is off that day?', sid, '/ai/manager/chat-stream');
    expect(later.content).toMatch(/not an explicit yes/);
    expect(await stage(id)).toBe('Pending');
  });
});
