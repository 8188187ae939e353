// The IT desk as the original client uses it: the exact calls of its IT dashboard and of the employee's
// confirmation, and the exact fields they read. Its IT dashboard offers 'Fill Details' / 'Update Details' /
// 'Update Resolution' only on tickets whose `status` is 'Open', shows `affected_system` and
// `new Date(incident_date)` in every row, and 'Set New Password' by `it_support_status`; the employee's
// Confirm / Report buttons need `status` 'Resolved' with a ticket number and resolution notes.
import { readFileSync } from 'node:fs';
import { businessDate } from '../../domain/business-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueCacheFor, waitForQueueSignal } from '../approvals/queue-cache.js';
import { submitForm } from '../forms/service.js';
import { type AuthUser, loadUser } from '../people/service.js';
import { insertRequest } from '../requests/repo.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let lena: ApiClient, omar: ApiClient, alex: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  [lena, omar, alex] = await Promise.all(['lena.fischer', 'omar.haddad', 'alex.johnson'].map((n) => t.login(`${n}@adminease.test`)));
});
afterAll(async () => {
  await t?.close();
});

const userOf = async (c: ApiClient): Promise<AuthUser> => (await loadUser(t.db, c.user.id))!;

/** A change made straight in the database, waited for until the queue cache has heard of it. */
async function changed<T>(change: () => Promise<T>): Promise<T> {
  const gen = queueCacheFor(t.db)?.generation() ?? 0;
  const out = await change();
  expect(await waitForQueueSignal(t.db, gen)).toBe(true);
  return out;
}

/** The IT dashboard's list, exactly as the original client asks for it (no parameters). */
const itQueue = async (c: ApiClient = lena) => {
  const res = await c.get('/api/it-support/queue');
  expect(res.status).toBe(200);
  return res.body as any[];
};
const queueRow = async (id: string) => (await itQueue()).find((x) => x.request_id === id);

/** The employee's own records as the original client reads them (user-forms, keyed by form type). */
const ownRecord = async (c: ApiClient, formType: string, id: string) => {
  const res = await c.get(`/api/forms/user-forms?employee_id=${c.user.profile.employee_code}`, { 'cache-control': 'no-cache' });
  expect(res.status).toBe(200);
  return (res.body[formType] as any[]).find((x) => x.request_id === id);
};

/** What the original IT dashboard offers on a row (its own conditions on the row's fields). */
function itDashboardAction(r: any): string | null {
  if (r.form_type === 'password-reset') return r.it_support_status === 'Pending IT Action' ? 'Set New Password' : null;
  if (r.status !== 'Open') return null;
  if (!r.it_helpdesk_ticket_number) return 'Fill Details';
  return r.employee_confirmation_status === 'Rejected' ? 'Update Resolution' : 'Update Details';
}

/** What the original employee screen offers on an incident: Confirm Resolution / Report Unresolved. */
const employeeMayAnswer = (r: any) =>
  r.status === 'Resolved' &&
  !!r.it_helpdesk_ticket_number &&
  !!r.it_resolution_notes &&
  !['Confirmed', 'Rejected'].includes(r.employee_confirmation_status);

/** The original dashboard's date cell: `new Date(incident_date)`; null would read 1/1/1970. */
const shownDate = (v: unknown) => (v === null || v === undefined ? new Date(0) : new Date(String(v)));

