// The IT support desk through the HTTP API on a seeded database: the queue, every incident and password-reset
// transition, every refusal (wrong role, wrong employee, wrong state, blank input), the event log, and that no
// table ever holds a new password in plain text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTypesOfKind } from '../../domain/forms.js';
import { queueCacheFor, waitForQueueSignal } from '../approvals/queue-cache.js';
import { colleagueOf } from '../approvals/test-helpers.js';
import { submitForm } from '../forms/service.js';
import { type AuthUser, loadUser } from '../people/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { acknowledgeItIncident, acknowledgePasswordReset } from './service.js';

let t: TestApp;
let lena: ApiClient, omar: ApiClient, alex: ApiClient, maria: ApiClient, nina: ApiClient, priya: ApiClient, daniel: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  [lena, omar, alex, maria, nina, priya, daniel] = await Promise.all(
    ['lena.fischer', 'omar.haddad', 'alex.johnson', 'maria.garcia', 'nina.patel', 'priya.sharma', 'daniel.okafor'].map((n) =>
      t.login(`${n}@adminease.test`),
    ),
  );
});
afterAll(async () => {
  await t?.close();
});

const userOf = async (c: ApiClient): Promise<AuthUser> => (await loadUser(t.db, c.user.id))!;

/** A third member of IT support (the demo has two). */
const thirdItStaff = () => colleagueOf(t.db, 'lena.fischer@adminease.test', 'ivan.petrov@adminease.test', 'IT-903', 'Ivan', 'Petrov');
const row = async (requestId: string) =>
  (await t.db.query('SELECT status, current_stage, data FROM requests WHERE request_id = $1', [requestId])).rows[0];
const events = async (requestId: string) =>
  (
    await t.db.query(
      `SELECT e.event_type, e.field, e.old_value, e.new_value, e.actor_id, e.details FROM request_events e JOIN requests r ON r.id = e.request_pk
      WHERE r.request_id = $1 ORDER BY e.id`,
      [requestId],
    )
  ).rows;
const eventCount = async (requestId: string) => (await events(requestId)).length;

/**
 * Runs a change made straight in the database (not through an IT route, which clears the queue cache itself) and
 * waits until the app's queue cache has heard of it, so the next queue call is not answered from before it.
 */
async function changed<T>(change: () => Promise<T>): Promise<T> {
  const gen = queueCacheFor(t.db)?.generation() ?? 0;
  const out = await change();
  expect(await waitForQueueSignal(t.db, gen)).toBe(true);
  return out;
}

async function newIncident(who: ApiClient, fields: Record<string, unknown> = {}): Promise<string> {
  const user = await userOf(who);
  const rec = await changed(() =>
    submitForm(t.db, user, 'it-incident', {
      affected_system: 'VPN',
      incident_description: 'VPN disconnects every few minutes',
      employee_system_number: 'LT-2231',
      ...fields,
    }),
  );
  return rec.request_id;
}

async function newReset(who: ApiClient, system = 'ERP'): Promise<string> {
  const user = await userOf(who);
  const rec = await changed(() =>
    submitForm(t.db, user, 'password-reset', { system_for_reset: system, reset_reason: 'Forgotten Password' }),
  );
  return rec.request_id;
}

