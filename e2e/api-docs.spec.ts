// The API documentation at /api/docs works in a browser without signing in: the page loads its scripts from this
// server under the app's content security policy (no violation), reads the OpenAPI document and lists the routes.
import { expect, test } from '@playwright/test';

test('the API documentation page lists the routes without a session and within the security policy', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const requested: string[] = [];
  page.on('request', (r) => {
    requested.push(r.url());
  });

  const res = await page.goto('/api/docs');
  expect(res?.status()).toBe(200);
  await expect(page.getByText('AdminEase API').first()).toBeVisible();
  await expect(page.locator('.opblock-summary-path', { hasText: '/api/auth/login' }).first()).toBeVisible();
  await expect(page.locator('.opblock-summary-path', { hasText: '/api/manager/update-status' }).first()).toBeVisible();
  expect(await page.locator('.opblock').count()).toBeGreaterThan(60);
  expect(problems).toEqual([]);
  // Everything the page loaded came from this server (no CDN).
  const origin = new URL(page.url()).origin;
  expect(requested.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin)).toEqual([]);
});
