// The employee area in Chromium: the three catalogue forms submitted and listed as Pending, the catalogue's search,
// category and empty state, the dashboard's status filter, chips and date filter, the details modal of a request
// pending at its second stage, history screens, and screenshots of the dashboard, catalogue and details modal.
import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot, signIn } from './helpers';

const ALEX = 'alex.johnson@adminease.test';

/** A screenshot of what is on screen (dialogs are fixed to the viewport, so a full-page shot would misplace the backdrop). */
async function viewportShot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

/** Signs in and closes the 'Form Approval Updates' dialog if the sign-in brought one up. */
async function signInEmployee(page: Page, email = ALEX) {
  expect(await signIn(page, email)).toBe('dashboard-employee');
  await expect(page.getByText('Loading your forms...')).toHaveCount(0);
  const updates = page.getByRole('dialog', { name: /Form Approval Updates/ });
  if (await updates.isVisible().catch(() => false)) {
    await updates.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(updates).toBeHidden();
  }
}

const list = (page: Page) => page.getByTestId('your-forms');
const rows = (page: Page) => list(page).getByTestId('form-row');

async function openCatalogue(page: Page) {
  await page.getByRole('button', { name: 'Forms & Requests' }).click();
  await expect(page.getByTestId('catalogue')).toBeVisible();
}

async function backToDashboard(page: Page) {
  await page.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
}