/** Every text, varchar and json column of every table in the database, searched for `needle`. */
async function tablesContaining(needle: string): Promise<string[]> {
  const cols = await t.db.query(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'character', 'bytea', 'ARRAY')`,
  );
  const hits: string[] = [];
  for (const c of cols.rows) {
    const r = await t.db.query(`SELECT count(*)::int AS n FROM "${c.table_name}" WHERE "${c.column_name}"::text LIKE '%' || $1 || '%'`, [
      needle,
    ]);
    if (r.rows[0].n > 0) hits.push(`${c.table_name}.${c.column_name}`);
  }
  return hits;
}

describe('GET /api/it-support/queue', () => {
  it('lists incidents and password resets with the fields the IT dashboard reads, only for IT staff', async () => {
    const res = await lena.get('/api/it-support/queue');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const db = await t.db.query(`SELECT request_id FROM requests WHERE form_type IN ('it-incident', 'password-reset')`);
    expect(res.body.map((x: any) => x.request_id).sort()).toEqual(db.rows.map((x) => x.request_id).sort());
    for (const x of res.body) {
      expect(formTypesOfKind('it-ticket')).toContain(x.form_type);
      for (const k of ['request_id', 'form_id', 'form_type', 'employee_name', 'department', 'status', 'it_queue_status', 'created_at'])
        expect(x, k).toHaveProperty(k);
      if (x.form_type === 'it-incident')
        for (const k of ['affected_system', 'incident_date', 'employee_confirmation_status']) expect(x, k).toHaveProperty(k);
      else expect(x).toHaveProperty('it_support_status');
    }
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/new_password_enc|"new_password"/);
    expect(text).not.toContain('Mail#Reset-2716');
    const resets = res.body.filter((x: any) => x.form_type === 'password-reset');
    expect(new Set(resets.map((x: any) => x.it_support_status))).toEqual(
      new Set(['Pending Manager', 'Pending IT Action', 'Password Set', 'Completed', 'Rejected']),
    );
    const created = res.body.map((x: any) => Date.parse(x.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('refuses employees, managers and other approvers (403) and anonymous callers (401)', async () => {
    for (const c of [alex, priya, await t.login('meera.iyer@adminease.test'), await t.login('arjun.mehta@adminease.test')]) {
      expect((await c.get('/api/it-support/queue')).status).toBe(403);
    }
    expect((await t.anonymous.get('/api/it-support/queue')).status).toBe(401);
    expect((await omar.get('/api/it-support/queue')).status).toBe(200);
  });
});

describe('GET /api/it-support/form-details', () => {
  it('answers the ticket record for IT staff, 404 for other form types or a mismatched type', async () => {
    const id = await newIncident(alex);
    const res = await lena.get(`/api/it-support/form-details?form_id=${id}&form_type=it-incident`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      request_id: id,
      form_id: id,
      form_type: 'it-incident',
      status: 'Open',
      employee_name: 'Alex Johnson',
      affected_system: 'VPN',
      next_stage: 'Awaiting IT Support',
    });
    expect((await lena.get(`/api/it-support/form-details?form_id=${id}&form_type=password-reset`)).status).toBe(404);
    const leave = (await t.db.query(`SELECT request_id FROM requests WHERE form_type = 'leave-request' LIMIT 1`)).rows[0].request_id;
    expect((await lena.get(`/api/it-support/form-details?form_id=${leave}`)).status).toBe(404);
    expect((await lena.get('/api/it-support/form-details')).status).toBe(400);
    expect((await alex.get(`/api/it-support/form-details?form_id=${id}`)).status).toBe(403);
  });
});

describe('IT incident lifecycle', () => {
  it('Open -> (ticket number) Open, assigned -> Resolved -> rejected (Open, Update Resolution) -> Resolved -> confirmed: Closed', async () => {
    const id = await newIncident(alex);
    expect((await row(id)).status).toBe('Open');
    expect((await row(id)).data.employee_confirmation_status).toBe('Pending');

    // IT fills the ticket number only: still Open, trimmed number, the officer assigned by default.
    let res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: '  TICKET-2026-500  ',
      it_resolution_notes: '   ',
    });
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({
      status: 'Open',
      it_helpdesk_ticket_number: 'TICKET-2026-500',
      it_helpdesk_assigned_to: 'Lena Fischer',
      next_stage: 'IT Processing',
    });
    expect((await row(id)).data.it_resolution_notes ?? null).toBeNull();
    expect((await alex.get('/api/user-confirmation/pending-confirmations')).body.tickets.map((x: any) => x.request_id)).not.toContain(id);
    // the employee cannot confirm an unresolved ticket
    expect((await alex.post('/api/user-confirmation/confirm-problem-solved', { form_id: id, employee_id: 'EMP-1001' })).status).toBe(409);

    // IT adds resolution notes: Resolved, waiting for the employee.
    res = await omar.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-2026-500',
      it_resolution_notes: '  Updated the VPN client  ',
      it_helpdesk_assigned_to: 'Omar Haddad',
    });
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({
      status: 'Resolved',
      employee_confirmation_status: 'Pending',
      it_resolution_notes: 'Updated the VPN client',
      it_helpdesk_assigned_to: 'Omar Haddad',
    });
    expect(res.body.ticket.it_resolution_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const pending = await alex.get('/api/user-confirmation/pending-confirmations?employee_id=EMP-1001');
    expect(pending.status).toBe(200);
    expect(pending.body.tickets.find((x: any) => x.request_id === id)).toMatchObject({
      it_helpdesk_ticket_number: 'TICKET-2026-500',
      it_resolution_notes: 'Updated the VPN client',
    });
    // IT cannot close before the employee confirmed, nor edit a resolved ticket
    expect((await lena.post('/api/it-support/close-ticket', { form_id: id })).status).toBe(409);
    expect((await lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'X' })).status).toBe(409);

    // The employee reports it unresolved: back to Open with confirmation Rejected.
    res = await alex.post('/api/user-confirmation/reject-resolution', {
      form_id: id,
      employee_id: 'EMP-1001',
      rejection_reason: 'Employee reported: Problem not solved',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      status: 'Open',
      employee_confirmation_status: 'Rejected',
      it_helpdesk_ticket_number: 'TICKET-2026-500',
    });
    expect(await row(id)).toMatchObject({ status: 'Open', current_stage: 'it_helpdesk' });
    expect((await row(id)).data.employee_rejection_reason).toBe('Employee reported: Problem not solved');
    const queued = (await lena.get('/api/it-support/queue')).body.find((x: any) => x.request_id === id);
    expect(queued).toMatchObject({ status: 'Open', employee_confirmation_status: 'Rejected', it_queue_status: 'Open' });
    expect((await alex.post('/api/user-confirmation/reject-resolution', { form_id: id })).status).toBe(409);
    expect((await alex.post('/api/user-confirmation/confirm-problem-solved', { form_id: id })).status).toBe(409);

    // IT updates the resolution: Resolved again, the employee asked afresh.
    res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-2026-500',
      it_resolution_notes: 'Reinstalled the VPN profile',
      it_helpdesk_assigned_to: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({
      status: 'Resolved',
      employee_confirmation_status: 'Pending',
      it_resolution_notes: 'Reinstalled the VPN profile',
      it_helpdesk_assigned_to: 'Omar Haddad',
    });

    // The employee confirms: Closed, the helpdesk step Completed and signed by the officer who resolved it, no stage left.
    expect((await alex.post('/api/it-support/close-ticket', { form_id: id })).status).toBe(403);
    res = await alex.post('/api/user-confirmation/confirm-problem-solved', {
      form_id: id,
      employee_id: 'EMP-1001',
      confirmation_notes: 'Employee confirmed: Problem is solved',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'Closed', employee_confirmation_status: 'Confirmed' });
    expect(res.body.ticket).toMatchObject({
      status: 'Closed',
      next_stage: 'Completed',
      it_helpdesk_approval: 'Completed',
      it_helpdesk_signature: 'Lena Fischer',
      it_queue_status: 'Closed',
    });
    expect(await row(id)).toMatchObject({ status: 'Closed', current_stage: null });
    expect((await row(id)).data.employee_confirmation_notes).toBe('Employee confirmed: Problem is solved');
    expect((await alex.post('/api/user-confirmation/confirm-problem-solved', { form_id: id })).status).toBe(409);
    expect((await alex.post('/api/user-confirmation/reject-resolution', { form_id: id })).status).toBe(409);
    expect(
      (await lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'X', it_resolution_notes: 'y' }))
        .status,
    ).toBe(409);
    expect((await lena.post('/api/it-support/close-ticket', { form_id: id })).status).toBe(409);

    // Every step is in the event log, by the person who did it.
    const ev = await events(id);
    const steps = ev.map((e) => `${e.event_type}:${e.field}:${e.old_value}->${e.new_value}`);
    expect(steps).toEqual([
      'submitted:status:null->Open',
      'ticket_updated:it_helpdesk_ticket_number:null->TICKET-2026-500',
      'ticket_updated:it_helpdesk_assigned_to:null->Lena Fischer',
      'ticket_updated:status:Open->Resolved',
      'ticket_updated:it_helpdesk_assigned_to:Lena Fischer->Omar Haddad',
      'employee_confirmation:employee_confirmation_status:Pending->Rejected',
      'status_change:status:Resolved->Open',
      'ticket_updated:status:Open->Resolved',
      'employee_confirmation:employee_confirmation_status:Pending->Confirmed',
      'status_change:status:Resolved->Closed',
      'decision:it_helpdesk_approval:Pending->Completed',
    ]);
    expect(ev.filter((e) => e.event_type === 'employee_confirmation').every((e) => e.actor_id === alex.user.id)).toBe(true);
    expect(ev.at(-1)!.actor_id).toBe(alex.user.id);
    // The employee was told about IT's changes (notifications are derived from these events).
    const notes = await t.db.query(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND form_id = $2`, [alex.user.id, id]);
    expect(notes.rows[0].n).toBeGreaterThan(0);
  });

  it('goes straight from Open to Resolved when the first save has notes', async () => {
    const id = await newIncident(maria);
    const res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'T-1',
      it_resolution_notes: 'Restarted the gateway',
    });
    expect(res.body.ticket).toMatchObject({ status: 'Resolved', employee_confirmation_status: 'Pending' });
  });

  it('refuses blank or missing ticket numbers (400) and changes nothing', async () => {
    const id = await newIncident(alex);
    const before = await eventCount(id);
    for (const body of [
      { form_id: id, it_helpdesk_ticket_number: '   ', it_resolution_notes: 'x' },
      { form_id: id },
      { form_id: id, it_helpdesk_ticket_number: null },
    ]) {
      const res = await lena.post('/api/it-support/save-ticket-details', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'IT Ticket Number is required' });
    }
    expect((await lena.post('/api/it-support/save-ticket-details', { it_helpdesk_ticket_number: 'T-1' })).status).toBe(400);
    expect(
      (
        await lena.post('/api/it-support/save-ticket-details', {
          form_id: id,
          it_helpdesk_ticket_number: 'T-1',
          it_resolution_notes: 'x'.repeat(4001),
        })
      ).status,
    ).toBe(400);
    expect(await row(id)).toMatchObject({ status: 'Open' });
    expect((await row(id)).data.it_helpdesk_ticket_number).toBeUndefined();
    expect(await eventCount(id)).toBe(before);
  });

  it('refuses non-IT callers (403), unknown or non-incident tickets (404), finished tickets (409)', async () => {
    const id = await newIncident(alex);
    for (const c of [alex, priya, maria]) {
      expect((await c.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'T-1' })).status).toBe(403);
    }
    expect(
      (await lena.post('/api/it-support/save-ticket-details', { form_id: 'INC-999999', it_helpdesk_ticket_number: 'T-1' })).status,
    ).toBe(404);
    const reset = await newReset(nina);
    expect((await lena.post('/api/it-support/save-ticket-details', { form_id: reset, it_helpdesk_ticket_number: 'T-1' })).status).toBe(404);
    expect((await lena.post('/api/it-support/close-ticket', { form_id: reset })).status).toBe(404);
    const closed = (await t.db.query(`SELECT request_id FROM requests WHERE form_type = 'it-incident' AND status = 'Closed' LIMIT 1`))
      .rows[0].request_id;
    const res = await lena.post('/api/it-support/save-ticket-details', { form_id: closed, it_helpdesk_ticket_number: 'T-1' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/Closed/);
  });

  it('lets only the reporting employee confirm or reject, and only for themselves', async () => {
    const id = await newIncident(alex);
    await lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'T-7', it_resolution_notes: 'Fixed' });
    const before = await eventCount(id);
    for (const c of [maria, lena, priya]) {
      for (const path of ['confirm-problem-solved', 'reject-resolution']) {
        const res = await c.post(`/api/user-confirmation/${path}`, { form_id: id, employee_id: c.user.profile.employee_code });
        // Maria does not see Alex's ticket (answers like a missing one); IT and his manager see it but may not confirm.
        expect(res.status, `${c.user.email} ${path}`).toBe(c === maria ? 404 : 403);
      }
    }
    // the reporter naming someone else is refused too
    expect((await alex.post('/api/user-confirmation/confirm-problem-solved', { form_id: id, employee_id: 'EMP-1002' })).status).toBe(403);
    expect((await maria.get('/api/user-confirmation/pending-confirmations?employee_id=EMP-1001')).status).toBe(403);
    expect((await maria.get('/api/user-confirmation/pending-confirmations')).body.tickets.map((x: any) => x.request_id)).not.toContain(id);
    expect((await alex.post('/api/user-confirmation/confirm-problem-solved', { form_id: 'INC-999999' })).status).toBe(404);
    expect((await alex.post('/api/user-confirmation/confirm-problem-solved', {})).status).toBe(400);
    expect(await eventCount(id)).toBe(before);
    expect((await row(id)).data.employee_confirmation_status).toBe('Pending');
  });

  it('gives exactly one answer when the employee confirms and rejects at once', async () => {
    const id = await newIncident(alex);
    await lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'T-8', it_resolution_notes: 'Fixed' });
    const [a, b] = await Promise.all([
      alex.post('/api/user-confirmation/confirm-problem-solved', { form_id: id }),
      alex.post('/api/user-confirmation/reject-resolution', { form_id: id }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ev = (await events(id)).filter((e) => e.event_type === 'employee_confirmation');
    expect(ev).toHaveLength(1);
  });

  it('lets the line manager acknowledge an incident once (view-only)', async () => {
    const id = await newIncident(alex);
    const priyaUser = await userOf(priya);
    await expect(t.db.tx((c) => acknowledgeItIncident(c, id, priyaUser))).resolves.toMatchObject({ changed: true });
    await expect(t.db.tx((c) => acknowledgeItIncident(c, id, priyaUser))).resolves.toMatchObject({ changed: false });
    expect((await row(id)).data.line_manager_acknowledgement).toBe(true);
    expect((await row(id)).status).toBe('Open');
    await expect(t.db.tx(async (c) => acknowledgeItIncident(c, id, await userOf(daniel)))).rejects.toMatchObject({ statusCode: 404 });
    expect((await events(id)).filter((e) => e.event_type === 'acknowledged')).toHaveLength(1);
  });
});

