// Every call the original system's two clients make (the employees' client and the approvers' client), made exactly as those clients make
// it (path, method, payload), and the fields they read from each answer, by name and type. A client of the original
// system, unchanged, calls these: a renamed field, a list answered as an object or a missing route breaks it.
// The /ai/{family}/... routes are walked for all seven families (the spec's six and the administrator's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DONE, parseEventStream } from '../domain/event-stream.js';
import { queueCacheFor, waitForQueueSignal } from './approvals/queue-cache.js';
import { nextFreeWeekday } from './approvals/test-helpers.js';
import { insertRequest } from './requests/repo.js';
import { type ApiClient, type ApiResponse, type TestApp, startTestApp } from './test/harness.js';

let t: TestApp;
const c: Record<string, ApiClient> = {};
const EMAILS: Record<string, string> = {
  alex: 'alex.johnson',
  nina: 'nina.patel',
  priya: 'priya.sharma',
  daniel: 'daniel.okafor',
  meera: 'meera.iyer',
  arjun: 'arjun.mehta',
  lena: 'lena.fischer',
  sofia: 'sofia.rossi',
  kenji: 'kenji.watanabe',
};

beforeAll(async () => {
  t = await startTestApp();
  for (const [k, e] of Object.entries(EMAILS)) c[k] = await t.login(`${e}@adminease.test`);
});
afterAll(async () => {
  await t?.close();
});

const FAMILIES = ['manager', 'hr', 'finance', 'it', 'facilities', 'simple', 'admin'] as const;

/** Asserts `obj` has each key with a value of the given JavaScript type ('nullable:<type>' also allows null). */
function hasFields(obj: Record<string, unknown>, fields: Record<string, string>, where = '') {
  expect(obj, where).toBeTypeOf('object');
  for (const [k, type] of Object.entries(fields)) {
    expect(obj, `${where} ${k}`).toHaveProperty(k);
    const v = obj[k];
    if (type.startsWith('nullable:')) {
      if (v !== null) expect(Array.isArray(v) ? 'array' : typeof v, `${where} ${k}`).toBe(type.slice('nullable:'.length));
    } else expect(Array.isArray(v) ? 'array' : typeof v, `${where} ${k} = ${JSON.stringify(v)}`).toBe(type);
  }
}

const ok = async (p: Promise<ApiResponse>, status = 200) => {
  const res = await p;
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  return res;
};

/** The data events of an SSE answer, parsed; the last one must be [DONE]. */
function sse(text: string): Array<Record<string, any>> {
  const msgs = parseEventStream(text).map((m) => m.data);
  expect(msgs.at(-1)).toBe(DONE);
  return msgs.slice(0, -1).map((d) => JSON.parse(d));
}