async function expectPendingRow(page: Page, requestId: string, title: string) {
  const row = list(page).locator(`[data-request-id="${requestId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(title);
  await expect(row).toContainText('Pending');
}

test('the dashboard lists the employee\'s requests newest first with chips and status counts', async ({ page }) => {
  await signInEmployee(page);
  await expect(page.getByRole('heading', { name: 'Welcome back, Alex' })).toBeVisible();
  const total = await rows(page).count();
  expect(total).toBeGreaterThan(5);
  await expect(page.getByTestId('status-filter')).toContainText(`All (${total})`);
  // Chips only for types with requests: Alex has leave and purchase requisitions, no petty cash.
  const chips = page.getByRole('group', { name: 'Form type' });
  await expect(chips.getByRole('button', { name: /^All Forms/ })).toBeVisible();
  await expect(chips.getByRole('button', { name: /^Leave Request/ })).toBeVisible();
  await expect(chips.getByRole('button', { name: /^Petty Cash/ })).toHaveCount(0);
  // Newest first
  const dates = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[4]?.textContent ?? ''));
  const times = dates.map((d) => Date.parse(d));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  await screenshot(page, 'employee-dashboard');
  await expectNoSeriousA11yViolations(page);
});

test('the catalogue: three forms available, search overrides the category, sort, list view, No Forms Found', async ({ page }) => {
  await signInEmployee(page);
  await openCatalogue(page);
  const catalogue = page.getByTestId('catalogue');
  await expect(catalogue.getByTestId('catalogue-count')).toHaveText('3 forms available');
  for (const id of ['FAC-AC-15', 'IT-PWD-16', 'FIN-PR-08']) await expect(catalogue.getByText(id, { exact: true })).toBeVisible();
  await expect(catalogue.getByRole('button', { name: /: open the form$/ })).toHaveCount(3);
  await expect(catalogue.getByText('Coming soon').first()).toBeVisible();
  await screenshot(page, 'employee-catalogue');
  await expectNoSeriousA11yViolations(page);

  await catalogue.getByLabel('Category').selectOption('Finance');
  await expect(catalogue.getByRole('button', { name: 'Purchase Requisition Form: open the form' })).toBeVisible();
  await expect(catalogue.getByRole('button', { name: 'Password Reset Request Form: open the form' })).toHaveCount(0);
  // A search term overrides the category filter.
  await catalogue.getByLabel('Search forms').fill('PASSWORD');
  await expect(catalogue.getByRole('button', { name: 'Password Reset Request Form: open the form' })).toBeVisible();
  await catalogue.getByLabel('Search forms').fill('no such form anywhere');
  await expect(catalogue.getByText('No Forms Found')).toBeVisible();
  await expect(catalogue.getByText('Try adjusting your search or filter criteria.')).toBeVisible();
  await catalogue.getByLabel('Search forms').fill('');
  await catalogue.getByLabel('Category').selectOption('All Forms');
  await catalogue.getByLabel('Sort by').selectOption('name');
  await catalogue.getByRole('button', { name: 'List view' }).click();
  await expect(catalogue.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'true');
});

test('an employee submits each of the three catalogue forms and sees each in the list as Pending', async ({ page }) => {
  await signInEmployee(page);
  const submitted: Array<{ id: string; title: string }> = [];

  // Facility access: the button waits for all three fields; the form clears on success.
  await openCatalogue(page);
  await page.getByRole('button', { name: 'Facility Access Booking Form: open the form' }).click();
  const fa = page.getByRole('form', { name: 'Facility Access Booking Form' });
  const faSubmit = fa.getByRole('button', { name: 'Submit Request' });
  await expect(faSubmit).toBeDisabled();
  await fa.getByLabel('Request type').selectOption('Temporary Access');
  await fa.getByLabel('Facilities requested').fill('Server room B');
  await expect(faSubmit).toBeDisabled();
  await fa.getByLabel('Justification').fill('Rack migration on Saturday');
  await expect(faSubmit).toBeEnabled();
  const faResponse = page.waitForResponse((r) => r.url().endsWith('/api/forms/facility-access') && r.request().method() === 'POST');
  await faSubmit.click();
  const faBody = await (await faResponse).json();
  await expect(fa.getByText('Form submitted successfully!')).toBeVisible();
  await screenshot(page, 'employee-facility-access-form');
  await expect(fa.getByLabel('Facilities requested')).toHaveValue('');
  await expect(fa.getByLabel('Justification')).toHaveValue('');
  await expect(faSubmit).toBeDisabled();
  submitted.push({ id: faBody.request_id, title: 'Facility Access' });
  await backToDashboard(page);

  // Password reset: a real request; the spec's messages when nothing is chosen.
  await openCatalogue(page);
  await page.getByRole('button', { name: 'Password Reset Request Form: open the form' }).click();
  const pr = page.getByRole('form', { name: 'Password Reset Request Form' });
  await pr.getByRole('button', { name: 'Submit Request' }).click();
  await expect(pr.getByText('Please select a system')).toBeVisible();
  await expect(pr.getByText('Please select a reason for reset')).toBeVisible();
  await pr.getByLabel('System').selectOption('VPN');
  await pr.getByLabel('Reason for reset').selectOption('Locked Account');
  const prResponse = page.waitForResponse((r) => r.url().endsWith('/api/forms/password-reset') && r.request().method() === 'POST');
  await pr.getByRole('button', { name: 'Submit Request' }).click();
  const prBody = await (await prResponse).json();
  await expect(pr.getByText('Password reset request submitted successfully!')).toBeVisible();
  submitted.push({ id: prBody.request_id, title: 'Password Reset' });
  await backToDashboard(page);

  // Purchase requisition: the estimated total follows quantity x unit cost; on success the form closes, the list reloads.
  await openCatalogue(page);
  await page.getByRole('button', { name: 'Purchase Requisition Form: open the form' }).click();
  const dialog = page.getByRole('dialog', { name: 'Purchase Requisition Form' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Item description').fill('Ergonomic chairs');
  await dialog.getByLabel('Purpose of purchase').fill('New hires in March');
  await dialog.getByLabel('Quantity').fill('3');
  await dialog.getByLabel('Unit cost (USD)').fill('129.99');
  await expect(dialog.getByLabel('Estimated total (USD)')).toHaveValue('389.97');
  await dialog.getByLabel('Quantity').fill('0');
  await dialog.getByRole('button', { name: 'Submit Requisition' }).click();
  await expect(dialog.getByText('Quantity must be at least 1')).toBeVisible();
  await dialog.getByLabel('Quantity').fill('4');
  await expect(dialog.getByLabel('Estimated total (USD)')).toHaveValue('519.96');
  await viewportShot(page, 'employee-purchase-requisition-form');
  const reqResponse = page.waitForResponse((r) => r.url().endsWith('/api/purchase-requisition/submit'));
  await dialog.getByRole('button', { name: 'Submit Requisition' }).click();
  const reqBody = await (await reqResponse).json();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Purchase requisition submitted successfully! (${reqBody.request_id})`)).toBeVisible();
  const history = page.getByTestId('history-screen');
  await expect(history.getByText(reqBody.request_id)).toBeVisible();
  submitted.push({ id: reqBody.request_id, title: 'Purchase Requisition' });
  await backToDashboard(page);

  for (const s of submitted) await expectPendingRow(page, s.id, s.title);
  // The tasks button lists them as open requests.
  await page.getByRole('button', { name: /^Tasks: \d+ open requests?$/ }).click();
  for (const s of submitted) await expect(page.getByRole('region', { name: /^Tasks/ }).getByText(s.id, { exact: false })).toBeVisible();
});

