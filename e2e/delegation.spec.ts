// Delegation while away in Chromium (issue 20): a manager sets an out-of-office period with a delegate from the
// dashboard header, the delegate approves the manager's team request from 'Deciding for others', and the request
// records the decision on behalf of the manager. People are made through the admin API (no demo person changes).
// Screenshots of the delegation screen at 1440 and 390 px.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { addDays, businessDate, weekdayOf } from '../src/domain/business-time';
import { indiaLunarHolidays } from '../src/domain/holidays';
import { DEMO_PASSWORD, screenshot, signIn, signOut } from './helpers';

const ADMIN = 'olivia.brooks@adminease.test';
const PASSWORD = 'Green-Meadow-57-Compass';

test.describe.configure({ timeout: 240_000 });

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function login(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok(), `login ${email}: ${res.status()}`).toBe(true);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

async function post(request: APIRequestContext, headers: Record<string, string>, url: string, data: unknown) {
  const res = await request.post(url, { headers, data });
  expect(res.ok(), `POST ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

/** A person made by the administrator, with a password set through their invitation. */
async function makePerson(request: APIRequestContext, admin: Record<string, string>, fields: Record<string, unknown>) {
  const p = await post(request, admin, '/api/admin/people', { department: 'ENG', join_date: '2025-04-01', ...fields });
  const { invite_url } = await post(request, admin, `/api/admin/people/${p.employee_code}/invite`, {});
  const token = new URL(invite_url).searchParams.get('token');
  const set = await request.post('/api/auth/set-password', { data: { token, password: PASSWORD } });
  expect(set.ok()).toBe(true);
  return p as { email: string; employee_code: string; first_name: string; last_name: string };
}

test('a manager sets an out-of-office delegate, and the delegate approves a team request on their behalf', async ({ page, request }) => {
  const s = stamp();
  const admin = await login(request, ADMIN);
  const person = (kind: string, first: string) => ({
    email: `e2e.ooo.${kind}.${s}@adminease.test`,
    first_name: first,
    last_name: `Away ${s}`,
    employee_code: `OOO-${kind}-${s}`.toUpperCase(),
  });
  const manager = await makePerson(request, admin, {
    ...person('mgr', 'Priya'),
    role: 'Team Lead',
    user_type: 'line_manager',
    hr_contact: 'meera.iyer@adminease.test',
  });
  const member = await makePerson(request, admin, {
    ...person('member', 'Asha'),
    role: 'Employee',
    user_type: 'employee',
    manager: manager.employee_code,
    hr_contact: 'meera.iyer@adminease.test',
  });
  const delegate = await makePerson(request, admin, { ...person('delegate', 'Daniel'), role: 'Employee', user_type: 'employee' });
  const memberHeaders = await login(request, member.email, PASSWORD);
  // A Wednesday two months ahead that is no holiday.
  let day = addDays(businessDate(new Date()), 60);
  const holiday = (d: string) =>
    ['01-26', '08-15', '10-02', '12-25'].includes(d.slice(5)) || indiaLunarHolidays(Number(d.slice(0, 4))).some((h) => h.date === d);
  while (weekdayOf(day) !== 3 || holiday(day)) day = addDays(day, 1);
  const { request_id: id } = await post(request, memberHeaders, '/api/forms/leave-request', {
    leave_type: 'Sick',
    start_date: day,
    end_date: day,
    reason: 'Medical appointment',
  });

  // The manager sets the period from the dashboard header.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, manager.email, PASSWORD);
  await page.getByTestId('out-of-office-button').click();
  const dialog = page.getByRole('dialog', { name: 'Out of office' });
  await expect(dialog.getByText('No out-of-office period is set.')).toBeVisible();
  const today = businessDate(new Date());
  await dialog.getByLabel('From').fill(today);
  await dialog.getByLabel('Until').fill(addDays(today, 3));
  await dialog.getByLabel('Delegate').fill(delegate.email);
  await dialog.getByLabel('Message (optional)').fill('At a conference; Daniel decides for me.');
  await screenshot(page, 'delegation-form-1440');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/Out of office saved/)).toBeVisible();
  await expect(dialog).toBeHidden();
  // Opened again: the current period is shown.
  await page.getByTestId('out-of-office-button').click();
  await expect(dialog.getByTestId('out-of-office-current')).toContainText(`${delegate.first_name} ${delegate.last_name} decides meanwhile`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'delegation-form-390');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await signOut(page);

  // The delegate decides it from 'Deciding for others', on behalf of the manager.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, delegate.email, PASSWORD);
  const panel = page.getByTestId('covering-panel');
  const item = panel.locator(`[data-request-id="${id}"]`);
  await expect(item).toContainText(`on behalf of ${manager.first_name} ${manager.last_name}`);
  await screenshot(page, 'delegation-covering-1440');
  await item.getByRole('button', { name: `Approve ${id}` }).click();
  await expect(page.getByText(`${id} approved`)).toBeVisible();
  await expect(item).toHaveCount(0);
  await signOut(page);

  // The requester sees who decided, for whom.
  const details = await request.get(`/api/forms/details/${id}`, { headers: memberHeaders });
  expect(await details.json()).toMatchObject({
    line_manager_approval: 'Approved',
    line_manager_signature: `${delegate.first_name} ${delegate.last_name}`,
    line_manager_on_behalf_of: `${manager.first_name} ${manager.last_name}`,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, member.email, PASSWORD);
  await page.goto(`/requests/${id}`);
  await expect(page.getByTestId('delegation-notes')).toContainText(`on behalf of ${manager.first_name} ${manager.last_name}`);
  await screenshot(page, 'delegation-requester-390');
  await page.getByRole('button', { name: 'Close' }).last().click(); // the details modal covers the header
  await signOut(page);

  // The administrator's Overdue tab, with the reminder limits per form type.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, ADMIN);
  await page.getByRole('tab', { name: 'Overdue' }).click();
  await expect(page.getByRole('heading', { name: 'Overdue approvals' })).toBeVisible();
  await expect(page.getByTestId('reminder-settings')).toBeVisible();
  await screenshot(page, 'delegation-admin-overdue-1440');
});
