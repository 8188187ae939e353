// Form types as data in Chromium (issue 20): the administrator creates a type with three fields and a two-stage
// chain (the requester's line manager, then a named person searched from the people list); an employee submits it
// from the catalogue; the manager and then the named person decide it in 'Other requests' on their dashboards; the
// employee sees it approved. The people are the spec's own (made through the admin API), so demo people's queues
// stay as other specs expect them. Screenshots of the type editor at 1440 and 390 px.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { screenshot, signIn, signOut } from './helpers';

const ADMIN = 'olivia.brooks@adminease.test';
const PASSWORD = 'Green-Orchard-57-Compass';

test.describe.configure({ timeout: 300_000 });

/** A unique suffix of letters (a form type's id is letters and dashes). */
const letters = () =>
  `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]).slice(-8);

async function apiLogin(request: APIRequestContext, email: string, password: string): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok(), `login ${email}: ${res.status()} ${await res.text()}`).toBe(true);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

/** Adds a person through the admin API and sets their password through their invitation. */
async function addPerson(
  request: APIRequestContext,
  admin: Record<string, string>,
  p: { first: string; last: string; email: string; code: string; role: string; userType: string; manager?: string },
) {
  const res = await request.post('/api/admin/people', {
    headers: admin,
    data: {
      email: p.email,
      first_name: p.first,
      last_name: p.last,
      employee_code: p.code,
      department: 'ENG',
      role: p.role,
      user_type: p.userType,
      manager: p.manager ?? null,
      hr_contact: 'meera.iyer@adminease.test',
      join_date: '2025-01-06',
      annual_leave_total: 12,
    },
  });
  expect(res.ok(), `add ${p.email}: ${res.status()} ${await res.text()}`).toBe(true);
  const invite = await request.post(`/api/admin/people/${encodeURIComponent(p.code)}/invite`, { headers: admin, data: {} });
  expect(invite.ok(), `invite ${p.code}: ${invite.status()}`).toBe(true);
  const token = new URL((await invite.json()).invite_url).searchParams.get('token');
  const set = await request.post('/api/auth/set-password', { data: { token, password: PASSWORD } });
  expect(set.ok(), `set-password ${p.email}: ${set.status()} ${await set.text()}`).toBe(true);
}

async function openFormTypes(page: Page) {
  await page.getByRole('tab', { name: 'Form types' }).click();
  await expect(page.getByRole('tab', { name: 'Form types' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('form-types-table')).toBeVisible();
}

/** Approves the request in the dashboard's 'Other requests' section. */
async function approveInOtherRequests(page: Page, requestId: string) {
  const section = page.locator('#other-requests');
  await expect(section.getByRole('heading', { name: 'Other requests' })).toBeVisible();
  const row = section.locator(`tr[data-request-id="${requestId}"]`);
  await expect(row).toBeVisible();
  const decided = page.waitForResponse((r) => r.url().endsWith('/api/approvals/decide') && r.request().method() === 'POST');
  await row.getByRole('button', { name: /^Approve/ }).click();
  expect((await decided).status()).toBe(200);
  await expect(page.getByText(`${requestId} approved`)).toBeVisible();
}

test('the administrator creates a type with a two-stage chain; an employee submits it; both approvers decide it; it ends approved', async ({
  page,
  request,
}) => {
  const s = letters();
  const admin = await apiLogin(request, ADMIN, 'Demo@12345');
  const manager = { first: 'Mara', last: `Lead ${s}`, email: `e2e.ft.lead.${s}@adminease.test`, code: `FTL-${s}`.toUpperCase() };
  const reviewer = { first: 'Rhea', last: `Reviewer ${s}`, email: `e2e.ft.rev.${s}@adminease.test`, code: `FTR-${s}`.toUpperCase() };
  const employee = { first: 'Emil', last: `Asker ${s}`, email: `e2e.ft.emp.${s}@adminease.test`, code: `FTE-${s}`.toUpperCase() };
  await addPerson(request, admin, { ...manager, role: 'Team Lead', userType: 'line_manager' });
  await addPerson(request, admin, { ...reviewer, role: 'Finance Officer', userType: 'finance_staff' });
  await addPerson(request, admin, { ...employee, role: 'Software Engineer', userType: 'employee', manager: manager.code });

  // ---- the administrator creates the type ----
  const title = `Offsite booking ${s}`;
  const formType = `offsite-booking-${s}`;
  expect(await signIn(page, ADMIN)).toBe('dashboard-admin');
  await openFormTypes(page);
  await page.getByRole('button', { name: 'New form type' }).click();
  const dialog = page.getByRole('dialog', { name: 'New form type' });
  // Saving an empty type shows the editor's checks beside their controls.
  await dialog.getByRole('button', { name: 'Create form type' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Label is required')).toBeVisible();

  await dialog.getByLabel(/^Title/).fill(title);
  await expect(dialog.getByLabel(/^Form type id/)).toHaveValue(formType);
  await dialog.getByLabel(/^Category/).selectOption('Facilities & Operations');
  await dialog.getByLabel(/^Icon/).selectOption('Bus');
  await dialog.getByLabel(/^Description/).fill('Book a venue for a team day away from the office.');
  const field = (n: number) => dialog.getByRole('listitem', { name: new RegExp(`^Field ${n}`) });
  await field(1)
    .getByLabel(/^Label/)
    .fill('Venue');
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await field(2)
    .getByLabel(/^Label/)
    .fill('Budget');
  await field(2).getByLabel(/^Type/).selectOption('money');
  await field(2)
    .getByLabel(/^Minimum/)
    .fill('0');
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await field(3)
    .getByLabel(/^Label/)
    .fill('Catering');
  await field(3).getByLabel(/^Type/).selectOption('choice');
  await field(3)
    .getByLabel(/^Options/)
    .fill('None\nLunch\nDinner');
  await field(3).getByLabel('Required').uncheck();
  await field(3)
    .getByLabel(/^Help text/)
    .fill('Lunch or dinner for the team, if any');

  const stage = (n: number) => dialog.getByRole('listitem', { name: `Stage ${n}` });
  await expect(stage(1).getByLabel(/^Approved by/)).toHaveValue('line_manager');
  await dialog.getByRole('button', { name: 'Add stage' }).click();
  await stage(2)
    .getByLabel(/^Approved by/)
    .selectOption('person');
  await stage(2)
    .getByLabel(/^Person/)
    .fill(reviewer.code);
  await stage(2)
    .getByRole('button', { name: new RegExp(reviewer.code) })
    .click();
  await expect(stage(2).getByTestId('chosen-person')).toContainText(reviewer.code);
  await expect(dialog.getByText('Title is required')).toHaveCount(0);
  await screenshot(page, 'form-types-editor-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog.getByRole('button', { name: 'Create form type' })).toBeInViewport();
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  await screenshot(page, 'form-types-editor-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/form-types') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Create form type' }).click();
  expect((await created).status()).toBe(201);
  await expect(dialog).toBeHidden();
  const row = page.locator(`tr[data-form-type="${formType}"]`);
  await expect(row).toContainText(title);
  await expect(row).toContainText('Enabled');
  await screenshot(page, 'form-types-list-1440');
  await signOut(page);

  // ---- the employee submits it from the catalogue ----
  expect(await signIn(page, employee.email, PASSWORD)).toBe('dashboard-employee');
  await page.goto('/forms');
  await page.getByPlaceholder(/search/i).fill(title);
  await page.getByRole('button', { name: `${title} Form: open the form` }).click();
  const form = page.getByRole('form', { name: `${title} form` });
  await expect(form).toBeVisible();
  await expect(form.getByText('Lunch or dinner for the team, if any')).toBeVisible();
  await form.getByLabel(/^Venue/).fill('Lakeside Hall');
  await form.getByLabel(/^Budget/).fill('1800');
  await form.getByLabel(/^Catering/).selectOption('Lunch');
  const submitted = page.waitForResponse((r) => r.url().endsWith(`/api/forms/${formType}`) && r.request().method() === 'POST');
  await form.getByRole('button', { name: /^Submit/ }).click();
  const answer = await submitted;
  expect(answer.status()).toBe(201);
  const requestId = (await answer.json()).request_id as string;
  expect(requestId).toBeTruthy();
  await signOut(page);

  // ---- the line manager, then the named person, decide it from their dashboards ----
  expect(await signIn(page, manager.email, PASSWORD)).toBe('dashboard-line-manager');
  await approveInOtherRequests(page, requestId);
  await screenshot(page, 'form-types-other-requests-1440');
  await signOut(page);

  expect(await signIn(page, reviewer.email, PASSWORD)).toBe('dashboard-finance');
  // The details modal shows the request's fields before the decision.
  const section = page.locator('#other-requests');
  await section
    .locator(`tr[data-request-id="${requestId}"]`)
    .getByRole('button', { name: /View details/i })
    .click();
  const details = page.getByRole('dialog', { name: new RegExp(requestId) });
  await expect(details).toContainText('Lakeside Hall');
  await details.getByRole('button', { name: 'Close' }).first().click();
  await approveInOtherRequests(page, requestId);
  await expect(section).toHaveCount(0);
  await signOut(page);

  // ---- the employee sees it approved ----
  expect(await signIn(page, employee.email, PASSWORD)).toBe('dashboard-employee');
  const mine = page.locator(`[data-request-id="${requestId}"]`).first();
  await expect(mine).toBeVisible();
  await expect(mine).toContainText('Approved');
  // The History menu has the new type under its title too (drawn from the registry the web synced from the server).
  await page.getByLabel('History').selectOption({ label: title });
  await expect(page.getByRole('heading', { name: `${title} History` })).toBeVisible();
  const card = page.getByTestId('record-card').filter({ hasText: requestId });
  await expect(card).toBeVisible();
  // Its approval chain reads as steps, not as the record's JSON.
  await expect(card).toContainText(`Line Manager: Approved by ${manager.first} ${manager.last}`);
  await expect(card).not.toContainText('"stage"');
  await screenshot(page, 'form-types-history-1440');
});
