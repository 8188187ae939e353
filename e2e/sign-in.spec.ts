// Sign-in in Chromium: one account of every Demo Credentials group lands on its role's dashboard; errors; logout; a11y.
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot, signIn, signOut, watchApprovalUpdates } from './helpers';

const accounts = [
  { group: 'Line Managers', name: 'Victoria Adams', dashboard: 'line-manager', heading: 'Department Manager Dashboard' },
  { group: 'HR Staff', name: 'Meera Iyer', dashboard: 'hr', heading: 'HR Manager Dashboard' },
  { group: 'Finance Staff', name: 'Arjun Mehta', dashboard: 'finance', heading: 'Finance Officer Dashboard' },
  { group: 'IT Staff', name: 'Lena Fischer', dashboard: 'it', heading: 'IT Support Officer Dashboard' },
  { group: 'Operations Staff', name: 'Sofia Rossi', dashboard: 'facilities-desk', heading: 'Facilities Desk Coordinator Dashboard' },
  { group: 'Operations Staff', name: 'Kenji Watanabe', dashboard: 'facilities-manager', heading: 'Facilities Manager Dashboard' },
  { group: 'Marketing Staff', name: 'Chloe Martin', dashboard: 'employee', heading: 'Marketing Executive Dashboard' },
  { group: 'Legal Staff', name: 'Rahul Verma', dashboard: 'employee', heading: 'Legal Counsel Dashboard' },
  { group: 'Employees', name: 'Alex Johnson', dashboard: 'employee', heading: 'Software Engineer Dashboard' },
] as const;

test.describe('sign-in screen', () => {
  test('shows the form and the demo credentials groups in order, and passes axe', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'AdminEase', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
    const panel = page.getByRole('complementary', { name: 'Demo Credentials' });
    await expect(panel.getByRole('heading', { level: 3 })).toHaveText([
      'Line Managers',
      'HR Staff',
      'Finance Staff',
      'IT Staff',
      'Operations Staff',
      'Marketing Staff',
      'Legal Staff',
      'Employees',
      'Administrators',
    ]);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'sign-in-desktop');
  });

  test('on a phone the demo credentials open in a drawer whose Fill button fills the form', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('complementary', { name: 'Demo Credentials' })).toBeHidden();
    await screenshot(page, 'sign-in-phone');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Demo Credentials' }).click();
    const drawer = page.getByRole('dialog', { name: 'Demo Credentials' });
    await expect(drawer).toBeVisible();
    await screenshot(page, 'sign-in-phone-drawer');
    await expectNoSeriousA11yViolations(page);
    await drawer.getByRole('button', { name: 'Fill Alex Johnson' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByLabel('Email')).toHaveValue('alex.johnson@adminease.test');
    await expect(page.getByLabel('Password')).toHaveValue('Demo@12345');
    const updates = watchApprovalUpdates(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('dashboard-employee')).toBeVisible();
    await updates.dismiss();
    await screenshot(page, 'dashboard-employee-phone');
    await expectNoSeriousA11yViolations(page);
  });

  test('empty fields show "Please fill in all fields"', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');
    await page.getByLabel('Email').fill('alex.johnson@adminease.test');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');
  });

  test('a wrong password shows the invalid-credentials banner and stays on sign-in', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Email').fill('alex.johnson@adminease.test');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid credentials. Please check your email and password.');
    await expect(page.locator('[data-testid^="dashboard-"]')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('dashboards by role', () => {
  for (const account of accounts) {
    test(`${account.name} (${account.group}) opens the ${account.dashboard} dashboard`, async ({ page }) => {
      // Sign-in, an accessibility scan and a full-page screenshot of a dashboard that other specs have filled, then a
      // reload: 30-60 s each on CI's two loaded cores, so three times the default limit.
      test.slow();
      await page.goto('/');
      const panel = page.getByRole('complementary', { name: 'Demo Credentials' });
      await panel.getByRole('button', { name: `Fill ${account.name}` }).click();
      const updates = watchApprovalUpdates(page);
      await page.getByRole('button', { name: 'Sign In' }).click();

      const main = page.getByTestId(`dashboard-${account.dashboard}`);
      await expect(main).toBeVisible();
      await updates.dismiss();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(account.heading);
      await expect(page.getByText('AdminEase', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('adminease_chat_session'))).toBeTruthy();

      // The user menu shows the profile details from the server.
      await page.getByRole('button', { name: `User menu: ${account.name}` }).click();
      const profile = page.getByRole('region', { name: 'Your profile' });
      await expect(profile.getByText('Join Date')).toBeVisible();
      await expect(profile.getByText('Profile data not available')).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(profile).toBeHidden();

      await expectNoSeriousA11yViolations(page);
      await screenshot(
        page,
        `dashboard-${account.dashboard}${account.dashboard === 'employee' ? `-${account.name.split(' ')[0].toLowerCase()}` : ''}`,
      );

      // The session survives a reload.
      await page.reload();
      await expect(main).toBeVisible();
    });
  }
});

test('a dashboard at rest stops moving: no endless animation keeps the browser busy', async ({ page }) => {
  // An animation without end (the assistant avatar's breathing and blinking used to be) repaints the page every frame
  // for as long as the dashboard is open: a browser process busy all day on every desk. At rest, after the greeting,
  // every animation on the page ends.
  test.setTimeout(90_000);
  await signIn(page, 'alex.johnson@adminease.test');
  await expect(page.getByTestId('cso-avatar')).toBeVisible();
  const endless = () =>
    page.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations === Infinity)
        .map(
          (a) =>
            `${(a as CSSAnimation).animationName ?? 'animation'} on ${(a.effect as KeyframeEffect).target?.getAttribute('class') ?? ''}`,
        ),
    );
  expect(await endless()).toEqual([]);
  // The finite ones (greeting wave, a few breaths and blinks) are over within half a minute.
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length), {
      timeout: 45_000,
      intervals: [2_000],
    })
    .toBe(0);
});

test('logout returns to sign-in and clears the stored session', async ({ page }) => {
  await signIn(page, 'victoria.adams@adminease.test');
  await signOut(page);
  const keys = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
  expect(keys.filter((k) => /^(adminease_|chatbot_|manager_|session_|tts_|audio_)/.test(k))).toEqual([]);
  // Reloading after logout stays on sign-in: the server session is gone too.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
});

test('the header and user menu work on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const testId = await signIn(page, 'sofia.rossi@adminease.test');
  expect(testId).toBe('dashboard-facilities-desk');
  // A phone's header keeps to one row: the ID badge is left to wider screens, and the user menu names the ID.
  await expect(page.getByRole('banner').getByText('ID: OPS-001')).toBeHidden();
  await page.getByRole('button', { name: 'User menu: Sofia Rossi' }).click();
  const profile = page.getByRole('region', { name: 'Your profile' });
  await expect(profile.getByText('ID: OPS-001')).toBeVisible();
  await expect(profile.getByText('Join Date')).toBeVisible();
  await screenshot(page, 'dashboard-facilities-desk-phone-menu');
  await expectNoSeriousA11yViolations(page);
});
