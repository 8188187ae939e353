// Separation of duties: one person decides at most one step of a request and never works on their own request;
// the step goes to another member of its group, whose queue offers it, while the person who already decided an
// earlier step neither sees it offered nor can decide it (403 with a clear message). The four cases of the
// security review: a finance officer as line manager and then finance, HR as line manager and then HR, IT staff
// acknowledging a reset as manager and then setting it, IT staff working their own incident.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitForm } from '../forms/service.js';
import { type Factories, type Person, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { decideVia, sampleInput } from './test-helpers.js';

let t: TestApp;
let f: Factories;
// Three people in each group: two who work together and a third one the step passes to.
let arjun: ApiClient, hannah: ApiClient, fiona: ApiClient; // finance; Hannah reports to Arjun
let meera: ApiClient, tom: ApiClient, hugo: ApiClient; // HR; Tom reports to Meera, who is also his HR contact
let lena: ApiClient, omar: ApiClient, ivan: ApiClient; // IT; Omar reports to Lena
const who: Record<string, Person> = {};

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  const named = (first_name: string, last_name: string) => ({ first_name, last_name: `${last_name}-${Date.now().toString(36)}` });
  who.meera = await f.person({ kind: 'hr', ...named('Meera', 'Iyer') });
  who.hugo = await f.person({ kind: 'hr', ...named('Hugo', 'Lambert') });
  who.tom = await f.person({ kind: 'hr', manager: who.meera, hr_contact: who.meera, ...named('Tom', 'Becker') });
  who.arjun = await f.person({ kind: 'finance', hr_contact: who.meera, ...named('Arjun', 'Mehta') });
  who.hannah = await f.person({ kind: 'finance', manager: who.arjun, hr_contact: who.meera, ...named('Hannah', 'Kim') });
  who.fiona = await f.person({ kind: 'finance', hr_contact: who.meera, ...named('Fiona', 'Walsh') });
  who.lena = await f.person({ kind: 'it', hr_contact: who.hugo, ...named('Lena', 'Fischer') });
  who.omar = await f.person({ kind: 'it', manager: who.lena, hr_contact: who.hugo, ...named('Omar', 'Haddad') });
  who.ivan = await f.person({ kind: 'it', hr_contact: who.hugo, ...named('Ivan', 'Petrov') });
  who.priya = await f.person({ kind: 'line_manager', ...named('Priya', 'Sharma') });
  who.alex = await f.person({ manager: who.priya, hr_contact: who.meera, ...named('Alex', 'Johnson') });
  [arjun, hannah, fiona, meera, tom, hugo, lena, omar, ivan] = await Promise.all(
    ['arjun', 'hannah', 'fiona', 'meera', 'tom', 'hugo', 'lena', 'omar', 'ivan'].map((n) => f.login(who[n])),
  );
});
afterAll(async () => t?.close());

const submitAs = async (person: string, formType: string, input: Record<string, unknown> = sampleInput(formType)) =>
  submitForm(t.db, await f.authUser(who[person]), formType, input, t.clock.now());
const idsOf = (rows: any[]) => rows.map((r) => r.request_id);
const rowOf = (rows: any[], id: string) => rows.find((r) => r.request_id === id);