describe('employee client: authentication and sessions', () => {
  it('POST /api/auth/login answers user and access_token with the fields the client reads', async () => {
    const res = await ok(t.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'Demo@12345' }));
    hasFields(res.body, { user: 'object', access_token: 'string' });
    hasFields(res.body.user, { id: 'number', role: 'string', user_type: 'string', email: 'string', profile: 'object' }, 'user');
    hasFields(res.body.user.profile, { first_name: 'string', last_name: 'string', employee_code: 'string' }, 'profile');
    expect(res.body.user.profile.employee_code).toBe('EMP-1001');
    const bad = await t.anonymous.post('/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'wrong' });
    expect(bad.status).toBe(401);
  });

  for (const family of FAMILIES) {
    it(`/ai/${family}/session/*: login, status, conversation-history, save-chat, chat-history, cleanup, stats`, async () => {
      const me = c.nina;
      const login = await ok(me.post(`/ai/${family}/session/login`, { user_id: me.user.id, user_role: me.user.role }));
      hasFields(login.body, { session_id: 'string', user_role: 'string' }, 'login');
      expect(String(login.body.user_id)).toBe(String(me.user.id));
      const sid = login.body.session_id as string;

      const status = await ok(me.post(`/ai/${family}/session/status`, { user_id: me.user.id }));
      expect(status.body.success).toBe(true);
      expect(status.body.session).toMatchObject({ sessionId: sid, userId: me.user.id, userRole: me.user.role, isManager: false });
      hasFields(status.body.session, { createdAt: 'string', lastActivity: 'string' }, 'session');

      const saved = await ok(
        me.post(
          `/ai/${family}/session/save-chat`,
          { user_id: me.user.id, message_type: 'user', content: `hello ${family}`, metadata: { from: 'test' } },
          { 'x-session-id': sid },
        ),
      );
      expect(saved.body.success).toBe(true);
      const chat = await ok(me.post(`/ai/${family}/session/chat-history`, { user_id: me.user.id, max_messages: 20 }));
      expect(Array.isArray(chat.body)).toBe(true);
      expect(chat.body.some((m: any) => m.content === `hello ${family}` && m.message_type === 'user')).toBe(true);
      // default max_messages 20
      expect(Array.isArray((await ok(me.post(`/ai/${family}/session/chat-history`, { user_id: me.user.id }))).body)).toBe(true);

      const history = await ok(
        me.post(`/ai/${family}/session/conversation-history`, { user_id: me.user.id, max_items: 10 }, { 'x-session-id': sid }),
      );
      expect(history.body.success).toBe(true);
      expect(Array.isArray(history.body.history)).toBe(true);
      expect(history.body.history.map((h: any) => h.content)).toContain(`hello ${family}`);

      const cleanup = await ok(me.post(`/ai/${family}/session/cleanup`, { hours: 24 }));
      expect(cleanup.body.success).toBe(true);
      expect((await ok(me.post(`/ai/${family}/session/cleanup`, {}))).body.hours).toBe(24);

      const stats = await ok(me.get(`/ai/${family}/session/stats`));
      expect(stats.body.success).toBe(true);
      expect(stats.body.total_sessions).toBeGreaterThanOrEqual(1);
    });
  }

  it('POST /ai/{family}/session/logout with user_id only, for every family: ok, the sign-in session ends', async () => {
    for (const family of FAMILIES) {
      const me = await t.login('maria.garcia@adminease.test');
      await ok(me.post(`/ai/${family}/session/login`, { user_id: me.user.id, user_role: me.user.role }));
      const res = await ok(me.post(`/ai/${family}/session/logout`, { user_id: me.user.id }));
      expect(res.body.success).toBe(true);
      expect((await me.get('/api/auth/me')).status, family).toBe(401);
    }
  });
});

