// The approval workflow in Chromium: a purchase requisition through line manager and finance, a facility
// access request rejected by the desk with a quick reason, HR's details with the leave balance, the manager's
// acknowledgement of IT items and bulk approval, and screenshots of every approver dashboard.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, screenshot, signIn, signOut } from './helpers';
import { indiaLunarHolidays } from '../src/domain/holidays';

/** The first Tuesday at least `days` ahead that is no holiday (leave and trips must lie within two years). */
function tuesdayAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  for (;;) {
    const iso = d.toISOString().slice(0, 10);
    const holiday =
      ['01-26', '08-15', '10-02', '12-25'].includes(iso.slice(5)) || indiaLunarHolidays(d.getUTCFullYear()).some((h) => h.date === iso);
    if (d.getUTCDay() === 2 && !holiday) return iso;
    d.setUTCDate(d.getUTCDate() + 1);
  }
}

/**
 * Axe on the dashboard's own content (header and main). The assistant column is checked by the assistant's
 * own specs; its Approve buttons (white on green-600) currently fail color-contrast and are reported there.
 */
async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).exclude('aside[aria-label="Assistant"]').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(report, 'serious or critical accessibility violations').toEqual([]);
}

// Each test signs several people in and out on a machine shared with other runs: allow it the time.
test.describe.configure({ timeout: 180_000 });

