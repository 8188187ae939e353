// Notifications from decisions, the form-state API and the live stream across two server instances.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { readEventStream } from '../../domain/event-stream.js';
import { decideStage } from '../approvals/service.js';
import { loadConfig } from '../config.js';
import { type Db, createDb } from '../db/pool.js';
import { setEmailQueueing } from '../events/notify.js';
import { recordEvent } from '../events/service.js';
import { submitForm } from '../forms/service.js';
import { type AuthUser, loadUserByEmail } from '../people/service.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { Mailer } from './mailer.js';
import { nextFreeWeekday, sampleInput } from '../approvals/test-helpers.js';
import { liveHubOf } from './routes.js';
import { stateFingerprint } from '../test/factories.js';

const ALEX = 'alex.johnson@adminease.test';
const PRIYA = 'priya.sharma@adminease.test';
const MEERA = 'meera.iyer@adminease.test';
const ARJUN = 'arjun.mehta@adminease.test';
const HANNAH = 'hannah.kim@adminease.test';

let t: TestApp;
let alex: ApiClient;
let priya: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login(ALEX);
  priya = await t.login(PRIYA);
});
afterAll(async () => {
  await t?.close();
});

async function user(email: string): Promise<AuthUser> {
  const u = await loadUserByEmail(t.db, email);
  if (!u) throw new Error(`no user ${email}`);
  const { password_hash: _hash, ...rest } = u;
  return rest;
}

/** A sick-leave request of Alex on a working day some months ahead (a different day each time). */
async function submitLeave(db: Db = t.db) {
  const day = nextFreeWeekday();
  return submitForm(db, await user(ALEX), 'leave-request', {
    leave_type: 'Sick',
    start_date: day,
    end_date: day,
    reason: 'Doctor appointment',
  });
}

async function notificationsOf(email: string, requestId: string) {
  const r = await t.db.query(
    `SELECT n.* FROM notifications n JOIN users u ON u.id = n.user_id WHERE lower(u.email) = $1 AND n.form_id = $2 ORDER BY n.id`,
    [email, requestId],
  );
  return r.rows;
}

