// The employee reads the new password of their password reset in their own records, where the spec's clients read
// `new_password` (GET /api/forms/user-forms and GET /api/forms/details): only the owner, each read logged and never
// served from a cache, the first read completing the reset, and nothing once the password is erased. The line
// manager, IT, HR and other employees never get it through any route; the manager's view still tells a password
// was set. Our own web says it reads the password on demand (X-AdminEase-New-Password: omit) and gets none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitForm } from './service.js';
import { loadUser } from '../people/service.js';
import { acknowledgePasswordReset } from '../it-desk/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let alex: ApiClient;
let lena: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (who: string) => t.login(`${who}@adminease.test`);

/** A reset of Alex's, acknowledged by Priya, with `password` set by Lena (IT) now on the test clock. */
async function resetWithPassword(password: string): Promise<string> {
  [alex, lena] = await Promise.all([login('alex.johnson'), login('lena.fischer')]);
  const rec = await submitForm(
    t.db,
    (await loadUser(t.db, alex.user.id))!,
    'password-reset',
    { system_for_reset: 'VPN', reset_reason: 'Forgotten Password' },
    t.clock.now(),
  );
  const priyaId = (await t.db.query(`SELECT id FROM users WHERE email = 'priya.sharma@adminease.test'`)).rows[0].id;
  await t.db.tx(async (c) => acknowledgePasswordReset(c, rec.request_id, (await loadUser(c, priyaId))!, t.clock.now()));
  const res = await lena.post('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: password });
  expect(res.status).toBe(200);
  return rec.request_id;
}

const resetIn = (body: Record<string, Array<Record<string, unknown>>>, id: string) =>
  body['password-reset']?.find((r) => r.request_id === id);
const reads = async (id: string) =>
  (
    await t.db.query(
      `SELECT e.actor_id, e.details FROM request_events e JOIN requests r ON r.id = e.request_pk
    WHERE r.request_id = $1 AND e.event_type = 'password_revealed' ORDER BY e.id`,
      [id],
    )
  ).rows;

describe("the owner's new password in their own records", () => {
  it('is in their user-forms answer, each read logged and never cached, the first read completing the reset', async () => {
    const id = await resetWithPassword('Vpn#Own-1111');
    // (asked the way the spec's clients ask: by employee code, and with the numeric user id as the calendar does)
    const first = await alex.get('/api/forms/user-forms?employee_id=EMP-1001');
    expect(first.status).toBe(200);
    expect(resetIn(first.body, id)).toMatchObject({
      new_password: 'Vpn#Own-1111',
      status: 'Completed',
      it_support_status: 'Completed',
      has_new_password: true,
    });
    expect(first.headers['x-queue-cache']).toBe('skip');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(await reads(id)).toEqual([{ actor_id: alex.user.id, details: { first_reveal: true, via: 'user-forms' } }]);
    const it = (
      await t.db.query(`SELECT a.decision, a.signer_name FROM approvals a JOIN requests r ON r.id = a.request_pk WHERE r.request_id = $1`, [
        id,
      ])
    ).rows;
    expect(it).toEqual([{ decision: 'Completed', signer_name: 'Lena Fischer' }]);

    // Read again: computed and logged again, never from the cache.
    const again = await alex.get(`/api/forms/user-forms?employee_id=${alex.user.id}`);
    expect(resetIn(again.body, id)?.new_password).toBe('Vpn#Own-1111');
    expect(again.headers['x-queue-cache']).toBe('skip');
    const bypass = await alex.get('/api/forms/user-forms', { 'cache-control': 'no-cache' });
    expect(resetIn(bypass.body, id)?.new_password).toBe('Vpn#Own-1111');
    expect(bypass.headers['cache-control']).toBe('no-store');
    expect((await reads(id)).map((r) => r.details)).toEqual([
      { first_reveal: true, via: 'user-forms' },
      { first_reveal: false, via: 'user-forms' },
      { first_reveal: false, via: 'user-forms' },
    ]);
  });

  it('is in their details answer; the first read through the details completes the reset too', async () => {
    const id = await resetWithPassword('Vpn#Own-2222');
    const res = await alex.get(`/api/forms/details/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: id, new_password: 'Vpn#Own-2222', status: 'Completed', it_support_status: 'Completed' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await reads(id)).toEqual([{ actor_id: alex.user.id, details: { first_reveal: true, via: 'details' } }]);
    // the reveal call reads the same password, logged as another read that completes nothing more
    const revealed = await alex.post('/api/password-reset/reveal-password', { form_id: id });
    expect(revealed.body).toMatchObject({ new_password: 'Vpn#Own-2222', it_support_status: 'Completed' });
    expect((await reads(id)).map((r) => r.details)).toEqual([
      { first_reveal: true, via: 'details' },
      { first_reveal: false, via: 'reveal' },
    ]);
  });

  it('is not read for a client that reads it on demand (our web), and then nothing is logged or completed', async () => {
    const id = await resetWithPassword('Vpn#Own-3333');
    const omit = { 'x-adminease-new-password': 'omit' };
    const list = await alex.get('/api/forms/user-forms', omit);
    expect(list.text).not.toContain('Vpn#Own-3333');
    expect(resetIn(list.body, id)).toMatchObject({ has_new_password: true, it_support_status: 'Password Set', status: 'Pending' });
    expect((await alex.get(`/api/forms/details/${id}`, omit)).text).not.toContain('Vpn#Own-3333');
    expect(await reads(id)).toEqual([]);
    // an answer without a password is cached as before (once the last change's signal has been heard)
    let cached = '';
    for (let i = 0; i < 40 && cached !== 'hit'; i += 1) {
      cached = (await alex.get('/api/forms/user-forms', omit)).headers['x-queue-cache'];
      if (cached !== 'hit') await new Promise((r) => setTimeout(r, 50));
    }
    expect(cached).toBe('hit');
  });

  it('never reaches the line manager, IT, HR or another employee, through any route', async () => {
    const id = await resetWithPassword('Vpn#Own-4444');
    const [priya, meera, sam] = await Promise.all([login('priya.sharma'), login('meera.iyer'), login('sam.wilson')]);
    const pk = (await t.db.query('SELECT id FROM requests WHERE request_id = $1', [id])).rows[0].id;
    const calls: Array<[ApiClient, string]> = [
      [priya, '/api/forms/user-forms?employee_id=EMP-1001'],
      [priya, `/api/forms/user-forms?employee_id=${alex.user.id}`],
      [priya, `/api/forms/details/${id}`],
      [priya, `/api/forms/details/${pk}`],
      [priya, `/api/manager/form-details?form_id=${id}`],
      [priya, '/api/manager/queue'],
      [priya, `/api/requests/${id}/history`],
      [lena, `/api/forms/details/${id}`],
      [lena, `/api/it-support/form-details?form_id=${id}`],
      [lena, '/api/it-support/queue'],
      [lena, `/api/requests/${id}/history`],
      [meera, '/api/forms/user-forms?employee_id=EMP-1001'],
      [meera, `/api/forms/details/${id}`],
      [meera, '/api/hr/queue'],
      [sam, `/api/forms/details/${id}`],
      [sam, '/api/forms/user-forms?employee_id=EMP-1001'],
    ];
    for (const [who, url] of calls) {
      const res = await who.get(url);
      expect(res.status, `${who.user.email} ${url}`).toBeLessThan(500);
      expect(res.text, `${who.user.email} ${url}`).not.toContain('Vpn#Own-4444');
      expect(res.text, `${who.user.email} ${url}`).not.toContain('"new_password"');
    }
    expect((await lena.post('/api/password-reset/reveal-password', { form_id: id })).status).toBe(403);
    // Nobody else's look completed it or was logged as a read.
    expect(await reads(id)).toEqual([]);

    // The manager's view still tells that a password is set and waits for the employee, without the password.
    const manager = await priya.get(`/api/manager/form-details?form_id=${id}`);
    expect(manager.body).toMatchObject({
      has_new_password: true,
      it_support_status: 'Password Set',
      next_stage: 'Password Set - Awaiting Employee',
    });
    const team = await priya.get('/api/forms/user-forms?employee_id=EMP-1001');
    expect(resetIn(team.body, id)).toMatchObject({
      has_new_password: true,
      it_support_status: 'Password Set',
      next_stage: 'Password Set - Awaiting Employee',
    });
  });

  it('is gone once the owner confirmed saving it, or once the time limit passed', async () => {
    const confirmed = await resetWithPassword('Vpn#Own-5555');
    expect(resetIn((await alex.get('/api/forms/user-forms')).body, confirmed)?.new_password).toBe('Vpn#Own-5555');
    expect((await alex.post('/api/password-reset/confirm-password-saved', { form_id: confirmed })).body).toMatchObject({ changed: true });
    const after = await alex.get('/api/forms/user-forms');
    expect(after.text).not.toContain('Vpn#Own-5555');
    expect(resetIn(after.body, confirmed)).toMatchObject({ new_password_erased_reason: 'owner_confirmed', status: 'Completed' });
    expect((await alex.get(`/api/forms/details/${confirmed}`)).text).not.toContain('Vpn#Own-5555');

    const late = await resetWithPassword('Vpn#Own-6666');
    t.clock.advance(73 * 3600 * 1000);
    try {
      alex = await login('alex.johnson');
      const res = await alex.get('/api/forms/user-forms');
      expect(res.text).not.toContain('Vpn#Own-6666');
      expect(resetIn(res.body, late)).toMatchObject({ new_password_erased_reason: 'time_limit', it_support_status: 'Password Set' });
      expect((await alex.get(`/api/forms/details/${late}`)).text).not.toContain('Vpn#Own-6666');
      expect(await reads(late)).toEqual([]);
      const erased = (
        await t.db.query(
          `SELECT count(*)::int AS n FROM request_events e JOIN requests r ON r.id = e.request_pk WHERE r.request_id = $1 AND e.event_type = 'password_erased'`,
          [late],
        )
      ).rows[0].n;
      expect(erased).toBe(1);
    } finally {
      t.clock.advance(-73 * 3600 * 1000);
    }
  });
});
