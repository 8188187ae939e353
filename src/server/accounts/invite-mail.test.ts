// Invitations by e-mail (issue 18): with SMTP configured, the invitation goes to the person, against a real SMTP
// server this file starts (smtp-server); the link in the mail is the one the administrator is shown, sets the
// password once, and a resent invitation's mail carries a new link while the old one is dead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { type MailCatcher, startMailCatcher } from '../test/mail-catcher.js';

const PUBLIC = 'https://portal.example.test';
let smtp: MailCatcher;
let t: TestApp;
let f: Factories;

beforeAll(async () => {
  smtp = await startMailCatcher();
  t = await startTestApp({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    ADMINEASE_PUBLIC_URL: PUBLIC,
    MAIL_FROM: 'AdminEase <no-reply@portal.example.test>',
  });
  f = factories(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('invitations with SMTP configured', () => {
  it('are e-mailed to the person with the link the administrator is shown; a resent one kills the mailed link', async () => {
    const admin = await f.login(await f.person({ kind: 'admin' }));
    const person = await f.person({ first_name: 'Mailed', last_name: 'Invitee' });
    const res = await admin.post(`/api/admin/people/${person.employee_code}/invite`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.emailed).toBe(true);
    expect(res.body.invite_url.startsWith(`${PUBLIC}/set-password?token=`)).toBe(true);
    const mail = await smtp.find(person.email, 'AdminEase account');
    expect(mail.text).toContain(res.body.invite_url);
    expect(mail.text).toContain('Hello Mailed');

    const again = await admin.post(`/api/admin/people/${person.employee_code}/invite`);
    expect(again.body.emailed).toBe(true);
    expect(again.body.invite_url).not.toBe(res.body.invite_url);
    const old = await t.anonymous.post('/api/auth/set-password', {
      token: tokenOf(res.body.invite_url),
      password: 'violet Lantern 42 harbour',
    });
    expect(old.status).toBeGreaterThanOrEqual(400);
    const ok = await t.anonymous.post('/api/auth/set-password', {
      token: tokenOf(again.body.invite_url),
      password: 'violet Lantern 42 harbour',
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await t.anonymous.post('/api/auth/login', { email: person.email, password: 'violet Lantern 42 harbour' })).status).toBe(200);
  });
});
