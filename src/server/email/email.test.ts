// E-mail people can act on (issue 22), against a real SMTP server this file starts (smtp-server) and the app's own
// mailer: what the e-mails say (request, type, amount, dates, decision, reason, who decided and on whose behalf,
// the request's link; HTML and plain text), the approver's signed Approve / Reject links (approve and reject
// through a link; used, expired, tampered, wrong person, request changed and already decided links refused with
// nothing changed; opening a link changes nothing), the recipients' e-mail settings and the daily digest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { type MailCatcher, startMailCatcher } from '../test/mail-catcher.js';
import { type Factories, type Person, factories, stateFingerprint } from '../test/factories.js';
import { createActionLink } from './links.js';
import { emailLinkKey } from './routes.js';
import { type OutboxRow, OUTBOX_COLUMNS, notificationMail, runDailyDigest } from './compose.js';
import type { MailContext } from './compose.js';
import { parseWebPath } from '../../domain/web-routes.js';
import { wallClock } from '../../domain/business-time.js';

const PUBLIC = 'https://portal.example.test';
let smtp: MailCatcher;
let t: TestApp;
let f: Factories;
let key: Buffer;

beforeAll(async () => {
  smtp = await startMailCatcher();
  const port = smtp.port;
  t = await startTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    ADMINEASE_PUBLIC_URL: PUBLIC,
    MAIL_FROM: 'AdminEase <no-reply@portal.example.test>',
  });
  f = factories(t);
  key = emailLinkKey(t.app.ctx);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const mailTo = (to: string, about: string): Promise<ParsedMail> => smtp.find(to, about);

const tokenOf = (text: string, decision: 'a' | 'r') => {
  const m = new RegExp(`${PUBLIC.replace(/\./g, '\\.')}/email-action\\?token=([A-Za-z0-9_.%-]+\\.${decision}\\.[A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${decision} link in: ${text}`);
  return decodeURIComponent(m[1]);
};

const pettyCash = (amount: number, purpose = 'Team lunch') => ({
  amount_requested: amount,
  expected_settlement_date: '2027-02-03',
  purpose,
});

async function teamWithRequest(
  amount = 1250.5,
): Promise<{ employee: Person; manager: Person; owner: ApiClient; approver: ApiClient; id: string; pk: number }> {
  const { employee, manager } = await f.team();
  const owner = await f.login(employee);
  const approver = await f.login(manager);
  const res = await owner.post('/api/forms/petty-cash', pettyCash(amount));
  expect(res.status).toBe(201);
  return { employee, manager, owner, approver, id: res.body.request_id, pk: res.body.id };
}

const check = (token: string, headers?: Record<string, string>) => t.anonymous.post('/api/email-actions/check', { token }, headers);
const decideWith = (token: string, reason?: string, client: Pick<ApiClient, 'post'> = t.anonymous) =>
  client.post('/api/email-actions/decide', reason === undefined ? { token } : { token, reason });
const WRITE_TABLES = ['requests', 'approvals', 'request_events'];
const fingerprint = async () => ({
  ...(await stateFingerprint(t, WRITE_TABLES)),
  // The mailer records new links for new e-mails meanwhile; a refused call must not use any.
  used: JSON.stringify(
    (await t.db.query('SELECT id, used_at, used_decision FROM email_action_links WHERE used_at IS NOT NULL ORDER BY id')).rows,
  ),
});
const lineManagerDecision = async (pk: number) =>
  (await t.db.query(`SELECT decision, rejection_reason, signer_name FROM approvals WHERE request_pk = $1 AND stage = 'line_manager'`, [pk]))
    .rows[0];

async function linkFor(manager: Person, pk: number, opts: { hoursAgo?: number; stage?: string } = {}) {
  const rev = (await t.db.query('SELECT revision FROM requests WHERE id = $1', [pk])).rows[0].revision;
  const at = new Date(t.clock.now().getTime() - (opts.hoursAgo ?? 0) * 3_600_000);
  const stage = (opts.stage ?? 'line_manager') as 'line_manager';
  return createActionLink(t.db, key, { approverId: manager.id, requestPk: pk, stage, revision: rev }, at, 72);
}