describe('IT queue rows of password resets', () => {
  it('carry the request date as incident_date and the system being reset as affected_system', async () => {
    const rec = await changed(async () =>
      submitForm(t.db, await userOf(alex), 'password-reset', { system_for_reset: 'CRM', reset_reason: 'Locked Account' }),
    );
    // The day of the request on the organisation's calendar (its business date), as every date the app shows.
    const day = businessDate(String(rec.created_at));
    const row = await queueRow(rec.request_id);
    expect(row).toMatchObject({ form_type: 'password-reset', affected_system: 'CRM', incident_date: day });
    const details = await lena.get(`/api/it-support/form-details?form_id=${rec.request_id}&form_type=password-reset`);
    expect(details.body).toMatchObject({ affected_system: 'CRM', incident_date: day });
    // an incident reported without its date shows the day it was reported
    const undated = await changed(async () =>
      submitForm(t.db, await userOf(alex), 'it-incident', { affected_system: 'Printer', incident_description: 'Paper jam on floor 2' }),
    );
    expect(await queueRow(undated.request_id)).toMatchObject({
      affected_system: 'Printer',
      incident_date: businessDate(String(undated.created_at)),
    });
    // every row of the dashboard: a real date and a system
    for (const r of await itQueue()) {
      expect(shownDate(r.incident_date).getUTCFullYear(), `${r.request_id} incident_date`).toBeGreaterThan(2000);
      expect(String(r.affected_system ?? '').trim(), `${r.request_id} affected_system`).not.toBe('');
      if (r.form_type === 'password-reset') {
        expect(r.affected_system).toBe(r.system_for_reset);
        expect(r.incident_date).toBe(businessDate(String(r.created_at)));
      }
    }
  });

  it('read it_support_status Rejected for a rejected reset, also one stored as Completed by an older version', async () => {
    const seeded = (await itQueue()).filter((r) => r.form_type === 'password-reset' && r.status === 'Rejected');
    expect(seeded.length).toBeGreaterThan(0);
    for (const r of seeded) expect(r.it_support_status, r.request_id).toBe('Rejected');

    const u = await userOf(alex);
    const legacy = await changed(() =>
      insertRequest(t.db, {
        formType: 'password-reset',
        employeeId: u.id,
        lineManagerId: u.manager_id ?? null,
        hrContactId: null,
        status: 'Rejected',
        data: { system_for_reset: 'VPN', reset_reason: 'Other', it_support_status: 'Completed', line_manager_acknowledgement: true },
      }),
    );
    await t.db.query(`UPDATE approvals SET decision = 'Rejected', rejection_reason = 'Not allowed' WHERE request_pk = $1`, [legacy.pk]);
    expect(await queueRow(legacy.request_id)).toMatchObject({
      status: 'Rejected',
      it_support_status: 'Rejected',
      it_queue_status: 'Closed',
    });
    expect(itDashboardAction(await queueRow(legacy.request_id))).toBeNull();
    // the owner's own record says the same
    expect(await ownRecord(alex, 'password-reset', legacy.request_id)).toMatchObject({ status: 'Rejected', it_support_status: 'Rejected' });
  });
});