describe('a finance officer who approved as line manager does not approve as finance', () => {
  it('refuses the second step (403), hides it from their finance queue, and another finance member decides it', async () => {
    const rec = await submitAs('hannah', 'petty-cash');
    expect((await decideVia(arjun, 'line_manager', rec.request_id, 'petty-cash', 'Approved')).status).toBe(200);

    const before = await stateFingerprint(t);
    const second = await decideVia(arjun, 'finance', rec.request_id, 'petty-cash', 'Approved');
    expect(second.status).toBe(403);
    expect(await stateFingerprint(t)).toEqual(before);
    expect(second.body.error).toBe(
      'You already decided the Line Manager step of this request; another Finance approver must decide this step',
    );
    expect(
      (await t.db.query('SELECT decision FROM approvals WHERE request_pk = $1 AND stage = $2', [rec.id, 'finance'])).rows[0].decision,
    ).toBe('Pending');

    const arjunQueue = (await arjun.get('/api/finance/queue?limit=500')).body.forms;
    expect(idsOf(arjunQueue)).not.toContain(rec.request_id);
    const fionaRow = rowOf((await fiona.get('/api/finance/queue?limit=500')).body.forms, rec.request_id);
    expect(fionaRow).toMatchObject({ actionable: true, current_stage: 'finance' });
    // The owner sees it in the finance queue but cannot decide it.
    expect(rowOf((await hannah.get('/api/finance/queue?limit=500')).body.forms, rec.request_id)?.actionable).toBe(false);

    const byFiona = await decideVia(fiona, 'finance', rec.request_id, 'petty-cash', 'Approved');
    expect(byFiona.status).toBe(200);
    expect(byFiona.body.form).toMatchObject({
      status: 'Approved',
      line_manager_signature: who.arjun.name,
      finance_signature: who.fiona.name,
    });
  });
});

describe('HR who approved as line manager does not approve as HR', () => {
  it('passes the HR step to the other HR staff: offered in their queue, details open, decided by them', async () => {
    // Tom's line manager and HR contact are both Meera.
    const rec = await submitAs('tom', 'leave-request');
    expect((await decideVia(meera, 'line_manager', rec.request_id, 'leave-request', 'Approved')).status).toBe(200);

    const second = await decideVia(meera, 'hr', rec.request_id, 'leave-request', 'Approved');
    expect(second.status).toBe(403);
    expect(second.body.error).toBe('You already decided the Line Manager step of this request; another HR approver must decide this step');
    expect(idsOf((await meera.get('/api/hr/queue?limit=500')).body)).not.toContain(rec.request_id);
    expect(idsOf((await meera.get('/api/hr/queue?status=Pending&limit=500')).body)).not.toContain(rec.request_id);

    expect(rowOf((await hugo.get('/api/hr/queue?limit=500')).body, rec.request_id)).toMatchObject({
      actionable: true,
      current_stage: 'hr',
    });
    expect(idsOf((await hugo.get('/api/hr/queue?status=Pending&limit=500')).body)).toContain(rec.request_id);
    // The owner is HR staff too, yet never decides their own request, nor gets it offered.
    expect(idsOf((await tom.get('/api/hr/queue?limit=500')).body)).not.toContain(rec.request_id);
    expect((await decideVia(tom, 'hr', rec.request_id, 'leave-request', 'Approved')).status).toBe(403);

    expect((await hugo.get(`/api/hr/form-details?form_id=${rec.request_id}`)).status).toBe(200);
    const byHugo = await decideVia(hugo, 'hr', rec.request_id, 'leave-request', 'Approved');
    expect(byHugo.status).toBe(200);
    expect(byHugo.body.form).toMatchObject({ status: 'Approved', line_manager_signature: who.meera.name, hr_signature: who.hugo.name });
    // Decided: it stays in Hugo's HR history.
    expect(rowOf((await hugo.get('/api/hr/queue?status=Approved&limit=500')).body, rec.request_id)).toMatchObject({ actionable: false });
  });

  it('leaves the HR contact in charge when someone else was the line manager', async () => {
    const rec = await submitAs('alex', 'leave-request'); // manager Priya, HR contact Meera
    expect((await decideVia(await f.login(who.priya), 'line_manager', rec.request_id, 'leave-request', 'Approved')).status).toBe(200);
    expect(idsOf((await hugo.get('/api/hr/queue?limit=500')).body)).not.toContain(rec.request_id);
    expect((await decideVia(hugo, 'hr', rec.request_id, 'leave-request', 'Approved')).status).toBe(404); // not theirs to see
    expect((await decideVia(meera, 'hr', rec.request_id, 'leave-request', 'Approved')).status).toBe(200);
  });
});

