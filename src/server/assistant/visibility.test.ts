// The assistant shows only what the caller may see through the dashboards (the request policy), per role:
// a request the caller may not see is answered exactly like an id that does not exist, on every path
// ('approve X and Y and Z', one id, details, status, rejection) of the built-in engine and of the model's
// tools. Each check asks the same thing twice, once with other people's ids and once with made-up ids, and
// wants the same answer (ids swapped), with no trace of the other people's requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFamilyForRole } from '../../domain/roles.js';
import { ROLE_ACCOUNTS, type RoleKey } from '../hardening/fixtures.js';
import { type RequestFacts, type Viewer, canViewRequest } from '../policies/requests.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

type Row = RequestFacts & { id: number; request_id: string; owner_name: string; created_at: Date; current_stage: string | null };

async function loadRows(t: TestApp): Promise<Row[]> {
  return (
    await t.db.query(
      `SELECT r.id, r.request_id, r.employee_id AS employee_user_id, r.line_manager_id, r.hr_contact_id, r.form_type, r.current_stage, r.created_at,
            u.first_name || ' ' || u.last_name AS owner_name,
            (SELECT json_agg(json_build_object('stage', a.stage, 'decision', a.decision) ORDER BY a.seq) FROM approvals a WHERE a.request_pk = r.id) AS approvals
       FROM requests r JOIN users u ON u.id = r.employee_id ORDER BY r.id`,
    )
  ).rows;
}

interface Case {
  client: ApiClient;
  viewer: Viewer & { name: string };
  visible: Row;
  foreign: [Row, Row];
  missing: [string, string];
}

/** A visible request (someone else's where the role has any, else the caller's own), two foreign ones and two made-up ids. */
async function caseFor(t: TestApp, role: RoleKey, rows: Row[]): Promise<Case> {
  const client = await t.login(ROLE_ACCOUNTS[role]);
  const u = (
    await t.db.query(`SELECT id, role, user_type, first_name || ' ' || last_name AS name FROM users WHERE id = $1`, [client.user.id])
  ).rows[0];
  const pending = (r: Row) => r.current_stage !== null;
  const visible =
    rows.find((r) => r.employee_user_id !== u.id && pending(r) && canViewRequest(u, r)) ??
    rows.find((r) => r.employee_user_id === u.id && pending(r))!;
  // Foreign: not visible, another owner than the visible one's; first those the old rules let through (the
  // caller is their line manager or HR contact), then any.
  const hidden = rows.filter((r) => !canViewRequest(u, r) && r.owner_name !== visible.owner_name && r.owner_name !== u.name && pending(r));
  const related = hidden.filter((r) => r.line_manager_id === u.id || r.hr_contact_id === u.id);
  const pick = [...related, ...hidden.filter((r) => !related.includes(r))];
  const second = pick.find((r) => r.owner_name !== pick[0].owner_name) ?? pick[1];
  const foreign: [Row, Row] = [pick[0], second];
  const made = (r: Row, n: number) => `${r.request_id.split('-')[0]}-${String(990000 + n)}`;
  return { client, viewer: u, visible, foreign, missing: [made(foreign[0], 1), made(foreign[1], 2)] };
}

const swap = (text: string, c: Case) =>
  text.split(c.foreign[0].request_id).join(c.missing[0]).split(c.foreign[1].request_id).join(c.missing[1]);

/** One message in a fresh session of the caller's assistant; the whole JSON answer without the session id. */
async function ask(c: Case, message: string) {
  const family = sessionFamilyForRole(c.viewer.role);
  const res = await c.client.post(
    `/ai/${family}/chat`,
    { message },
    { 'x-session-id': (await c.client.post(`/ai/${family}/session/login`, { user_id: c.viewer.id })).body.session_id },
  );
  expect(res.status).toBe(200);
  const { session_id: _s, ...body } = res.body;
  return JSON.stringify(body);
}

function expectNoTrace(c: Case, answer: string) {
  for (const f of c.foreign) {
    expect(answer, `owner of ${f.request_id}`).not.toContain(f.owner_name);
    expect(answer).not.toContain(new Date(f.created_at).toISOString().slice(0, 10) + 'T');
  }
}

