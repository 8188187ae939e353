// Shared steps for the Playwright specs: sign in as a demo account, axe checks, screenshots.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo@12345';

/**
 * Call before submitting the sign-in form. After login the app checks form changes (POST /api/form-state/check-changes)
 * and opens the 'Form Approval Updates' dialog when there are some; `dismiss()` waits for that answer and closes the
 * dialog if it opened, so the dashboard underneath can be used.
 */
export function watchApprovalUpdates(page: Page): { dismiss: () => Promise<void> } {
  const answer = page
    .waitForResponse((r) => r.url().includes('/api/form-state/check-changes'), { timeout: 15_000 })
    .then(async (r) => ((await r.json().catch(() => ({}))) as { notifications?: unknown[] }).notifications?.length ?? 0)
    .catch(() => 0);
  return {
    async dismiss() {
      if ((await answer) === 0) return;
      const dialog = page.getByRole('dialog', { name: 'Form Approval Updates' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(dialog).toBeHidden();
    },
  };
}

/**
 * Signs in through the form, waits for the user's dashboard and closes the 'Form Approval Updates' dialog if the
 * sign-in brought one up; returns the dashboard's data-testid (e.g. 'dashboard-hr').
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<string> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  const updates = watchApprovalUpdates(page);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const dashboard = page.locator('main[data-testid^="dashboard-"]');
  // Signing in checks the password with argon2id (slow by design) and loads the dashboard's code: on a CI machine
  // running two browsers and two servers it has taken more than the default 10 s.
  await expect(dashboard).toBeVisible({ timeout: 30_000 });
  await updates.dismiss();
  return (await dashboard.getAttribute('data-testid')) ?? '';
}

/** Logs out through the header button and waits for the sign-in screen. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
}

/** Runs axe on the page and fails on any serious or critical violation, listing them. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(report, 'serious or critical accessibility violations').toEqual([]);
}

/** Saves a full-page screenshot to e2e/screenshots/{name}.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true, animations: 'disabled' });
}

/** Signs in through the API; answers the Authorization header of the session. */
export async function apiLogin(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok(), `login ${email}: ${res.status()} ${await res.text()}`).toBe(true);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

/** A POST that must succeed; answers its JSON. */
export async function apiPost(request: APIRequestContext, headers: Record<string, string>, url: string, data: unknown) {
  const res = await request.post(url, { headers, data });
  expect(res.ok(), `POST ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

/** Follows an invitation link's token: sets the person's password (the link's page does the same call). */
export async function acceptInvitation(request: APIRequestContext, inviteUrl: string, password: string): Promise<void> {
  const token = new URL(inviteUrl).searchParams.get('token');
  expect(token, `a token in ${inviteUrl}`).toBeTruthy();
  const res = await request.post('/api/auth/set-password', { data: { token, password } });
  expect(res.ok(), `set-password: ${res.status()} ${await res.text()}`).toBe(true);
}

export interface NewPerson {
  email: string;
  employee_code: string;
  first_name: string;
  last_name: string;
}

/**
 * A new team made by the administrator (`admin`: their Authorization header): a team lead reporting to Priya Sharma
 * and one member reporting to the lead, both with `password` set through their invitations. Named
 * '<lead|member> E2E <tag>' unless first names are given; `tag` keeps e-mails and codes unique.
 */
export async function newTeam(
  request: APIRequestContext,
  admin: Record<string, string>,
  opts: { tag: string; password: string; leadName?: string; memberName?: string },
): Promise<{ lead: NewPerson; member: NewPerson }> {
  const person = (kind: 'lead' | 'member', extra: Record<string, unknown>) => ({
    email: `e2e.${kind}.${opts.tag}@adminease.test`,
    first_name: kind === 'lead' ? (opts.leadName ?? 'Lead') : (opts.memberName ?? 'Member'),
    last_name: `E2E ${opts.tag}`,
    employee_code: `E2E-${kind}-${opts.tag}`.toUpperCase(),
    department: 'ENG',
    hr_contact: 'meera.iyer@adminease.test',
    join_date: '2025-04-01',
    ...extra,
  });
  const lead: NewPerson = await apiPost(
    request,
    admin,
    '/api/admin/people',
    person('lead', { role: 'Team Lead', user_type: 'line_manager', manager: 'priya.sharma@adminease.test' }),
  );
  const member: NewPerson = await apiPost(
    request,
    admin,
    '/api/admin/people',
    person('member', { role: 'Employee', user_type: 'employee', manager: lead.employee_code }),
  );
  for (const p of [lead, member]) {
    const { invite_url } = await apiPost(request, admin, `/api/admin/people/${p.employee_code}/invite`, {});
    await acceptInvitation(request, invite_url, opts.password);
  }
  return { lead, member };
}