async function apiLogin(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBe(true);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

async function apiCall(request: APIRequestContext, headers: Record<string, string>, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res = method === 'GET' ? await request.get(url, { headers }) : await request.post(url, { headers, data });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

/**
 * Signs in through the form. signIn waits for the check-changes answer after sign-in and, when it listed updates,
 * for the 'Form Approval Updates' dialog to open, and closes it; the dashboard is then free to use.
 */
async function signInAs(page: Page, email: string): Promise<string> {
  const dashboard = await signIn(page, email);
  await expect(page.getByRole('dialog', { name: 'Form Approval Updates' })).not.toBeVisible();
  return dashboard;
}

const idOf = (body: any): string => body.request_id ?? body.form?.request_id ?? body.record?.request_id ?? body.data?.request_id;
const row = (page: Page, requestId: string) => page.locator(`main [data-request-id="${requestId}"]`);
const tile = (page: Page, label: string) =>
  page.getByTestId('summary-tiles').getByText(label, { exact: true }).locator('xpath=../..').locator('p');

async function tileValue(page: Page, label: string): Promise<number> {
  return Number(await tile(page, label).innerText());
}

const employeeList = (page: Page) => page.getByTestId('your-forms');

test('a purchase requisition: the line manager approves, finance approves, the employee sees Approved', async ({ page }) => {
  // The employee submits the requisition from the catalogue.
  expect(await signInAs(page, 'alex.johnson@adminease.test')).toBe('dashboard-employee');
  await page.getByRole('button', { name: 'Forms & Requests' }).click();
  await page.getByRole('button', { name: 'Purchase Requisition Form: open the form' }).click();
  const form = page.getByRole('dialog', { name: 'Purchase Requisition Form' });
  await form.getByLabel('Item description').fill('USB-C docking station');
  await form.getByLabel('Purpose of purchase').fill('Hot desks on floor 2');
  await form.getByLabel('Quantity').fill('3');
  await form.getByLabel('Unit cost (USD)').fill('149.50');
  await expect(form.getByLabel('Estimated total (USD)')).toHaveValue('448.50');
  const submittedResponse = page.waitForResponse((r) => r.url().endsWith('/api/purchase-requisition/submit'));
  await form.getByRole('button', { name: 'Submit Requisition' }).click();
  const id = idOf(await (await submittedResponse).json());
  expect(id).toMatch(/^PR-\d+$/);
  await expect(form).toBeHidden();
  await signOut(page);

  // Line manager: Pending by default, the new request is decidable; approving updates row and tiles in place.
  expect(await signInAs(page, 'priya.sharma@adminease.test')).toBe('dashboard-line-manager');
  await expect(page.getByTestId('status-filter')).toHaveValue('Pending');
  for (const col of ['Form', 'Employee', 'Created', 'Manager Approval'])
    await expect(page.getByRole('columnheader', { name: col })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Department', includeHidden: true }).first()).toBeAttached();
  await expect(row(page, id)).toContainText('Alex Johnson');
  const pendingBefore = await tileValue(page, 'Pending');
  const approvedBefore = await tileValue(page, 'Approved');
  await screenshot(page, 'approvals-line-manager');
  await expectNoSeriousA11yViolations(page);
  await row(page, id)
    .getByRole('button', { name: `Approve ${id}` })
    .click();
  await expect(row(page, id)).toHaveCount(0); // no longer Pending
  await expect(tile(page, 'Pending')).toHaveText(String(pendingBefore - 1));
  await expect(tile(page, 'Approved')).toHaveText(String(approvedBefore + 1));
  await page.getByTestId('status-filter').selectOption('All');
  await expect(row(page, id)).toContainText('Approved');
  await expect(row(page, id)).toContainText('by Priya Sharma');
  await signOut(page);

  // Finance: the request is actionable now; details show the chain and Finance Review; approve from the modal.
  expect(await signInAs(page, 'arjun.mehta@adminease.test')).toBe('dashboard-finance');
  await expect(page.getByTestId('status-filter')).toHaveValue('Pending');
  for (const col of [/Request ID/, 'Employee', 'Amount', 'Finance Status'])
    await expect(page.getByRole('columnheader', { name: col })).toBeVisible();
  await expect(row(page, id)).toContainText('448.50');
  await expect(row(page, id).getByRole('button', { name: `Approve ${id}` })).toBeVisible();
  await screenshot(page, 'approvals-finance');
  await expectNoSeriousA11yViolations(page);
  await row(page, id)
    .getByRole('button', { name: `View details of ${id}` })
    .click();
  const modal = page.getByRole('dialog', { name: `Request Details - ID: ${id}` });
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId('next-stage')).toHaveText('Finance Review');
  await expect(modal.locator('[data-stage="line_manager"]')).toHaveAttribute('data-colour', 'green');
  await expect(modal.locator('[data-stage="finance"]')).toHaveAttribute('data-colour', 'yellow');
  await expect(modal).toContainText('Item Description');
  await expect(modal).toContainText('USB-C docking station');
  await expect(modal).toContainText('Estimated Total (USD)');
  await expect(modal.getByTestId('audit-history')).toContainText('Approved by Priya Sharma (Line Manager)');
  await screenshot(page, 'approvals-finance-details');
  await modal.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(modal).toHaveCount(0); // the modal closes first
  await expect(row(page, id)).toHaveCount(0); // the reloaded Pending list no longer has it
  await page.getByTestId('status-filter').selectOption('All');
  await expect(row(page, id)).toContainText('by Arjun Mehta');
  await signOut(page);

  // The employee sees Approved with both steps green.
  expect(await signInAs(page, 'alex.johnson@adminease.test')).toBe('dashboard-employee');
  const mine = employeeList(page).locator(`[data-request-id="${id}"]`);
  await expect(mine).toContainText('Approved');
  await mine.getByRole('button', { name: /View Details/ }).click();
  const details = page.getByRole('dialog', { name: 'Purchase Requisition Details' });
  const steps = details.getByTestId('approval-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('Approved');
  await expect(steps.nth(0)).toHaveAttribute('data-colour', 'green');
  await expect(steps.nth(1)).toContainText('Approved');
  await expect(steps.nth(1)).toHaveAttribute('data-colour', 'green');
  await expect(details.getByTestId('next-stage')).toHaveText('Completed');
  await page.screenshot({ path: 'e2e/screenshots/approvals-employee-approved.png' });
});

test('a facility access request rejected by the desk with a quick reason shows the reason to the employee', async ({ page }) => {
  // The employee asks for extended access from the catalogue.
  expect(await signInAs(page, 'alex.johnson@adminease.test')).toBe('dashboard-employee');
  await page.getByRole('button', { name: 'Forms & Requests' }).click();
  await page.getByRole('button', { name: 'Facility Access Booking Form: open the form' }).click();
  const fa = page.getByRole('form', { name: 'Facility Access Booking Form' });
  await fa.getByLabel('Request type').selectOption('Extended Access Hours');
  await fa.getByLabel('Facilities requested').fill('Server room B after 9pm');
  await fa.getByLabel('Justification').fill('Weekend migration window');
  const faResponse = page.waitForResponse((r) => r.url().endsWith('/api/forms/facility-access') && r.request().method() === 'POST');
  await fa.getByRole('button', { name: 'Submit Request' }).click();
  const id = idOf(await (await faResponse).json());
  expect(id).toMatch(/^FA-\d+$/);
  await expect(fa.getByText('Form submitted successfully!')).toBeVisible();
  await signOut(page);

  expect(await signInAs(page, 'sofia.rossi@adminease.test')).toBe('dashboard-facilities-desk');
  for (const col of [/Request ID/, 'Employee', 'Form Type', 'Date', 'Status'])
    await expect(page.getByRole('columnheader', { name: col, exact: typeof col === 'string' })).toBeVisible();
  // Department and Details are columns too; they show when the panel is wide enough (the assistant column narrows it).
  for (const col of ['Department', 'Details'])
    await expect(page.getByRole('columnheader', { name: col, exact: true, includeHidden: true })).toHaveCount(1);
  await expect(row(page, id)).toContainText('Facility Access');
  await screenshot(page, 'approvals-facilities-desk');
  await expectNoSeriousA11yViolations(page);
  await row(page, id)
    .getByRole('button', { name: `Reject ${id}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reject Request' });
  // The form's readable name, never its code.
  await expect(dialog).toContainText('Facility Access');
  await expect(dialog).not.toContainText('facility-access');
  await expect(dialog).toContainText('Alex Johnson');
  await expect(dialog).toContainText(id);
  await expect(dialog.getByTestId('reason-counter')).toHaveText('0/300');
  await expect(dialog.getByRole('button', { name: 'Reject', exact: true })).toBeDisabled();
  // Facility access offers its own quick reasons, not IT access's.
  await expect(dialog.getByRole('button', { name: 'Please get approval from the system owner first' })).toHaveCount(0);
  const quick = 'Please get approval from the area owner first';
  await dialog.getByRole('button', { name: quick }).click();
  await expect(dialog.getByTestId('reason-counter')).toHaveText(`${quick.length}/300`);
  await screenshot(page, 'approvals-rejection-dialog');
  await dialog.getByRole('textbox').press('Control+Enter');
  await expect(dialog).toHaveCount(0);
  await page.getByTestId('status-filter').selectOption('Rejected');
  await expect(row(page, id)).toContainText('Rejected');
  await expect(row(page, id)).toContainText('by Sofia Rossi');
  await signOut(page);

  // The employee sees the rejection and the desk's reason.
  expect(await signInAs(page, 'alex.johnson@adminease.test')).toBe('dashboard-employee');
  const mine = employeeList(page).locator(`[data-request-id="${id}"]`);
  await expect(mine).toContainText('Rejected');
  await mine.getByRole('button', { name: /View Details/ }).click();
  const employeeModal = page.getByRole('dialog', { name: 'Facility Access Details' });
  await expect(employeeModal.getByRole('region', { name: 'Rejection Reason' })).toContainText(quick);
  await expect(employeeModal.getByTestId('next-stage')).toHaveText('Rejected - No Further Action');
  await expect(employeeModal.getByTestId('approval-step').first()).toHaveAttribute('data-colour', 'red');
  await page.screenshot({ path: 'e2e/screenshots/approvals-employee-rejected.png' });
  await employeeModal.getByRole('button', { name: 'Close', exact: true }).first().click();
  await signOut(page);

  // The facilities manager sees it closed: no decision buttons, the desk's rejection in the chain.
  expect(await signInAs(page, 'kenji.watanabe@adminease.test')).toBe('dashboard-facilities-manager');
  await page.getByTestId('status-filter').selectOption('All');
  await expect(row(page, id)).toBeVisible();
  await expect(row(page, id).getByRole('button', { name: `Approve ${id}` })).toHaveCount(0);
  await row(page, id)
    .getByRole('button', { name: `View details of ${id}` })
    .click();
  const details = page.getByRole('dialog');
  await expect(details.getByTestId('rejection-reason')).toHaveText(quick);
  await expect(details.getByTestId('next-stage')).toHaveText('Rejected - No Further Action');
  await details.getByRole('button', { name: 'Close', exact: true }).first().click();
  await page.getByTestId('status-filter').selectOption('Pending');
  await screenshot(page, 'approvals-facilities-manager');
  await expectNoSeriousA11yViolations(page);
});

test('HR details with the leave balance; the manager acknowledges IT items and approves in bulk', async ({ page, request }) => {
  // Tom (HR officer) reports to Meera, who is also his HR contact: his leave waits on Meera as line manager first.
  const tom = await apiLogin(request, 'tom.becker@adminease.test');
  const tomLeave = idOf(
    await apiCall(request, tom, 'POST', '/api/forms/leave-request', {
      leave_type: 'Sick',
      start_date: tuesdayAhead(200),
      end_date: tuesdayAhead(200),
      reason: 'Dentist appointment',
    }),
  );

  // HR: Meera's queue opens on Pending with the type buttons; a leave request shows the Leave Balance panel.
  expect(await signInAs(page, 'meera.iyer@adminease.test')).toBe('dashboard-hr');
  const hr = page.locator('#approval-panel');
  await expect(hr.getByTestId('status-filter')).toHaveValue('Pending');
  await expect(hr.getByRole('button', { name: /^All Forms/ })).toBeVisible();
  await expect(hr.getByRole('button', { name: /^Leave Request/ })).toBeVisible();
  await expect(row(page, tomLeave)).toHaveCount(1); // only in 'Your team', not yet at the HR stage
  await expect(page.locator('#team-approval-panel')).toContainText('Your team');
  await screenshot(page, 'approvals-hr');
  await expectNoSeriousA11yViolations(page);
  const firstLeave = hr.getByTestId('approval-table').locator('tbody tr', { hasText: 'Leave Request' }).first();
  await firstLeave.getByRole('button', { name: /^View details of/ }).click();
  const hrModal = page.getByRole('dialog');
  await expect(hrModal.getByTestId('leave-balance')).toContainText('Annual Left');
  await expect(hrModal.getByTestId('leave-balance')).toContainText('Annual Used');
  await expect(hrModal.getByTestId('leave-balance')).toContainText('Unpaid');
  await expect(hrModal.getByTestId('next-stage')).toHaveText('HR Review');
  await screenshot(page, 'approvals-hr-details');
  await hrModal.getByRole('button', { name: 'Close', exact: true }).first().click();

  // As Tom's line manager, Meera approves in 'Your team'. Separation of duties: one person decides one step of a
  // request, so the HR step goes to another HR member and Meera's HR queue does not offer it.
  const teamRow = page.locator('#team-approval-panel').locator(`[data-request-id="${tomLeave}"]`);
  await teamRow.getByRole('button', { name: `Approve ${tomLeave}` }).click();
  await expect(teamRow.getByRole('button', { name: `Approve ${tomLeave}` })).toHaveCount(0);
  await expect(hr.locator(`[data-request-id="${tomLeave}"]`)).toHaveCount(0);

  // Choosing a type resets the status filter to All.
  await hr.getByRole('button', { name: /^Leave Request/ }).click();
  await expect(hr.getByTestId('status-filter')).toHaveValue('All');
  await signOut(page);

  // Line manager: two new requests approved together; an IT incident acknowledged on opening its details.
  const maria = await apiLogin(request, 'maria.garcia@adminease.test');
  const a = idOf(
    await apiCall(request, maria, 'POST', '/api/forms/petty-cash', {
      amount_requested: 25,
      expected_settlement_date: '2031-03-04',
      purpose: 'Team lunch receipts',
    }),
  );
  const b = idOf(
    await apiCall(request, maria, 'POST', '/api/forms/travel-request', {
      destination: 'Berlin',
      departure_date: tuesdayAhead(150),
      return_date: tuesdayAhead(150),
      travel_purpose: 'Conference talk',
      total_estimated_cost: 900,
    }),
  );
  const inc = idOf(
    await apiCall(request, maria, 'POST', '/api/forms/it-incident', {
      affected_system: 'Docking station',
      incident_description: 'Screens flicker',
    }),
  );

  expect(await signInAs(page, 'priya.sharma@adminease.test')).toBe('dashboard-line-manager');
  await row(page, a).getByRole('checkbox').check();
  await row(page, b).getByRole('checkbox').check();
  await expect(page.getByTestId('bulk-bar')).toContainText('2 selected');
  await screenshot(page, 'approvals-line-manager-bulk');
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Approve selected' }).click();
  await expect(row(page, a)).toHaveCount(0);
  await expect(row(page, b)).toHaveCount(0);
  await page.getByTestId('status-filter').selectOption('All');
  await expect(row(page, a)).toContainText('by Priya Sharma');
  await expect(row(page, b)).toContainText('by Priya Sharma');

  await expect(row(page, inc)).toContainText('View Only');
  await expect(row(page, inc).getByRole('button', { name: `Approve ${inc}` })).toHaveCount(0);
  await row(page, inc)
    .getByRole('button', { name: `View details of ${inc}` })
    .click();
  const itModal = page.getByRole('dialog');
  await expect(itModal).toContainText('Manager Acknowledgement');
  await expect(itModal).toContainText('Awaiting IT Support');
  await screenshot(page, 'approvals-line-manager-it-details');
  await itModal.getByRole('button', { name: 'Close', exact: true }).first().click();
  // the list refreshes ~500 ms after the acknowledgement: the row now shows the acknowledgement as Approved
  await expect(row(page, inc)).toContainText('Approved');
  const priya = await apiLogin(request, 'priya.sharma@adminease.test');
  const details = await apiCall(request, priya, 'GET', `/api/manager/form-details?form_id=${inc}&form_type=it-incident`);
  expect(details.line_manager_acknowledgement).toBe(true);

  // On a phone the table keeps its decisions reachable (columns give way to the panel's width).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#approval-panel').scrollIntoViewIfNeeded();
  await expect(
    page
      .locator('#approval-panel')
      .getByRole('button', { name: /^Approve / })
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/approvals-line-manager-phone.png', fullPage: false });
});
