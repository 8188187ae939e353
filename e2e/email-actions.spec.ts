// E-mail people can act on (issue 22) in Chromium: an approver gets the e-mail of a request waiting for them (the
// test server sends to a catcher this spec starts, see start-test-server.mjs), opens its Approve link (signed out,
// as from a phone's mail app), confirms on the page, and the employee's list shows the decision. Screenshots of
// the confirmation page at 390 and 1440 px; no sideways scrolling.
import { expect, test } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { apiLogin, apiPost, newTeam, screenshot, signIn } from './helpers';
import { type MailCatcher, startMailCatcher } from '../src/server/test/mail-catcher';

// This worker's server (playwright.config.ts: E2E_PORT + the worker's index) sends to its port + 1000.
const PORT = Number(process.env.E2E_PORT || 3100) + Number(process.env.TEST_PARALLEL_INDEX || 0);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT || PORT + 1000);
const ADMIN = 'olivia.brooks@adminease.test';
const PASSWORD = 'Harbour-Lantern-42-Blue';

let smtp: MailCatcher;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  smtp = await startMailCatcher(SMTP_PORT);
});

test.afterAll(async () => {
  await smtp?.close();
});

const mailTo = (to: string, about: string): Promise<ParsedMail> => smtp.find(to, about, 30_000);

test('the approver approves from the e-mail: the link opens a confirmation page, and the employee sees the decision', async ({
  page,
  request,
}) => {
  const s = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const admin = await apiLogin(request, ADMIN);
  const { lead, member } = await newTeam(request, admin, { tag: `m${s}`, password: PASSWORD, leadName: 'Mira', memberName: 'Sam' });
  const memberHeaders = await apiLogin(request, member.email, PASSWORD);
  const submitted = await apiPost(request, memberHeaders, '/api/forms/expense-reimbursement', {
    expense_period: 'March 2027',
    total_amount: 321.75,
    description: 'Client dinner in Pune',
  });
  const id: string = submitted.request_id;

  // The lead's e-mail: the request in words, and an Approve link to this server.
  const mail = await mailTo(lead.email, id);
  expect(mail.text).toContain('USD $321.75');
  expect(mail.text).toContain('Client dinner in Pune');
  expect(mail.html).toBeTruthy();
  const approveUrl = /(http:\/\/localhost:\d+\/email-action\?token=[^\s]+\.a\.[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  expect(approveUrl, 'an Approve link in the e-mail').toBeTruthy();
  const requestUrl = `http://localhost:${PORT}/requests/${id}`;
  expect(mail.text).toContain(requestUrl);

  // Opening the link (signed out) shows what will be decided; nothing is decided yet.
  await page.goto(approveUrl!);
  await expect(page.getByRole('heading', { name: `Approve Expense Reimbursement ${id}?` })).toBeVisible();
  await expect(page.getByText('USD $321.75')).toBeVisible();
  const status = await request.get(`/api/requests/${id}/history`, { headers: memberHeaders });
  expect(JSON.stringify(await status.json())).not.toContain('Approved by');
  await screenshot(page, 'email-action-confirm-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Approve request' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'email-action-confirm-390');

  await page.getByRole('button', { name: 'Approve request' }).click();
  await expect(page.getByRole('heading', { name: 'Decision recorded' })).toBeVisible();
  await expect(page.getByText(`Expense Reimbursement ${id} approved.`)).toBeVisible();
  await screenshot(page, 'email-action-done-390');

  // The same link again explains itself and changes nothing.
  await page.goto(approveUrl!);
  await expect(page.getByTestId('email-action-refused')).toContainText('already used');

  // The employee's list shows the decision, and the history says it came from e-mail.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, member.email, PASSWORD);
  const row = page.locator(`main [data-request-id="${id}"]`).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('Approved');
  const history = await (await request.get(`/api/requests/${id}/history`, { headers: memberHeaders })).json();
  expect(JSON.stringify(history)).toContain('decided from e-mail');

  // The owner's e-mail of the decision names who decided and links to the request.
  const decided = await mailTo(member.email, id);
  expect(decided.text).toContain(`Approved by Mira E2E m${s}`);
  expect(decided.text).toContain(requestUrl);
});
