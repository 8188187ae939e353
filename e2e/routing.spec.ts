// A URL for every screen, in Chromium: a deep link to a request's details opens it after sign-in (for its owner and
// for its approver; 'Request not found' for someone who may not see it), Back returns to the list, reload keeps the
// screen, filters in the URL are applied and kept, and the old ?form= links land on their screens.
import { type APIRequestContext, type Page, type Response, expect, test } from '@playwright/test';
import { indiaLunarHolidays } from '../src/domain/holidays';
import { DEMO_PASSWORD, watchApprovalUpdates } from './helpers';

test.describe.configure({ timeout: 120_000 });

const ALEX = 'alex.johnson@adminease.test';
const PRIYA = 'priya.sharma@adminease.test'; // Alex's line manager
const DANIEL = 'daniel.okafor@adminease.test'; // a line manager, not Alex's

async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(login.ok(), await login.text()).toBe(true);
  return (await login.json()).access_token as string;
}

/** A sick-leave request of Alex on a random working day one to two years ahead (runs never overlap). */
async function submitLeave(request: APIRequestContext, reason: string): Promise<string> {
  const headers = { Authorization: `Bearer ${await tokenOf(request, ALEX)}` };
  for (let attempt = 0; ; attempt += 1) {
    const d = new Date(Date.now() + (380 + Math.floor(Math.random() * 300)) * 86_400_000);
    const day = d.toISOString().slice(0, 10);
    const holiday =
      ['01-26', '08-15', '10-02', '12-25'].includes(day.slice(5)) || indiaLunarHolidays(d.getUTCFullYear()).some((h) => h.date === day);
    if (d.getUTCDay() < 2 || d.getUTCDay() > 4 || holiday) continue;
    const res = await request.post('/api/forms/leave-request', {
      headers,
      data: { leave_type: 'Sick', start_date: day, end_date: day, reason },
    });
    if (res.ok()) return (await res.json()).request_id as string;
    if (attempt >= 5) throw new Error(`leave not submitted: ${res.status()} ${await res.text()}`);
  }
}

/**
 * Signs in on the sign-in screen the current URL shows (no navigation first) and waits for the dashboard. The
 * 'Form Approval Updates' that sign-in may bring wait while a request's details are open by URL: `dismissUpdates`
 * closes them once they show (at once when the URL opens no request). Whether they will show is known from the
 * page's last check-changes answer (how many updates it listed), never from waiting a while: they live in the
 * page's memory, so a new document (a reload) drops them (the bell still lists them).
 */
async function signInHere(page: Page, email: string): Promise<{ dismissUpdates: () => Promise<void> }> {
  const deepLink = new URL(page.url()).pathname.startsWith('/requests/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const updates = deepLink ? null : watchApprovalUpdates(page);
  // Updates the page holds: the count of the last check-changes answer, none once a new document has loaded.
  let held = 0;
  page.on('domcontentloaded', () => {
    held = 0;
  });
  const isCheck = (r: Response) => r.url().includes('/api/form-state/check-changes');
  const countOf = async (r: Response) => ((await r.json().catch(() => ({}))) as { notifications?: unknown[] }).notifications?.length ?? 0;
  page.on('response', (r) => {
    if (isCheck(r)) void countOf(r).then((n) => (held = n));
  });
  const checked = page
    .waitForResponse(isCheck, { timeout: 15_000 })
    .then(async (r) => (held = await countOf(r)))
    .catch(() => undefined);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('main[data-testid^="dashboard-"]')).toBeVisible();
  const dialog = page.getByRole('dialog', { name: 'Form Approval Updates' });
  if (updates) {
    await updates.dismiss();
    return { dismissUpdates: async () => undefined };
  }
  // Waiting under the request's details: not shown while they are open.
  await checked;
  await expect(dialog).toHaveCount(0);
  return {
    dismissUpdates: async () => {
      if (held === 0) {
        await expect(dialog).toHaveCount(0);
        return;
      }
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(dialog).toBeHidden();
    },
  };
}

/** A screenshot of what is on screen (dialogs are fixed to the viewport; a full-page shot would misplace the backdrop). */
async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

const path = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

