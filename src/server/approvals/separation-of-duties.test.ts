// Separation of duties: one person decides at most one step of a request and never works on their own request;
// the step goes to another member of its group, whose queue offers it, while the person who already decided an
// earlier step neither sees it offered nor can decide it (403 with a clear message). The four cases of the
// security review: a finance officer as line manager and then finance, HR as line manager and then HR, IT staff
// acknowledging a reset as manager and then setting it, IT staff working their own incident.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitForm } from '../forms/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { colleagueOf, decideVia, sampleInput, userByEmail } from './test-helpers.js';

let t: TestApp;
let arjun: ApiClient, hannah: ApiClient, fiona: ApiClient; // finance; Hannah reports to Arjun
let meera: ApiClient, tom: ApiClient, hugo: ApiClient; // HR; Tom reports to Meera, who is also his HR contact
let lena: ApiClient, omar: ApiClient, ivan: ApiClient; // IT; Omar reports to Lena

beforeAll(async () => {
  t = await startTestApp();
  // The demo's groups have two members; a third one is who the step passes to.
  await colleagueOf(t.db, 'arjun.mehta@adminease.test', 'fiona.walsh@adminease.test', 'FIN-903', 'Fiona', 'Walsh');
  await colleagueOf(t.db, 'meera.iyer@adminease.test', 'hugo.lambert@adminease.test', 'HR-903', 'Hugo', 'Lambert');
  await colleagueOf(t.db, 'lena.fischer@adminease.test', 'ivan.petrov@adminease.test', 'IT-903', 'Ivan', 'Petrov');
  [arjun, hannah, fiona, meera, tom, hugo, lena, omar, ivan] = await Promise.all(
    ['arjun.mehta', 'hannah.kim', 'fiona.walsh', 'meera.iyer', 'tom.becker', 'hugo.lambert', 'lena.fischer', 'omar.haddad', 'ivan.petrov']
      .map((n) => t.login(`${n}@adminease.test`)),
  );
});
afterAll(async () => t?.close());

const submitAs = async (email: string, formType: string, input: Record<string, unknown> = sampleInput(formType)) =>
  submitForm(t.db, await userByEmail(t.db, email), formType, input, t.clock.now());
const idsOf = (rows: any[]) => rows.map((r) => r.request_id);
const rowOf = (rows: any[], id: string) => rows.find((r) => r.request_id === id);

describe('a finance officer who approved as line manager does not approve as finance', () => {
  it('refuses the second step (403), hides it from their finance queue, and another finance member decides it', async () => {
    const rec = await submitAs('hannah.kim@adminease.test', 'petty-cash');
    expect((await decideVia(arjun, 'line_manager', rec.request_id, 'petty-cash', 'Approved')).status).toBe(200);

    const second = await decideVia(arjun, 'finance', rec.request_id, 'petty-cash', 'Approved');
    expect(second.status).toBe(403);
    expect(second.body.error).toBe('You already decided the Line Manager step of this request; another Finance approver must decide this step');
    expect((await t.db.query('SELECT decision FROM approvals WHERE request_pk = $1 AND stage = $2', [rec.id, 'finance'])).rows[0].decision).toBe('Pending');

    const arjunQueue = (await arjun.get('/api/finance/queue?limit=500')).body.forms;
    expect(idsOf(arjunQueue)).not.toContain(rec.request_id);
    const fionaRow = rowOf((await fiona.get('/api/finance/queue?limit=500')).body.forms, rec.request_id);
    expect(fionaRow).toMatchObject({ actionable: true, current_stage: 'finance' });
    // The owner sees it in the finance queue but cannot decide it.
    expect(rowOf((await hannah.get('/api/finance/queue?limit=500')).body.forms, rec.request_id)?.actionable).toBe(false);

    const byFiona = await decideVia(fiona, 'finance', rec.request_id, 'petty-cash', 'Approved');
    expect(byFiona.status).toBe(200);
    expect(byFiona.body.form).toMatchObject({ status: 'Approved', line_manager_signature: 'Arjun Mehta', finance_signature: 'Fiona Walsh' });
  });
});