describe('IT staff who acknowledged a reset as line manager do not set it', () => {
  it('refuses the IT step to the acknowledging manager and the owner; a third member sets it', async () => {
    const rec = await submitAs('omar', 'password-reset', { system_for_reset: 'VPN', reset_reason: 'Forgotten Password' });
    // Before her acknowledgement the manager still sees the reset at the desk (waiting on her).
    expect(idsOf((await lena.get('/api/it-support/queue?status=Open&limit=500')).body)).toContain(rec.request_id);
    expect((await lena.post('/api/manager/acknowledge-password-reset', { form_id: rec.request_id })).status).toBe(200);

    const byLena = await lena.post('/api/it-support/save-password-reset-details', {
      form_id: rec.request_id,
      new_password: 'Vpn#Temp-0042',
    });
    expect(byLena.status).toBe(403);
    expect(byLena.body.error).toBe(
      'You acknowledged this password reset as the line manager; another member of IT support must set the password',
    );
    const byOmar = await omar.post('/api/it-support/save-password-reset-details', {
      form_id: rec.request_id,
      new_password: 'Vpn#Temp-0042',
    });
    expect(byOmar.status).toBe(403);
    expect(idsOf((await lena.get('/api/it-support/queue?status=Open&limit=500')).body)).not.toContain(rec.request_id);
    expect(idsOf((await omar.get('/api/it-support/queue?status=Open&limit=500')).body)).not.toContain(rec.request_id);
    expect(idsOf((await ivan.get('/api/it-support/queue?status=Open&limit=500')).body)).toContain(rec.request_id);
    expect(
      (await ivan.post('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: 'Vpn#Temp-0042' })).status,
    ).toBe(200);
  });
});

describe('IT staff never work their own incident', () => {
  it("refuses resolving and closing one's own ticket; a colleague does it, the owner's confirmation closes it in the colleague's name", async () => {
    const rec = await submitAs('omar', 'it-incident', {
      affected_system: 'Laptop',
      incident_description: 'Screen flickers',
      contact_info: 'ext 42',
    });
    const ticket = { form_id: rec.request_id, it_helpdesk_ticket_number: 'T-9001', it_resolution_notes: 'Replaced the cable' };

    const before = await stateFingerprint(t);
    const resolveOwn = await omar.post('/api/it-support/save-ticket-details', ticket);
    expect(resolveOwn.status).toBe(403);
    expect(await stateFingerprint(t)).toEqual(before);
    expect(resolveOwn.body.error).toBe('You cannot work on your own ticket; a colleague in IT support will handle it');
    expect((await t.db.query('SELECT status FROM requests WHERE id = $1', [rec.id])).rows[0].status).toBe('Open');
    expect(idsOf((await omar.get('/api/it-support/queue?limit=500')).body)).not.toContain(rec.request_id);

    expect((await lena.post('/api/it-support/save-ticket-details', ticket)).status).toBe(200);
    const confirmed = await omar.post('/api/user-confirmation/confirm-problem-solved', { form_id: rec.request_id });
    expect(confirmed.status).toBe(200);
    // The confirmation closes the ticket; the IT helpdesk step is signed by the colleague who resolved it.
    expect(confirmed.body.ticket).toMatchObject({
      status: 'Closed',
      it_helpdesk_approval: 'Completed',
      it_helpdesk_signature: who.lena.name,
    });
    const step = (await t.db.query(`SELECT signer_id FROM approvals WHERE request_pk = $1 AND stage = 'it_helpdesk'`, [rec.id])).rows[0];
    expect(step.signer_id).toBe(lena.user.id);
    const closeOwn = await omar.post('/api/it-support/close-ticket', { form_id: rec.request_id });
    expect(closeOwn.status).toBe(403);
    expect(closeOwn.body.error).toBe('You cannot work on your own ticket; a colleague in IT support will handle it');
    expect((await lena.post('/api/it-support/close-ticket', { form_id: rec.request_id })).status).toBe(409);
  });
});