describe('e-mails over SMTP', () => {
  it('tells the approver what waits, with signed Approve / Reject links, and the owner the rejection with its reason', async () => {
    const { employee, manager, approver, id, pk } = await teamWithRequest();

    const waiting = await mailTo(manager.email, id);
    expect(waiting.subject).toBe(`Petty Cash ${id} from ${employee.name} awaits your approval`);
    expect(waiting.html).toBeTruthy();
    expect(waiting.text).toBeTruthy();
    for (const part of [waiting.text!, String(waiting.html)]) {
      expect(part).toContain('USD $1,250.50');
      expect(part).toContain('3 Feb 2027');
      expect(part).toContain('Team lunch');
      expect(part).toContain(`${PUBLIC}/requests/${id}`);
      expect(part).not.toMatch(/\bNone\b|undefined|null/);
    }
    expect(waiting.text).toContain(`${employee.name}'s Petty Cash ${id} waits for your decision (Line Manager Approval)`);
    // Both links lead to the confirmation page; the request link resolves to the request's own web route.
    const approveToken = tokenOf(waiting.text!, 'a');
    const rejectToken = tokenOf(waiting.text!, 'r');
    expect(String(waiting.html)).toContain(`/email-action?token=${encodeURIComponent(approveToken)}`);
    expect(parseWebPath(`/requests/${id}`)).toEqual({ form: null, startNew: false, requestId: id });
    expect(approveToken.split('.')[0]).toBe(rejectToken.split('.')[0]); // one link record, used once for either

    // The manager rejects on the dashboard: the owner's e-mail says so, with the reason and who decided.
    const reason = 'Over the team budget for this quarter';
    const res = await approver.post('/api/manager/update-status', {
      form_id: id,
      form_type: 'petty-cash',
      status: 'Rejected',
      rejection_reason: reason,
      manager_id: String(manager.id),
    });
    expect(res.status).toBe(200);
    const rejected = await mailTo(employee.email, `${id} rejected`);
    for (const part of [rejected.text!, String(rejected.html)]) {
      expect(part).toContain(reason);
      expect(part).toContain(`Rejected by ${manager.name}`);
      expect(part).toContain(`${PUBLIC}/requests/${id}`);
      expect(part).not.toMatch(/\bNone\b|undefined|null/);
    }
    expect(rejected.text).toContain(`Reason: ${reason}`);
    expect(rejected.text).toContain('Amount: USD $1,250.50');
    // The links of the earlier e-mail explain themselves now.
    const late = await check(approveToken);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'decided' });
    expect(late.body.error).toContain('already been decided');
    expect((await lineManagerDecision(pk)).decision).toBe('Rejected');
  });

  it('names whom the decider stood in for when the decision carries it', async () => {
    const { employee, approver, manager, id, pk } = await teamWithRequest(80);
    expect(
      (
        await approver.post('/api/manager/update-status', {
          form_id: id,
          form_type: 'petty-cash',
          status: 'Rejected',
          rejection_reason: 'No receipt',
          manager_id: String(manager.id),
        })
      ).status,
    ).toBe(200);
    await mailTo(employee.email, `${id} rejected`);
    // A delegate's decision records whom they decided for (`on_behalf_of`, written by the delegation feature).
    await t.db.query(
      `UPDATE request_events SET details = details || '{"on_behalf_of": "Dana Away"}'::jsonb WHERE request_pk = $1 AND event_type = 'decision'`,
      [pk],
    );
    const row = (
      await t.db.query<OutboxRow>(
        `SELECT ${OUTBOX_COLUMNS} FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.request_pk = $1 AND n.email_kind = 'final_decision'`,
        [pk],
      )
    ).rows[0];
    const ctx: MailContext = { db: t.db, settings: t.app.ctx.config.mail!, linkKey: key };
    const mail = (await notificationMail(ctx, row, t.clock.now()))!;
    expect(mail.text).toContain(`Rejected by ${manager.name} on behalf of Dana Away (Line Manager Approval)`);
    expect(mail.html).toContain('on behalf of Dana Away');
    expect(mail.text).toContain('Reason: No receipt');
  });

  it("follows each person's settings: off, or held for one daily digest sent once across instances", async () => {
    const { manager, approver, id } = await teamWithRequest(42);
    await mailTo(manager.email, id);
    // The manager turns items waiting off; the next request tells nobody by e-mail.
    expect((await approver.put('/api/users/me/preferences', { email_waiting: false })).status).toBe(200);
    const { owner } = {
      owner: await f.login((await t.db.query('SELECT * FROM users WHERE manager_id = $1', [manager.id])).rows[0] as Person),
    };
    const second = await owner.post('/api/forms/petty-cash', pettyCash(43));
    expect(second.status).toBe(201);
    await expect
      .poll(
        async () =>
          (
            await t.db.query(`SELECT email_state FROM notifications WHERE form_id = $1 AND user_id = $2`, [
              second.body.request_id,
              manager.id,
            ])
          ).rows[0]?.email_state,
        { timeout: 15_000 },
      )
      .toBe('off');

    // Digest instead of each item: held, then one e-mail with both items.
    expect((await approver.put('/api/users/me/preferences', { email_waiting: true, email_digest: true })).status).toBe(200);
    const third = await owner.post('/api/forms/petty-cash', pettyCash(44, 'Printer paper'));
    const fourth = await owner.post('/api/forms/petty-cash', pettyCash(45, 'Courier'));
    for (const r of [third, fourth]) {
      await expect
        .poll(
          async () =>
            (await t.db.query(`SELECT email_state FROM notifications WHERE form_id = $1 AND user_id = $2`, [r.body.request_id, manager.id]))
              .rows[0]?.email_state,
          { timeout: 15_000 },
        )
        .toBe('digest');
    }
    const transport = nodemailer.createTransport(t.app.ctx.config.mail!.transport as string);
    const ctx: MailContext = { db: t.db, settings: t.app.ctx.config.mail!, linkKey: key };
    const send = (m: { to: string; subject: string; html: string; text: string }) =>
      transport.sendMail({ from: 'AdminEase <d@portal.example.test>', ...m });
    const day = new Date('2031-05-05T06:00:00Z');
    const [a, b] = await Promise.all([runDailyDigest(ctx, send, day), runDailyDigest(ctx, send, day)]);
    expect([a, b].filter((n) => n === null)).toHaveLength(1); // one instance ran the day's digest
    expect(await runDailyDigest(ctx, send, day)).toBeNull();
    const digest = await mailTo(manager.email, 'digest');
    expect(digest.text).toContain(third.body.request_id);
    expect(digest.text).toContain(fourth.body.request_id);
    expect(digest.text).toContain('Printer paper');
    expect(tokenOf(digest.text!, 'a')).toBeTruthy();
    expect(String(digest.html)).toContain(`${PUBLIC}/requests/${fourth.body.request_id}`);
    const states = await t.db.query(`SELECT email_state FROM notifications WHERE user_id = $1 AND form_id = ANY($2)`, [
      manager.id,
      [third.body.request_id, fourth.body.request_id],
    ]);
    expect(states.rows.map((r) => r.email_state)).toEqual(['sent', 'sent']);
    transport.close();
  });
});

