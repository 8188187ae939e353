// The administrator in Chromium (issue 18): adds a person with a manager on the People screen, the invitation
// link sets their password, the new person signs in and submits a leave request from the catalogue's form that
// reaches that manager; then deactivates a manager, reassigning their team, and their team's pending request appears
// in the new manager's queue. Screenshots of every admin screen at 390 and 1440 px.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { apiLogin, apiPost, newTeam, screenshot, signIn, signOut } from './helpers';
import { indiaLunarHolidays } from '../src/domain/holidays';

const ADMIN = 'olivia.brooks@adminease.test';
const NEW_PASSWORD = 'Blue-Harbour-42-Lantern';

test.describe.configure({ timeout: 240_000 });

/** A unique suffix, so the spec passes again against the same server. */
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** The first Wednesday at least `days` ahead that is no holiday. */
function wednesdayAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  for (;;) {
    const iso = d.toISOString().slice(0, 10);
    const holiday =
      ['01-26', '08-15', '10-02', '12-25'].includes(iso.slice(5)) || indiaLunarHolidays(d.getUTCFullYear()).some((h) => h.date === iso);
    if (d.getUTCDay() === 3 && !holiday) return iso;
    d.setUTCDate(d.getUTCDate() + 1);
  }
}

async function submitLeave(request: APIRequestContext, headers: Record<string, string>, days: number): Promise<string> {
  const day = wednesdayAhead(days);
  const body = await apiPost(request, headers, '/api/forms/leave-request', {
    leave_type: 'Sick',
    start_date: day,
    end_date: day,
    reason: 'Dentist appointment',
  });
  return body.request_id;
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

test('the administrator adds a person with a manager; the invited person signs in and their request reaches that manager', async ({
  page,
}) => {
  const s = stamp();
  const email = `e2e.new.${s}@adminease.test`;
  const code = `E2E-${s}`.toUpperCase();

  expect(await signIn(page, ADMIN)).toBe('dashboard-admin');
  await openTab(page, 'People');
  await page.getByRole('button', { name: 'Add person' }).click();
  const form = page.getByRole('dialog', { name: 'Add a person' });
  await form.getByLabel('First name').fill('Riya');
  await form.getByLabel('Last name').fill(`Newcomer ${s}`);
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Employee code').fill(code);
  await form.getByLabel('Department').selectOption('ENG');
  await form.getByLabel('Join date').fill('2026-01-05');
  // The role decides the dashboard and assistant, shown before saving.
  await form.getByLabel(/^Role/).fill('Team Lead');
  await expect(form.getByTestId('role-outcome')).toContainText('Line Manager dashboard');
  await form.getByLabel(/^Role/).fill('Software Engineer');
  await expect(form.getByTestId('role-outcome')).toContainText('Employee dashboard');
  await form.getByLabel('Line manager').fill('priya.sharma@adminease.test');
  await form.getByLabel('HR contact').fill('meera.iyer@adminease.test');
  await screenshot(page, 'admin-person-form-1440');
  await form.getByRole('button', { name: 'Add person' }).click();

  // The invitation link is shown to pass on.
  const invite = page.getByRole('dialog', { name: /^Invitation for Riya/ });
  const link = invite.getByTestId('invite-url');
  await expect(link).toHaveValue(/set-password\?token=/);
  const inviteUrl = await link.inputValue();
  await invite.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId(`person-${code}`)).toContainText('Priya Sharma');

  await signOut(page);

  // The person opens the invitation link and sets their password there.
  const invitation = new URL(inviteUrl);
  await page.goto(invitation.pathname + invitation.search);
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password is set.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to sign in' }).click();

  // The new person signs in with their password and submits a leave request from the catalogue's form.
  expect(await signIn(page, email, NEW_PASSWORD)).toBe('dashboard-employee');
  await page.getByRole('button', { name: 'Forms & Requests' }).click();
  const catalogue = page.getByTestId('catalogue');
  await expect(catalogue).toBeVisible();
  await catalogue.getByRole('button', { name: 'Leave Request Form: open the form' }).click();
  const leave = page.getByRole('form', { name: 'Leave Request form' });
  await expect(leave).toBeVisible();
  const day = wednesdayAhead(30);
  await leave.getByLabel('Leave type').selectOption('Sick');
  await leave.getByLabel('Start date').fill(day);
  await leave.getByLabel('End date').fill(day);
  await leave.getByLabel('Reason').fill('Dentist appointment');
  const submitted = page.waitForResponse((r) => r.url().endsWith('/api/forms/leave-request') && r.request().method() === 'POST');
  await leave.getByRole('button', { name: 'Submit Request' }).click();
  const answer = await submitted;
  const body = await answer.json();
  expect(answer.status(), JSON.stringify(body)).toBe(201);
  const id = body.request_id as string;
  await expect(leave.getByText(`Request ${id} is now Pending.`)).toBeVisible();
  await page.getByRole('button', { name: 'Close', exact: true }).first().click();
  await signOut(page);

  // It waits in their manager's queue.
  await signIn(page, 'priya.sharma@adminease.test');
  await expect(page.locator(`main [data-request-id="${id}"]`).first()).toBeVisible();
});

