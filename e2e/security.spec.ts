// Hostile text in requests is shown inert: script and HTML payloads in a petty cash and a travel request
// appear as plain text on the employee's list and details, on the line manager's queue and details and on
// the finance queue and details. No script runs (no dialog, no global set, no CSP report), no element or
// event-handler attribute comes from the payload.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, screenshot, signIn, signOut } from './helpers';

test.describe.configure({ timeout: 180_000 });

const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=2">',
  '"><svg onload=window.__xss=3>',
  'javascript:window.__xss=4',
  '<a href="javascript:window.__xss=5">click</a>',
  '{{constructor.constructor("window.__xss=6")()}}',
  '<iframe srcdoc="<script>parent.__xss=7</script>"></iframe>',
  '<b data-xss>bold?</b>',
];
const PURPOSE = `Team lunch ${PAYLOADS.join(' ')}`;

async function apiLogin(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBe(true);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

const idOf = (body: any): string => body.request_id ?? body.form?.request_id ?? body.record?.request_id;

/** Watches a page for any sign that a payload ran. */
function watch(page: Page) {
  const signs: string[] = [];
  page.on('dialog', (d) => {
    signs.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|frame)/i.test(m.text())) signs.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (/__xss/.test(e.message)) signs.push(`error: ${e.message}`);
  });
  return signs;
}

/** Nothing from the payloads became live markup, and nothing ran. */
async function expectInert(page: Page, signs: string[], where: string) {
  const found = await page.evaluate(() => ({
    xss: (window as any).__xss ?? null,
    handlers: document.querySelectorAll('[onerror],[onload],[onclick],[onmouseover],[srcdoc]').length,
    imgX: document.querySelectorAll('img[src="x"]').length,
    frames: document.querySelectorAll('iframe').length,
    marked: document.querySelectorAll('[data-xss]').length,
    jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href')!.trim().toLowerCase().startsWith('javascript:'))
      .length,
    inlineScripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
  }));
  expect(found, where).toEqual({ xss: null, handlers: 0, imgX: 0, frames: 0, marked: 0, jsLinks: 0, inlineScripts: 0 });
  expect(signs, where).toEqual([]);
}

test('script and HTML in request text stay text on every screen that shows it', async ({ page, request }) => {
  const signs = watch(page);

  // The employee files two requests whose text fields carry the payloads.
  const alex = await apiLogin(request, 'alex.johnson@adminease.test');
  const in10 = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const in20 = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const pc = await request.post('/api/forms/petty-cash', {
    headers: alex,
    data: { amount_requested: 42.5, expected_settlement_date: in10, purpose: PURPOSE },
  });
  expect(pc.ok(), await pc.text()).toBe(true);
  const pettyId = idOf(await pc.json());
  const tr = await request.post('/api/forms/travel-request', {
    headers: alex,
    data: {
      destination: PAYLOADS[1],
      departure_date: in10,
      return_date: in20,
      travel_purpose: PAYLOADS[0],
      total_estimated_cost: 900,
      travel_notes: PAYLOADS[2],
    },
  });
  expect(tr.ok(), await tr.text()).toBe(true);
  const travelId = idOf(await tr.json());

  // Employee: the list and the details of each.
  expect(await signIn(page, 'alex.johnson@adminease.test')).toBe('dashboard-employee');
  const list = page.getByTestId('your-forms');
  await expect(list.locator(`[data-request-id="${pettyId}"]`)).toBeVisible();
  await expectInert(page, signs, 'employee list');
  await list
    .locator(`[data-request-id="${pettyId}"]`)
    .getByRole('button', { name: /View Details/ })
    .click();
  let dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(PAYLOADS[0]);
  await expect(dialog).toContainText(PAYLOADS[1]);
  await expectInert(page, signs, 'employee petty cash details');
  await screenshot(page, 'security-employee-details');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await list
    .locator(`[data-request-id="${travelId}"]`)
    .getByRole('button', { name: /View Details/ })
    .click();
  dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(PAYLOADS[1]);
  await expectInert(page, signs, 'employee travel details');
  await page.keyboard.press('Escape');
  await signOut(page);

  // Line manager: the queue and the details.
  expect(await signIn(page, 'priya.sharma@adminease.test')).toBe('dashboard-line-manager');
  const mrow = page.locator(`main [data-request-id="${pettyId}"]`);
  await expect(mrow).toBeVisible();
  await expectInert(page, signs, 'manager queue');
  await mrow.getByRole('button', { name: `View details of ${pettyId}` }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(PAYLOADS[0]);
  await expectInert(page, signs, 'manager details');
  await screenshot(page, 'security-manager-details');
  await page.keyboard.press('Escape');
  // Approve, so finance has it as actionable.
  await expect(dialog).toHaveCount(0);
  await mrow.getByRole('button', { name: `Approve ${pettyId}` }).click();
  await expect(mrow).toHaveCount(0);
  await signOut(page);

  // Finance: the queue shows the purpose column; the details show it in full.
  expect(await signIn(page, 'arjun.mehta@adminease.test')).toBe('dashboard-finance');
  const frow = page.locator(`main [data-request-id="${pettyId}"]`);
  await expect(frow).toBeVisible();
  await expectInert(page, signs, 'finance queue');
  await screenshot(page, 'security-finance-queue');
  await frow.getByRole('button', { name: `View details of ${pettyId}` }).click();
  dialog = page.getByRole('dialog', { name: `Request Details - ID: ${pettyId}` });
  await expect(dialog).toContainText(PAYLOADS[6]);
  await expectInert(page, signs, 'finance details');
});