describe('password reset lifecycle', () => {
  const NEW = 'Erp!Reset-7731xyz';

  it('Pending Manager -> (manager acknowledges) Pending IT Action -> Password Set -> (owner sees it) Completed', async () => {
    const id = await newReset(nina);
    expect((await row(id)).data.it_support_status).toBe('Pending Manager');
    // IT must wait for the line manager
    let res = await lena.post('/api/it-support/save-password-reset-details', {
      form_id: id,
      new_password: NEW,
      it_helpdesk_reset_by: 'Lena Fischer',
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/line manager/);

    // only the line manager may acknowledge; it moves the reset to IT, once
    await expect(t.db.tx(async (c) => acknowledgePasswordReset(c, id, await userOf(priya)))).rejects.toMatchObject({ statusCode: 404 });
    const ack = await t.db.tx(async (c) => acknowledgePasswordReset(c, id, await userOf(daniel)));
    expect(ack.changed).toBe(true);
    expect(ack.record).toMatchObject({ it_support_status: 'Pending IT Action', line_manager_acknowledgement: true });
    expect((await t.db.tx(async (c) => acknowledgePasswordReset(c, id, await userOf(daniel)))).changed).toBe(false);
    await expect(t.db.tx(async (c) => acknowledgePasswordReset(c, await newIncident(nina), await userOf(daniel)))).rejects.toMatchObject({
      statusCode: 404,
    });

    // refusals before the password is set
    const before = await eventCount(id);
    for (const body of [{ form_id: id, new_password: '' }, { form_id: id, new_password: '    ' }, { form_id: id }]) {
      res = await lena.post('/api/it-support/save-password-reset-details', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'New password is required' });
    }
    for (const c of [nina, daniel, alex]) {
      expect((await c.post('/api/it-support/save-password-reset-details', { form_id: id, new_password: NEW })).status).toBe(403);
    }
    expect((await lena.post('/api/it-support/save-password-reset-details', { form_id: 'PWD-999999', new_password: NEW })).status).toBe(404);
    expect(await eventCount(id)).toBe(before);
    expect((await row(id)).data.new_password_enc).toBeUndefined();

    // IT sets it; the name written is the signed-in officer's, whatever the body says
    res = await lena.post('/api/it-support/save-password-reset-details', {
      form_id: id,
      new_password: NEW,
      it_helpdesk_reset_by: 'Somebody Else',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, rows_updated: 1, it_support_status: 'Password Set' });
    expect(JSON.stringify(res.body)).not.toContain(NEW);
    const stored = (await row(id)).data;
    expect(stored).toMatchObject({ it_support_status: 'Password Set', has_new_password: true, it_helpdesk_reset_by: 'Lena Fischer' });
    expect(stored.new_password_enc).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(stored.new_password).toBeUndefined();
    expect((await lena.post('/api/it-support/save-password-reset-details', { form_id: id, new_password: 'another' })).status).toBe(409);

    // the details IT and the queue see never carry the password
    const details = await lena.get(`/api/it-support/form-details?form_id=${id}&form_type=password-reset`);
    expect(details.body).toMatchObject({
      it_support_status: 'Password Set',
      has_new_password: true,
      next_stage: 'Password Set - Awaiting Employee',
      derived_it_support_status: 'Details Filled',
      it_queue_status: 'Resolved',
    });
    expect(JSON.stringify(details.body)).not.toMatch(/new_password_enc|Erp!Reset/);

    // only the requesting employee may see it; to someone who may not see the request at all it does not exist
    const missing = await alex.post('/api/password-reset/reveal-password', { form_id: 'PWR-999999' });
    for (const c of [lena, daniel, alex]) {
      const r = await c.post('/api/password-reset/reveal-password', { form_id: id });
      const sees = c !== alex; // IT staff and the line manager see the reset; a colleague does not
      if (sees) expect(r.status, c.user.email).toBe(403);
      else expect({ status: r.status, body: r.body }).toEqual({ status: missing.status, body: missing.body });
      expect(r.text).not.toContain(NEW);
    }
    res = await nina.post('/api/password-reset/reveal-password', { form_id: id });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ new_password: NEW, system_for_reset: 'ERP', it_support_status: 'Completed', status: 'Completed' });
    expect(await row(id)).toMatchObject({ status: 'Completed', current_stage: null });
    const after = await lena.get(`/api/it-support/form-details?form_id=${id}`);
    expect(after.body).toMatchObject({
      status: 'Completed',
      it_support_status: 'Completed',
      next_stage: 'Password Reset Completed',
      it_helpdesk_approval: 'Completed',
      it_helpdesk_signature: 'Lena Fischer',
      it_queue_status: 'Closed',
    });

    // each reveal is logged; the owner can read it again
    res = await nina.post('/api/password-reset/reveal-password', { form_id: id });
    expect(res.body).toMatchObject({ new_password: NEW, it_support_status: 'Completed' });
    const ev = await events(id);
    expect(ev.filter((e) => e.event_type === 'password_revealed').map((e) => e.actor_id)).toEqual([nina.user.id, nina.user.id]);
    expect(ev.map((e) => `${e.event_type}:${e.field ?? ''}:${e.new_value ?? ''}`)).toEqual([
      'submitted:status:Pending',
      'acknowledged:line_manager_acknowledgement:true',
      'status_change:it_support_status:Pending IT Action',
      'password_set:it_support_status:Password Set',
      'password_revealed::',
      'status_change:it_support_status:Completed',
      'decision:it_helpdesk_approval:Completed',
      'password_revealed::',
    ]);
    expect(JSON.stringify(ev)).not.toContain(NEW);

    // and no table holds it in plain text
    expect(await tablesContaining(NEW)).toEqual([]);
  });

  it('refuses to reveal before a password is set, and for other form types', async () => {
    const id = await newReset(alex);
    expect((await alex.post('/api/password-reset/reveal-password', { form_id: id })).status).toBe(409);
    expect((await alex.post('/api/password-reset/reveal-password', { form_id: await newIncident(alex) })).status).toBe(404);
    expect((await alex.post('/api/password-reset/reveal-password', {})).status).toBe(400);
  });

  it('shows the seeded Password Set request to its owner, sealed with the server key', async () => {
    const seeded = (
      await t.db.query(`SELECT r.request_id FROM requests r JOIN users u ON u.id = r.employee_id
      WHERE r.form_type = 'password-reset' AND r.data->>'it_support_status' = 'Password Set' AND u.email = 'maria.garcia@adminease.test'`)
    ).rows[0].request_id;
    expect(await tablesContaining('Mail#Reset-2716')).toEqual([]);
    // a colleague: as if it did not exist
    expect((await alex.post('/api/password-reset/reveal-password', { form_id: seeded })).status).toBe(404);
    const res = await maria.post('/api/password-reset/reveal-password', { form_id: seeded });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ new_password: 'Mail#Reset-2716', system_for_reset: 'Email', it_support_status: 'Completed' });
  });

  it('never lets IT staff set the password of their own reset, nor of one they acknowledged as line manager', async () => {
    const id = await newReset(omar);
    await t.db.tx(async (c) => acknowledgePasswordReset(c, id, await userOf(lena))); // Lena is Omar's line manager
    const res = await omar.post('/api/it-support/save-password-reset-details', { form_id: id, new_password: 'Whatever#1234' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('You cannot work on your own ticket; a colleague in IT support will handle it');
    // Separation of duties: Lena decided the manager's step, so a third member of IT sets it.
    const byLena = await lena.post('/api/it-support/save-password-reset-details', { form_id: id, new_password: 'Whatever#1234' });
    expect(byLena.status).toBe(403);
    expect(byLena.body.error).toBe(
      'You acknowledged this password reset as the line manager; another member of IT support must set the password',
    );
    const ivan = await t.login(await thirdItStaff());
    expect((await ivan.get('/api/it-support/queue?limit=500')).body.map((x: any) => x.request_id)).toContain(id);
    expect((await lena.get('/api/it-support/queue?limit=500')).body.map((x: any) => x.request_id)).not.toContain(id);
    expect((await omar.get('/api/it-support/queue?limit=500')).body.map((x: any) => x.request_id)).not.toContain(id);
    expect((await ivan.post('/api/it-support/save-password-reset-details', { form_id: id, new_password: 'Whatever#1234' })).status).toBe(
      200,
    );
  });

  it('sends the reset of someone without a line manager straight to IT', async () => {
    const victoria = await t.login('victoria.adams@adminease.test');
    const id = await newReset(victoria, 'VPN');
    const queued = (await lena.get('/api/it-support/queue')).body.find((x: any) => x.request_id === id);
    expect(queued).toMatchObject({ it_support_status: 'Pending IT Action', it_queue_status: 'Open' });
    expect((await lena.post('/api/it-support/save-password-reset-details', { form_id: id, new_password: 'Vpn#Temp-0001' })).status).toBe(
      200,
    );
  });

  it('never touches the AdminEase sign-in password, and offers no AdminEase system to reset', async () => {
    // The form's systems are a fixed list (Email, ERP, CRM, VPN, Other): naming AdminEase is refused and stores nothing.
    const sam = await t.login('sam.wilson@adminease.test');
    const count = async () => (await t.db.query("SELECT count(*)::int AS n FROM requests WHERE form_type = 'password-reset'")).rows[0].n;
    const before = await count();
    for (const system of ['AdminEase', 'AdminEase Portal']) {
      const res = await sam.post('/api/forms/password-reset', { system_for_reset: system, reset_reason: 'Locked Account' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('System must be one of: Email, ERP, CRM, VPN, Other');
    }
    expect(await count()).toBe(before);

    // Whatever the system, the value IT sets is for that system only: the employee keeps signing in as before.
    for (const [system, password] of [
      ['ERP', 'Erp#Other-1111'],
      ['Other', 'Other#Pass-2222'],
    ]) {
      const id = await newReset(maria, system);
      await t.db.tx(async (c) => acknowledgePasswordReset(c, id, await userOf(priya)));
      const res = await lena.post('/api/it-support/save-password-reset-details', { request_id: id, new_password: password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Password reset details saved',
        rows_updated: 1,
        form_id: id,
        it_support_status: 'Password Set',
      });
      expect((await t.anonymous.post('/api/auth/login', { email: 'maria.garcia@adminease.test', password: 'Demo@12345' })).status).toBe(
        200,
      );
      expect((await t.anonymous.post('/api/auth/login', { email: 'maria.garcia@adminease.test', password })).status).toBe(401);
    }
  });
});

describe('GET /api/it-support/queue: status, limit, form_type, bounds and cache', () => {
  const get = (qs = '', who: ApiClient = lena) => who.get(`/api/it-support/queue${qs}`);
  const ids = (rows: any[]) => rows.map((x) => x.request_id);
  /** Newest first: created_at descending, then id descending. */
  const expectNewestFirst = (rows: any[]) => {
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      const order = Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;
      expect(order, `${a.request_id} before ${b.request_id}`).toBeLessThan(0);
    }
  };
  /** Straight from the table: the newest `limit` open (or finished) tickets, optionally of one type. Open ones
   * are those Lena may work: not her own, nor a reset she acknowledged as line manager (separation of duties). */
  const newest = async (part: 'open' | 'finished', limit: number, type?: string) =>
    (
      await t.db.query(
        `SELECT request_id FROM requests WHERE form_type = ANY($1) AND current_stage ${
          part === 'open'
            ? `= 'it_helpdesk' AND employee_id <> $3 AND NOT (form_type = 'password-reset' AND line_manager_id IS NOT DISTINCT FROM $3
             AND coalesce(data->'line_manager_acknowledgement' = 'true'::jsonb, false))`
            : 'IS NULL AND $3::int IS NOT NULL'
        }
        ORDER BY created_at DESC, id DESC LIMIT $2`,
        [type ? [type] : formTypesOfKind('it-ticket'), limit, lena.user.id],
      )
    ).rows.map((r) => r.request_id as string);

  beforeAll(async () => {
    // 24 more tickets: even ones open (every other one Resolved), odd ones closed; four share each created_at,
    // so the id decides their order.
    await changed(() =>
      t.db.query(
        `INSERT INTO requests (request_id, form_type, employee_id, status, current_stage, data, created_at)
       SELECT 'INC-8' || lpad(g::text, 5, '0'), 'it-incident', $1,
              CASE WHEN g % 2 = 1 THEN 'Closed' WHEN g % 4 = 2 THEN 'Resolved' ELSE 'Open' END,
              CASE WHEN g % 2 = 0 THEN 'it_helpdesk' END,
              '{"affected_system":"Bulk","incident_description":"bulk"}'::jsonb,
              date_trunc('second', now()) - interval '1 minute' * (g / 4)
         FROM generate_series(1, 24) g`,
        [alex.user.id],
      ),
    );
  });

  it('answers 400 with a readable JSON message for a bad status, limit or form_type', async () => {
    const cases: Array<[string, string]> = [
      ['?status=Pending', 'status must be All, Open, Resolved or Closed'],
      ['?status=Approved', 'status must be All, Open, Resolved or Closed'],
      ['?status=Open&status=Closed', 'status must be All, Open, Resolved or Closed'],
      ['?limit=0', 'limit must be at least 1'],
      ['?limit=-3', 'limit must be at least 1'],
      ['?limit=501', 'limit can be at most 500'],
      ['?limit=2.5', 'limit must be a whole number'],
      ['?limit=ten', 'limit must be a number'],
      ['?form_type=leave-request', 'form_type must be it-incident or password-reset'],
      ['?form_type=Meeting%20Room', 'form_type must be it-incident or password-reset'],
    ];
    for (const [qs, error] of cases) {
      const res = await get(qs);
      expect(res.status, qs).toBe(400);
      expect(res.headers['content-type'], qs).toMatch(/^application\/json/);
      expect(res.body, qs).toEqual({ error });
    }
    // case and blanks do not matter; the spec's free-text type names are understood; 500 is allowed
    for (const qs of [
      '?status=open',
      '?status=%20RESOLVED%20',
      '?status=',
      '?limit=500',
      '?limit=%201%20',
      '?form_type=Password%20Reset',
      '?form_type=IT%20Incident&status=Closed',
    ]) {
      expect((await get(qs)).status, qs).toBe(200);
    }
  });

  it('refuses everyone but IT staff (403) before looking at the parameters', async () => {
    for (const c of [alex, priya, daniel, await t.login('meera.iyer@adminease.test')]) {
      for (const qs of ['?limit=5', '?status=Open&limit=500', '?limit=0', '?status=Pending']) {
        const res = await get(qs, c);
        expect(res.status, qs).toBe(403);
        expect(res.body.error).toBe('Only IT support staff can do this');
      }
    }
    expect((await t.anonymous.get('/api/it-support/queue?limit=5')).status).toBe(401);
    expect((await get('?limit=5', omar)).status).toBe(200);
  });

  it('bounds the answer: the open tickets newest first up to limit, plus the newest limit finished ones', async () => {
    for (const limit of [1, 5, 12]) {
      const res = await get(`?limit=${limit}`);
      expect(res.status).toBe(200);
      const open = res.body.filter((x: any) => x.current_stage === 'it_helpdesk');
      const finished = res.body.filter((x: any) => x.current_stage === null);
      expect(open).toHaveLength(limit);
      expect(finished).toHaveLength(limit);
      expect(res.body).toHaveLength(2 * limit);
      expect(ids(open)).toEqual(await newest('open', limit));
      expect(ids(finished)).toEqual(await newest('finished', limit));
      expectNewestFirst(res.body);
    }
    // the default is 50 per part
    const all = (await get()).body;
    const openCount = (await newest('open', 500)).length;
    expect(all.filter((x: any) => x.current_stage !== null)).toHaveLength(Math.min(openCount, 50));
    expect(all.filter((x: any) => x.current_stage === null)).toHaveLength(Math.min((await newest('finished', 500)).length, 50));
    expectNewestFirst(all);
  });

  it('filters by the dashboard buckets and by type, with the same records as the full list', async () => {
    const full = (await get('?limit=500')).body;
    expectNewestFirst(full);
    const byId = new Map(full.map((x: any) => [x.request_id, x]));
    expect(full.filter((x: any) => x.current_stage !== null).map((x: any) => x.it_queue_status)).toEqual(
      expect.arrayContaining(['Open', 'Resolved']),
    );

    for (const limit of [3, 500]) {
      const open = (await get(`?status=Open&limit=${limit}`)).body;
      expect(open).toEqual(full.filter((x: any) => x.current_stage !== null && x.it_queue_status === 'Open').slice(0, limit));
      const resolved = (await get(`?status=Resolved&limit=${limit}`)).body;
      expect(resolved.length).toBeGreaterThan(0);
      expect(resolved).toEqual(full.filter((x: any) => x.current_stage !== null && x.it_queue_status === 'Resolved').slice(0, limit));
      const closed = (await get(`?status=Closed&limit=${limit}`)).body;
      expect(closed).toEqual(full.filter((x: any) => x.current_stage === null).slice(0, limit));
      expect(closed.every((x: any) => x.it_queue_status === 'Closed')).toBe(true);
      expect((await get(`?status=All&limit=${limit}`)).body).toEqual((await get(`?limit=${limit}`)).body);
    }

    for (const type of ['it-incident', 'password-reset']) {
      const res = (await get(`?form_type=${type}&limit=4`)).body;
      expect(res.every((x: any) => x.form_type === type)).toBe(true);
      expect(ids(res.filter((x: any) => x.current_stage !== null))).toEqual(await newest('open', 4, type));
      expect(ids(res.filter((x: any) => x.current_stage === null))).toEqual(await newest('finished', 4, type));
      expectNewestFirst(res);
      for (const x of res) expect(x).toEqual(byId.get(x.request_id));
    }
    const resets = (await get('?form_type=password-reset&status=Resolved')).body;
    expect(resets.length).toBeGreaterThan(0);
    expect(
      resets.every(
        (x: any) => x.form_type === 'password-reset' && x.it_support_status === 'Password Set' && x.it_queue_status === 'Resolved',
      ),
    ).toBe(true);
  });

  it('lists every open ticket (up to limit) but only the newest finished ones', async () => {
    await changed(() =>
      t.db.query(
        `INSERT INTO requests (request_id, form_type, employee_id, status, current_stage, data, created_at)
       SELECT 'INC-9' || lpad(g::text, 5, '0'), 'it-incident', $1, 'Closed', NULL, '{"affected_system":"Old"}'::jsonb, now() - (g || ' days')::interval
         FROM generate_series(1, 320) g`,
        [alex.user.id],
      ),
    );
    const open = await newest('open', 500);
    const res = await get('?limit=300');
    const got = new Set(ids(res.body));
    for (const id of open) expect(got.has(id), id).toBe(true);
    expect(res.body.filter((x: any) => x.current_stage === null)).toHaveLength(300);
    expect(got.has('INC-900001')).toBe(true);
    expect(got.has('INC-900320')).toBe(false);
    // the largest answer: every finished one here (fewer than 500)
    const max = (await get('?limit=500')).body;
    expect(ids(max.filter((x: any) => x.current_stage === null))).toEqual(await newest('finished', 500));
    expect(max.length).toBeLessThanOrEqual(1000);
  });

  it('answers from the queue cache until something changes; changes made by IT show at once', async () => {
    const id = await newIncident(maria, { affected_system: 'Cache' });
    const qs = '?status=Open&limit=7';
    let first = await get(qs);
    let again = await get(qs);
    // a change signalled by an earlier test may still arrive and empty the cache once
    for (let i = 0; i < 5 && again.headers['x-queue-cache'] !== 'hit'; i++) [first, again] = [again, await get(qs)];
    expect(again.headers['x-queue-cache']).toBe('hit');
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(ids(first.body)).toContain(id);
    // each caller, status, limit and type has its own entry
    expect((await get(qs, omar)).headers['x-queue-cache']).toBe('miss');
    expect((await get('?status=Open&limit=8')).headers['x-queue-cache']).toBe('miss');

    expect((await lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'T-CACHE-1' })).status).toBe(
      200,
    );
    const after = await get(qs);
    expect(after.headers['x-queue-cache']).toBe('miss');
    expect(after.body.find((x: any) => x.request_id === id)).toMatchObject({ status: 'Open', it_helpdesk_ticket_number: 'T-CACHE-1' });
  });
});

