// Reminders and escalation (issue 20) with a controllable clock and two server instances on one database: a stage
// waiting the first limit of working days reminds its approver once a day; after the second limit it escalates once
// to the approver's manager, who may decide it (recorded as an escalation); weekends do not count; the overdue list
// and the queue rows say how long items waited; the per-type settings are the administrator's.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type Db, createDb } from '../db/pool.js';
import { type Factories, factories } from '../test/factories.js';
import { TestClock, type TestApp, startTestApp } from '../test/harness.js';
import { type SweepResult, sweepReminders } from './reminders.js';

let t: TestApp;
let f: Factories;
let second: { app: FastifyInstance; db: Db; clock: TestClock };

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  const db = createDb(t.url, 5);
  const clock = new TestClock();
  const config = { ...loadConfig({ ...process.env, ADMINEASE_DEMO: '1' }), databaseUrl: t.url, logLevel: 'silent' };
  const app = await buildApp({ db, config, clock, logger: false });
  await app.ready();
  second = { app, db, clock };
});
afterAll(async () => {
  await second?.app.close();
  await second?.db.close();
  await t?.close();
});

/** Both instances' clocks at 10:00 on a business date (Asia/Kolkata, UTC+5:30). */
function at(date: string) {
  t.clock.offsetMs = Date.parse(`${date}T04:30:00Z`) - Date.now();
  second.clock.offsetMs = t.clock.offsetMs;
}

/** Both instances poll their job schedulers at the same moment, twice. */
async function bothPoll() {
  await Promise.all([t.app.ctx.jobs.runDue(), second.app.ctx.jobs.runDue()]);
  await Promise.all([t.app.ctx.jobs.runDue(), second.app.ctx.jobs.runDue()]);
}

const titles = async (userId: number, formId: string, prefix: string) =>
  (await t.db.query('SELECT title FROM notifications WHERE user_id = $1 AND form_id = $2 ORDER BY id', [userId, formId])).rows
    .map((r) => r.title as string)
    .filter((x) => x.startsWith(prefix));

/** The database as the sweep sees it, noting the requests its selection of due stages read. */
function watchingSweep() {
  const read: string[] = [];
  const watching = {
    ...t.db,
    query: async (q: string, v?: unknown[]) => {
      const r = await t.db.query(q, v);
      if (/JOIN approvals w ON/.test(q)) read.push(...r.rows.map((x: { request_id: string }) => x.request_id));
      return r;
    },
  } as typeof t.db;
  return { read, watching };
}