describe('Approve / Reject links', () => {
  it('approves through a link: the page check changes nothing, the decision is recorded as decided from e-mail, and the link works once', async () => {
    const { manager, id, pk } = await teamWithRequest(99);
    const approveToken = tokenOf((await mailTo(manager.email, id)).text!, 'a');
    const before = await fingerprint();
    // Opening the link (the page, a scanner's GET) and the page's check change nothing.
    const page = await t.app.inject({ method: 'GET', url: `/email-action?token=${encodeURIComponent(approveToken)}` });
    expect(page.statusCode).toBeLessThan(500);
    const seen = await check(approveToken);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      decision: 'Approved',
      stage: 'line_manager',
      stage_label: 'Line Manager Approval',
      approver_name: manager.name,
    });
    expect(seen.body.request).toMatchObject({ request_id: id, type_label: 'Petty Cash', amount: 'USD $99.00', purpose: 'Team lunch' });
    expect(await fingerprint()).toEqual(before);

    const done = await decideWith(approveToken);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, decision: 'Approved', request_id: id });
    expect(await lineManagerDecision(pk)).toMatchObject({ decision: 'Approved', signer_name: manager.name });
    const history = await (await f.login(manager)).get(`/api/requests/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.events.map((e: { summary: string }) => e.summary)).toContain(
      `Approved by ${manager.name} (Line Manager) (decided from e-mail)`,
    );
    const ev = await t.db.query(`SELECT details FROM request_events WHERE request_pk = $1 AND event_type = 'decision'`, [pk]);
    expect(ev.rows[0].details.via).toBe('email');

    const again = await decideWith(approveToken);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('used');
  });

  it('rejects through a link only with a reason (the 300-character rule)', async () => {
    const { employee, manager, id, pk } = await teamWithRequest(61);
    const rejectToken = tokenOf((await mailTo(manager.email, id)).text!, 'r');
    const before = await fingerprint();
    for (const reason of [undefined, '   ', 'x'.repeat(301)]) {
      const res = await decideWith(rejectToken, reason);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/reason/i);
    }
    expect(await fingerprint()).toEqual(before);
    const res = await decideWith(rejectToken, 'Please attach the receipt');
    expect(res.status).toBe(200);
    expect(await lineManagerDecision(pk)).toMatchObject({ decision: 'Rejected', rejection_reason: 'Please attach the receipt' });
    const told = await mailTo(employee.email, `${id} rejected`);
    expect(told.text).toContain('Reason: Please attach the receipt');
    expect(told.text).toContain('decided from e-mail');
  });

  it('refuses used, expired, tampered, wrong-person, changed and already decided links, changing nothing', async () => {
    const { employee, manager, owner, approver, pk, id } = await teamWithRequest(70);
    await mailTo(manager.email, id);

    const expired = await linkFor(manager, pk, { hoursAgo: 73 });
    const tampered = (await linkFor(manager, pk)).approve.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const otherDecision = (await linkFor(manager, pk)).approve.replace('.a.', '.r.');
    const wrongPerson = await linkFor(manager, pk);
    const employeeClient = await f.login(employee);

    const before = await fingerprint();
    const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, string]> = [
      ['expired', () => decideWith(expired.approve), 410, 'expired'],
      ['tampered signature', () => decideWith(tampered), 400, 'invalid'],
      ['decision swapped', () => decideWith(otherDecision, 'Swapped'), 400, 'invalid'],
      ['garbage', () => decideWith('not-a-token'), 400, 'invalid'],
      ['signed in as someone else', () => decideWith(wrongPerson.approve, undefined, employeeClient), 403, 'wrong_person'],
      ['someone else checks', () => employeeClient.post('/api/email-actions/check', { token: wrongPerson.approve }), 403, 'wrong_person'],
    ];
    for (const [what, call, status, code] of cases) {
      const res = await call();
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).toBe(code);
      expect(typeof res.body.error, what).toBe('string');
    }
    // Another site's page cannot post a decision (the same-origin rule of writes).
    const cross = await t.anonymous.post(
      '/api/email-actions/decide',
      { token: wrongPerson.approve },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(cross.status).toBe(403);
    expect(await fingerprint()).toEqual(before);

    // The owner changes the request: the e-mail's links are outdated.
    const stale = await linkFor(manager, pk);
    expect((await owner.put(`/api/forms/petty-cash/${id}`, pettyCash(7000))).status).toBe(200);
    const afterEdit = await fingerprint();
    const changed = await decideWith(stale.approve);
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('changed');
    expect(await fingerprint()).toEqual(afterEdit);

    // Decided on the dashboard meanwhile: a fresh link says so.
    const fresh = await linkFor(manager, pk);
    expect(
      (
        await approver.post('/api/manager/update-status', {
          form_id: id,
          form_type: 'petty-cash',
          status: 'Approved',
          manager_id: String(manager.id),
        })
      ).status,
    ).toBe(200);
    const afterDecision = await fingerprint();
    const decided = await decideWith(fresh.approve);
    expect(decided.status).toBe(409);
    expect(decided.body.code).toBe('decided');
    expect(await fingerprint()).toEqual(afterDecision);
  });

  it('an approver who must change their password cannot use a link until they have (as on the web)', async () => {
    const { manager, pk, id } = await teamWithRequest(44);
    const link = await linkFor(manager, pk);
    await t.db.query('UPDATE users SET must_change_password = true WHERE id = $1', [manager.id]);
    const before = await fingerprint();
    for (const res of [await check(link.approve), await decideWith(link.approve), await decideWith(link.reject, 'No')]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('password_change');
      expect(res.body.error).toMatch(/change your password/);
    }
    expect(await fingerprint()).toEqual(before);
    // The web refuses the same person the same way meanwhile.
    const web = await (await t.login(manager.email)).post('/api/manager/update-status', { form_id: id, status: 'Approved' });
    expect(web.status).toBe(403);
    // Once the password is changed, the same link works.
    await t.db.query('UPDATE users SET must_change_password = false WHERE id = $1', [manager.id]);
    const done = await decideWith(link.approve);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await lineManagerDecision(pk)).toMatchObject({ decision: 'Approved', signer_name: manager.name });
  });

  it('offers working links for a type whose chain an administrator defined as data, and refuses the stage that does not wait yet', async () => {
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const owner = await f.person({ kind: 'finance', first_name: 'Bea' });
    const { employee, manager } = await f.team();
    const outsider = await f.person({ kind: 'employee' });
    const formType = `mail-sign-off-${String.fromCharCode(97 + (process.pid % 26))}`;
    const created = await admin.post('/api/admin/form-types', {
      form_type: formType,
      title: 'Budget sign-off',
      category: 'Finance',
      description: 'The line manager, then the budget owner.',
      enabled: true,
      fields: [{ name: 'topic', label: 'Topic', type: 'text', required: true }],
      chain: [{ approver: 'line_manager' }, { approver: `person:${owner.employee_code}` }],
    });
    expect(created.status, created.text).toBe(201);
    const submitted = await (await f.login(employee)).post(`/api/forms/${formType}`, { topic: 'Offsite' });
    expect(submitted.status, submitted.text).toBeLessThan(300);
    const rec = submitted.body.form ?? submitted.body.record ?? submitted.body;
    const id = String(rec.request_id);
    const pk = Number((await t.db.query('SELECT id FROM requests WHERE request_id = $1', [id])).rows[0].id);
    const stages = (await t.db.query('SELECT stage FROM approvals WHERE request_pk = $1 ORDER BY seq', [pk])).rows.map((r) => r.stage);
    expect(stages).toHaveLength(2);

    // Refused: the budget owner's step does not wait yet; someone who is no approver of it.
    const early = await linkFor(owner, pk, { stage: stages[1] });
    const stranger = await linkFor(outsider, pk, { stage: stages[0] });
    const before = await fingerprint();
    const notYet = await decideWith(early.approve);
    expect(notYet.status).toBe(409);
    expect(notYet.body.code).toBe('decided');
    const notTheirs = await decideWith(stranger.approve);
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.code).toBe('not_allowed');
    expect(await fingerprint()).toEqual(before);

    // The line manager's e-mail has links, and they work.
    const first = await mailTo(manager.email, id);
    const seen = await check(tokenOf(first.text!, 'a'));
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body).toMatchObject({ stage: stages[0], approver_name: manager.name });
    expect((await decideWith(tokenOf(first.text!, 'a'))).status).toBe(200);

    // Then the budget owner's e-mail, with the stage's own label (the named person's) and links that decide it.
    const second = await mailTo(owner.email, id);
    expect(second.text).toContain(`(${owner.name} Approval)`);
    const seen2 = await check(tokenOf(second.text!, 'a'));
    expect(seen2.body).toMatchObject({ stage: stages[1], stage_label: `${owner.name} Approval`, approver_name: owner.name });
    const done = await decideWith(tokenOf(second.text!, 'a'));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const rows = (await t.db.query('SELECT decision, signer_id FROM approvals WHERE request_pk = $1 ORDER BY seq', [pk])).rows;
    expect(rows).toEqual([
      { decision: 'Approved', signer_id: manager.id },
      { decision: 'Approved', signer_id: owner.id },
    ]);
    expect((await t.db.query('SELECT status FROM requests WHERE id = $1', [pk])).rows[0].status).toBe('Approved');
  });

  it('a link decides once even when used twice at the same moment', async () => {
    const { manager, pk } = await teamWithRequest(12);
    const link = await linkFor(manager, pk);
    const answers = await Promise.all([decideWith(link.approve), decideWith(link.approve), decideWith(link.reject, 'At once')]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(2);
    const events = await t.db.query(`SELECT count(*)::int AS n FROM request_events WHERE request_pk = $1 AND event_type = 'decision'`, [
      pk,
    ]);
    expect(events.rows[0].n).toBe(1);
  });
});

describe('the daily digest job', () => {
  // Last in the file: it moves the app clock a day ahead (sessions of earlier sign-ins end).
  it('is registered with the job scheduler and sends the held items at the digest hour', async () => {
    const { employee, manager } = await f.team();
    const boss = await f.login(manager);
    expect((await boss.put('/api/users/me/preferences', { email_digest: true })).status).toBe(200);
    const res = await (await f.login(employee)).post('/api/forms/petty-cash', pettyCash(31, 'Stationery'));
    expect(res.status).toBe(201);
    await expect
      .poll(
        async () =>
          (await t.db.query(`SELECT email_state FROM notifications WHERE form_id = $1 AND user_id = $2`, [res.body.request_id, manager.id]))
            .rows[0]?.email_state,
        {
          timeout: 15_000,
        },
      )
      .toBe('digest');
    // The next organisation day, past the digest hour (EMAIL_DIGEST_HOUR, 8 by default).
    t.clock.advance(24 * 3_600_000);
    const hour = wallClock(t.clock.now()).hour;
    if (hour < 9) t.clock.advance((9 - hour) * 3_600_000);
    expect(await t.app.ctx.jobs.runDue()).toBeGreaterThan(0);
    const digest = await mailTo(manager.email, 'digest');
    expect(digest.text).toContain(res.body.request_id);
    expect(digest.text).toContain('Stationery');
  });
});