test('status filter, chips and the date filter change the list', async ({ page, request }) => {
  await signInEmployee(page);
  const total = await rows(page).count();
  // Alex's requests as the server has them now: earlier specs submit and decide some of Alex's requests today, so
  // the expectations of the date filter come from this data, not from the seed.
  const login = await request.post('/api/auth/login', { data: { email: ALEX, password: 'Demo@12345' } });
  const byType = await (await request.get('/api/forms/user-forms', { headers: { Authorization: `Bearer ${(await login.json()).access_token}` } })).json();
  const mine = (Object.values(byType).filter(Array.isArray).flat() as Array<{ status?: string | null; created_at: string }>)
    .map((r) => ({ status: r.status?.trim() || 'Pending', created_at: r.created_at }));
  // 'Today' starts at the browser's local midnight
  const todayStart = await page.evaluate(() => { const n = new Date(); return new Date(n.getFullYear(), n.getMonth(), n.getDate()).getTime(); });
  const today = mine.filter((r) => Date.parse(r.created_at) >= todayStart);

  await page.getByTestId('status-filter').selectOption('Approved');
  const approved = await rows(page).count();
  expect(approved).toBeGreaterThan(0);
  expect(approved).toBeLessThan(total);
  for (const text of await rows(page).allInnerTexts()) expect(text).toContain('Approved');

  await page.getByTestId('status-filter').selectOption('All');
  await page.getByRole('group', { name: 'Form type' }).getByRole('button', { name: /^Leave Request/ }).click();
  const leave = await rows(page).count();
  expect(leave).toBeGreaterThan(0);
  for (const text of await rows(page).allInnerTexts()) expect(text).toContain('Leave Request');

  // Bucket options: Open shows Alex's open IT items only.
  await page.getByRole('group', { name: 'Form type' }).getByRole('button', { name: /^All Forms/ }).click();
  await expect(rows(page)).toHaveCount(total);
  await list(page).getByLabel('Date').selectOption('This Week');
  const week = await rows(page).count();
  expect(week).toBeLessThan(total);
  await list(page).getByLabel('Date').selectOption('Today');
  await expect(rows(page)).toHaveCount(Math.min(today.length, 50));
  await page.getByTestId('status-filter').selectOption('Rejected');
  const rejectedToday = today.filter((r) => r.status.toLowerCase() === 'rejected').length;
  await expect(rows(page)).toHaveCount(rejectedToday);
  for (const text of await rows(page).allInnerTexts()) expect(text).toContain('Rejected');
  // A combination no data can match: a leave request never has an IT status (Open / New), whatever was decided today.
  await list(page).getByLabel('Date').selectOption('All Time');
  await page.getByTestId('status-filter').selectOption('Open');
  await page.getByRole('group', { name: 'Form type' }).getByRole('button', { name: /^Leave Request/ }).click();
  await expect(rows(page)).toHaveCount(0);
  await expect(list(page).getByText('No forms match your filter criteria. Try adjusting your filter.')).toBeVisible();
  await page.getByRole('group', { name: 'Form type' }).getByRole('button', { name: /^All Forms/ }).click();
  await page.getByTestId('status-filter').selectOption('All');
  await list(page).getByLabel('Category').selectOption('Finance');
  for (const text of await rows(page).allInnerTexts()) expect(text).toMatch(/Finance/);
});

