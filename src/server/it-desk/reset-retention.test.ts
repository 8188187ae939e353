// Reset passwords are kept only as long as needed, with a key that is not in the data folder: the key file lives
// outside it (an older key file is moved out), and a stored password is erased once its owner confirmed saving it,
// or when the time limit passes (a sweep, and the reveal call itself), each erasure in the event log.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDb } from '../db/pool.js';
import { submitForm } from '../forms/service.js';
import { loadUser } from '../people/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { resetPasswordExpiry, sweepExpiredResetPasswords } from './reset-retention.js';
import { SECRET_KEY_FILE, resolveSecretKey } from './secret-box.js';
import { acknowledgePasswordReset, itSecretKey } from './service.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'adminease-retention-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the key encrypting reset passwords', () => {
  it('is kept outside the data folder by default (the user configuration folder)', () => {
    expect(loadConfig({ HOME: '/home/ops' }).secretKeyFile).toBe('/home/ops/.config/adminease/secret.key');
    expect(loadConfig({ HOME: '/home/ops', XDG_CONFIG_HOME: '/etc/xdg-ops' }).secretKeyFile).toBe('/etc/xdg-ops/adminease/secret.key');
    expect(loadConfig({ ADMINEASE_SECRET_KEY_FILE: '/run/secrets/adminease.key' }).secretKeyFile).toBe('/run/secrets/adminease.key');

    const dataDir = tmp();
    const configHome = tmp();
    const config = loadConfig({ ADMINEASE_DATA_DIR: dataDir, XDG_CONFIG_HOME: configHome });
    const k = itSecretKey(config);
    expect(existsSync(path.join(dataDir, SECRET_KEY_FILE))).toBe(false);
    expect(k.source).toBe(path.join(configHome, 'adminease', 'secret.key'));
    expect(existsSync(k.source)).toBe(true);
    expect(path.relative(dataDir, k.source).startsWith('..')).toBe(true);
  });

  it('moves a key file an older version left in the data folder out of it, keeping the same key', () => {
    const dataDir = tmp();
    const keyFile = path.join(tmp(), 'cfg', 'secret.key');
    const legacy = path.join(dataDir, SECRET_KEY_FILE);
    writeFileSync(legacy, `${Buffer.alloc(32, 9).toString('base64')}\n`, { mode: 0o600 });
    const moved: string[] = [];
    const k = resolveSecretKey({ dataDir, keyFile, onMoved: (from, to) => moved.push(`${from} -> ${to}`) });
    expect(k.key.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(existsSync(legacy)).toBe(false);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(Buffer.alloc(32, 9).toString('base64'));
    expect(moved).toEqual([`${legacy} -> ${keyFile}`]);
  });

  it('keeps using an older data-folder key, with a warning, when the key file already holds another key', () => {
    const dataDir = tmp();
    const keyFile = path.join(tmp(), 'secret.key');
    writeFileSync(path.join(dataDir, SECRET_KEY_FILE), Buffer.alloc(32, 1).toString('base64'));
    writeFileSync(keyFile, Buffer.alloc(32, 2).toString('base64'));
    const warnings: string[] = [];
    const k = resolveSecretKey({ dataDir, keyFile, onWarn: (m) => warnings.push(m) });
    expect(k.key.equals(Buffer.alloc(32, 1))).toBe(true); // the passwords sealed with it stay readable
    expect(warnings.join()).toMatch(/ADMINEASE_SECRET_KEY_FILE/);
  });
});