describe('the IT incident lifecycle through the original client', () => {
  it('ticket number only: Open (assigned, IT Processing); notes: Resolved; unresolved: Open, Update Resolution; confirmed: Closed', async () => {
    const inc = await changed(async () =>
      submitForm(t.db, await userOf(alex), 'it-incident', {
        affected_system: 'Laptop',
        incident_description: 'Docking station not detected',
        employee_system_number: 'LT-4410',
        incident_date: new Date().toISOString().slice(0, 10),
      }),
    );
    const id = inc.request_id;
    expect(itDashboardAction(await queueRow(id))).toBe('Fill Details');

    // 1. The IT dashboard saves a ticket number without notes (its payload: notes null, its officer's name).
    let res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-2026-900',
      it_resolution_notes: null,
      it_helpdesk_assigned_to: 'Lena Fischer',
    });
    expect(res.status).toBe(200);
    let row = await queueRow(id);
    expect(row).toMatchObject({
      status: 'Open',
      it_helpdesk_ticket_number: 'TICKET-2026-900',
      it_helpdesk_assigned_to: 'Lena Fischer',
      next_stage: 'IT Processing',
    });
    expect(itDashboardAction(row)).toBe('Update Details');
    expect(employeeMayAnswer(await ownRecord(alex, 'it-incident', id))).toBe(false);

    // 2. 'Update Details' with resolution notes: Resolved, waiting for the employee.
    res = await omar.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-2026-900',
      it_resolution_notes: 'Updated the dock firmware',
      it_helpdesk_assigned_to: 'Omar Haddad',
    });
    expect(res.status).toBe(200);
    row = await queueRow(id);
    expect(row).toMatchObject({ status: 'Resolved', employee_confirmation_status: 'Pending' });
    expect(itDashboardAction(row)).toBeNull(); // waits for the employee
    let own = await ownRecord(alex, 'it-incident', id);
    expect(own).toMatchObject({
      status: 'Resolved',
      it_helpdesk_ticket_number: 'TICKET-2026-900',
      it_resolution_notes: 'Updated the dock firmware',
    });
    expect(employeeMayAnswer(own)).toBe(true);

    // 3. The employee's 'Report Unresolved' (its payload): Open again, and IT's button reads 'Update Resolution'.
    res = await alex.post('/api/user-confirmation/reject-resolution', {
      form_id: id,
      employee_id: alex.user.profile.employee_code,
      rejection_reason: 'Employee reported: Problem not solved',
    });
    expect(res.status).toBe(200);
    row = await queueRow(id);
    expect(row).toMatchObject({ status: 'Open', employee_confirmation_status: 'Rejected' });
    expect(itDashboardAction(row)).toBe('Update Resolution');

    // 4. 'Update Resolution' works: a save without notes keeps it Open (still Update Resolution), one with notes resolves it again.
    res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-2026-900',
      it_resolution_notes: null,
      it_helpdesk_assigned_to: 'Lena Fischer',
    });
    expect(res.status).toBe(200);
    expect(itDashboardAction(await queueRow(id))).toBe('Update Resolution');
    res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-2026-900',
      it_resolution_notes: 'Replaced the docking station',
      it_helpdesk_assigned_to: 'Lena Fischer',
    });
    expect(res.status).toBe(200);
    own = await ownRecord(alex, 'it-incident', id);
    expect(own).toMatchObject({
      status: 'Resolved',
      employee_confirmation_status: 'Pending',
      it_resolution_notes: 'Replaced the docking station',
    });
    expect(employeeMayAnswer(own)).toBe(true);

    // 5. The employee's 'Confirm Resolution' (its payload): the ticket is closed, nobody has to act any more.
    res = await alex.post('/api/user-confirmation/confirm-problem-solved', {
      form_id: id,
      employee_id: alex.user.profile.employee_code,
      confirmation_notes: 'Employee confirmed: Problem is solved',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      status: 'Closed',
      employee_confirmation_status: 'Confirmed',
      it_helpdesk_ticket_number: 'TICKET-2026-900',
    });
    row = await queueRow(id);
    expect(row).toMatchObject({
      status: 'Closed',
      employee_confirmation_status: 'Confirmed',
      it_queue_status: 'Closed',
      it_helpdesk_approval: 'Completed',
      it_helpdesk_signature: 'Lena Fischer',
    });
    expect(await ownRecord(alex, 'it-incident', id)).toMatchObject({ status: 'Closed', next_stage: 'Completed' });
    // never 'In Progress' on the way
    const statuses = (
      await t.db.query(
        `SELECT e.new_value FROM request_events e JOIN requests r ON r.id = e.request_pk WHERE r.request_id = $1 AND e.field = 'status'`,
        [id],
      )
    ).rows.map((x) => x.new_value);
    expect(statuses).not.toContain('In Progress');
  });

  it('leaves no seeded incident in a state neither IT dashboard nor the employee can move on', async () => {
    const incidents = (await itQueue()).filter((r) => r.form_type === 'it-incident');
    const seeded = (await t.db.query(`SELECT request_id FROM requests WHERE form_type = 'it-incident'`)).rows.map((x) => x.request_id);
    expect(incidents.map((r) => r.request_id).sort()).toEqual(seeded.sort());
    for (const r of incidents) {
      const workable = itDashboardAction(r) !== null || (r.status === 'Resolved' && employeeMayAnswer(r)) || r.status === 'Closed';
      expect(workable, `${r.request_id} ${r.status} ${r.employee_confirmation_status}`).toBe(true);
    }
    // the states the demo shows: new, taken by IT, waiting for the employee, reported unresolved, closed
    expect(incidents.some((r) => r.status === 'Open' && !r.it_helpdesk_ticket_number)).toBe(true);
    expect(incidents.some((r) => itDashboardAction(r) === 'Update Details')).toBe(true);
    expect(incidents.some((r) => itDashboardAction(r) === 'Update Resolution')).toBe(true);
    expect(incidents.some((r) => r.status === 'Resolved' && employeeMayAnswer(r))).toBe(true);
    expect(incidents.some((r) => r.status === 'Closed')).toBe(true);
  });
});

