// Demo mode in Chromium: the Demo banner on the sign-in screen and on a dashboard at phone to wide-screen widths,
// in the page flow (covering nothing, clipped nowhere), accessible; and with demo mode off (the server's answer
// replaced) no banner and no Demo Credentials panel.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot, signIn } from './helpers';

const WIDTHS = [360, 768, 1440, 2560];

/** The banner is visible, inside the viewport, not cut off, and nothing of the page scrolls sideways. */
async function expectBannerFits(page: Page, width: number) {
  const banner = page.getByRole('complementary', { name: 'Demo mode' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Demo');
  const box = (await banner.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.height).toBeLessThan(80); // small: one or two lines
  const overflow = await page.evaluate(() => {
    const el = document.querySelector('[data-testid="demo-banner"]') as HTMLElement;
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      bannerX: el.scrollWidth - el.clientWidth,
      bannerY: el.scrollHeight - el.clientHeight,
    };
  });
  expect(overflow).toEqual({ page: 0, bannerX: 0, bannerY: 0 });
  return box;
}

test.describe('demo mode', () => {
  for (const width of WIDTHS) {
    test(`shows the Demo banner above the sign-in screen and the dashboard at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
      const onSignIn = await expectBannerFits(page, width);
      if (width === 360) await expectNoSeriousA11yViolations(page); // the banner included (sign-in.spec checks wide screens)
      // Above the sign-in form, not over it.
      const form = (await page.getByRole('form', { name: 'Sign in' }).boundingBox())!;
      expect(form.y).toBeGreaterThanOrEqual(onSignIn.y + onSignIn.height);

      await signIn(page, 'alex.johnson@adminease.test');
      const onDashboard = await expectBannerFits(page, width);
      const header = (await page.locator('header').first().boundingBox())!;
      expect(header.y).toBeGreaterThanOrEqual(onDashboard.y + onDashboard.height - 0.5);
      if (width === 360 || width === 1440) await screenshot(page, `demo-banner-dashboard-${width}`);
    });
  }

  test('with demo mode off there is no banner and no Demo Credentials panel or button', async ({ page }) => {
    await page.route('**/api/auth/config', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: '{"demo":false,"time_zone":"Asia/Kolkata","business_date":"2026-11-24"}',
      }),
    );
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 844 });
      const answered = page.waitForResponse((r) => r.url().includes('/api/auth/config'));
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
      await answered;
      // the answer rendered: React commits the query's data within the next animation frames
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));
      await expect(page.getByRole('complementary', { name: 'Demo Credentials' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Demo Credentials' })).toHaveCount(0);
      await expect(page.getByRole('complementary', { name: 'Demo mode' })).toHaveCount(0);
      await expect(page.getByText('Demo@12345')).toHaveCount(0);
    }
    await screenshot(page, 'sign-in-demo-off');
  });
});
