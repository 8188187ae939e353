// The administrators' audit log and the /api/admin scope: only administrators pass; the log is filtered and paged
// newest first.
import { businessToday } from '../../domain/business-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, type Person, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { writeAudit } from './audit.js';

let t: TestApp;
let f: Factories;
let admin: Person;
let other: Person;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.person({ kind: 'admin' });
  other = await f.person({ kind: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

describe('the /api/admin scope', () => {
  it.each(['employee', 'line_manager', 'hr', 'finance', 'it', 'facilities_desk', 'facilities_manager'] as const)(
    'answers 403 {error} to a %s',
    async (kind) => {
      const c = await f.login(await f.person({ kind }));
      const res = await c.get('/api/admin/audit');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Only an administrator can do that' });
    },
  );

  it('answers 401 without a session', async () => {
    expect((await t.anonymous.get('/api/admin/audit')).status).toBe(401);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists entries newest first with the actor, filtered by actor, action, target and time, paged', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const code = `T-${Date.now()}`;
    await writeAudit(t.db, {
      actorId: admin.id,
      action: 'person.create',
      targetType: 'person',
      targetId: code,
      after: { first_name: 'Ann' },
    });
    await writeAudit(t.db, {
      actorId: admin.id,
      action: 'person.update',
      targetType: 'person',
      targetId: code,
      before: { first_name: 'Ann' },
      after: { first_name: 'Anne' },
    });
    await writeAudit(t.db, {
      actorId: other.id,
      action: 'department.create',
      targetType: 'department',
      targetId: 'QA',
      after: { name: 'QA' },
    });
    const c = await f.login(admin);

    const all = await c.get(`/api/admin/audit?from=${encodeURIComponent(since)}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.entries.map((e: any) => e.action)).toEqual(['department.create', 'person.update', 'person.create']);
    expect(all.body.entries[1]).toMatchObject({
      actor: { employee_code: admin.employee_code, email: admin.email, name: admin.name },
      target_type: 'person',
      target_id: code,
      before: { first_name: 'Ann' },
      after: { first_name: 'Anne' },
    });

    const byActor = await c.get(`/api/admin/audit?actor=${other.employee_code}`);
    expect(byActor.body.entries.map((e: any) => e.target_id)).toEqual(['QA']);
    const byEmail = await c.get(`/api/admin/audit?actor=${encodeURIComponent(admin.email.toUpperCase())}`);
    expect(byEmail.body.total).toBe(2);
    const byPrefix = await c.get(`/api/admin/audit?action=person.&target=${code}`);
    expect(byPrefix.body.total).toBe(2);
    const exact = await c.get(`/api/admin/audit?action=person.update&target=person:${code}`);
    expect(exact.body.entries.map((e: any) => e.action)).toEqual(['person.update']);
    const future = await c.get('/api/admin/audit?from=2999-01-01');
    expect(future.body).toMatchObject({ total: 0, entries: [] });
    const today = businessToday();
    const untilToday = await c.get(`/api/admin/audit?to=${today}&actor=${other.employee_code}`);
    expect(untilToday.body.total).toBe(1);

    const page1 = await c.get(`/api/admin/audit?from=${encodeURIComponent(since)}&page_size=2`);
    const page2 = await c.get(`/api/admin/audit?from=${encodeURIComponent(since)}&page_size=2&page=2`);
    expect(page1.body).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(page1.body.entries).toHaveLength(2);
    expect(page2.body.entries.map((e: any) => e.action)).toEqual(['person.create']);
  });

  it('refuses bad filters with 400 {error}', async () => {
    const c = await f.login(admin);
    for (const q of ['from=yesterday', 'page=0', 'page_size=1000', 'to=2024-13-45T']) {
      const res = await c.get(`/api/admin/audit?${q}`);
      expect(res.status, q).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });
});
