// Dates in the web (issue 19): a new employee's leave over a closed holiday says in its details which holiday is not
// counted; the leave form's start date picker starts today for an annual leave and reaches back for a sick leave
// already taken (the server's rule). Screenshots of the details at 360 and 1440 px, without sideways scrolling.
import { type Page, expect, test } from '@playwright/test';
import { addDays, isWeekend } from '../src/domain/business-time';
import { closedHolidayDates } from '../src/domain/holidays';
import { HolidayService } from '../src/server/calendar/service';
import { acceptInvitation, apiLogin, apiPost, screenshot, signIn } from './helpers';

test.describe.configure({ timeout: 180_000 });

const ADMIN = 'olivia.brooks@adminease.test';
const PASSWORD = 'Blue-Harbour-42-Lantern';
const today = new Date().toISOString().slice(0, 10);

/** The first closed holiday on a weekday at least a week ahead (the offline calendar the server counts with). */
function weekdayHoliday(): string {
  const offline = new HolidayService({ country: 'IN' });
  const from = addDays(today, 7);
  const year = Number(from.slice(0, 4));
  const list = [year, year + 1].flatMap((y) => offline.offline(y));
  const closed = [...closedHolidayDates(list, from, `${year + 1}-12-31`)].sort();
  const day = closed.find((d) => !isWeekend(d));
  if (!day) throw new Error('no closed weekday holiday ahead');
  return day;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test('a leave over a company holiday explains it in its details; the start date picker follows the past-date rule', async ({
  page,
  request,
}) => {
  const s = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const admin = await apiLogin(request, ADMIN);
  const person = await apiPost(request, admin, '/api/admin/people', {
    email: `e2e.leave.${s}@adminease.test`,
    first_name: 'Holiday',
    last_name: `E2E ${s}`,
    employee_code: `E2E-LEAVE-${s}`.toUpperCase(),
    department: 'ENG',
    role: 'Employee',
    user_type: 'employee',
    manager: 'priya.sharma@adminease.test',
    hr_contact: 'meera.iyer@adminease.test',
    join_date: '2025-04-01',
  });
  const { invite_url } = await apiPost(request, admin, `/api/admin/people/${person.employee_code}/invite`, {});
  await acceptInvitation(request, invite_url, PASSWORD);
  const headers = await apiLogin(request, person.email, PASSWORD);

  const holiday = weekdayHoliday();
  const leave = await apiPost(request, headers, '/api/forms/leave-request', {
    leave_type: 'Casual',
    start_date: holiday,
    end_date: addDays(holiday, 4), // a working day too, whatever weekday the holiday falls on
    reason: 'Long weekend with family',
  });
  expect(leave.holiday_note).toMatch(/^Includes \d+ [A-Z][a-z]{2} \(.+\), (a company holiday|company holidays): not counted$/);

  expect(await signIn(page, person.email, PASSWORD)).toBe('dashboard-employee');
  await expect(page.getByText('Loading your forms...')).toHaveCount(0);
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .getByTestId('your-forms')
      .locator(`[data-request-id="${leave.request_id}"]`)
      .getByRole('button', { name: `View Details of ${leave.request_id}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Leave Request Details' });
    await expect(dialog.getByTestId('holiday-note')).toHaveText(leave.holiday_note);
    await screenshot(page, `leave-holiday-note-${width}`);
    await noSidewaysScroll(page);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(dialog).toHaveCount(0);
  }

  // The leave form: an annual leave starts today at the earliest, a sick leave may have started already.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('button', { name: 'Forms & Requests' }).click();
  await page.getByTestId('catalogue').getByRole('button', { name: 'Leave Request Form: open the form' }).click();
  const form = page.getByRole('form', { name: 'Leave Request form' });
  await form.getByLabel('Leave type').selectOption('Annual');
  const businessToday = await page.evaluate(async () => (await (await fetch('/api/auth/config')).json()).business_date as string);
  await expect(form.getByLabel('Start date')).toHaveAttribute('min', businessToday);
  await form.getByLabel('Leave type').selectOption('Sick');
  await expect(form.getByLabel('Start date')).toHaveAttribute('min', addDays(businessToday, -366));
});