describe('employee client: chat', () => {
  it('POST /ai/streaming-chat streams content, suggestions and complete, ending with [DONE]', async () => {
    const me = c.nina;
    const res = await ok(
      me.post(
        '/ai/streaming-chat',
        { message: 'hello', stream: true, sessionId: null, user_id: me.user.id, userInfo: { name: 'Nina' }, tts: false },
        { 'x-session-id': '' },
      ),
    );
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    const evs = sse(res.text);
    expect(evs.filter((e) => e.type === 'content' && typeof e.content === 'string').length).toBeGreaterThan(0);
    const sug = evs.find((e) => e.type === 'suggestions');
    expect(Array.isArray(sug?.suggestions)).toBe(true);
    expect(evs.find((e) => e.type === 'complete')).toHaveProperty('show_approval_action');
  });

  for (const family of FAMILIES) {
    it(`/ai/${family}: chat-stream (with the automatic greeting), chat, login-greeting and health`, async () => {
      const me = family === 'manager' ? c.priya : c.nina;
      const userInfo = { user_id: me.user.id, firstName: me.user.firstName, lastName: me.user.lastName, role: me.user.role };
      const stream = await ok(
        me.post(`/ai/${family}/chat-stream`, {
          user_id: me.user.id,
          message: 'hello',
          user_info: userInfo,
          auto_greeting: false,
          tts: false,
        }),
      );
      expect(stream.headers['content-type']).toMatch(/text\/event-stream/);
      const evs = sse(stream.text);
      expect(evs.some((e) => e.type === 'content')).toBe(true);
      expect(evs.some((e) => e.type === 'complete')).toBe(true);
      const greetingStream = await ok(
        me.post(`/ai/${family}/chat-stream`, { user_id: me.user.id, message: '', user_info: userInfo, auto_greeting: true, tts: false }),
      );
      expect(sse(greetingStream.text).some((e) => e.type === 'content')).toBe(true);

      const json = await ok(me.post(`/ai/${family}/chat`, { user_id: me.user.id, message: 'hello', user_info: userInfo }));
      hasFields(json.body, { response: 'string', suggestions: 'array' }, 'chat');

      const greeting = await ok(me.post(`/ai/${family}/login-greeting`, { user_id: me.user.id, user_info: userInfo }));
      hasFields(greeting.body, { greeting: 'string' }, 'login-greeting');
      expect(greeting.body.greeting).toMatch(me.user.firstName);

      const health = await ok(t.anonymous.get(`/ai/${family}/health`));
      expect(health.body.status).toBeTypeOf('string');
    });
  }

  it('the default assistant: /ai/simple-chat (JSON and stream), /ai/simple-login-greeting, /ai/status', async () => {
    const me = c.nina;
    hasFields((await ok(me.post('/ai/simple-chat', { user_id: me.user.id, message: 'hello' }))).body, { response: 'string' });
    const s = await ok(me.post('/ai/simple-chat', { user_id: me.user.id, message: 'hello', stream: true, tts: false }));
    expect(sse(s.text).some((e) => e.type === 'content')).toBe(true);
    hasFields((await ok(me.post('/ai/simple-login-greeting', { user_id: me.user.id, user_info: {} }))).body, { greeting: 'string' });
    expect((await ok(t.anonymous.get('/ai/status'))).body.status).toBeTypeOf('string');
  });

  // Speech never touches the database: once, on the embedded project (as vitest.config.ts keeps speech/ there).
  it.skipIf(process.env.AE_DB_TARGET === 'external')(
    'POST /api/tts/synthesize: success, audio_data, voice_used, error; blank text is "No text provided"',
    async () => {
      const me = c.nina;
      const res = await ok(
        me.post('/api/tts/synthesize', {
          text: 'Hello.',
          voice_name: 'en-US-Chirp3-HD-Charon',
          model_name: 'gemini-2.5-flash-tts',
          audio_format: 'MP3',
          language_code: 'en-US',
        }),
      );
      hasFields(res.body, { success: 'boolean', audio_data: 'string', voice_used: 'string' });
      expect(res.body.success).toBe(true);
      const blank = await me.post('/api/tts/synthesize', { text: '   ' });
      expect(blank.status).toBe(400);
      expect(blank.body).toMatchObject({ success: false, error: 'No text provided' });
    },
    60_000,
  );
});

