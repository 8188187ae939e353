// The employee area in Chromium: the three catalogue forms submitted and listed as Pending, the catalogue's search,
// category and empty state, the dashboard's status filter, chips and date filter, the details modal of a request
// pending at its second stage, history screens, and screenshots of the dashboard, catalogue and details modal.
// Each test makes the requests and settings it looks at (through the API) and reads what else it expects from the
// server, so any one of them passes alone (--grep) and in any order after other specs changed the demo data.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { startOfBusinessDate } from '../src/domain/business-time';
import { indiaLunarHolidays } from '../src/domain/holidays';
import { FORM_TYPES } from '../src/domain/forms';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, screenshot, signIn } from './helpers';

// Each test signs in and makes its own requests through the API on a machine shared with other runs: allow it the time.
test.describe.configure({ timeout: 120_000 });

const ALEX = 'alex.johnson@adminease.test';
const PRIYA = 'priya.sharma@adminease.test'; // Alex's line manager

interface Api {
  get(url: string): Promise<any>;
  post(url: string, data: unknown): Promise<any>;
  put(url: string, data: unknown): Promise<any>;
}

/** The API as `email` (signed in with a token of its own, beside the browser's session). */
async function apiAs(request: APIRequestContext, email: string): Promise<Api> {
  const login = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { Authorization: `Bearer ${(await login.json()).access_token}` };
  // A plain error, not a failed expect: Playwright fails the test on a failed expect even when the caller catches it
  // (submitLeave tries another day when its random day overlaps an earlier leave of the same person).
  const ok = async (what: string, res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    if (!res.ok()) throw new Error(`${what}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
  return {
    get: async (url) => ok(`GET ${url}`, await request.get(url, { headers })),
    post: async (url, data) => ok(`POST ${url}`, await request.post(url, { headers, data })),
    put: async (url, data) => ok(`PUT ${url}`, await request.put(url, { headers, data })),
  };
}

/**
 * A leave request of the caller on a random working day one to two years ahead (Tuesday to Thursday, no holiday), so
 * runs never overlap each other's leave; sick leave, so no annual balance is needed.
 */
async function submitLeave(api: Api, reason: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const d = new Date(Date.now() + (380 + Math.floor(Math.random() * 300)) * 86_400_000);
    const day = d.toISOString().slice(0, 10);
    const holiday =
      ['01-26', '08-15', '10-02', '12-25'].includes(day.slice(5)) || indiaLunarHolidays(d.getUTCFullYear()).some((h) => h.date === day);
    if (d.getUTCDay() < 2 || d.getUTCDay() > 4 || holiday) continue;
    try {
      return (await api.post('/api/forms/leave-request', { leave_type: 'Sick', start_date: day, end_date: day, reason })).request_id;
    } catch (err) {
      if (attempt >= 5) throw err;
    }
  }
}

/** A screenshot of what is on screen (dialogs are fixed to the viewport, so a full-page shot would misplace the backdrop). */
async function viewportShot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

/** Signs in; signIn waits for the check-changes answer and closes the 'Form Approval Updates' dialog it opened. */
async function signInEmployee(page: Page, email = ALEX) {
  expect(await signIn(page, email)).toBe('dashboard-employee');
  await expect(page.getByText('Loading your forms...')).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: /Form Approval Updates/ })).not.toBeVisible();
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

test("the dashboard lists the employee's requests newest first with chips and status counts", async ({ page, request }) => {
  // Alex's requests as the server has them (other specs may have added some); a leave request of this test's own
  const alex = await apiAs(request, ALEX);
  await submitLeave(alex, 'Dashboard list check');
  const byType = await alex.get('/api/forms/user-forms');
  const types = Object.keys(byType).filter((k) => Array.isArray(byType[k]) && byType[k].length > 0);
  const chipTitles: Record<string, string> = {
    'leave-request': 'Leave Request',
    'petty-cash': 'Petty Cash',
    'mileage-claim': 'Mileage Claim',
    'nda-request': 'NDA Request',
  };
  await signInEmployee(page);
  await expect(page.getByRole('heading', { name: 'Welcome back, Alex' })).toBeVisible();
  const total = await rows(page).count();
  expect(total).toBeGreaterThan(5);
  await expect(page.getByTestId('status-filter')).toContainText(`All (${total})`);
  // Chips only for types with requests.
  const chips = page.getByRole('group', { name: 'Form type' });
  await expect(chips.getByRole('button', { name: /^All Forms/ })).toBeVisible();
  await expect(chips.getByRole('button', { name: /^Leave Request/ })).toBeVisible();
  for (const [type, title] of Object.entries(chipTitles)) {
    await expect(chips.getByRole('button', { name: new RegExp(`^${title}`) }), type).toHaveCount(types.includes(type) ? 1 : 0);
  }
  expect(
    Object.keys(chipTitles).some((type) => !types.includes(type)),
    'some type without requests shows no chip',
  ).toBe(true);
  // Newest first
  const dates = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[4]?.textContent ?? ''));
  const times = dates.map((d) => Date.parse(d));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  await screenshot(page, 'employee-dashboard');
  await expectNoSeriousA11yViolations(page);
});

test('the catalogue: every form available, search overrides the category, sort, list view, No Forms Found', async ({ page }) => {
  await signInEmployee(page);
  await openCatalogue(page);
  const catalogue = page.getByTestId('catalogue');
  await expect(catalogue.getByTestId('catalogue-count')).toHaveText(`${FORM_TYPES.length} forms available`);
  for (const id of ['FAC-AC-15', 'IT-PWD-16', 'FIN-PR-08']) await expect(catalogue.getByText(id, { exact: true })).toBeVisible();
  await expect(catalogue.getByRole('button', { name: /: open the form$/ })).toHaveCount(FORM_TYPES.length);
  await expect(catalogue.getByText('Coming soon')).toHaveCount(0);
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
  const byType = await (await apiAs(request, ALEX)).get('/api/forms/user-forms');
  const mine = (Object.values(byType).filter(Array.isArray).flat() as Array<{ status?: string | null; created_at: string }>).map((r) => ({
    status: r.status?.trim() || 'Pending',
    created_at: r.created_at,
  }));
  // 'Today' starts at midnight of the organisation's calendar (the zone and date the server names)
  const config = (await (await request.get('/api/auth/config')).json()) as { time_zone: string; business_date: string };
  const todayStart = startOfBusinessDate(config.business_date, config.time_zone).getTime();
  const today = mine.filter((r) => Date.parse(r.created_at) >= todayStart);

  await page.getByTestId('status-filter').selectOption('Approved');
  const approved = await rows(page).count();
  expect(approved).toBeGreaterThan(0);
  expect(approved).toBeLessThan(total);
  for (const text of await rows(page).allInnerTexts()) expect(text).toContain('Approved');

  await page.getByTestId('status-filter').selectOption('All');
  await page
    .getByRole('group', { name: 'Form type' })
    .getByRole('button', { name: /^Leave Request/ })
    .click();
  const leave = await rows(page).count();
  expect(leave).toBeGreaterThan(0);
  for (const text of await rows(page).allInnerTexts()) expect(text).toContain('Leave Request');

  // Bucket options: Open shows Alex's open IT items only.
  await page
    .getByRole('group', { name: 'Form type' })
    .getByRole('button', { name: /^All Forms/ })
    .click();
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
  await page
    .getByRole('group', { name: 'Form type' })
    .getByRole('button', { name: /^Leave Request/ })
    .click();
  await expect(rows(page)).toHaveCount(0);
  await expect(list(page).getByText('No forms match your filter criteria. Try adjusting your filter.')).toBeVisible();
  await page
    .getByRole('group', { name: 'Form type' })
    .getByRole('button', { name: /^All Forms/ })
    .click();
  await page.getByTestId('status-filter').selectOption('All');
  await list(page).getByLabel('Category').selectOption('Finance');
  for (const text of await rows(page).allInnerTexts()) expect(text).toMatch(/Finance/);
});

test('the details modal shows the chain of a request pending at its second stage', async ({ page, request }) => {
  // A purchase requisition of Alex's that the line manager approved and finance has not decided yet
  const alex = await apiAs(request, ALEX);
  const item = `27-inch monitor ${Date.now().toString(36)}`;
  const pr = await alex.post('/api/purchase-requisition/submit', {
    item_description: item,
    quantity: 2,
    unit_cost: 289.99,
    estimated_total: 579.98,
    purpose_of_purchase: 'Second screens for the QA bench',
  });
  await (
    await apiAs(request, PRIYA)
  ).post('/api/manager/update-status', {
    form_id: pr.request_id,
    form_type: 'purchase-requisition',
    status: 'Approved',
    manager_id: 'MGR-001',
    manager_name: 'Priya Sharma',
    comments: '',
    rejection_reason: '',
  });
  const leaveId = await submitLeave(alex, 'Details modal check');
  await signInEmployee(page);
  await list(page)
    .locator(`[data-request-id="${pr.request_id}"]`)
    .getByRole('button', { name: /View Details/ })
    .click();
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
  await expect(modal.getByText(item)).toBeVisible();
  await expect(modal.getByText('USD $579.98')).toBeVisible();
  await viewportShot(page, 'employee-details-modal');
  await expectNoSeriousA11yViolations(page);
  await modal.getByRole('button', { name: 'Close', exact: true }).click();

  // A leave request shows the balance tiles; a rejected one would show its reason.
  await list(page)
    .locator(`[data-request-id="${leaveId}"]`)
    .getByRole('button', { name: /View Details/ })
    .click();
  const leave = page.getByRole('dialog', { name: 'Leave Request Details' });
  const balance = leave.getByTestId('leave-balance');
  await expect(balance).toContainText('Annual Left');
  await expect(balance).toContainText('Annual Used');
  await expect(balance).toContainText('Unpaid');
  await expect(leave.getByRole('heading', { name: 'Approval Status' })).toBeVisible();
  await expect(balance).not.toContainText('…');
  await viewportShot(page, 'employee-leave-details');
});

test('history screens: leave history cards and the generic history with Record #n', async ({ page, request }) => {
  // a pending leave request (its stages not signed yet) and a safety incident of Alex's own
  const alex = await apiAs(request, ALEX);
  await submitLeave(alex, 'History screen check');
  const incident = await alex.post('/api/forms/safety-incident', {
    incident_date: new Date().toISOString().slice(0, 10),
    location: 'Stairwell C',
    incident_description: 'Loose step edge',
    severity: 'Low',
  });
  const incidents: unknown[] = (await alex.get('/api/forms/user-forms'))['safety-incident'];
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
  // newest first, numbered from the oldest: this test's incident is the newest, Record #n of Alex's n
  await expect(page.getByTestId('record-card').filter({ hasText: incident.request_id })).toContainText(`Record #${incidents.length}`);
  await expect(page.getByTestId('record-card')).toHaveCount(incidents.length);
  await expect(page.getByTestId('record-card').last()).toContainText('Record #1');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Leave Request History' })).toHaveCount(0);
});

test('the owner withdraws a pending request from its details; it reads Cancelled and Withdrawn', async ({ page, request }) => {
  const alex = await apiAs(request, ALEX);
  const id = (
    await alex.post('/api/forms/facility-access', {
      access_request_type: 'Other',
      facilities_requested: 'Roof terrace',
      justification: 'Team photo',
    })
  ).request_id as string;

  await signInEmployee(page);
  await list(page)
    .locator(`[data-request-id="${id}"]`)
    .getByRole('button', { name: /View Details/ })
    .click();
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

test('settings: sound, voice and display preferences are saved per user and applied', async ({ page, request }) => {
  // Sam Wilson starts from sound on and comfortable density, whatever an earlier run or spec stored (the chat panel's
  // sound toggle saves to the same 'Speak assistant replies' setting).
  await (
    await apiAs(request, 'sam.wilson@adminease.test')
  ).put('/api/users/me/preferences', { sound_enabled: true, display_density: 'comfortable' });
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
  await expect(page.getByRole('dialog', { name: 'Settings' }).getByRole('switch', { name: /Speak assistant replies/ })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  // the chat panel agrees with the saved setting
  await expect(page.getByTestId('chat-panel').getByTestId('sound-toggle')).toHaveAttribute('aria-pressed', 'false');
});