test("the details modal shows the chain of a request pending at its second stage", async ({ page }) => {
  await signInEmployee(page);
  // Alex's seeded purchase requisition: the line manager approved, finance still pending.
  const row = rows(page).filter({ hasText: 'Purchase Requisition' }).filter({ hasText: 'Pending' }).last();
  await row.getByRole('button', { name: /View Details/ }).click();
  const modal = page.getByRole('dialog', { name: 'Purchase Requisition Details' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('navigation', { name: 'Your Submissions' })).toBeVisible();
  const steps = modal.getByTestId('approval-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('Line Manager');
  await expect(steps.nth(0)).toContainText('Approved');
  await expect(steps.nth(0)).toHaveAttribute('data-colour', 'green');
  await expect(steps.nth(1)).toContainText('Finance');
  await expect(steps.nth(1)).toContainText('Pending');
  await expect(steps.nth(1)).toHaveAttribute('data-colour', 'yellow');
  await expect(modal.getByTestId('next-stage')).toHaveText('Finance Review');
  await expect(modal.getByText('27-inch monitor')).toBeVisible();
  await expect(modal.getByText('USD $579.98')).toBeVisible();
  await viewportShot(page, 'employee-details-modal');
  await expectNoSeriousA11yViolations(page);
  await modal.getByRole('button', { name: 'Close', exact: true }).click();

  // A leave request shows the balance tiles; a rejected one would show its reason.
  await rows(page).filter({ hasText: 'Leave Request' }).first().getByRole('button', { name: /View Details/ }).click();
  const leave = page.getByRole('dialog', { name: 'Leave Request Details' });
  const balance = leave.getByTestId('leave-balance');
  await expect(balance).toContainText('Annual Left');
  await expect(balance).toContainText('Annual Used');
  await expect(balance).toContainText('Unpaid');
  await expect(leave.getByRole('heading', { name: 'Approval Status' })).toBeVisible();
  await expect(balance).not.toContainText('…');
  await viewportShot(page, 'employee-leave-details');
});

test('history screens: leave history cards and the generic history with Record #n', async ({ page }) => {
  await signInEmployee(page);
  await page.getByLabel('History').selectOption('leave-request');
  const screen = page.getByTestId('history-screen');
  await expect(screen.getByRole('heading', { name: 'Leave Request History' })).toBeVisible();
  await expect(screen.getByTestId('history-card').first()).toBeVisible();
  await expect(screen.getByText('Not signed').first()).toBeVisible();
  await screenshot(page, 'employee-leave-history');
  await screen.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('History').selectOption('safety-incident');
  await expect(page.getByRole('heading', { name: 'Safety Incident History' })).toBeVisible();
  await expect(page.getByTestId('record-card').first()).toContainText('Record #1');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Leave Request History' })).toHaveCount(0);
});

test('the owner withdraws a pending request from its details; it reads Cancelled and Withdrawn', async ({ page, request }) => {
  const login = await request.post('/api/auth/login', { data: { email: ALEX, password: 'Demo@12345' } });
  const token = (await login.json()).access_token;
  const created = await request.post('/api/forms/facility-access', {
    headers: { Authorization: `Bearer ${token}` },
    data: { access_request_type: 'Other', facilities_requested: 'Roof terrace', justification: 'Team photo' },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).request_id as string;

  await signInEmployee(page);
  await list(page).locator(`[data-request-id="${id}"]`).getByRole('button', { name: /View Details/ }).click();
  const modal = page.getByRole('dialog', { name: 'Facility Access Details' });
  await expect(modal.getByTestId('next-stage')).toHaveText('Facilities Desk');
  await modal.getByRole('button', { name: 'Withdraw request' }).click();
  await modal.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(modal.getByTestId('next-stage')).toHaveText('Withdrawn');
  await expect(modal.getByRole('button', { name: 'Withdraw request' })).toHaveCount(0);
  await modal.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(list(page).locator(`[data-request-id="${id}"]`)).toContainText('Cancelled');
  await page.getByTestId('status-filter').selectOption('Close');
  await expect(list(page).locator(`[data-request-id="${id}"]`)).toBeVisible();
});

test('settings: sound, voice and display preferences are saved per user and applied', async ({ page }) => {
  // Sam Wilson: no other spec signs in as Sam, so the stored preferences are still the defaults (the chat panel's sound
  // toggle saves to the same 'Speak assistant replies' setting, and the chat spec turns it off for its users).
  await signInEmployee(page, 'sam.wilson@adminease.test');
  // the chat panel's sound toggle follows the stored setting (on by default)
  await expect(page.getByTestId('chat-panel').getByTestId('sound-toggle')).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const sound = dialog.getByRole('switch', { name: /Speak assistant replies/ });
  await expect(sound).toHaveAttribute('aria-checked', 'true');
  await sound.click();
  await dialog.getByLabel('Density').selectOption('compact');
  await viewportShot(page, 'employee-settings');
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/ae-compact/);
  await page.reload();
  await expect(page.locator('main[data-testid="dashboard-employee"]')).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/ae-compact/);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Settings' }).getByRole('switch', { name: /Speak assistant replies/ })).toHaveAttribute('aria-checked', 'false');
  // the chat panel agrees with the saved setting
  await expect(page.getByTestId('chat-panel').getByTestId('sound-toggle')).toHaveAttribute('aria-pressed', 'false');
});