describe('notifications from the event log', () => {
  it('a decision gives the owner exactly one notification with the old and new values', async () => {
    const rec = await submitLeave();
    expect(await notificationsOf(ALEX, rec.request_id)).toHaveLength(0); // own submission: nothing for the owner
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    const mine = await notificationsOf(ALEX, rec.request_id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      form_type: 'leave-request',
      form_id: rec.request_id,
      approval_field: 'line_manager_approval',
      old_value: 'Pending',
      new_value: 'Approved',
      change_type: 'approved',
      read_at: null,
    });
    expect(mine[0].title).toContain(rec.request_id);

    // The final decision also moves the status; the owner still gets one notification, the decision's.
    await decideStage(t.db, await user(MEERA), { ref: rec.request_id, decision: 'Rejected', reason: 'Team offsite that day' });
    const after = await notificationsOf(ALEX, rec.request_id);
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({ approval_field: 'hr_approval', old_value: 'Pending', new_value: 'Rejected', change_type: 'rejected' });
    // Without SMTP settings nothing is queued for e-mail.
    expect(after[1].email_state).toBeNull();
  });

  it('approvers hear when something new reaches their stage', async () => {
    const rec = await submitLeave();
    const toPriya = await notificationsOf(PRIYA, rec.request_id);
    expect(toPriya).toHaveLength(1);
    expect(toPriya[0]).toMatchObject({ approval_field: 'line_manager_approval', new_value: 'Pending', change_type: 'pending' });
    expect(await notificationsOf(MEERA, rec.request_id)).toHaveLength(0);
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    const toMeera = await notificationsOf(MEERA, rec.request_id);
    expect(toMeera).toHaveLength(1);
    expect(toMeera[0].title).toMatch(/awaits HR review/);
    expect(toMeera[0].change_type).toBe('pending');

    // Finance: every finance staff member hears of a petty-cash request the line manager approved.
    const pc = await submitForm(t.db, await user(ALEX), 'petty-cash', {
      amount_requested: 40,
      expected_settlement_date: '2031-02-03',
      purpose: 'Team lunch',
    });
    await decideStage(t.db, await user(PRIYA), { ref: pc.request_id, decision: 'Approved' });
    const finance = await t.db.query(
      `SELECT u.email FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.form_id = $1 AND u.user_type = 'finance_staff' ORDER BY u.email`,
      [pc.request_id],
    );
    const financeStaff = await t.db.query(`SELECT email FROM users WHERE user_type = 'finance_staff' ORDER BY email`);
    expect(finance.rows.map((r) => r.email)).toEqual(financeStaff.rows.map((r) => r.email));
  });
  it('one change written as several events gives each person one notification, the most telling one', async () => {
    const inc = await submitForm(t.db, await user(ALEX), 'it-incident', {
      affected_system: 'VPN',
      incident_description: 'Drops every minute',
    });
    const it = (await t.db.query(`SELECT id FROM users WHERE user_type = 'it_staff' ORDER BY id`)).rows.map((r) => r.id);
    const toIt = await t.db.query(`SELECT user_id FROM notifications WHERE form_id = $1 ORDER BY user_id`, [inc.request_id]);
    expect(toIt.rows.map((r) => r.user_id)).toEqual(it);
    const ref = { pk: inc.id, request_id: inc.request_id, form_type: 'it-incident', employee_id: inc.employee_user_id };
    await t.db.tx(async (c) => {
      await recordEvent(c, {
        request: ref,
        actorId: it[0],
        eventType: 'ticket_updated',
        stage: 'it_helpdesk',
        field: 'it_helpdesk_ticket_number',
        oldValue: null,
        newValue: 'TICKET-2031-001',
      });
      await recordEvent(c, {
        request: ref,
        actorId: it[0],
        eventType: 'status_change',
        stage: 'it_helpdesk',
        field: 'status',
        oldValue: 'Open',
        newValue: 'In Progress',
      });
      await recordEvent(c, {
        request: ref,
        actorId: it[0],
        eventType: 'ticket_updated',
        stage: 'it_helpdesk',
        field: 'it_helpdesk_assigned_to',
        oldValue: null,
        newValue: 'Omar Haddad',
      });
    });
    const mine = await notificationsOf(ALEX, inc.request_id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ approval_field: 'status', old_value: 'Open', new_value: 'In Progress', change_type: 'in_progress' });
    // The employee's answer to a resolution reaches IT; events marked notify: false create nothing.
    await t.db.tx(async (c) => {
      await recordEvent(c, {
        request: ref,
        actorId: inc.employee_user_id,
        eventType: 'employee_confirmation',
        stage: 'it_helpdesk',
        field: 'employee_confirmation_status',
        oldValue: 'Pending',
        newValue: 'Rejected',
      });
      await recordEvent(c, {
        request: ref,
        actorId: it[0],
        eventType: 'decision',
        stage: 'it_helpdesk',
        field: 'it_helpdesk_approval',
        oldValue: 'Pending',
        newValue: 'Completed',
        notify: false,
      });
    });
    const itAfter = await t.db.query(
      `SELECT user_id, title, change_type FROM notifications WHERE form_id = $1 AND user_id = ANY($2) ORDER BY id`,
      [inc.request_id, it],
    );
    expect(
      itAfter.rows
        .filter((r) => /not solved/.test(r.title))
        .map((r) => r.user_id)
        .sort(),
    ).toEqual([...it].sort());
    expect(await notificationsOf(ALEX, inc.request_id)).toHaveLength(1);
  });

  it('a password reset waits for the line manager, then reaches IT', async () => {
    const pr = await submitForm(t.db, await user(ALEX), 'password-reset', { system_for_reset: 'VPN', reset_reason: 'Locked Account' });
    const first = await t.db.query(
      `SELECT u.email, n.approval_field, n.title FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.form_id = $1`,
      [pr.request_id],
    );
    expect(first.rows).toEqual([
      { email: PRIYA, approval_field: 'line_manager_acknowledgement', title: expect.stringMatching(/awaits your acknowledgement/) },
    ]);
    const ref = { pk: pr.id, request_id: pr.request_id, form_type: 'password-reset', employee_id: pr.employee_user_id };
    const priyaId = (await user(PRIYA)).id;
    await t.db.tx(async (c) => {
      await recordEvent(c, {
        request: ref,
        actorId: priyaId,
        eventType: 'acknowledged',
        stage: 'line_manager',
        field: 'line_manager_acknowledgement',
        oldValue: 'false',
        newValue: 'true',
      });
      await recordEvent(c, {
        request: ref,
        actorId: priyaId,
        eventType: 'status_change',
        stage: 'it_helpdesk',
        field: 'it_support_status',
        oldValue: 'Pending Manager',
        newValue: 'Pending IT Action',
      });
    });
    const owner = await notificationsOf(ALEX, pr.request_id);
    expect(owner).toHaveLength(1);
    const it = await t.db.query(
      `SELECT count(*)::int AS n FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.form_id = $1 AND u.user_type = 'it_staff'`,
      [pr.request_id],
    );
    const itStaff = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE user_type = 'it_staff'`);
    expect(it.rows[0].n).toBe(itStaff.rows[0].n);
  });
});

describe('recipients', () => {
  it("a deleted person's notifications go with them (kept by a trigger, not a key that locks the recipient)", async () => {
    const rec = await submitLeave();
    const u = await t.db.query(`INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, employee_code)
                                VALUES ('temp.reader@adminease.test', 'x', 'Temp', 'Reader', 'Finance Staff', 'finance_staff', 'TMP-001') RETURNING id`);
    const ev = await t.db.query('SELECT max(id) AS id FROM request_events WHERE request_pk = $1', [rec.id]);
    await t.db.query(
      `INSERT INTO notifications (user_id, event_id, request_pk, title, form_type, form_id) VALUES ($1, $2, $3, 'x', $4, $5)`,
      [u.rows[0].id, ev.rows[0].id, rec.id, rec.form_type, rec.request_id],
    );
    await t.db.query('DELETE FROM users WHERE id = $1', [u.rows[0].id]);
    expect((await t.db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1', [u.rows[0].id])).rows[0].n).toBe(0);
    // Everyone else's are untouched.
    expect((await notificationsOf(PRIYA, rec.request_id)).length).toBe(1);
  });

  it("a group of 1,200 is notified in the decision's own statement, announced in payloads PostgreSQL accepts", async () => {
    await t.db.query(`INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, employee_code)
                      SELECT 'fin' || g || '@bulk.test', 'x', 'Fin', 'Bulk ' || g, 'Finance Staff', 'finance_staff', 'FINB-' || g
                        FROM generate_series(1, 1200) g`);
    try {
      const rec = await submitForm(t.db, await user(ALEX), 'petty-cash', sampleInput('petty-cash'));
      // One NOTIFY payload per new notification would be fine; one for all 1,200 would exceed 8,000 bytes and fail.
      await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
      const n = await t.db.query(
        `SELECT count(*)::int AS n FROM notifications n JOIN users u ON u.id = n.user_id
                                   WHERE n.form_id = $1 AND u.user_type = 'finance_staff'`,
        [rec.request_id],
      );
      expect(n.rows[0].n).toBe(1200 + 2); // the bulk group and the two finance officers of the demo organisation
    } finally {
      await t.db.query(`DELETE FROM users WHERE email LIKE '%@bulk.test'`);
    }
    expect((await t.db.query(`SELECT count(*)::int AS n FROM notifications WHERE user_id NOT IN (SELECT id FROM users)`)).rows[0].n).toBe(
      0,
    );
  });
});

describe('form-state API', () => {
  it('a first check-changes (no snapshot yet) lists the unread notifications and sets the baseline', async () => {
    const maria = await t.login('maria.garcia@adminease.test');
    const list = (await maria.get(`/api/form-state/notifications/${maria.user.id}`)).body;
    expect(list.unread_count).toBeGreaterThan(0); // the demo history
    const first = await maria.post('/api/form-state/check-changes', { user_id: maria.user.id });
    // The updates dialog opens on the first sign-in too: with what the bell lists.
    expect(first.body).toMatchObject({ has_changes: true, count: list.notifications.length });
    expect(first.body.notifications.map((x: any) => x.id)).toEqual(list.notifications.map((x: any) => x.id));
    expect(first.body.snapshot_at).toBeTruthy();
    // The baseline is set: a second check repeats nothing.
    expect((await maria.post('/api/form-state/check-changes', { user_id: maria.user.id })).body).toMatchObject({
      count: 0,
      notifications: [],
    });
    const pc = await submitForm(t.db, await user('maria.garcia@adminease.test'), 'petty-cash', {
      amount_requested: 12,
      expected_settlement_date: '2031-02-03',
      purpose: 'Stamps',
    });
    await decideStage(t.db, await user(PRIYA), { ref: pc.request_id, decision: 'Rejected', reason: 'Use the office supplies budget' });
    const next = await maria.post('/api/form-state/check-changes', { user_id: 'EMP-1002' });
    expect(next.body.notifications.map((x: any) => [x.form_id, x.change_type])).toEqual([[pc.request_id, 'rejected']]);
  });

  it('check-changes after a snapshot returns only newer changes; mark-read hides one for good', async () => {
    // Anything older than the snapshot is not a change.
    const snap = await alex.post('/api/form-state/save-snapshot', { user_id: alex.user.id });
    expect(snap.status).toBe(200);
    expect(snap.body.success).toBe(true);
    const none = await alex.post('/api/form-state/check-changes', { user_id: alex.user.id });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ success: true, has_changes: false, count: 0, notifications: [] });

    const rec = await submitLeave();
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    const changes = await alex.post('/api/form-state/check-changes', { user_id: alex.user.profile.employee_code });
    expect(changes.body.count).toBe(1);
    const n = changes.body.notifications[0];
    expect(Object.keys(n).sort()).toEqual(
      ['approval_field', 'change_type', 'form_id', 'form_type', 'id', 'new_value', 'old_value', 'read', 'timestamp', 'title'].sort(),
    );
    expect(n).toMatchObject({
      form_id: rec.request_id,
      approval_field: 'line_manager_approval',
      old_value: 'Pending',
      new_value: 'Approved',
      change_type: 'approved',
      read: false,
    });
    expect(Number.isNaN(Date.parse(n.timestamp))).toBe(false);

    const list = await alex.get(`/api/form-state/notifications/${alex.user.id}`);
    expect(list.status).toBe(200);
    expect(list.body.notifications.map((x: any) => x.id)).toContain(n.id);
    const unreadBefore = list.body.unread_count;

    const read = await alex.post(`/api/form-state/mark-read/${n.id}`);
    expect(read.status).toBe(200);
    expect(read.body.success).toBe(true);
    // Marking again changes nothing; the notification never comes back.
    expect((await alex.post(`/api/form-state/mark-read/${n.id}`)).status).toBe(200);
    const listAfter = await alex.get(`/api/form-state/notifications/${alex.user.id}`);
    expect(listAfter.body.notifications.map((x: any) => x.id)).not.toContain(n.id);
    expect(listAfter.body.unread_count).toBe(unreadBefore - 1);
    expect((await alex.post('/api/form-state/check-changes', { user_id: alex.user.id })).body.count).toBe(0);
    const relogin = await t.login(ALEX);
    expect((await relogin.get(`/api/form-state/notifications/${alex.user.id}`)).body.notifications.map((x: any) => x.id)).not.toContain(
      n.id,
    );

    // After logout's snapshot, the next check after login has nothing old to repeat.
    await alex.post('/api/form-state/save-snapshot', { user_id: alex.user.id });
    expect((await alex.post('/api/form-state/check-changes', { user_id: alex.user.id })).body.count).toBe(0);
  });

  it("answers 403 for another user's id and 404 (as for a missing one) for another user's notification", async () => {
    const priyaId = priya.user.id;
    expect((await alex.post('/api/form-state/save-snapshot', { user_id: priyaId })).status).toBe(403);
    expect((await alex.post('/api/form-state/check-changes', { user_id: 'MGR-001' })).status).toBe(403);
    const other = await alex.get(`/api/form-state/notifications/${priyaId}`);
    expect(other.status).toBe(403);
    expect(other.body.error).toBeTruthy();
    const pn = await t.db.query('SELECT id FROM notifications WHERE user_id = $1 AND read_at IS NULL LIMIT 1', [priyaId]);
    expect(pn.rows[0]).toBeTruthy();
    // Someone else's notification answers exactly like a missing one (no 403/404 difference that reveals an id)
    // and changes nothing.
    const before = await stateFingerprint(t);
    const others = await alex.post(`/api/form-state/mark-read/${pn.rows[0].id}`);
    const missing = await alex.post('/api/form-state/mark-read/999999999');
    expect(missing.status).toBe(404);
    expect({ status: others.status, body: others.body }).toEqual({ status: missing.status, body: missing.body });
    expect(await stateFingerprint(t)).toEqual(before);
    expect((await t.db.query('SELECT read_at FROM notifications WHERE id = $1', [pn.rows[0].id])).rows[0].read_at).toBeNull();
    expect((await alex.post('/api/form-state/mark-read/abc')).status).toBe(400);
    expect((await alex.post('/api/form-state/check-changes', {})).status).toBe(400);
    expect((await t.anonymous.get(`/api/form-state/notifications/${priyaId}`)).status).toBe(401);
    // HR staff may use their hr_id, as their clients do.
    const meera = await t.login(MEERA);
    expect((await meera.post('/api/form-state/check-changes', { user_id: 'HR-001' })).status).toBe(200);
  });

  it('health answers without a session', async () => {
    const res = await t.anonymous.get('/api/form-state/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'healthy', service: 'form-state', email: 'disabled' });
  });
});

// ---- live stream ---------------------------------------------------------------------------------

interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** A minimal EventSource over node:http that records events and can wait for one. */
function openStream(port: number, token: string, lastEventId?: string) {
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  let status = 0;
  const req = http.get({
    host: '127.0.0.1',
    port,
    path: '/api/events',
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  });
  const opened = new Promise<void>((resolve, reject) => {
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      // The project's one event-stream reader (src/domain/event-stream.ts), as the web app reads this stream.
      void (async () => {
        try {
          for await (const m of readEventStream(res)) {
            events.push({ id: m.id, event: m.event ?? 'message', data: m.data });
            waiters.splice(0).forEach((w) => w());
          }
        } catch {
          // the stream was closed by the test (close()) or by the server
        }
      })();
      resolve();
    });
    req.on('error', reject);
  });
  async function waitFor(pred: (e: SseEvent) => boolean, ms = 3000): Promise<SseEvent> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = events.find(pred);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`);
      await new Promise<void>((r) => {
        const timer = setTimeout(r, left);
        waiters.push(() => {
          clearTimeout(timer);
          r();
        });
      });
    }
  }
  return { events, opened, waitFor, status: () => status, close: () => req.destroy() };
}