describe('stored reset passwords', () => {
  let t: TestApp;
  let alex: ApiClient;
  let lena: ApiClient;
  beforeAll(async () => {
    t = await startTestApp();
    [alex, lena] = await Promise.all([t.login('alex.johnson@adminease.test'), t.login('lena.fischer@adminease.test')]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A reset of Alex's with `password` set by IT now (on the test clock). */
  async function resetWithPassword(password: string): Promise<string> {
    // fresh sessions: the tests move the clock past the 24-hour idle limit
    [alex, lena] = await Promise.all([t.login('alex.johnson@adminease.test'), t.login('lena.fischer@adminease.test')]);
    const user = (await loadUser(t.db, alex.user.id))!;
    const priyaId = (await t.db.query(`SELECT id FROM users WHERE email = 'priya.sharma@adminease.test'`)).rows[0].id;
    const rec = await submitForm(t.db, user, 'password-reset', { system_for_reset: 'VPN', reset_reason: 'Forgotten Password' });
    await t.db.tx(async (c) => acknowledgePasswordReset(c, rec.request_id, (await loadUser(c, priyaId))!, t.clock.now()));
    const res = await lena.post('/api/it-support/save-password-reset-details', { form_id: rec.request_id, new_password: password });
    expect(res.status).toBe(200);
    return rec.request_id;
  }
  const data = async (id: string) => (await t.db.query('SELECT data FROM requests WHERE request_id = $1', [id])).rows[0].data;
  const erasures = async (id: string) =>
    (
      await t.db.query(
        `SELECT e.actor_id, e.details FROM request_events e JOIN requests r ON r.id = e.request_pk WHERE r.request_id = $1 AND e.event_type = 'password_erased'`,
        [id],
      )
    ).rows;

  it('are erased once the owner has read the password and confirmed saving it', async () => {
    const id = await resetWithPassword('Vpn#Keep-1111');
    // not before it was shown, and only by its owner
    let res = await alex.post('/api/password-reset/confirm-password-saved', { form_id: id });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/Show the new password/);
    expect((await alex.post('/api/password-reset/reveal-password', { form_id: id })).body.new_password).toBe('Vpn#Keep-1111');
    expect((await lena.post('/api/password-reset/confirm-password-saved', { form_id: id })).status).toBe(403);
    expect((await alex.post('/api/password-reset/confirm-password-saved', {})).status).toBe(400);
    expect(typeof (await data(id)).new_password_enc).toBe('string');

    res = await alex.post('/api/password-reset/confirm-password-saved', { form_id: id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, changed: true, form_id: id, new_password_erased_reason: 'owner_confirmed' });
    const stored = await data(id);
    expect(stored.new_password_enc).toBeNull();
    expect(stored).toMatchObject({ new_password_erased_reason: 'owner_confirmed', has_new_password: true });
    expect(await erasures(id)).toEqual([{ actor_id: alex.user.id, details: { reason: 'owner_confirmed' } }]);

    res = await alex.post('/api/password-reset/reveal-password', { form_id: id });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/erased after you confirmed/);
    expect((await alex.post('/api/password-reset/confirm-password-saved', { form_id: id })).body).toMatchObject({
      success: true,
      changed: false,
    });
    expect(await erasures(id)).toHaveLength(1);
    // IT still sees that a password was set (and completed)
    const details = await lena.get(`/api/it-support/form-details?form_id=${id}`);
    expect(details.body).toMatchObject({ has_new_password: true, it_support_status: 'Completed' });
  });

  it('are erased by the sweep once the time limit (72 hours by default) has passed, read or not', async () => {
    const unread = await resetWithPassword('Vpn#Late-2222');
    const read = await resetWithPassword('Vpn#Late-3333');
    expect((await alex.post('/api/password-reset/reveal-password', { form_id: read })).status).toBe(200);
    t.clock.advance(71 * 3600 * 1000);
    expect(await sweepExpiredResetPasswords(t.db, t.clock.now(), t.app.ctx.config.resetPasswordTtlHours)).not.toContain(unread);
    expect(typeof (await data(unread)).new_password_enc).toBe('string');
    t.clock.advance(2 * 3600 * 1000);
    const erased = await sweepExpiredResetPasswords(t.db, t.clock.now(), t.app.ctx.config.resetPasswordTtlHours);
    expect(erased).toEqual(expect.arrayContaining([unread, read]));
    for (const id of [unread, read]) {
      expect((await data(id)).new_password_enc).toBeNull();
      expect((await data(id)).new_password_erased_reason).toBe('time_limit');
      expect(await erasures(id)).toEqual([{ actor_id: null, details: { reason: 'time_limit', ttl_hours: 72 } }]);
    }
    // a second sweep (another instance) finds nothing more to do
    expect(await sweepExpiredResetPasswords(t.db, t.clock.now(), 72)).toEqual([]);
    alex = await t.login('alex.johnson@adminease.test');
    const res = await alex.post('/api/password-reset/reveal-password', { form_id: unread });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/not collected in time/);
  });

  it('past the time limit are erased by the reveal call itself, without waiting for a sweep', async () => {
    const id = await resetWithPassword('Vpn#Lazy-4444');
    t.clock.advance(73 * 3600 * 1000);
    alex = await t.login('alex.johnson@adminease.test');
    const res = await alex.post('/api/password-reset/reveal-password', { form_id: id });
    expect(res.status).toBe(409);
    expect(res.text).not.toContain('Vpn#Lazy-4444');
    expect((await data(id)).new_password_enc).toBeNull();
    expect(await erasures(id)).toHaveLength(1);
  });

  it('past the time limit are erased by a server at start, without anyone calling it', async () => {
    const id = await resetWithPassword('Vpn#Boot-5555');
    t.clock.advance(73 * 3600 * 1000);
    const db = createDb(t.url, 2);
    const app = await buildApp({ db, config: t.app.ctx.config, clock: t.clock, logger: false });
    try {
      for (let i = 0; i < 100 && typeof (await data(id)).new_password_enc === 'string'; i += 1) await new Promise((r) => setTimeout(r, 50));
      expect((await data(id)).new_password_enc).toBeNull();
      expect(await erasures(id)).toHaveLength(1);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it("of older rows without the moment IT set them count from the start of IT's day on the business calendar", async () => {
    // it_helpdesk_date 24 November 2026 begins at 18:30 UTC on the 23rd in India: 72 hours later is 18:30 UTC on the 26th
    expect(resetPasswordExpiry({ it_helpdesk_date: '2026-11-24' }, new Date(), 72).toISOString()).toBe('2026-11-26T18:30:00.000Z');
    const id = await resetWithPassword('Vpn#Old-6666');
    await t.db.query(
      `UPDATE requests SET data = (data - 'new_password_set_at') || '{"it_helpdesk_date": "2026-11-24"}'::jsonb, created_at = '2026-11-20T00:00:00Z' WHERE request_id = $1`,
      [id],
    );
    expect(await sweepExpiredResetPasswords(t.db, new Date('2026-11-26T18:29:00Z'), 72)).not.toContain(id);
    expect(typeof (await data(id)).new_password_enc).toBe('string');
    expect(await sweepExpiredResetPasswords(t.db, new Date('2026-11-26T18:31:00Z'), 72)).toContain(id);
    expect((await data(id)).new_password_enc).toBeNull();
  });

  it('follow ADMINEASE_RESET_PASSWORD_TTL_HOURS, which must be a sane number of hours', () => {
    expect(loadConfig({}).resetPasswordTtlHours).toBe(72);
    expect(loadConfig({ ADMINEASE_RESET_PASSWORD_TTL_HOURS: '4' }).resetPasswordTtlHours).toBe(4);
    for (const bad of ['0', '-1', 'soon', '100000']) {
      expect(() => loadConfig({ ADMINEASE_RESET_PASSWORD_TTL_HOURS: bad })).toThrow(/ADMINEASE_RESET_PASSWORD_TTL_HOURS/);
    }
  });
});