describe("built-in engine: other people's requests are as if they did not exist, for every role", () => {
  let t: TestApp;
  let rows: Row[];
  beforeAll(async () => {
    t = await startTestApp();
    rows = await loadRows(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  for (const role of Object.keys(ROLE_ACCOUNTS) as RoleKey[]) {
    it(`${role}: several ids, one id, details, status and rejection`, async () => {
      const c = await caseFor(t, role, rows);
      const [f1, f2] = c.foreign.map((r) => r.request_id);
      const [m1, m2] = c.missing;
      const v = c.visible.request_id;
      const pairs: Array<[string, string]> = [
        [`approve ${v} and ${f1} and ${f2}`, `approve ${v} and ${m1} and ${m2}`],
        [`approve ${f1} and ${f2}`, `approve ${m1} and ${m2}`],
        [`reject ${f1} and ${v} and ${f2}`, `reject ${m1} and ${v} and ${m2}`],
        [`approve ${f1}`, `approve ${m1}`],
        [`show details of ${f1}`, `show details of ${m1}`],
        [`what is the status of ${f1}?`, `what is the status of ${m1}?`],
        [`status of ${f1} and ${f2}`, `status of ${m1} and ${m2}`],
      ];
      for (const [withForeign, withMissing] of pairs) {
        const a = await ask(c, withForeign);
        const b = await ask(c, withMissing);
        expect(swap(a, c), `${role}: "${withForeign}"`).toBe(b);
        expectNoTrace(c, a);
      }
      // The visible request is still named where it may be (the rule hides, it does not break the assistant).
      expect(await ask(c, `show details of ${v}`)).toContain(v);
    }, 60_000);
  }
});

describe('model tools: the same policy, for every role', () => {
  let t: TestApp;
  let rows: Row[];
  let server: http.Server;
  let toolCall: { name: string; args: Record<string, unknown> } = { name: 'get_request_details', args: {} };
  const results: string[] = [];
  beforeAll(async () => {
    // A provider that calls one tool, then answers with the tool's own text (so it is in the reply as well).
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (x) => {
        raw += x;
      });
      req.on('end', () => {
        const body = JSON.parse(raw);
        const tool = [...body.messages].reverse().find((m: any) => m.role === 'tool');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const send = (c: unknown) => res.write(`data: ${JSON.stringify(c)}\n\n`);
        if (tool) {
          results.push(tool.content);
          send({ choices: [{ index: 0, delta: { content: tool.content }, finish_reason: 'stop' }] });
        } else {
          send({
            choices: [
              {
                index: 0,
                delta: {
                  role: 'assistant',
                  tool_calls: [
                    { index: 0, id: 'c1', type: 'function', function: { name: toolCall.name, arguments: JSON.stringify(toolCall.args) } },
                  ],
                },
                finish_reason: 'tool_calls',
              },
            ],
          });
        }
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    // The assistant reads its provider settings from the environment when its routes are registered.
    process.env.ASSISTANT_LLM_BASE_URL = `http://127.0.0.1:${port}/v1`;
    process.env.ASSISTANT_LLM_MODEL = 'test-model';
    t = await startTestApp();
    delete process.env.ASSISTANT_LLM_BASE_URL;
    delete process.env.ASSISTANT_LLM_MODEL;
    rows = await loadRows(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function viaTool(c: Case, name: string, args: Record<string, unknown>) {
    toolCall = { name, args };
    const before = results.length;
    const answer = await ask(c, 'tell me about that request');
    expect(results.length, `the tool ${name} ran`).toBe(before + 1);
    return { tool: results[results.length - 1], answer };
  }

  for (const role of Object.keys(ROLE_ACCOUNTS) as RoleKey[]) {
    it(`${role}: get_request_details, prepare_decision and get_my_requests`, async () => {
      const c = await caseFor(t, role, rows);
      const [f1] = c.foreign.map((r) => r.request_id);
      const [m1] = c.missing;
      for (const [name, a, b] of [
        ['get_request_details', { request_id: f1 }, { request_id: m1 }],
        ['prepare_decision', { request_id: f1, decision: 'Approved' }, { request_id: m1, decision: 'Approved' }],
        [
          'prepare_decision',
          { request_id: f1, decision: 'Rejected', reason: 'No budget' },
          { request_id: m1, decision: 'Rejected', reason: 'No budget' },
        ],
        ['get_my_requests', { request_id: f1 }, { request_id: m1 }],
      ] as const) {
        const x = await viaTool(c, name, a);
        const y = await viaTool(c, name, b);
        expect(swap(x.tool, c), `${role} ${name}`).toBe(y.tool);
        expect(swap(x.answer, c), `${role} ${name}`).toBe(y.answer);
        expectNoTrace(c, x.answer);
      }
    }, 60_000);
  }
});