describe('GET /api/events across two server instances', () => {
  let second: FastifyInstance;
  let secondDb: Db;
  let port2: number;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    secondDb = createDb(t.url, 5);
    const config = { ...loadConfig({ ...process.env }), databaseUrl: t.url, logLevel: 'silent' };
    second = await buildApp({ db: secondDb, config, clock: t.clock, logger: false });
    await second.listen({ port: 0, host: '127.0.0.1' });
    port2 = (second.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
  });

  it('pushes a decision made on instance 1 to the owner streaming from instance 2 within a second', async () => {
    const stream = openStream(port2, alex.token);
    await stream.opened;
    expect(stream.status()).toBe(200);
    await stream.waitFor((e) => e.event === 'ready');
    const rec = await submitLeave();
    const started = Date.now();
    // The decision is made through instance 1's database pool; the stream is served by instance 2.
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    const ev = await stream.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).form_id === rec.request_id, 1500);
    expect(Date.now() - started).toBeLessThan(1000);
    const n = JSON.parse(ev.data);
    expect(n).toMatchObject({
      approval_field: 'line_manager_approval',
      old_value: 'Pending',
      new_value: 'Approved',
      change_type: 'approved',
    });
    expect(ev.id).toBe(String(n.id));
    // The request change reaches the list too.
    await stream.waitFor((e) => e.event === 'request-changed' && JSON.parse(e.data).request_id === rec.request_id);
    stream.close();
  });

  it("sends nobody else's notifications, and resumes from Last-Event-ID after a reconnect", async () => {
    const priyaStream = openStream(port2, priya.token);
    const alexStream = openStream(port2, alex.token);
    await Promise.all([priyaStream.opened, alexStream.opened]);
    await Promise.all([priyaStream.waitFor((e) => e.event === 'ready'), alexStream.waitFor((e) => e.event === 'ready')]);
    const rec = await submitLeave();
    await priyaStream.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).form_id === rec.request_id);
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    const first = await alexStream.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).form_id === rec.request_id);
    // Priya's stream carries her own notification of the request, never Alex's.
    await new Promise((r) => setTimeout(r, 200));
    expect(priyaStream.events.some((e) => e.id === first.id)).toBe(false);
    expect(alexStream.events.filter((e) => e.event === 'notification').every((e) => JSON.parse(e.data).change_type !== 'pending')).toBe(
      true,
    );
    alexStream.close();
    priyaStream.close();

    // Offline: HR decides while Alex has no stream; the reconnect with Last-Event-ID gets it.
    await decideStage(t.db, await user(MEERA), { ref: rec.request_id, decision: 'Approved' });
    const resumed = openStream(port2, alex.token, first.id);
    await resumed.opened;
    const missed = await resumed.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).approval_field === 'hr_approval');
    expect(JSON.parse(missed.data)).toMatchObject({ form_id: rec.request_id, new_value: 'Approved' });
    resumed.close();
  });

  it("delivers a group stage's notifications, announced together, to each member streaming on the other instance", async () => {
    const arjun = await t.login(ARJUN);
    const hannah = await t.login(HANNAH);
    const streams = [openStream(port2, arjun.token), openStream(port2, hannah.token)];
    await Promise.all(streams.map((s) => s.opened));
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'ready')));
    const rec = await submitForm(t.db, await user(ALEX), 'petty-cash', sampleInput('petty-cash'));
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    const got = await Promise.all(
      streams.map((s) => s.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).form_id === rec.request_id)),
    );
    const stored = [...(await notificationsOf(ARJUN, rec.request_id)), ...(await notificationsOf(HANNAH, rec.request_id))];
    // Each member gets exactly their own row, with its id as the event id.
    expect(got.map((e) => e.id).sort()).toEqual(stored.map((n) => String(n.id)).sort());
    expect(got[0].id).not.toBe(got[1].id);
    for (const s of streams) s.close();
  });

  it('keeps delivering after the listening connection is lost', async () => {
    const stream = openStream(port2, alex.token);
    await stream.opened;
    await stream.waitFor((e) => e.event === 'ready');
    const hub = liveHubOf(second)!;
    hub.simulateConnectionLoss();
    expect(hub.state).toBe('reconnecting');
    const rec = await submitLeave();
    await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
    await stream.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).form_id === rec.request_id, 8000);
    expect(hub.state).toBe('listening');
    stream.close();
  });

  it('refuses a stream without a session and cleans up closed streams', async () => {
    const anon = openStream(port2, 'not-a-token');
    await anon.opened;
    expect(anon.status()).toBe(401);
    anon.close();
    const before = liveHubOf(second)!.clients.size;
    const s = openStream(port2, alex.token);
    await s.opened;
    await s.waitFor((e) => e.event === 'ready');
    expect(liveHubOf(second)!.clients.size).toBe(before + 1);
    s.close();
    for (let i = 0; i < 50 && liveHubOf(second)!.clients.size > before; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(liveHubOf(second)!.clients.size).toBe(before);
  });
});