test('an employee deep link opens the request after sign-in; Back returns to the list; reload keeps the screen', async ({
  page,
  request,
}) => {
  const id = await submitLeave(request, 'Routing deep link');
  await page.goto(`/requests/${id}`);
  // Signed out: the sign-in screen, at the same address.
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect.poll(() => path(page)).toBe(`/requests/${id}`);
  const signedIn = await signInHere(page, ALEX);

  const details = page.getByRole('dialog', { name: 'Leave Request Details' });
  await expect(details).toBeVisible();
  await expect(details).toContainText(id);
  await expect.poll(() => path(page)).toBe(`/requests/${id}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'routing-deep-link-employee');

  // Reload keeps the request open.
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Leave Request Details' })).toContainText(id);

  // Opened directly, Close goes to the dashboard.
  await page.getByRole('dialog', { name: 'Leave Request Details' }).getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Leave Request Details' })).toBeHidden();
  await expect.poll(() => path(page)).toBe('/');
  await signedIn.dismissUpdates();

  // From the list: the details get their URL, and Back returns to the list.
  const list = page.getByTestId('your-forms');
  await list
    .locator(`[data-request-id="${id}"]`)
    .getByRole('button', { name: /View Details/ })
    .click();
  await expect(page.getByRole('dialog', { name: 'Leave Request Details' })).toBeVisible();
  await expect.poll(() => path(page)).toBe(`/requests/${id}`);
  await page.goBack();
  await expect(page.getByRole('dialog', { name: 'Leave Request Details' })).toBeHidden();
  await expect.poll(() => path(page)).toBe('/');
  await expect(list.locator(`[data-request-id="${id}"]`)).toBeVisible();
  // Forward opens it again.
  await page.goForward();
  await expect(page.getByRole('dialog', { name: 'Leave Request Details' })).toContainText(id);
});

test('filters in the URL are applied, follow the controls and survive a reload', async ({ page, request }) => {
  const id = await submitLeave(request, 'Routing filter');
  await page.goto('/?status=Pending&type=leave-request&date=Today');
  await signInHere(page, ALEX);
  const list = page.getByTestId('your-forms');
  await expect(page.getByTestId('status-filter')).toHaveValue('Pending');
  await expect(list.getByLabel('Date')).toHaveValue('Today');
  await expect(page.getByRole('group', { name: 'Form type' }).getByRole('button', { name: /Leave Request/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(list.locator(`[data-request-id="${id}"]`)).toBeVisible();
  // Only pending leave requests of today are listed.
  for (const row of await list.locator('[data-request-id]').all()) {
    await expect(row).toContainText('Leave Request');
    await expect(row).toContainText('Pending');
  }

  // Changing a filter changes the URL (the same history entry), and a reload keeps it.
  await page.getByTestId('status-filter').selectOption('Approved');
  await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('Approved');
  await expect(list.locator(`[data-request-id="${id}"]`)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('status-filter')).toHaveValue('Approved');
  await page.getByTestId('status-filter').selectOption('All');
  await expect.poll(() => new URL(page.url()).searchParams.has('status')).toBe(false);
  await expect(list.locator(`[data-request-id="${id}"]`)).toBeVisible();
});

test('old ?form= links and the spec current-form values land on their screens; Back leaves a screen', async ({ page }) => {
  await page.goto('/');
  await signInHere(page, ALEX);

  await page.goto('/?form=leave-request');
  await expect(page.getByRole('heading', { name: 'Leave Request History' })).toBeVisible();
  await expect.poll(() => path(page)).toBe('/forms/leave-request');

  await page.goto('/?form=all-forms');
  await expect(page).toHaveURL(/\/forms$/);
  await expect(
    page
      .getByRole('searchbox')
      .or(page.getByPlaceholder(/Search/i))
      .first(),
  ).toBeVisible();

  // 'it-support' shows the IT access history, as the spec says; an unknown value falls back to the catalogue.
  await page.goto('/forms/it-support');
  await expect(page.getByRole('heading', { name: /IT Access/ }).first()).toBeVisible();
  await page.goto('/?form=teleport-request');
  await expect.poll(() => path(page)).toBe('/forms/teleport-request');
  await expect(
    page
      .getByRole('searchbox')
      .or(page.getByPlaceholder(/Search/i))
      .first(),
  ).toBeVisible();

  // From the dashboard, the History menu opens a screen with its own URL; Back returns to the dashboard.
  await page.goto('/');
  await page.getByLabel('History').selectOption('safety-incident');
  await expect(page.getByRole('heading', { name: 'Safety Incident History' })).toBeVisible();
  await expect.poll(() => path(page)).toBe('/forms/safety-incident');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Safety Incident History' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Safety Incident History' })).toHaveCount(0);
  await expect.poll(() => path(page)).toBe('/');
  await expect(page.getByTestId('your-forms')).toBeVisible();
});

test("an approver's deep link opens the request over their dashboard; one they may not see reads 'not found'", async ({
  page,
  request,
}) => {
  const id = await submitLeave(request, 'Routing approver link');
  await page.goto(`/requests/${id}?status=All`);
  const signedIn = await signInHere(page, PRIYA);
  const details = page.getByRole('dialog', { name: new RegExp(id) });
  await expect(details).toBeVisible();
  await expect(details.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(page.getByTestId('dashboard-line-manager')).toBeAttached();
  await screenshot(page, 'routing-deep-link-approver');
  await details.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(details).toBeHidden();
  await signedIn.dismissUpdates();
  // The dashboard keeps the filter of the link.
  await expect.poll(() => path(page)).toBe('/?status=All');
  await expect(page.getByTestId('approval-table').locator(`[data-request-id="${id}"]`)).toBeVisible();

  // Opening it from the table and going Back.
  await page.getByTestId('approval-table').locator(`[data-request-id="${id}"]`).getByRole('button', { name: /View/ }).first().click();
  await expect(page.getByRole('dialog', { name: new RegExp(id) })).toBeVisible();
  await expect.poll(() => path(page)).toBe(`/requests/${id}?status=All`);
  await page.goBack();
  await expect(page.getByRole('dialog', { name: new RegExp(id) })).toBeHidden();
  await expect.poll(() => path(page)).toBe('/?status=All');

  // Another line manager may not see Alex's request: exactly like one that does not exist.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.goto(`/requests/${id}`);
  const signedInDaniel = await signInHere(page, DANIEL);
  const notFound = page.getByRole('dialog', { name: 'Request not found' });
  await expect(notFound).toBeVisible();
  await expect(page.getByRole('dialog', { name: new RegExp(id) })).toHaveCount(0);
  await screenshot(page, 'routing-not-found');
  await page.getByRole('button', { name: 'Back to dashboard' }).click();
  await signedInDaniel.dismissUpdates();
  await page.goto('/requests/LR-999999');
  await expect(page.getByRole('dialog', { name: 'Request not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to dashboard' }).click();
  await expect(page.getByRole('dialog', { name: 'Request not found' })).toBeHidden();
  await expect.poll(() => path(page)).toBe('/');
});
