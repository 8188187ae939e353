// Live notifications in Chromium: the employee is signed in in one browser while the line manager approves in
// another; the employee's bell count rises without a reload, the 'Form Approval Updates' dialog shows the change,
// marking it read removes it. Then the form calendar with holidays and the employee's leave (screenshot).
import AxeBuilder from '@axe-core/playwright';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { apiLogin, apiPost, newTeam, screenshot, signIn } from './helpers';

/** Axe on one part of the page (this feature's dialog or popover): no serious or critical violations. */
async function expectAccessible(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

interface Holiday {
  date: string;
  name: string;
  type: string;
}

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** A weekday holiday at least 60 days ahead (clear of the demo data) with a working day before it in the same month. */
function pickHoliday(holidays: Holiday[], today: string): { holiday: Holiday; leaveStart: string } {
  const from = iso(Date.parse(`${today}T00:00:00Z`) + 60 * DAY);
  for (const h of holidays) {
    if (h.date < from || [0, 6, 1].includes(weekday(h.date))) continue; // Tuesday to Friday, so the day before is a weekday
    const before = iso(Date.parse(`${h.date}T00:00:00Z`) - DAY);
    if (before.slice(0, 7) !== h.date.slice(0, 7)) continue;
    if (holidays.some((x) => x.date === before)) continue;
    return { holiday: h, leaveStart: before };
  }
  throw new Error('no suitable holiday found');
}

async function bellCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notifications-badge');
  return (await badge.count()) === 0 ? 0 : Number(await badge.textContent());
}