describe('a server with another key', () => {
  it('refuses to start with a malformed ADMINEASE_SECRET_KEY (the test run drops the database it made)', async () => {
    await expect(startTestApp({ ADMINEASE_SECRET_KEY: Buffer.alloc(16, 1).toString('base64') })).rejects.toThrow(/32 random bytes/);
  });

  it('says plainly that a stored password was sealed with a different key', async () => {
    const other = await startTestApp({ ADMINEASE_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') });
    try {
      const m = await other.login('maria.garcia@adminease.test');
      const seeded = (
        await other.db.query(`SELECT r.request_id FROM requests r JOIN users u ON u.id = r.employee_id
        WHERE r.form_type = 'password-reset' AND r.data->>'it_support_status' = 'Password Set' AND u.email = 'maria.garcia@adminease.test'`)
      ).rows[0].request_id;
      const res = await m.post('/api/password-reset/reveal-password', { form_id: seeded });
      expect(res.status).toBe(500);
      expect(res.body.error).toMatch(/another server key/);
      // nothing changed: the reset is not completed by a failed reveal
      const r = await other.db.query('SELECT data FROM requests WHERE request_id = $1', [seeded]);
      expect(r.rows[0].data.it_support_status).toBe('Password Set');
    } finally {
      await other.close();
    }
  });
});