describe('e-mail', () => {
  it('queues and sends the final decision to the owner when SMTP is configured', async () => {
    const sent: any[] = [];
    setEmailQueueing(true);
    const mailer = new Mailer(
      t.db,
      {
        transport: { jsonTransport: true },
        from: 'AdminEase <no-reply@adminease.test>',
        publicUrl: 'http://portal.test',
        actionTtlHours: 72,
        digestHour: 23,
      },
      { info() {}, warn() {}, error() {} },
      Buffer.alloc(32, 7),
      60_000,
    );
    const transporter = (mailer as any).transporter;
    const original = transporter.sendMail.bind(transporter);
    transporter.sendMail = async (msg: any) => {
      sent.push(msg);
      return original(msg);
    };
    try {
      const rec = await submitLeave();
      await decideStage(t.db, await user(PRIYA), { ref: rec.request_id, decision: 'Approved' });
      await decideStage(t.db, await user(MEERA), { ref: rec.request_id, decision: 'Approved' });
      await mailer.kick();
      const rows = await t.db.query(
        `SELECT u.email, n.email_kind, n.email_state FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.form_id = $1 ORDER BY n.id`,
        [rec.request_id],
      );
      // Priya (new item), Meera (new item), Alex (line manager approval: not final), Alex (HR approval: final). The
      // new items were acted on before the mailer ran, so their e-mails are moot and skipped.
      expect(rows.rows).toEqual([
        { email: PRIYA, email_kind: 'new_item', email_state: 'skipped' },
        { email: ALEX, email_kind: null, email_state: null },
        { email: MEERA, email_kind: 'new_item', email_state: 'skipped' },
        { email: ALEX, email_kind: 'final_decision', email_state: 'sent' },
      ]);
      const toAlex = sent.find((m) => m.to === ALEX);
      expect(toAlex.subject).toContain(rec.request_id);
      expect(toAlex.text).toMatch(/Decision: Approved by \S+ \S+ \(HR Approval\)/);
      // The link opens the request itself (the web's /requests/<id>; what else the e-mails say:
      // src/server/email/email.test.ts).
      expect(toAlex.text).toContain(`http://portal.test/requests/${rec.request_id}\n`);
      expect(sent.map((m) => m.to)).toEqual([ALEX]);
    } finally {
      setEmailQueueing(false);
      await mailer.close();
    }
  });
});