test("the administrator deactivates a manager and reassigns their team: the team's pending request moves to the new manager", async ({
  page,
  request,
}) => {
  const s = stamp();
  const admin = await apiLogin(request, ADMIN);
  const { lead, member } = await newTeam(request, admin, { tag: s, password: NEW_PASSWORD });
  const memberHeaders = await apiLogin(request, member.email, NEW_PASSWORD);
  const id = await submitLeave(request, memberHeaders, 40);

  // The lead has it; Daniel (another manager) does not.
  await signIn(page, 'daniel.okafor@adminease.test');
  await expect(page.locator('main[data-testid="dashboard-line-manager"]')).toBeVisible();
  await expect(page.locator(`main [data-request-id="${id}"]`)).toHaveCount(0);
  await signOut(page);

  await signIn(page, ADMIN);
  await openTab(page, 'People');
  await page.getByLabel('Search').fill(lead.employee_code);
  const row = page.getByTestId(`person-${lead.employee_code}`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /^Deactivate/ }).click();
  const dialog = page.getByRole('dialog', { name: /^Deactivate Lead/ });
  await dialog.getByLabel(/Reassign their approvals and team to/).fill('daniel.okafor@adminease.test');
  await dialog.getByLabel(/Keep them/).check();
  await screenshot(page, 'admin-deactivate-1440');
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/deactivated/).first()).toBeVisible();

  // The member now reports to Daniel, and the lead cannot sign in any more.
  const after = await request.get(`/api/admin/people/${member.employee_code}`, { headers: admin });
  expect((await after.json()).manager).toBe('MGR-002');
  const refused = await request.post('/api/auth/login', { data: { email: lead.email, password: NEW_PASSWORD } });
  expect(refused.ok()).toBe(false);
  await signOut(page);

  await signIn(page, 'daniel.okafor@adminease.test');
  await expect(page.locator(`main [data-request-id="${id}"]`).first()).toBeVisible();
});

test('every admin screen at 390 and 1440 px', async ({ page }) => {
  await signIn(page, ADMIN);
  const tabs: Array<[string, string]> = [
    ['People', 'people'],
    ['Departments', 'departments'],
    ['Import / Export', 'import'],
    ['Holidays', 'holidays'],
    ['Leave policy', 'leave'],
    ['Sign-in', 'sign-in'],
    ['Audit log', 'audit'],
  ];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, slug] of tabs) {
      await openTab(page, name);
      await expect(page.getByRole('tabpanel').getByRole('heading').first()).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
      // No sideways scrolling at any width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-${slug}-${width}`);
    }
  }
  await openTab(page, 'People');
  await page.getByRole('button', { name: 'Add person' }).click();
  await expect(page.getByRole('dialog', { name: 'Add a person' })).toBeVisible();
  await screenshot(page, 'admin-person-form-390');
});