describe('reminders and escalation', () => {
  it('remind once a day after 2 working days, escalate once after 5 to the manager, who decides it', async () => {
    const boss = await f.person({ kind: 'line_manager', first_name: 'Bina' });
    const manager = await f.person({ kind: 'line_manager', manager: boss });
    const hr = await f.person({ kind: 'hr' });
    const employee = await f.person({ kind: 'employee', manager, hr_contact: hr });
    at('2026-12-04'); // a Friday
    const rec = await f.request({ owner: employee, formType: 'leave-request' });
    const administrator = await f.person({ kind: 'admin' });

    at('2026-12-07'); // Monday: one working day (the weekend does not count)
    await bothPoll();
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toEqual([]);

    at('2026-12-08'); // Tuesday: 2 working days
    await bothPoll();
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toEqual([
      `Reminder: Leave Request ${rec.request_id} from ${employee.name} has waited 2 working days for the Line Manager step`,
    ]);
    // The queue row says how long it waited, and that it is overdue.
    const queue = await (await f.login(manager)).get('/api/manager/queue?status=Pending');
    expect(queue.body.find((r: { request_id: string }) => r.request_id === rec.request_id)).toMatchObject({
      waiting_days: 2,
      overdue: true,
    });
    t.clock.advance(3 * 3_600_000); // later the same day: nothing more
    second.clock.advance(3 * 3_600_000);
    await bothPoll();
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);

    at('2026-12-09'); // the next day: one more
    await bothPoll();
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(2);
    expect(await titles(boss.id, rec.request_id, 'Escalated')).toEqual([]);

    at('2026-12-11'); // Friday: 5 working days: escalated to the manager's manager, once
    await bothPoll();
    at('2026-12-14');
    await bothPoll();
    expect(await titles(boss.id, rec.request_id, 'Escalated')).toHaveLength(1);
    const sent = await t.db.query(
      `SELECT kind, count(*)::int AS n FROM approval_reminders WHERE request_pk = $1 GROUP BY kind ORDER BY kind`,
      [rec.id],
    );
    expect(sent.rows).toEqual([
      { kind: 'escalation', n: 1 },
      { kind: 'reminder', n: 4 },
    ]);

    const admin = await t.login(administrator.email); // a session of that day
    const overdue = await admin.get('/api/admin/overdue');
    expect(overdue.status).toBe(200);
    expect(overdue.body.items.find((i: { form_id: string }) => i.form_id === rec.request_id)).toMatchObject({
      stage: 'line_manager',
      waiting_on: manager.name,
      waiting_days: 6,
      escalated_to: boss.name,
    });
    expect((await (await f.login(employee)).get('/api/admin/overdue')).status).toBe(403);

    // The boss decides it; the history records the escalation and the decision after it.
    const b = await f.login(boss);
    const res = await b.post('/api/approvals/bulk', { items: [{ form_id: rec.request_id, decision: 'Approved' }] });
    expect(res.body.results[0]).toMatchObject({ ok: true });
    expect(res.body.results[0].record).toMatchObject({ line_manager_signature: boss.name, line_manager_decided_as: 'escalation' });
    const history = (await b.get(`/api/requests/${rec.request_id}/history`)).body.events.map((e: { summary: string }) => e.summary);
    expect(history).toEqual(
      expect.arrayContaining([
        `Escalated to ${boss.name}: the Line Manager step has waited 5 working days`,
        `Approved by ${boss.name} after escalation (Line Manager)`,
      ]),
    );
    // The next stage (HR) waits from the decision on: nothing is due for it yet.
    at('2026-12-15');
    await bothPoll();
    expect(await titles(hr.id, rec.request_id, 'Reminder')).toEqual([]);
  });

  it('separation of duties holds for reminders and escalation: whoever a delegate decided another step for is left out', async () => {
    const mo = await f.person({ kind: 'line_manager', first_name: 'Mo' });
    const hr = await f.person({ kind: 'hr', manager: mo }); // the HR step would escalate to the HR contact's manager, Mo
    const employee = await f.person({ kind: 'employee', manager: mo, hr_contact: hr });
    const dee = await f.person({ kind: 'employee', first_name: 'Dee' });
    at('2027-01-04'); // a Monday
    const rec = await f.request({ owner: employee, formType: 'leave-request' });
    // Mo is away (Dee decides for him); the HR contact is away too and names Mo.
    const period = { from: '2027-01-04', until: '2027-01-29' };
    expect((await (await f.login(mo)).put('/api/me/out-of-office', { delegate: dee.email, ...period })).status).toBe(200);
    expect((await (await f.login(hr)).put('/api/me/out-of-office', { delegate: mo.email, ...period })).status).toBe(200);
    const decided = await (await f.login(dee)).post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved' });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.form.line_manager_on_behalf_of).toBe(mo.name);
    // The policy keeps Mo from the HR step (a second step of the request, decided for him by Dee) ...
    const refused = await (await f.login(mo)).post('/api/hr/update-status', { form_id: rec.request_id, status: 'Approved' });
    expect(refused.status).toBe(403);

    // ... so he is neither reminded of it (as the away HR contact's delegate) nor is it escalated to him (her manager).
    at('2027-01-06');
    await bothPoll();
    expect(await titles(hr.id, rec.request_id, 'Reminder')).toHaveLength(1);
    expect(await titles(mo.id, rec.request_id, 'Reminder')).toEqual([]);
    at('2027-01-11');
    await bothPoll();
    const hrStage = (await t.db.query(`SELECT escalated_to_id FROM approvals WHERE request_pk = $1 AND stage = 'hr'`, [rec.id])).rows[0];
    expect(hrStage.escalated_to_id).not.toBeNull();
    expect(hrStage.escalated_to_id).not.toBe(mo.id);
    expect(await titles(mo.id, rec.request_id, 'Escalated')).toEqual([]);
    const sent = await t.db.query(`SELECT recipients FROM approval_reminders WHERE request_pk = $1`, [rec.id]);
    expect(sent.rows.flatMap((r) => r.recipients)).not.toContain(mo.id);
  });

  it('on a chain defined as data, the generic queue and the notifications leave out whoever a delegate decided another step for', async () => {
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const mo = await f.person({ kind: 'finance', first_name: 'Mo' }); // a finance officer who is also a line manager
    const colleague = await f.person({ kind: 'finance' });
    const employee = await f.person({ kind: 'employee', manager: mo });
    const dee = await f.person({ kind: 'employee', first_name: 'Dee' });
    const formType = `duty-check-${String.fromCharCode(97 + (process.pid % 26))}`;
    const created = await admin.post('/api/admin/form-types', {
      form_type: formType,
      title: 'Duty check',
      category: 'Finance',
      description: 'The line manager, then finance.',
      enabled: true,
      fields: [{ name: 'topic', label: 'Topic', type: 'text', required: true }],
      chain: [{ approver: 'line_manager' }, { approver: 'group:finance' }],
    });
    expect(created.status, created.text).toBe(201);
    at('2027-02-01');
    const submitted = await (await f.login(employee)).post(`/api/forms/${formType}`, { topic: 'Budget' });
    expect(submitted.status, submitted.text).toBeLessThan(300);
    const id = String((submitted.body.form ?? submitted.body.record ?? submitted.body).request_id);
    expect(
      (await (await f.login(mo)).put('/api/me/out-of-office', { delegate: dee.email, from: '2027-02-01', until: '2027-02-05' })).status,
    ).toBe(200);
    const res = await (await f.login(dee)).post('/api/approvals/bulk', { items: [{ form_id: id, decision: 'Approved' }] });
    expect(res.body.results[0], JSON.stringify(res.body)).toMatchObject({ ok: true });
    const queueOf = async (p: typeof mo) =>
      ((await (await f.login(p)).get('/api/approvals/queue')).body.items ?? []).map((i: { form_id: string }) => i.form_id);
    expect(await queueOf(colleague)).toContain(id);
    expect(await queueOf(mo)).not.toContain(id);
    const awaiting = async (userId: number) =>
      (await t.db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND form_id = $2 AND awaiting', [userId, id]))
        .rows[0].n;
    await expect.poll(() => awaiting(colleague.id)).toBeGreaterThan(0);
    const stageKey = (await t.db.query('SELECT current_stage FROM requests WHERE request_id = $1', [id])).rows[0].current_stage;
    const mine = await t.db.query('SELECT 1 FROM notifications WHERE user_id = $1 AND form_id = $2 AND stage = $3', [mo.id, id, stageKey]);
    expect(mine.rowCount).toBe(0);
  });

  it('the administrator changes the limits per form type; bad settings are refused', async () => {
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const list = await admin.get('/api/admin/reminder-settings');
    expect(list.body.defaults).toEqual({ remind_after_days: 2, escalate_after_days: 5 });
    expect(list.body.form_types.find((x: { form_type: string }) => x.form_type === 'petty-cash')).toMatchObject({
      remind_after_days: 2,
      escalate_after_days: 5,
      custom: false,
    });
    expect((await admin.put('/api/admin/reminder-settings/petty-cash', { remind_after_days: 4, escalate_after_days: 3 })).status).toBe(400);
    expect((await admin.put('/api/admin/reminder-settings/petty-cash', { remind_after_days: 0, escalate_after_days: 3 })).status).toBe(400);
    expect((await admin.put('/api/admin/reminder-settings/no-such-type', { remind_after_days: 1, escalate_after_days: 3 })).status).toBe(
      404,
    );
    const ok = await admin.put('/api/admin/reminder-settings/petty-cash', { remind_after_days: 1, escalate_after_days: 3 });
    expect(ok.status, ok.text).toBe(200);

    const manager = await f.person({ kind: 'line_manager' });
    const employee = await f.person({ kind: 'employee', manager });
    at('2026-12-21'); // Monday
    const rec = await f.request({ owner: employee, formType: 'petty-cash' });
    at('2026-12-22'); // one working day: reminded with the type's own limit
    await bothPoll();
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);
  });

  it('a backlog longer than one pass is worked through by the next passes; a stage done today is not looked at again', async () => {
    at('2027-03-01'); // Monday
    const mine = [];
    for (let k = 0; k < 3; k += 1) {
      const manager = await f.person({ kind: 'line_manager' });
      const employee = await f.person({ kind: 'employee', manager });
      // (leave requests: their limits are the defaults, remind after 2 working days and escalate after 5)
      mine.push({ manager, rec: await f.request({ owner: employee, formType: 'leave-request' }) });
    }
    at('2027-03-03'); // Wednesday: 2 working days; everything the earlier tests left waiting is due too
    const passes: SweepResult[] = [];
    const pass = () => sweepReminders(t.db, t.clock.now(), { mail: false, batch: 2 });
    for (let p = await pass(); passes.length < 100; p = await pass()) {
      passes.push(p);
      if (p.reminded === 0 && p.escalated === 0) break;
    }
    // Two stages a pass: more than one pass, each reminding stages the ones before it did not.
    expect(passes.length).toBeGreaterThan(2);
    expect(passes.at(-1)).toEqual({ reminded: 0, escalated: 0, unescalated: 0 });
    for (const { manager, rec } of mine) expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);
    // Done for today: a later pass does not read them again (before, every pass re-read and re-checked every due
    // stage). It reads only stages whose escalation may fall due (by calendar days; here the earlier tests' older ones).
    const { read, watching } = watchingSweep();
    t.clock.advance(2 * 3_600_000);
    expect(await sweepReminders(watching, t.clock.now(), { mail: false })).toEqual({ reminded: 0, escalated: 0, unescalated: 0 });
    for (const { rec } of mine) expect(read).not.toContain(rec.request_id);
  });

  it('an escalation that falls due later the same day (the limits changed) is still made by a later pass', async () => {
    const administrator = await f.person({ kind: 'admin' });
    const boss = await f.person({ kind: 'line_manager' });
    const manager = await f.person({ kind: 'line_manager', manager: boss });
    const employee = await f.person({ kind: 'employee', manager });
    at('2027-04-05'); // Monday
    const rec = await f.request({ owner: employee, formType: 'purchase-requisition' });
    at('2027-04-08'); // Thursday: 3 working days, reminded (escalation after 5)
    await sweepReminders(t.db, t.clock.now(), { mail: false });
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);
    expect(await titles(boss.id, rec.request_id, 'Escalated')).toEqual([]);
    const admin = await f.login(administrator); // a session of that day
    const put = await admin.put('/api/admin/reminder-settings/purchase-requisition', { remind_after_days: 2, escalate_after_days: 3 });
    expect(put.status, put.text).toBe(200);
    t.clock.advance(3_600_000);
    await sweepReminders(t.db, t.clock.now(), { mail: false });
    expect(await titles(boss.id, rec.request_id, 'Escalated')).toHaveLength(1);
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);
  });

  it('a step reminded today whose escalation is due by calendar days but not by working days is read once a day, and again after the calendar changes', async () => {
    const boss = await f.person({ kind: 'line_manager' });
    const manager = await f.person({ kind: 'line_manager', manager: boss });
    const employee = await f.person({ kind: 'employee', manager });
    at('2027-06-03'); // Thursday
    const rec = await f.request({ owner: employee, formType: 'leave-request' });
    at('2027-06-07'); // Monday: 4 calendar days but 2 working days: reminded; escalation (after 5) not due
    await sweepReminders(t.db, t.clock.now(), { mail: false });
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);
    const laterPass = async () => {
      const { read, watching } = watchingSweep();
      t.clock.advance(3_600_000);
      expect(await sweepReminders(watching, t.clock.now(), { mail: false })).toEqual({ reminded: 0, escalated: 0, unescalated: 0 });
      return read;
    };
    // Later that day it is not read again (before: every pass, every ten minutes, re-read and re-checked it).
    expect(await laterPass()).not.toContain(rec.request_id);
    // A change of the calendar (here a holiday added, by any path) may change what is due: the next pass reads it again,
    // and the one after does not.
    await t.db.query(`INSERT INTO company_holidays (date, name, closed) VALUES ('2027-12-30', 'Year-end closure', true)`);
    try {
      expect(await laterPass()).toContain(rec.request_id);
      expect(await laterPass()).not.toContain(rec.request_id);
    } finally {
      await t.db.query(`DELETE FROM company_holidays WHERE date = '2027-12-30' AND name = 'Year-end closure'`);
    }
    // The next day it is looked at again (and reminded again: 3 working days).
    at('2027-06-08');
    const { read, watching } = watchingSweep();
    await sweepReminders(watching, t.clock.now(), { mail: false });
    expect(read).toContain(rec.request_id);
    expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(2);
    expect(await titles(boss.id, rec.request_id, 'Escalated')).toEqual([]);
  });

  it('an escalation that finds nobody to go to is recorded for the day: later passes that day leave it alone, the next day tries again', async () => {
    const manager = await f.person({ kind: 'line_manager' }); // nobody above them
    const employee = await f.person({ kind: 'employee', manager });
    at('2027-05-03'); // Monday
    const rec = await f.request({ owner: employee, formType: 'leave-request' });
    const escalation = async () =>
      (
        await t.db.query(
          `SELECT a.escalated_to_id, (SELECT array_agg(ar.sent_on::text) FROM approval_reminders ar
                                       WHERE ar.request_pk = r.id AND ar.kind = 'no_escalation_target') AS nobody_on
             FROM requests r JOIN approvals a ON a.request_pk = r.id AND a.stage = 'line_manager' WHERE r.request_id = $1`,
          [rec.request_id],
        )
      ).rows[0];
    // No administrator either, for this day.
    const admins = (await t.db.query(`UPDATE users SET active = false WHERE user_type = 'admin' AND active RETURNING id`)).rows.map(
      (x) => x.id as number,
    );
    try {
      at('2027-05-10'); // the next Monday: 5 working days
      const first = await sweepReminders(t.db, t.clock.now(), { mail: false });
      expect(first.unescalated).toBeGreaterThanOrEqual(1);
      expect(await escalation()).toEqual({ escalated_to_id: null, nobody_on: ['2027-05-10'] });
      expect(await titles(manager.id, rec.request_id, 'Reminder')).toHaveLength(1);
      // Later that day: the stage is not read, nor tried, again.
      const { read, watching } = watchingSweep();
      t.clock.advance(2 * 3_600_000);
      expect((await sweepReminders(watching, t.clock.now(), { mail: false })).unescalated).toBe(0);
      expect(read).not.toContain(rec.request_id);
    } finally {
      await t.db.query('UPDATE users SET active = true WHERE id = ANY($1::int[])', [admins]);
    }
    // The next business day, with the administrators back: it escalates to one of them.
    at('2027-05-11');
    await sweepReminders(t.db, t.clock.now(), { mail: false });
    expect(admins).toContain((await escalation()).escalated_to_id);
  });
});