describe('employee client: form state, notifications and forms', () => {
  it('form-state: save-snapshot, check-changes, notifications/{userId}, mark-read/{id}, health', async () => {
    const me = c.alex;
    await ok(me.post('/api/form-state/save-snapshot', { user_id: me.user.id }));
    // a change after the snapshot: Priya approves one of Alex's requests
    const day = nextFreeWeekday();
    const sub = await ok(
      me.post('/api/forms/leave-request', { leave_type: 'Annual', start_date: day, end_date: day, reason: 'Family visit' }),
      201,
    );
    await ok(
      c.priya.post('/api/manager/update-status', {
        form_id: sub.body.request_id,
        form_type: 'leave-request',
        status: 'Approved',
        manager_id: c.priya.user.id,
        manager_name: 'Priya Sharma',
        comments: '',
        rejection_reason: '',
      }),
    );
    const changes = await ok(me.post('/api/form-state/check-changes', { user_id: me.user.id }));
    expect(Array.isArray(changes.body.notifications)).toBe(true);
    const n = changes.body.notifications.find((x: any) => x.form_id === sub.body.request_id);
    expect(n, JSON.stringify(changes.body.notifications.slice(0, 3))).toBeDefined();
    hasFields(
      n,
      {
        id: 'number',
        title: 'string',
        form_type: 'string',
        form_id: 'string',
        approval_field: 'string',
        old_value: 'string',
        new_value: 'string',
        change_type: 'string',
        timestamp: 'string',
      },
      'notification',
    );
    expect(n).toMatchObject({ form_type: 'leave-request', approval_field: 'line_manager_approval', new_value: 'Approved' });
    expect(['approved', 'rejected', 'pending', 'completed', 'in_progress', 'other']).toContain(n.change_type);

    const list = await ok(me.get(`/api/form-state/notifications/${me.user.id}`));
    expect(list.body.notifications.map((x: any) => x.id)).toContain(n.id);
    await ok(me.post(`/api/form-state/mark-read/${n.id}`, {}));
    expect((await ok(me.get(`/api/form-state/notifications/${me.user.id}`))).body.notifications.map((x: any) => x.id)).not.toContain(n.id);
    await ok(t.anonymous.get('/api/form-state/health'));
  });

  it('forms: user-forms keyed by type, employee-profile, leave-requests, leave balance, submit and edit', async () => {
    const me = c.nina;
    const code = me.user.profile.employee_code;
    const forms = await ok(me.get(`/api/forms/user-forms?employee_id=${code}`));
    expect(Array.isArray(forms.body)).toBe(false);
    for (const [type, list] of Object.entries(forms.body)) {
      expect(Array.isArray(list), type).toBe(true);
      for (const r of list as any[]) {
        hasFields(r, { request_id: 'string', id: 'number', created_at: 'string', status: 'string', employee_name: 'string' }, type);
        expect(r.form_type).toBe(type);
        expect(r.employee_id).toBe(code);
      }
    }

    const profile = await ok(me.get(`/api/forms/employee-profile/${code}`));
    hasFields(profile.body, { email: 'string', department_name: 'string', manager_name: 'string', hr_contact_name: 'nullable:string' });
    expect(profile.body).toHaveProperty('join_date');

    expect(Array.isArray((await ok(me.get(`/api/forms/leave-requests?employee_id=${code}`))).body)).toBe(true);
    const balance = await ok(me.get(`/api/forms/employee-leave-balance/${me.user.id}`));
    hasFields(balance.body, { annual_leave_total: 'number', annual_leave_used: 'number', unpaid_leave_used: 'number' });

    // POST /api/forms/{formType} and PUT /api/forms/{formType}/{id}: success is the HTTP ok flag
    const amount = { amount_requested: 42.5, expected_settlement_date: nextFreeWeekday(), purpose: 'Courier' };
    const created = await me.post('/api/forms/petty-cash', amount);
    expect(created.status).toBeGreaterThanOrEqual(200);
    expect(created.status).toBeLessThan(300);
    const edited = await me.put(`/api/forms/petty-cash/${created.body.request_id}`, { ...amount, purpose: 'Courier and stamps' });
    expect(edited.status).toBe(200);

    // facility access with the catalogue form's payload
    const fa = await me.post('/api/forms/facility-access', {
      access_request_type: 'Temporary Access',
      facilities_requested: 'Server room',
      justification: 'Rack install',
      employee_id: code,
      employee_name: 'Nina Patel',
      department: 'Marketing',
      manager: 'N/A',
    });
    expect(fa.status).toBeLessThan(300);

    // purchase requisition: submit with the form's payload, then its own list
    const pr = await me.post('/api/purchase-requisition/submit', {
      employee_id: code,
      employee_name: 'Nina Patel',
      department: 'Marketing',
      manager: 'Manager',
      item_description: 'Label printer',
      quantity: 2,
      unit_cost: 80.25,
      estimated_total: 160.5,
      purpose_of_purchase: 'Event badges',
    });
    expect(pr.status, pr.text).toBeLessThan(300);
    const prs = await ok(me.get(`/api/purchase-requisition/user-forms?employee_id=${code}`));
    expect(Array.isArray(prs.body)).toBe(true);
    expect(prs.body.map((r: any) => r.request_id)).toContain(pr.body.request_id);
    const bad = await me.post('/api/purchase-requisition/submit', { employee_id: code, item_description: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTypeOf('string');
  });
});

describe('approver client', () => {
  /** A request of Alex's (Priya's report) waiting for the line manager. */
  const submit = async (formType: string, input: Record<string, unknown>) =>
    (await ok(c.alex.post(`/api/forms/${formType}`, input), 201)).body.request_id as string;

  it('line manager: queue (a list), form-details, update-status, acknowledgements, leave balance', async () => {
    const day = nextFreeWeekday();
    const id = await submit('leave-request', { leave_type: 'Annual', start_date: day, end_date: day, reason: 'Errands' });
    const queue = await ok(c.priya.get(`/api/manager/queue?manager_id=${c.priya.user.id}`));
    expect(Array.isArray(queue.body)).toBe(true);
    for (const r of queue.body) {
      hasFields(
        r,
        {
          request_id: 'string',
          form_type: 'string',
          employee_name: 'string',
          department: 'string',
          created_at: 'string',
          status: 'string',
        },
        r.request_id,
      );
      for (const k of ['line_manager_approval', 'line_manager_signature', 'line_manager_date', 'line_manager_acknowledgement'])
        expect(r, `${r.request_id} ${k}`).toHaveProperty(k);
    }
    expect(queue.body.find((r: any) => r.request_id === id)).toMatchObject({ line_manager_approval: 'Pending' });

    const details = await ok(c.priya.get(`/api/manager/form-details?form_id=${id}&form_type=leave-request`));
    expect(details.body).toMatchObject({ request_id: id, leave_type: 'Annual', start_date: day, end_date: day, total_days: 1 });

    await ok(
      c.priya.post('/api/manager/update-status', {
        form_id: id,
        form_type: 'leave-request',
        status: 'Rejected',
        manager_id: c.priya.user.id,
        manager_name: 'Priya Sharma',
        comments: '',
        rejection_reason: 'Team offsite that day',
      }),
    );
    expect((await ok(c.priya.get(`/api/manager/form-details?form_id=${id}&form_type=leave-request`))).body.line_manager_approval).toBe(
      'Rejected',
    );

    const inc = await submit('it-incident', { affected_system: 'Email', incident_description: 'Outlook crashes on start' });
    await ok(c.priya.post('/api/manager/acknowledge-it-incident', { form_id: inc, manager_id: c.priya.user.id }));
    const pwd = await submit('password-reset', { system_for_reset: 'ERP', reset_reason: 'Locked Account' });
    await ok(c.priya.post('/api/manager/acknowledge-password-reset', { form_id: pwd, manager_id: c.priya.user.id }));
    const acked = (await ok(c.priya.get(`/api/manager/queue?manager_id=${c.priya.user.id}`))).body as any[];
    for (const x of [inc, pwd]) expect(acked.find((r) => r.request_id === x)?.line_manager_acknowledgement).toBe(true);

    const bal = await ok(c.priya.get(`/api/manager/employee-leave-balance/${c.alex.user.id}`));
    hasFields(bal.body, { annual_leave_used: 'number', unpaid_leave_used: 'number' });
  });

  it('HR: queue with hr_approval, form-details, leave balance, update-status (empty rejection_reason when none)', async () => {
    const day = nextFreeWeekday();
    const id = await submit('leave-request', { leave_type: 'Annual', start_date: day, end_date: day, reason: 'Appointment' });
    await ok(c.priya.post('/api/manager/update-status', { form_id: id, form_type: 'leave-request', status: 'Approved' }));
    const queue = await ok(c.meera.get(`/api/hr/queue?hr_id=${c.meera.user.id}`));
    expect(Array.isArray(queue.body)).toBe(true);
    const row = queue.body.find((r: any) => r.request_id === id);
    expect(row).toMatchObject({ hr_approval: 'Pending', form_type: 'leave-request' });
    hasFields(row, { employee_name: 'string', department: 'string', created_at: 'string' });
    await ok(c.meera.get(`/api/hr/form-details?form_id=${id}&form_type=leave-request`));
    const bal = await ok(c.meera.get(`/api/hr/employee-leave-balance/${c.alex.user.id}`));
    hasFields(bal.body, { annual_leave_total: 'number', annual_leave_used: 'number', unpaid_leave_used: 'number' });
    await ok(
      c.meera.post('/api/hr/update-status', {
        form_id: id,
        form_type: 'leave-request',
        status: 'Approved',
        hr_id: c.meera.user.id,
        hr_name: 'Meera Iyer',
        rejection_reason: '',
      }),
    );
    expect((await ok(c.meera.get(`/api/hr/form-details?form_id=${id}&form_type=leave-request`))).body.hr_approval).toBe('Approved');
  });

  it('IT: queue, form-details, save-ticket-details and save-password-reset-details (error field on failure)', async () => {
    const inc = await submit('it-incident', { affected_system: 'VPN', incident_description: 'Cannot connect from home' });
    const queue = await ok(c.lena.get('/api/it-support/queue'));
    expect(Array.isArray(queue.body)).toBe(true);
    const row = queue.body.find((r: any) => r.request_id === inc);
    hasFields(row, { employee_name: 'string', department: 'string', affected_system: 'string', incident_date: 'string', status: 'string' });
    expect(row).toHaveProperty('employee_system_number');
    await ok(c.lena.get(`/api/it-support/form-details?form_id=${inc}&form_type=it-incident`));
    const missing = await c.lena.post('/api/it-support/save-ticket-details', {
      form_id: inc,
      it_helpdesk_ticket_number: '  ',
      it_resolution_notes: null,
      it_helpdesk_assigned_to: 'Lena Fischer',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('IT Ticket Number is required');
    await ok(
      c.lena.post('/api/it-support/save-ticket-details', {
        form_id: inc,
        it_helpdesk_ticket_number: 'TICKET-2026-501',
        it_resolution_notes: null,
        it_helpdesk_assigned_to: 'Lena Fischer',
      }),
    );

    const pwd = await submit('password-reset', { system_for_reset: 'CRM', reset_reason: 'Forgotten Password' });
    const early = await c.lena.post('/api/it-support/save-password-reset-details', {
      form_id: pwd,
      it_helpdesk_reset_by: 'Lena Fischer',
      new_password: 'Crm#Temp-2026',
    });
    expect(early.status).toBe(409); // waits for the line manager's acknowledgement
    expect(early.body.error).toBeTypeOf('string');
    await ok(c.priya.post('/api/manager/acknowledge-password-reset', { form_id: pwd, manager_id: c.priya.user.id }));
    expect((await ok(c.lena.get('/api/it-support/queue'))).body.find((r: any) => r.request_id === pwd)).toMatchObject({
      it_support_status: 'Pending IT Action',
      affected_system: 'CRM',
    });
    await ok(
      c.lena.post('/api/it-support/save-password-reset-details', {
        form_id: pwd,
        it_helpdesk_reset_by: 'Lena Fischer',
        new_password: 'Crm#Temp-2026',
      }),
    );
    const after = (await ok(c.lena.get('/api/it-support/queue'))).body.find((r: any) => r.request_id === pwd);
    expect(after).toMatchObject({ it_support_status: 'Password Set', it_helpdesk_reset_by: 'Lena Fischer' });
    expect(after).not.toHaveProperty('new_password');
  });

  it('facilities desk (an array) and manager (success, forms, summary): queue, form-details, update-status', async () => {
    const id = (
      await ok(
        c.alex.post('/api/forms/meeting-room', {
          room_requested: 'Board Room',
          booking_date: nextFreeWeekday(),
          start_time: '14:00',
          end_time: '15:00',
          participants_count: 6,
        }),
        201,
      )
    ).body.request_id as string;
    const desk = await ok(c.sofia.get('/api/facilities-desk/queue'));
    expect(Array.isArray(desk.body)).toBe(true);
    expect(desk.body.find((r: any) => r.request_id === id)).toMatchObject({
      form_type: 'meeting-room',
      facilities_desk_approval: 'Pending',
    });
    await ok(c.sofia.get(`/api/facilities-desk/form-details?form_id=${id}&form_type=meeting-room`));
    await ok(
      c.sofia.post('/api/facilities-desk/update-status', {
        form_id: id,
        form_type: 'meeting-room',
        status: 'Approved',
        facilities_id: c.sofia.user.id,
        facilities_name: 'Sofia Rossi',
        comments: '',
        rejection_reason: '',
      }),
    );
    const fm = await ok(c.kenji.get('/api/facilities-manager/queue'));
    hasFields(fm.body, { success: 'boolean', forms: 'array', summary: 'object' });
    hasFields(fm.body.summary, { total_pending: 'number', total_approved: 'number', total_rejected: 'number', forms_by_type: 'object' });
    expect(fm.body.forms.find((r: any) => r.request_id === id)).toMatchObject({
      facilities_desk_approval: 'Approved',
      facilities_manager_approval: 'Pending',
    });
    const details = await ok(c.kenji.get(`/api/facilities-manager/form-details?request_id=${id}&form_type=meeting-room`));
    expect(details.body.request_id).toBe(id);
    await ok(
      c.kenji.post('/api/facilities-manager/update-status', {
        form_id: id,
        form_type: 'meeting-room',
        status: 'Approved',
        manager_id: c.kenji.user.id,
        manager_name: 'Kenji Watanabe',
        comments: '',
        rejection_reason: '',
      }),
    );
    expect((await ok(c.kenji.get(`/api/facilities-manager/form-details?request_id=${id}`))).body.facilities_manager_approval).toBe(
      'Approved',
    );
  });

  it('finance: queue (success, forms, summary), form-details, update-status with approval', async () => {
    const id = await submit('petty-cash', { amount_requested: 61.2, expected_settlement_date: nextFreeWeekday(), purpose: 'Taxi' });
    await ok(c.priya.post('/api/manager/update-status', { form_id: id, form_type: 'petty-cash', status: 'Approved' }));
    const q = await ok(c.arjun.get('/api/finance/queue'));
    hasFields(q.body, { success: 'boolean', forms: 'array', summary: 'object' });
    hasFields(q.body.summary, { total_pending: 'number', total_approved: 'number', total_rejected: 'number' });
    for (const r of q.body.forms)
      hasFields(
        r,
        {
          request_id: 'string',
          form_type: 'string',
          employee_name: 'string',
          department: 'string',
          amount_requested: 'number',
          purpose: 'string',
          line_manager_approval: 'string',
          finance_approval: 'string',
          finance_signature: 'nullable:string',
          created_at: 'string',
        },
        r.request_id,
      );
    expect(q.body.forms.find((r: any) => r.request_id === id)).toMatchObject({
      amount_requested: 61.2,
      purpose: 'Taxi',
      line_manager_approval: 'Approved',
      finance_approval: 'Pending',
    });
    const details = await ok(c.arjun.get(`/api/finance/form-details?form_id=${id}&form_type=petty-cash`));
    expect(details.body).toMatchObject({ request_id: id, amount_requested: 61.2, purpose: 'Taxi' });
    await ok(
      c.arjun.post('/api/finance/update-status', {
        form_id: id,
        approval: 'Rejected',
        finance_id: String(c.arjun.user.id),
        comments: '',
        session_id: '',
        finance_name: 'Arjun Mehta',
        rejection_reason: 'Use the corporate card',
      }),
    );
    const after = (await ok(c.arjun.get('/api/finance/queue'))).body.forms.find((r: any) => r.request_id === id);
    expect(after).toMatchObject({ finance_approval: 'Rejected', finance_signature: 'Arjun Mehta' });
  });
});

describe('finance rows of requests stored without a total or a purpose', () => {
  it('answer amount_requested 0 and purpose empty (a number and a text), never null', async () => {
    const u = (await t.db.query(`SELECT id, manager_id FROM users WHERE email = 'alex.johnson@adminease.test'`)).rows[0];
    const gen = queueCacheFor(t.db)?.generation() ?? 0;
    const s = await insertRequest(t.db, {
      formType: 'petty-cash',
      employeeId: u.id,
      lineManagerId: u.manager_id,
      hrContactId: null,
      data: { expected_settlement_date: nextFreeWeekday(), amount_requested: 'n/a' },
    });
    expect(await waitForQueueSignal(t.db, gen)).toBe(true);
    const row = ((await ok(c.arjun.get('/api/finance/queue'))).body.forms as any[]).find((r) => r.request_id === s.request_id);
    expect(row).toMatchObject({ amount_requested: 0, purpose: '' });
    const d = await ok(c.arjun.get(`/api/finance/form-details?form_id=${s.request_id}&form_type=petty-cash`));
    expect(d.body).toMatchObject({ amount_requested: 0, purpose: '' });
  });
});

describe('an IT incident resolved at the first save, through the original clients only', () => {
  it("Fill Details with notes resolves it; the employee's confirmation (numeric id) closes it", async () => {
    const id = (
      await ok(c.nina.post('/api/forms/it-incident', { affected_system: 'Printer', incident_description: 'Prints blank pages' }), 201)
    ).body.request_id as string;
    await ok(c.daniel.post('/api/manager/acknowledge-it-incident', { form_id: id, manager_id: c.daniel.user.id }));
    const saved = await ok(
      c.lena.post('/api/it-support/save-ticket-details', {
        form_id: id,
        it_helpdesk_ticket_number: ' TICKET-2026-777 ',
        it_resolution_notes: '  Replaced the toner  ',
        it_helpdesk_assigned_to: 'Lena Fischer',
      }),
    );
    expect(saved.body).toMatchObject({ success: true, status: 'Resolved' });
    const own = (await ok(c.nina.get(`/api/forms/user-forms?employee_id=${c.nina.user.profile.employee_code}`))).body['it-incident'].find(
      (r: any) => r.request_id === id,
    );
    expect(own).toMatchObject({
      status: 'Resolved',
      it_helpdesk_ticket_number: 'TICKET-2026-777',
      it_resolution_notes: 'Replaced the toner',
      it_helpdesk_assigned_to: 'Lena Fischer',
      employee_confirmation_status: 'Pending',
    });
    const confirmed = await ok(
      c.nina.post('/api/user-confirmation/confirm-problem-solved', {
        form_id: id,
        employee_id: c.nina.user.id,
        confirmation_notes: 'Employee confirmed: Problem is solved',
      }),
    );
    expect(confirmed.body).toMatchObject({ success: true, status: 'Closed', employee_confirmation_status: 'Confirmed' });
    const row = (await ok(c.lena.get('/api/it-support/queue'))).body.find((r: any) => r.request_id === id);
    expect(row).toMatchObject({ status: 'Closed', next_stage: 'Completed' });
    // nothing is left to do: IT cannot save it again, the employee cannot answer again (the error field is read)
    const again = await c.lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'TICKET-2026-777' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBeTypeOf('string');
    const twice = await c.nina.post('/api/user-confirmation/reject-resolution', {
      form_id: id,
      employee_id: c.nina.user.profile.employee_code,
      rejection_reason: 'Employee reported: Problem not solved',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBeTypeOf('string');
  });
});
