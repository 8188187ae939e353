// GET/PUT /api/users/me/preferences: defaults, partial updates merged per user, validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../domain/preferences.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('/api/users/me/preferences', () => {
  it('answers the defaults before anything is stored', async () => {
    const alex = await t.login('alex.johnson@adminease.test');
    const res = await alex.get('/api/users/me/preferences');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULT_PREFERENCES);
  });

  it('merges a partial update, stores it for that user only', async () => {
    const maria = await t.login('maria.garcia@adminease.test');
    const res = await maria.put('/api/users/me/preferences', { sound_enabled: false, display_density: 'compact' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...DEFAULT_PREFERENCES, sound_enabled: false, display_density: 'compact' });
    const again = await maria.put('/api/users/me/preferences', { speech_rate: 1.25 });
    expect(again.body).toEqual({ ...DEFAULT_PREFERENCES, sound_enabled: false, display_density: 'compact', speech_rate: 1.25 });
    expect((await maria.get('/api/users/me/preferences')).body.speech_rate).toBe(1.25);
    const stored = await t.db.query('SELECT preferences FROM users WHERE email = $1', ['maria.garcia@adminease.test']);
    expect(stored.rows[0].preferences).toEqual({ sound_enabled: false, display_density: 'compact', speech_rate: 1.25 });
    const sam = await t.login('sam.wilson@adminease.test');
    expect((await sam.get('/api/users/me/preferences')).body).toEqual(DEFAULT_PREFERENCES);
  });

  it.each([
    [{ sound_enabled: 'yes' }, 'sound_enabled must be true or false'],
    [{ speech_rate: 5 }, 'speech_rate must be between 0.5 and 2'],
    [{ display_density: 'huge' }, 'display_density must be one of: comfortable, compact'],
    [{ theme: 'dark' }],
    [{ user_id: 1 }],
  ])('400 on %j and nothing stored', async (body, error?: string) => {
    const nina = await t.login('nina.patel@adminease.test');
    const res = await nina.put('/api/users/me/preferences', body);
    expect(res.status).toBe(400);
    if (error) expect(res.body.error).toBe(error);
    else expect(typeof res.body.error).toBe('string');
    const stored = await t.db.query('SELECT preferences FROM users WHERE email = $1', ['nina.patel@adminease.test']);
    expect(stored.rows[0].preferences).toEqual({});
  });

  it('ignores stored values that are no longer valid', async () => {
    await t.db.query(
      `UPDATE users SET preferences = '{"speech_rate": 99, "sound_enabled": false, "legacy": 1}' WHERE email = 'chloe.martin@adminease.test'`,
    );
    const chloe = await t.login('chloe.martin@adminease.test');
    expect((await chloe.get('/api/users/me/preferences')).body).toEqual({ ...DEFAULT_PREFERENCES, sound_enabled: false });
  });

  it('needs a session', async () => {
    expect((await t.anonymous.get('/api/users/me/preferences')).status).toBe(401);
    expect((await t.anonymous.put('/api/users/me/preferences', { sound_enabled: false })).status).toBe(401);
  });
});
