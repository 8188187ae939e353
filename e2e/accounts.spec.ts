// Accounts in Chromium (issue 18): changing one's own password from the user menu (another session of the person
// ends, the old password is refused), and an invitation link that sets a password the person then signs in with.
// The change of password uses a demo account no other spec signs in with (Hannah Kim: her password changes for the
// rest of the run); the invitation goes to a person the administrator adds for this test.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, screenshot, signIn, signOut } from './helpers';

const HANNAH = 'hannah.kim@adminease.test';
const ADMIN = 'olivia.brooks@adminease.test';

async function apiLogin(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.status(), `sign-in of ${email}`).toBe(200);
  return (await res.json()).access_token;
}

test('a signed-in user changes their password from the user menu; their other session ends', async ({ page, browser, request }) => {
  test.setTimeout(120_000); // two browsers signed in at once
  const newPassword = 'Quiet-Orchard-2031';
  // Another session of Hannah's, in another browser.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, HANNAH);

  await signIn(page, HANNAH);
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Current password').fill('not my password');
  await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
  await expect(dialog.getByRole('list', { name: 'Password rules' }).getByText('(met)')).toHaveCount(4);
  await dialog.getByLabel('Confirm new password').fill(newPassword);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByText('Your current password is not correct.')).toBeVisible();
  await screenshot(page, 'accounts-change-password-dialog');

  await dialog.getByLabel('Current password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Your password has been changed.', { exact: false })).toBeVisible();
  // This session goes on ...
  await page.reload();
  await expect(page.locator('main[data-testid^="dashboard-"]')).toBeVisible();
  // ... the other one is over.
  await otherPage.reload();
  await expect(otherPage.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await other.close();

  await signOut(page);
  expect((await request.post('/api/auth/login', { data: { email: HANNAH, password: DEMO_PASSWORD } })).status()).toBe(401);
  await signIn(page, HANNAH, newPassword);
});

test('an invitation link sets a password once, and the person signs in with it', async ({ page, request }) => {
  const token = await apiLogin(request, ADMIN);
  const stamp = Date.now().toString(36);
  const INVITED = { email: `e2e.invited.${stamp}@adminease.test`, code: `E2E-${stamp.toUpperCase()}` };
  const added = await request.post('/api/admin/people', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      email: INVITED.email,
      first_name: 'Grace',
      last_name: 'Invited',
      employee_code: INVITED.code,
      role: 'Employee',
      user_type: 'employee',
      manager: 'priya.sharma@adminease.test',
      hr_contact: 'meera.iyer@adminease.test',
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const res = await request.post(`/api/admin/people/${INVITED.code}/invite`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  const link = new URL((await res.json()).invite_url);

  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(link.pathname + link.search);
    await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
    await expect(page.getByText('Welcome, Grace.')).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    await screenshot(page, `accounts-set-password-${width}`);
  }
  await expectNoSeriousA11yViolations(page);

  // A weak password is refused in the page, with the rules shown.
  await page.getByLabel('New password').fill('grace12');
  await page.getByLabel('Confirm password').fill('grace12');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('The password does not meet the rules below.')).toBeVisible();

  const password = 'Maple-Harbour-4417';
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password is set.')).toBeVisible();
  await screenshot(page, 'accounts-set-password-done');

  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await signIn(page, INVITED.email, password);
  await signOut(page);

  // The link worked once.
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('This link is no longer valid', { exact: false })).toBeVisible();
  await screenshot(page, 'accounts-set-password-dead-link');
});