describe('incidents stored by older versions', () => {
  it('are moved by migration 090: In Progress -> Open, confirmed -> Closed (step Completed), rejected resets -> Rejected', async () => {
    const u = await userOf(alex);
    const base = { employeeId: u.id, lineManagerId: u.manager_id ?? null, hrContactId: null };
    const inProgress = await changed(() =>
      insertRequest(t.db, {
        ...base,
        formType: 'it-incident',
        status: 'In Progress',
        data: {
          affected_system: 'VPN',
          incident_description: 'Slow',
          it_helpdesk_ticket_number: 'T-OLD-1',
          it_helpdesk_assigned_to: 'Omar Haddad',
          employee_confirmation_status: 'Pending',
        },
      }),
    );
    const confirmed = await insertRequest(t.db, {
      ...base,
      formType: 'it-incident',
      status: 'Resolved',
      data: {
        affected_system: 'Email',
        incident_description: 'No sync',
        it_helpdesk_ticket_number: 'T-OLD-2',
        it_helpdesk_assigned_to: 'Omar Haddad',
        it_resolution_notes: 'Fixed',
        it_resolved_by: 'Omar Haddad',
        employee_confirmation_status: 'Confirmed',
      },
    });
    const reset = await insertRequest(t.db, {
      ...base,
      formType: 'password-reset',
      status: 'Rejected',
      data: { system_for_reset: 'ERP', reset_reason: 'Other', it_support_status: 'Completed' },
    });

    // Before the upgrade the original IT dashboard offers nothing on the 'In Progress' ticket: a dead end.
    expect(itDashboardAction(await queueRow(inProgress.request_id))).toBeNull();

    const sql = readFileSync(new URL('../db/migrations/090_it_lifecycle.sql', import.meta.url), 'utf8');
    await changed(() => t.db.tx((c) => c.query(sql)));

    const rows = (
      await t.db.query(`SELECT id, status, current_stage, data FROM requests WHERE id = ANY($1)`, [[inProgress.pk, confirmed.pk, reset.pk]])
    ).rows;
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    expect(byId.get(Number(inProgress.pk))).toMatchObject({ status: 'Open', current_stage: 'it_helpdesk' });
    expect(byId.get(Number(inProgress.pk))!.data.it_helpdesk_ticket_number).toBe('T-OLD-1');
    expect(byId.get(Number(confirmed.pk))).toMatchObject({ status: 'Closed', current_stage: null });
    expect(byId.get(Number(reset.pk))!.data.it_support_status).toBe('Rejected');
    const step = (
      await t.db.query(`SELECT decision, signer_name FROM approvals WHERE request_pk = $1 AND stage = 'it_helpdesk'`, [confirmed.pk])
    ).rows[0];
    expect(step).toEqual({ decision: 'Completed', signer_name: 'Omar Haddad' });
    const moves = (
      await t.db.query(
        `SELECT request_pk, old_value, new_value FROM request_events WHERE request_pk = ANY($1) AND event_type = 'status_change' ORDER BY request_pk`,
        [[inProgress.pk, confirmed.pk]],
      )
    ).rows.map((e) => `${e.old_value}->${e.new_value}`);
    expect(moves).toEqual(['In Progress->Open', 'Resolved->Closed']);

    // The IT dashboard now offers 'Update Details' on the former 'In Progress' ticket, and the save keeps it Open.
    const open = await queueRow(inProgress.request_id);
    expect(itDashboardAction(open)).toBe('Update Details');
    const res = await lena.post('/api/it-support/save-ticket-details', {
      form_id: open.request_id,
      it_helpdesk_ticket_number: 'T-OLD-1',
      it_resolution_notes: null,
      it_helpdesk_assigned_to: 'Lena Fischer',
    });
    expect(res.status).toBe(200);
    expect(res.body.ticket.status).toBe('Open');

    // Running it again changes nothing.
    const before = (await t.db.query('SELECT count(*)::int AS n FROM request_events')).rows[0].n;
    await t.db.tx((c) => c.query(sql));
    expect((await t.db.query('SELECT count(*)::int AS n FROM request_events')).rows[0].n).toBe(before);
  });

  it('a confirmed ticket an older version left Resolved can still be closed by IT (close-ticket)', async () => {
    const u = await userOf(alex);
    const old = await changed(() =>
      insertRequest(t.db, {
        employeeId: u.id,
        lineManagerId: u.manager_id ?? null,
        hrContactId: null,
        formType: 'it-incident',
        status: 'Resolved',
        data: {
          affected_system: 'Printer',
          incident_description: 'Jams',
          it_helpdesk_ticket_number: 'T-OLD-3',
          it_resolution_notes: 'Cleaned',
          employee_confirmation_status: 'Confirmed',
        },
      }),
    );
    const res = await lena.post('/api/it-support/close-ticket', { form_id: old.request_id });
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({ status: 'Closed', it_helpdesk_approval: 'Completed', it_helpdesk_signature: 'Lena Fischer' });
  });
});
