// The authorisation matrix, generated over every /api and /ai route the app registers: each role calls each
// route with its own ids and with another person's ids (person and request slots in the path, query and
// body), then without a session, with a revoked and with an expired session. Every cell: no 5xx, errors as
// JSON {error}, 401 exactly when the session is missing or dead, and no data of a person the caller may not
// see in any body. Routes whose ids name a person or a request must refuse another person's (403/404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTypesWithStage } from '../../domain/forms.js';
import { type RequestFacts, type Viewer, canSeeSensitive, canViewRequest, isSensitiveField, viewRelations } from '../policies/requests.js';
import { stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import {
  type ApiRoute,
  type Person,
  ROLE_ACCOUNTS,
  ROLE_WIDE_TYPES,
  type RoleKey,
  type Visibility,
  apiRoutes,
  fillPath,
  foreignData,
  loadPeople,
  visibilityOf,
} from './fixtures.js';

/**
 * Routes that name a person or a request: called with another person's ids they must refuse. The value lists
 * the accepted statuses (404 where "not found" and "not yours" are told apart only for those who may know).
 */
const REFUSES_OTHERS: Record<string, number[]> = {
  'GET /api/forms/user-forms': [403],
  'GET /api/forms/leave-requests': [403],
  'GET /api/purchase-requisition/user-forms': [403],
  'GET /api/forms/employee-leave-balance/:userId': [403],
  'GET /api/forms/employee-profile/:employeeCode': [403],
  'GET /api/manager/employee-leave-balance/:employeeId': [403],
  'GET /api/hr/employee-leave-balance/:employeeId': [403],
  'GET /api/manager/queue': [403],
  'GET /api/hr/queue': [403],
  'GET /api/form-state/notifications/:userId': [403],
  'POST /api/form-state/save-snapshot': [403],
  'POST /api/form-state/check-changes': [403],
  'POST /api/form-state/mark-read/:id': [403, 404],
  'GET /api/user-confirmation/pending-confirmations': [403],
  'POST /api/user-confirmation/confirm-problem-solved': [403, 404],
  'POST /api/user-confirmation/reject-resolution': [403, 404],
  'POST /api/password-reset/reveal-password': [403, 404],
  'GET /api/forms/details/:id': [403, 404],
  'GET /api/requests/:id/history': [403, 404],
  'PUT /api/forms/:formType/:id': [403, 404],
  'POST /api/forms/:formType/:id/withdraw': [403, 404],
  'POST /api/forms/:formType': [403],
  'POST /api/purchase-requisition/submit': [403],
  'GET /api/manager/form-details': [403, 404],
  'GET /api/hr/form-details': [403, 404],
  'GET /api/finance/form-details': [403, 404],
  'GET /api/facilities-desk/form-details': [403, 404],
  'GET /api/facilities-manager/form-details': [403, 404],
  'GET /api/it-support/form-details': [403, 404],
  'POST /api/manager/update-status': [403, 404],
  'POST /api/hr/update-status': [403, 404],
  'POST /api/finance/update-status': [403, 404],
  'POST /api/facilities-desk/update-status': [403, 404],
  'POST /api/facilities-manager/update-status': [403, 404],
  'POST /api/manager/acknowledge-it-incident': [403, 404],
  'POST /api/manager/acknowledge-password-reset': [403, 404],
  'POST /api/it-support/save-ticket-details': [403, 404],
  'POST /api/it-support/close-ticket': [403, 404],
  'POST /api/it-support/save-password-reset-details': [403, 404],
  'POST /api/approvals/bulk': [200, 403, 404],
  'POST /api/approvals/decide': [403, 404],
  'POST /ai/:family/session/login': [403],
  'POST /ai/:family/session/logout': [403],
  'POST /ai/:family/session/status': [403],
  'POST /ai/:family/session/conversation-history': [403],
  'POST /ai/:family/session/save-chat': [403],
  'POST /ai/:family/session/chat-history': [403],
  'POST /ai/streaming-chat': [403],
  'POST /ai/:family/chat': [403],
  'POST /ai/:family/chat-stream': [403],
  'POST /ai/simple-chat': [403],
  'POST /ai/simple-chat-stream': [403],
  'POST /ai/simple-chat/stream': [403],
  'POST /ai/:family/login-greeting': [403],
  'POST /ai/simple-login-greeting': [403],
};

/** Role-wide work on other people's items: IT support handles every employee's tickets and password resets. */
const ACTS_FOR_OTHERS: Record<string, RoleKey[]> = {
  'POST /api/it-support/close-ticket': ['it'],
  'POST /api/it-support/save-password-reset-details': ['it'],
  'POST /api/it-support/save-ticket-details': ['it'],
};

/**
 * Not called with a live session here: the long-lived event stream (inject would wait for its end) and
 * sign-out (it would end the caller's session mid-matrix; the session checks below call both).
 */
const SESSION_CHECKS_ONLY = new Set(['GET /api/events', 'POST /api/auth/logout']);
/** Called here with another person's ids only: with the caller's own, the assistant's logout ends their sign-in session too. */
const ENDS_THE_SESSION = new Set(['POST /ai/:family/session/logout']);

interface Slots {
  person: Person;
  /** The caller's hr_id slot value (an HR id, or the employee code). */
  hrId: string;
  request: { pk: number; request_id: string; form_type: string };
  incident: { request_id: string };
  reset: { request_id: string };
  notificationId: number;
}

interface Caller {
  role: RoleKey;
  me: Person;
  client: ApiClient;
  vis: Visibility;
  own: Slots;
  other: Slots;
}

let t: TestApp;
let people: Person[];
let routes: ApiRoute[];
const callers: Caller[] = [];

async function requestWhere(where: string, params: unknown[]) {
  const r = await t.db.query(`SELECT id AS pk, request_id, form_type FROM requests r WHERE ${where} ORDER BY r.id LIMIT 1`, params);
  if (!r.rows[0]) throw new Error(`no seeded request where ${where} ${JSON.stringify(params)}`);
  return r.rows[0];
}

async function notificationOf(userId: number): Promise<number> {
  const found = await t.db.query('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id LIMIT 1', [userId]);
  if (found.rows[0]) return found.rows[0].id;
  const r = await t.db.query(`INSERT INTO notifications (user_id, title, change_type) VALUES ($1, 'Test update', 'other') RETURNING id`, [
    userId,
  ]);
  return r.rows[0].id;
}

beforeAll(async () => {
  t = await startTestApp();
  people = await loadPeople(t.db);
  routes = apiRoutes(t.app);
  for (const role of Object.keys(ROLE_ACCOUNTS) as RoleKey[]) {
    const me = people.find((p) => p.email === ROLE_ACCOUNTS[role])!;
    const client = await t.login(me.email);
    const vis = await visibilityOf(t.db, people, me, role);
    const stranger = vis.strangers.find((p) => p.user_type === 'employee' && p.id !== me.id) ?? vis.strangers.find((p) => p.id !== me.id);
    if (!stranger) throw new Error(`no stranger for ${role}`);
    const wide = ROLE_WIDE_TYPES[role];
    const unrelated = `r.employee_id <> $1 AND r.line_manager_id IS DISTINCT FROM $1 AND r.hr_contact_id IS DISTINCT FROM $1 AND NOT (r.form_type = ANY($2))`;
    const ownRequest = await requestWhere('r.employee_id = $1 OR r.line_manager_id = $1 OR r.hr_contact_id = $1 OR r.form_type = ANY($2)', [
      me.id,
      wide,
    ]);
    const ownOf = async (type: string) =>
      (await t.db.query(`SELECT request_id FROM requests WHERE employee_id = $1 AND form_type = $2 LIMIT 1`, [me.id, type])).rows[0] ?? {
        request_id: ownRequest.request_id,
      };
    callers.push({
      role,
      me,
      client,
      vis,
      own: {
        person: me,
        hrId: me.hr_id ?? me.code,
        request: ownRequest,
        incident: await ownOf('it-incident'),
        reset: await ownOf('password-reset'),
        notificationId: await notificationOf(me.id),
      },
      other: {
        person: stranger,
        hrId: stranger.hr_id ?? stranger.code,
        request: await requestWhere(unrelated, [me.id, wide]),
        incident: await requestWhere("r.employee_id <> $1 AND r.form_type = 'it-incident' AND $2::text[] IS NOT NULL", [me.id, wide]),
        reset: await requestWhere("r.employee_id <> $1 AND r.form_type = 'password-reset' AND $2::text[] IS NOT NULL", [me.id, wide]),
        notificationId: await notificationOf(stranger.id),
      },
    });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The request a cell sends: every person and request slot filled from `s`. */
function cellRequest(route: ApiRoute, s: Slots) {
  const key = `${route.method} ${route.url}`;
  const request = /confirm-problem-solved|reject-resolution|acknowledge-it-incident|save-ticket-details|close-ticket/.test(route.url)
    ? s.incident.request_id
    : /reveal-password|password-reset-details|acknowledge-password-reset/.test(route.url)
      ? s.reset.request_id
      : s.request.request_id;
  const formType = /acknowledge-it-incident/.test(route.url)
    ? 'it-incident'
    : /acknowledge-password-reset/.test(route.url)
      ? 'password-reset'
      : s.request.form_type;
  const url = fillPath(route.url, {
    family: 'simple',
    formType,
    id: key === 'POST /api/form-state/mark-read/:id' ? String(s.notificationId) : request,
    userId: s.person.code,
    employeeId: s.person.code,
    employeeCode: s.person.code,
  });
  const ids = {
    employee_id: s.person.code,
    user_id: s.person.code,
    manager_id: s.person.code,
    hr_id: s.hrId,
    finance_id: s.person.code,
    facilities_id: s.person.code,
    form_id: request,
    request_id: request,
    form_type: formType,
  };
  if (route.method === 'GET') return { method: route.method, url: `${url}?${new URLSearchParams(ids)}` };
  const body = {
    ...ids,
    status: 'Approved',
    approval: 'Approved',
    decision: 'Approved',
    message: 'What is the status of my requests?',
    user_role: 'Employee',
    message_type: 'user',
    content: 'hello',
    items: [{ form_id: request, decision: 'Approved' }],
    tts: false, // chat replies as text only (speech would follow the sound preference and cost seconds per call)
  };
  return { method: route.method, url, body };
}

async function send(token: string | undefined, req: { method: string; url: string; body?: unknown }) {
  const res = await t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), text: res.body };
}

function checkShape(where: string, res: { status: number; type: string; text: string }) {
  expect(res.status, `${where}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.type.startsWith('text/event-stream')) return;
  let body: any;
  expect(
    () => {
      body = JSON.parse(res.text);
    },
    `${where}: the body is not JSON: ${res.text.slice(0, 200)}`,
  ).not.toThrow();
  if (res.status >= 400) expect(typeof body?.error, `${where}: an error without {error}: ${res.text.slice(0, 200)}`).toBe('string');
}

describe('authorisation matrix over every route', () => {
  it('covers the routes of every feature', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    expect(keys.length).toBeGreaterThan(20);
    // Every route the matrix checks precisely still exists (a renamed route must be re-classified here).
    for (const k of Object.keys(REFUSES_OTHERS)) expect(keys, `${k} is no longer registered`).toContain(k);
  });

  for (const role of Object.keys(ROLE_ACCOUNTS) as RoleKey[]) {
    it(`${role}: own ids and another person's ids on every route`, async () => {
      const c = callers.find((x) => x.role === role)!;
      const problems: string[] = [];
      let ownOk = 0;
      for (const route of routes) {
        const key = `${route.method} ${route.url}`;
        if (SESSION_CHECKS_ONLY.has(key)) continue;
        for (const variant of ENDS_THE_SESSION.has(key) ? (['other'] as const) : (['own', 'other'] as const)) {
          const req = cellRequest(route, c[variant]);
          const res = await send(c.client.token, req);
          const where = `${role} ${variant} ${key}`;
          if (variant === 'own' && res.status < 300) ownOk += 1;
          if (process.env.AUTHZ_MATRIX_DEBUG) console.log(where, res.status, res.text.slice(0, 100));
          try {
            checkShape(where, res);
            expect(res.status, `${where}: a live session answered 401`).not.toBe(401);
            const leaked = foreignData(res.text, people, c.vis);
            expect(leaked, `${where}: data of people ${role} may not see`).toEqual([]);
            if (variant === 'other' && REFUSES_OTHERS[key] && !ACTS_FOR_OTHERS[key]?.includes(role)) {
              expect(REFUSES_OTHERS[key], `${where}: another person's ids answered ${res.status} ${res.text.slice(0, 200)}`).toContain(
                res.status,
              );
              if (key === 'POST /api/approvals/bulk' && res.status === 200) {
                expect(
                  JSON.parse(res.text).results?.every((x: any) => x.ok === false && [403, 404].includes(x.status)),
                  `${where}: ${res.text.slice(0, 300)}`,
                ).toBe(true);
              }
            }
          } catch (err) {
            problems.push((err as Error).message.split('\n')[0]);
          }
        }
      }
      expect(problems).toEqual([]);
      // The own-id calls reach the features (a matrix of 400s would prove nothing).
      expect(ownOk, `${role}: own-id calls that succeeded`).toBeGreaterThanOrEqual(20);
    }, 120_000);
  }

  it('answers 403 {error} to every non-administrator on every /api/admin route, before reading any input', async () => {
    const adminRoutes = routes.filter((r) => r.url.startsWith('/api/admin/'));
    expect(adminRoutes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/admin/audit',
        // issue 18's fixed paths
        'GET /api/admin/people',
        'POST /api/admin/people',
        'GET /api/admin/people/:employeeCode',
        'PATCH /api/admin/people/:employeeCode',
        'POST /api/admin/people/:employeeCode/deactivate',
        'POST /api/admin/people/:employeeCode/invite',
        'POST /api/admin/people/import',
        'GET /api/admin/people/export.csv',
        'GET /api/admin/departments',
        'POST /api/admin/departments',
        'GET /api/admin/form-types',
        'POST /api/admin/form-types',
        'GET /api/admin/form-types/:formType',
        'PUT /api/admin/form-types/:formType',
        'GET /api/admin/groups',
        'POST /api/admin/groups',
        'PUT /api/admin/groups/:name',
      ]),
    );
    const problems: string[] = [];
    const audited = async () => (await t.db.query('SELECT count(*)::int AS n FROM admin_audit')).rows[0].n as number;
    const before = { state: await stateFingerprint(t), audit: await audited() };
    for (const c of callers) {
      for (const route of adminRoutes) {
        const url = fillPath(route.url, { employeeCode: c.other.person.code, code: 'ENG' });
        const req = route.method === 'GET' ? { method: route.method, url } : { method: route.method, url, body: { active: false } };
        const res = await send(c.client.token, req);
        if (res.status !== 403 || typeof JSON.parse(res.text).error !== 'string')
          problems.push(`${c.role} ${route.method} ${route.url}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
    // Refused before any input was read: nothing changed, nothing audited.
    expect({ state: await stateFingerprint(t), audit: await audited() }).toEqual(before);
    // The administrator gets through the same hook.
    const admin = await t.login('olivia.brooks@adminease.test');
    expect((await admin.get('/api/admin/audit')).status).toBe(200);
  });

  it("finds another person's identifiers and names in a body", () => {
    const alex = callers.find((c) => c.role === 'employee')!;
    const s = alex.other.person;
    expect(foreignData(`{"x":"${s.code}"}`, people, alex.vis)).toEqual([s.code]);
    expect(foreignData(`{"x":"${s.first_name} ${s.last_name}"}`, people, alex.vis)).toEqual([`${s.first_name} ${s.last_name}`]);
    expect(foreignData(`{"x":"${alex.me.code}","m":"Priya Sharma"}`, people, alex.vis)).toEqual([]);
  });

  it('answers 401 {error} on every route without a session, with a made-up token, a revoked and an expired session', async () => {
    const c = callers[0];
    const revoked = await t.login(ROLE_ACCOUNTS.employee);
    expect((await revoked.post('/api/auth/logout')).status).toBe(200);
    const expiring = await t.login(ROLE_ACCOUNTS.manager);
    t.clock.advance(24 * 3600 * 1000 + 60_000);
    const problems: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const req = cellRequest(route, c.own);
      for (const [label, token] of [
        ['no session', undefined],
        ['made-up token', 'not-a-real-token'],
        ['revoked', revoked.token],
        ['expired', expiring.token],
      ] as const) {
        const res = await send(token, req);
        if (res.status !== 401 || !/^application\/json/.test(res.type) || typeof JSON.parse(res.text).error !== 'string') {
          problems.push(`${label} ${key}: ${res.status} ${res.text.slice(0, 120)}`);
        }
        if (key === 'GET /api/events' || key.includes('stream')) expect(res.text).not.toContain('data:');
      }
    }
    t.clock.advance(-(24 * 3600 * 1000 + 60_000));
    expect(problems).toEqual([]);
    // The session cookie is refused the same way once revoked.
    const viaCookie = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { adminease_session: revoked.token } });
    expect(viaCookie.statusCode).toBe(401);
  }, 120_000);
});

/** The dashboard details route of each role and the policy relation it shows. */
const ROLE_DETAILS: Partial<Record<RoleKey, { url: string; relation: string }>> = {
  manager: { url: '/api/manager/form-details', relation: 'manager' },
  hr: { url: '/api/hr/form-details', relation: 'hr' },
  finance: { url: '/api/finance/form-details', relation: 'finance' },
  it: { url: '/api/it-support/form-details', relation: 'it' },
  desk: { url: '/api/facilities-desk/form-details', relation: 'facilities_desk' },
  facmgr: { url: '/api/facilities-manager/form-details', relation: 'facilities_manager' },
};

// Over-broad reads: every read of a request answers by the one request policy. Each role reads every stored
// request through the REST details, the audit history and its own dashboard's details, and the request lists
// of every person it may ask for: it gets exactly the requests the policy lets it see; any other answers
// exactly like an id that does not exist (same status, same body); sensitive fields only where allowed.
describe('over-broad reads: every read route answers by the request policy', () => {
  type Row = RequestFacts & { id: number; request_id: string };
  const load = async () =>
    (
      await t.db.query(
        `SELECT r.id, r.request_id, r.employee_id AS employee_user_id, r.line_manager_id, r.hr_contact_id, r.form_type, r.current_stage,
            (SELECT json_agg(json_build_object('stage', a.stage, 'decision', a.decision) ORDER BY a.seq) FROM approvals a WHERE a.request_pk = r.id) AS approvals
       FROM requests r ORDER BY r.id`,
      )
    ).rows as Row[];
  const sensitiveKeys = (row: Row, body: Record<string, unknown>) =>
    Object.keys(body ?? {}).filter((k) => isSensitiveField(row.form_type, k));

  it("a line manager cannot read a report's bank details through an info update; lists give each approver their dashboard's types only", async () => {
    const alex = callers.find((x) => x.role === 'employee')!.client;
    const priya = callers.find((x) => x.role === 'manager')!.client; // Alex's line manager
    const meera = callers.find((x) => x.role === 'hr')!.client; // Alex's HR contact
    const iu = await alex.post('/api/forms/info-update', {
      update_type: 'Bank Details',
      old_information: 'IBAN DE89 3704 0044 0532 0130 00',
      new_information: 'IBAN GB29 NWBK 6016 1331 9268 19',
    });
    expect(iu.status).toBe(201);
    const missing = await priya.get('/api/forms/details/IU-999999');
    const byManager = await priya.get(`/api/forms/details/${iu.body.request_id}`);
    expect({ status: byManager.status, body: byManager.body }).toEqual({ status: missing.status, body: missing.body });
    expect(byManager.text).not.toContain('GB29');
    const byHr = await meera.get(`/api/forms/details/${iu.body.request_id}`);
    expect(byHr.status).toBe(200);
    expect(byHr.body.new_information).toContain('GB29');
    const code = alex.user.profile.employee_code;
    const managerList = (await priya.get(`/api/forms/user-forms?employee_id=${code}`, { 'cache-control': 'no-cache' })).body;
    expect(Object.keys(managerList)).not.toContain('info-update');
    expect(JSON.stringify(managerList)).not.toContain('GB29');
    const ownList = (await alex.get('/api/forms/user-forms', { 'cache-control': 'no-cache' })).body;
    expect(Object.keys(managerList).length).toBeLessThan(Object.keys(ownList).length);
    const hrList = (await meera.get(`/api/forms/user-forms?employee_id=${code}`, { 'cache-control': 'no-cache' })).body;
    expect(Object.keys(hrList).every((k) => formTypesWithStage('hr').includes(k))).toBe(true);
    expect(hrList['info-update'].map((r: any) => r.request_id)).toContain(iu.body.request_id);
  });

  for (const role of Object.keys(ROLE_ACCOUNTS) as RoleKey[]) {
    it(`${role}: details, history and dashboard details of every request; lists of every person`, async () => {
      const c = callers.find((x) => x.role === role)!;
      const viewer = (await t.db.query('SELECT id, role, user_type FROM users WHERE id = $1', [c.me.id])).rows[0] as Viewer;
      const rows = await load();
      const problems: string[] = [];
      const missing = {
        details: await c.client.get('/api/forms/details/ZZ-999999'),
        history: await c.client.get('/api/requests/ZZ-999999/history'),
        role: ROLE_DETAILS[role] ? await c.client.get(`${ROLE_DETAILS[role].url}?form_id=ZZ-999999&request_id=ZZ-999999`) : undefined,
        reveal: await c.client.post('/api/password-reset/reveal-password', { form_id: 'PWR-999999' }),
      };
      expect(missing.details.status).toBe(404);
      let seen = 0;
      for (const row of rows) {
        const may = canViewRequest(viewer, row);
        const onDashboard = ROLE_DETAILS[role] ? viewRelations(viewer, row).includes(ROLE_DETAILS[role].relation as never) : false;
        const reads: Array<[string, string, boolean, typeof missing.details | undefined]> = [
          ['details', `/api/forms/details/${row.request_id}`, may, missing.details],
          ['history', `/api/requests/${row.request_id}/history`, may, missing.history],
        ];
        if (row.form_type === 'password-reset' && !may) {
          // the new password of a reset: someone who may not see the reset gets the answer of a missing one
          const res = await c.client.post('/api/password-reset/reveal-password', { form_id: row.request_id });
          if (res.status !== missing.reveal.status || JSON.stringify(res.body) !== JSON.stringify(missing.reveal.body)) {
            problems.push(`reveal-password ${row.request_id} answered ${res.status} ${res.text.slice(0, 80)}, unlike a missing reset`);
          }
        }
        if (ROLE_DETAILS[role])
          reads.push([
            'dashboard details',
            `${ROLE_DETAILS[role].url}?form_id=${row.request_id}&request_id=${row.request_id}`,
            onDashboard,
            missing.role,
          ]);
        for (const [what, url, allowed, absent] of reads) {
          const res = await c.client.get(url);
          if (allowed) {
            if (res.status !== 200) problems.push(`${what} ${row.request_id} (${row.form_type}): ${res.status}, the policy allows it`);
            else if (what !== 'history' && !canSeeSensitive(viewer, row) && sensitiveKeys(row, res.body).length)
              problems.push(`${what} ${row.request_id}: sensitive ${sensitiveKeys(row, res.body)}`);
            if (what === 'details') seen += 1;
          } else if (res.status !== absent!.status || JSON.stringify(res.body) !== JSON.stringify(absent!.body)) {
            problems.push(
              `${what} ${row.request_id} (${row.form_type}) answered ${res.status} ${res.text.slice(0, 80)}, unlike a missing request`,
            );
          }
        }
      }
      // The lists of every person the caller may ask for hold exactly the requests the policy shows.
      const owners = [...new Set(rows.map((r) => r.employee_user_id))];
      for (const owner of owners) {
        const code = (await t.db.query('SELECT employee_code FROM users WHERE id = $1', [owner])).rows[0].employee_code;
        const res = await c.client.get(`/api/forms/user-forms?employee_id=${code}`, { 'cache-control': 'no-cache' });
        if (res.status === 403) continue; // not a person the caller may ask about at all
        const got = Object.values(
          res.body as Record<string, Array<{ request_id: string; form_type: string } & Record<string, unknown>>>,
        ).flat();
        const want = rows
          .filter((r) => r.employee_user_id === owner && canViewRequest(viewer, r))
          .map((r) => r.request_id)
          .sort();
        const gotIds = got.map((r) => r.request_id).sort();
        if (JSON.stringify(gotIds) !== JSON.stringify(want))
          problems.push(`user-forms of ${code}: ${gotIds.length} requests, the policy shows ${want.length}`);
        for (const rec of got) {
          const row = rows.find((r) => r.request_id === rec.request_id)!;
          if (!canSeeSensitive(viewer, row) && sensitiveKeys(row, rec).length)
            problems.push(`user-forms ${rec.request_id}: sensitive ${sensitiveKeys(row, rec)}`);
        }
      }
      expect(problems).toEqual([]);
      expect(seen, `${role}: requests it may see`).toBeGreaterThan(0);
    }, 120_000);
  }
});