test('a manager decision reaches the signed-in employee live; the calendar shows holidays and leave', async ({ browser, request }) => {
  // Two browsers, three axe runs and a reload: generous on a shared, busy machine.
  test.setTimeout(180_000);
  // A team of this test's own (a retry makes another), so no earlier request or notification is in the way.
  const tag = `n${Date.now().toString(36)}`;
  const password = 'Live-Notify-2031';
  const { lead, member } = await newTeam(request, await apiLogin(request, 'olivia.brooks@adminease.test'), { tag, password });
  const employeeContext = await browser.newContext();
  const managerContext = await browser.newContext();
  const employee = await employeeContext.newPage();
  const manager = await managerContext.newPage();

  // Employee: the member signs in and stays on the dashboard; a new person has no notifications.
  expect(await signIn(employee, member.email, password)).toBe('dashboard-employee');
  await expect(employee.getByTestId('notifications-bell')).toBeVisible();
  await expect(employee.getByRole('dialog', { name: 'Form Approval Updates' })).not.toBeVisible();
  const before = 0;
  expect(await bellCount(employee)).toBe(before);

  // A leave request of the member next to a holiday (submitted through the API in the member's session).
  const today = iso(Date.now());
  const year = Number(today.slice(0, 4));
  const hol = await employee.request.get(`/api/calendar/holidays?year=${year + 1}`);
  expect(hol.ok()).toBe(true);
  const { holiday, leaveStart } = pickHoliday((await hol.json()).holidays, today);
  const submitted = await employee.request.post('/api/forms/leave-request', {
    data: { leave_type: 'Casual', start_date: leaveStart, end_date: leaveStart, reason: 'Family function before the holiday' },
  });
  expect(submitted.ok(), await submitted.text()).toBe(true);
  const requestId: string = (await submitted.json()).request_id;
  expect(requestId).toMatch(/^LR-\d+$/);

  // Manager: the team lead signs in in another browser and approves (through the manager API in the lead's session).
  expect(await signIn(manager, lead.email, password)).toBe('dashboard-line-manager');
  const decided = await manager.request.post('/api/manager/update-status', {
    data: {
      form_id: requestId,
      form_type: 'leave-request',
      status: 'Approved',
      manager_id: lead.employee_code,
      manager_name: `${lead.first_name} ${lead.last_name}`,
      comments: '',
      rejection_reason: '',
    },
  });
  expect(decided.ok(), await decided.text()).toBe(true);

  // Employee, without a reload: the bell count rises and the updates dialog shows the change.
  await expect.poll(() => bellCount(employee), { timeout: 5000 }).toBe(before + 1);
  const dialog = employee.getByRole('dialog', { name: 'Form Approval Updates' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Leave Request Updates' })).toBeVisible();
  const item = dialog.locator('li', { hasText: requestId });
  await expect(item).toContainText(`Leave Request ${requestId} approved by your line manager`);
  await expect(item).toContainText('Line Manager Approval changed from Pending to Approved');
  await expect(dialog.getByTestId('updates-count')).toHaveText('1 approval update');
  await screenshot(employee, 'notifications-updates-dialog');
  await expectAccessible(employee, '[role="dialog"]');

  // Marking it read removes it: the dialog closes and the bell count goes back.
  await item.getByRole('button', { name: 'Mark as read' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => bellCount(employee)).toBe(before);
  await employee.getByTestId('notifications-bell').click();
  const panel = employee.getByRole('region', { name: 'Notifications' });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(`Leave Request ${requestId} approved by your line manager`)).toHaveCount(0);
  await screenshot(employee, 'notifications-bell-dropdown');
  await expectAccessible(employee, '[role="region"][aria-label="Notifications"]');
  await employee.keyboard.press('Escape');

  // And it stays read after a reload.
  await employee.reload();
  await expect(employee.getByTestId('notifications-bell')).toBeVisible();
  await expect.poll(() => bellCount(employee)).toBe(before);

  // The form calendar: navigate to the holiday's month, where the member's leave is the day before.
  await employee.getByTestId('calendar-button').click();
  const calendar = employee.getByTestId('form-calendar');
  await expect(calendar).toBeVisible();
  const target = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${holiday.date}T00:00:00Z`),
  );
  for (let i = 0; i < 24 && (await calendar.getByTestId('calendar-month').textContent()) !== target; i += 1) {
    await calendar.getByRole('button', { name: 'Next month' }).click();
  }
  await expect(calendar.getByTestId('calendar-month')).toHaveText(target);
  const holidayCell = calendar.locator(`[data-date="${holiday.date}"]`);
  await expect(holidayCell.locator('[data-testid="day-dots"] > span.rounded-full')).not.toHaveCount(0);
  await calendar.locator(`[data-date="${leaveStart}"]`).click();
  const details = calendar.getByTestId('calendar-day-details');
  await expect(details).toContainText('Casual leave');
  await expect(details).toContainText(requestId);
  await screenshot(employee, 'form-calendar-leave');
  await holidayCell.click();
  await expect(details).toContainText(holiday.name);
  await screenshot(employee, 'form-calendar');
  await expectAccessible(employee, '[data-testid="form-calendar"]');

  // A day without events.
  const empty = await calendar.evaluate((el) => {
    for (const b of el.querySelectorAll<HTMLButtonElement>('button[data-date]')) {
      if (!b.querySelector('[data-testid="day-dots"] > span')) return b.dataset.date;
    }
    return null;
  });
  expect(empty).toBeTruthy();
  await calendar.locator(`[data-date="${empty}"]`).click();
  await expect(details).toContainText('No events on this date');

  // On a phone the popover spans the screen width under the header.
  await employee.setViewportSize({ width: 390, height: 844 });
  await employee.keyboard.press('Escape');
  await expect(calendar).toBeHidden();
  await employee.getByTestId('calendar-button').click();
  await expect(calendar).toBeVisible();
  const header = await employee.locator('header').boundingBox();
  const popover = await calendar.boundingBox();
  expect(popover && header && popover.y >= header.y + header.height - 1).toBe(true);
  const box = await calendar.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await employee.screenshot({ path: 'e2e/screenshots/form-calendar-phone.png', animations: 'disabled' }); // the pop-in animation finished

  await employeeContext.close();
  await managerContext.close();
});

/** Whether the focused element is inside `where` (not the page behind it, not the body). */
function focusInside(where: Locator): Promise<boolean> {
  return where.evaluate((el) => {
    const a = document.activeElement;
    return Boolean(a && a !== document.body && el.contains(a));
  });
}

test('the bell: a notification clicked opens its request; Tab and Shift+Tab stay in the dialog, Escape closes it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A team of this test's own: the member's leave is an 'awaits your approval' notification in the lead's bell.
  const tag = `b${Date.now().toString(36)}`;
  const password = 'Bell-Focus-2031';
  const admin = await apiLogin(request, 'olivia.brooks@adminease.test');
  const { lead, member } = await newTeam(request, admin, { tag, password });
  const day = new Date(Date.now() + 320 * 86_400_000);
  while (day.getUTCDay() !== 3) day.setUTCDate(day.getUTCDate() + 1);
  const date = day.toISOString().slice(0, 10);
  const { request_id: id } = await apiPost(request, await apiLogin(request, member.email, password), '/api/forms/leave-request', {
    leave_type: 'Sick',
    start_date: date,
    end_date: date,
    reason: 'Bell focus check',
  });

  await signIn(page, lead.email, password);
  await page.getByTestId('notifications-bell').click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  await expect(panel).toBeVisible();
  const item = panel.getByRole('button', { name: new RegExp(id) }).first();
  await expect(item).toBeVisible();
  await item.click();
  // The panel gives way to the request's details dialog, which holds the keyboard.
  await expect(panel).toBeHidden();
  const dialog = page.getByRole('dialog', { name: /Leave Request/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(id).first()).toBeVisible();
  await expect.poll(() => focusInside(dialog), { message: 'focus is in the dialog when it opens' }).toBe(true);
  // More presses than the dialog has controls: focus wraps inside it both ways and never reaches the page behind.
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 25; i += 1) {
      await page.keyboard.press(key);
      expect(await focusInside(dialog), `${key} ${i + 1} keeps focus in the dialog`).toBe(true);
    }
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(panel).toBeHidden();
  await screenshot(page, 'notifications-bell-after-dialog');
});