describe('HR who approved as line manager does not approve as HR', () => {
  it('passes the HR step to the other HR staff: offered in their queue, details open, decided by them', async () => {
    // Tom's line manager and HR contact are both Meera.
    const rec = await submitAs('tom.becker@adminease.test', 'leave-request');
    expect((await decideVia(meera, 'line_manager', rec.request_id, 'leave-request', 'Approved')).status).toBe(200);

    const second = await decideVia(meera, 'hr', rec.request_id, 'leave-request', 'Approved');
    expect(second.status).toBe(403);
    expect(second.body.error).toBe('You already decided the Line Manager step of this request; another HR approver must decide this step');
    expect(idsOf((await meera.get('/api/hr/queue?limit=500')).body)).not.toContain(rec.request_id);
    expect(idsOf((await meera.get('/api/hr/queue?status=Pending&limit=500')).body)).not.toContain(rec.request_id);

    expect(rowOf((await hugo.get('/api/hr/queue?limit=500')).body, rec.request_id)).toMatchObject({ actionable: true, current_stage: 'hr' });
    expect(idsOf((await hugo.get('/api/hr/queue?status=Pending&limit=500')).body)).toContain(rec.request_id);
    // The owner is HR staff too, yet never decides their own request, nor gets it offered.
    expect(idsOf((await tom.get('/api/hr/queue?limit=500')).body)).not.toContain(rec.request_id);
    expect((await decideVia(tom, 'hr', rec.request_id, 'leave-request', 'Approved')).status).toBe(403);

    expect((await hugo.get(`/api/hr/form-details?form_id=${rec.request_id}`)).status).toBe(200);
    const byHugo = await decideVia(hugo, 'hr', rec.request_id, 'leave-request', 'Approved');
    expect(byHugo.status).toBe(200);
    expect(byHugo.body.form).toMatchObject({ status: 'Approved', line_manager_signature: 'Meera Iyer', hr_signature: 'Hugo Lambert' });
    // Decided: it stays in Hugo's HR history.
    expect(rowOf((await hugo.get('/api/hr/queue?status=Approved&limit=500')).body, rec.request_id)).toMatchObject({ actionable: false });
  });

  it('leaves the HR contact in charge when someone else was the line manager', async () => {
    const rec = await submitAs('alex.johnson@adminease.test', 'leave-request'); // manager Priya, HR contact Meera
    expect((await decideVia(await t.login('priya.sharma@adminease.test'), 'line_manager', rec.request_id, 'leave-request', 'Approved')).status).toBe(200);
    expect(idsOf((await hugo.get('/api/hr/queue?limit=500')).body)).not.toContain(rec.request_id);
    expect((await decideVia(hugo, 'hr', rec.request_id, 'leave-request', 'Approved')).status).toBe(404); // not theirs to see
    expect((await decideVia(meera, 'hr', rec.request_id, 'leave-request', 'Approved')).status).toBe(200);
  });
});

describe('IT staff who acknowledged a reset as line manager do not set it', () => {
  it('refuses the IT step to the acknowledging manager and the owner; a third member sets it', async () => {
    const rec = await submitAs('omar.haddad@adminease.test', 'password-reset', { system_for_reset: 'VPN', reset_reason: 'Forgotten Password' });
    // Before her acknowledgement the manager still sees the reset at the desk (waiting on her).
    expect(idsOf((await lena.get('/api/it-support/queue?status=Open&limit=500')).body)).toContain(rec.request_id);
    expect((await lena.post('/api/manager/acknowledge-password-reset', { form_id: rec.request_id })).status).toBe(200);

    const byLena = await lena.post('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: 'Vpn#Temp-0042' });
    expect(byLena.status).toBe(403);
    expect(byLena.body.error).toBe('You acknowledged this password reset as the line manager; another member of IT support must set the password');
    const byOmar = await omar.post('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: 'Vpn#Temp-0042' });
    expect(byOmar.status).toBe(403);
    expect(idsOf((await lena.get('/api/it-support/queue?status=Open&limit=500')).body)).not.toContain(rec.request_id);
    expect(idsOf((await omar.get('/api/it-support/queue?status=Open&limit=500')).body)).not.toContain(rec.request_id);
    expect(idsOf((await ivan.get('/api/it-support/queue?status=Open&limit=500')).body)).toContain(rec.request_id);
    expect((await ivan.post('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: 'Vpn#Temp-0042' })).status).toBe(200);
  });
});

describe('IT staff never work their own incident', () => {
  it('refuses resolving and closing one\'s own ticket; a colleague does it, the owner\'s confirmation closes it in the colleague\'s name', async () => {
    const rec = await submitAs('omar.haddad@adminease.test', 'it-incident', { affected_system: 'Laptop', incident_description: 'Screen flickers', contact_info: 'ext 42' });
    const ticket = { form_id: rec.request_id, it_helpdesk_ticket_number: 'T-9001', it_resolution_notes: 'Replaced the cable' };

    const resolveOwn = await omar.post('/api/it-support/save-ticket-details', ticket);
    expect(resolveOwn.status).toBe(403);
    expect(resolveOwn.body.error).toBe('You cannot work on your own ticket; a colleague in IT support will handle it');
    expect((await t.db.query('SELECT status FROM requests WHERE id = $1', [rec.id])).rows[0].status).toBe('Open');
    expect(idsOf((await omar.get('/api/it-support/queue?limit=500')).body)).not.toContain(rec.request_id);

    expect((await lena.post('/api/it-support/save-ticket-details', ticket)).status).toBe(200);
    const confirmed = await omar.post('/api/user-confirmation/confirm-problem-solved', { form_id: rec.request_id });
    expect(confirmed.status).toBe(200);
    // The confirmation closes the ticket; the IT helpdesk step is signed by the colleague who resolved it.
    expect(confirmed.body.ticket).toMatchObject({ status: 'Closed', it_helpdesk_approval: 'Completed', it_helpdesk_signature: 'Lena Fischer' });
    const step = (await t.db.query(`SELECT signer_id FROM approvals WHERE request_pk = $1 AND stage = 'it_helpdesk'`, [rec.id])).rows[0];
    expect(step.signer_id).toBe(lena.user.id);
    const closeOwn = await omar.post('/api/it-support/close-ticket', { form_id: rec.request_id });
    expect(closeOwn.status).toBe(403);
    expect(closeOwn.body.error).toBe('You cannot work on your own ticket; a colleague in IT support will handle it');
    expect((await lena.post('/api/it-support/close-ticket', { form_id: rec.request_id })).status).toBe(409);
  });
});
