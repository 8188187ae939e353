// Behaviour across screens: each count is one number wherever it is shown, focus stays in an open modal when the
// focused button goes away, and the 'Form Approval Updates' dialog opens on a first sign-in. Each test stands alone.
// Also: the approvers' automatic greeting is silent and never blocks the chat, the calendar moves by day with the
// arrow keys, opening a view-only IT item acknowledges it, the phone assistant sheet keeps focus, toasts never cover
// the header, and a card's checkbox sits beside its request id.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD, screenshot, signIn } from './helpers';

/** The number on a summary tile ('Pending', 'Total Forms', ...). */
async function tile(page: Page, label: string): Promise<number> {
  const t = page.getByTestId('stat-tile').filter({ has: page.getByTestId('stat-label').getByText(label, { exact: true }) });
  await expect(t.getByTestId('stat-value')).toHaveText(/^\d+$/);
  return Number(await t.getByTestId('stat-value').textContent());
}

/** The count of a status filter option ('Pending (7)' -> 7). */
async function filterCount(page: Page, option: string): Promise<number> {
  const text = await page
    .getByTestId('status-filter')
    .first()
    .locator('option', { hasText: new RegExp(`^${option} \\(\\d+\\)$`) })
    .textContent();
  return Number(/\((\d+)\)$/.exec(text ?? '')?.[1]);
}

/** Each chip of a 'Form type' group with its count. */
async function chipCounts(group: Locator): Promise<Array<{ label: string; count: number }>> {
  const texts = await group.getByRole('button').allTextContents();
  return texts.map((t) => {
    const m = /^(.*?)(\d+)$/.exec(t.trim());
    return { label: m?.[1].trim() ?? t, count: Number(m?.[2]) };
  });
}

test('the employee: Pending tile = Pending filter, chips add up to All Forms = Total Forms', async ({ page }) => {
  await signIn(page, 'nina.patel@adminease.test');
  await expect(page.getByText('Loading your forms...')).toHaveCount(0);
  const pending = await tile(page, 'Pending');
  expect(pending).toBe(await filterCount(page, 'Pending'));
  expect(await tile(page, 'Approved')).toBe(await filterCount(page, 'Approved'));
  expect(await tile(page, 'Rejected')).toBe(await filterCount(page, 'Rejected'));
  const total = await tile(page, 'Total Forms');
  expect(total).toBe(await filterCount(page, 'All'));
  const [all, ...types] = await chipCounts(page.getByRole('group', { name: 'Form type' }));
  expect(all.label).toBe('All Forms');
  expect(all.count).toBe(total);
  expect(types.reduce((n, c) => n + c.count, 0)).toBe(total);
  // The list under the Pending filter shows as many rows as the tile says.
  await page.getByTestId('status-filter').selectOption('Pending');
  await expect(page.getByTestId('form-row')).toHaveCount(Math.min(pending, 50));
});

test("the line manager: Total Forms = All Forms, Pending tile = 'Pending (n)' = Pending rows", async ({ page }) => {
  await signIn(page, 'victoria.adams@adminease.test');
  const panel = page.locator('#approval-panel');
  await expect(panel.getByTestId('stat-value').first()).toHaveText(/^\d+$/);
  const total = await tile(page, 'Total Forms');
  const [all, ...types] = await chipCounts(panel.getByRole('group', { name: 'Form type' }));
  expect(all).toEqual({ label: 'All Forms', count: total });
  expect(
    types.reduce((n, c) => n + c.count, 0),
    'the type chips add up to All Forms',
  ).toBe(total);
  const pending = await tile(page, 'Pending');
  expect(pending).toBe(await filterCount(page, 'Pending'));
  expect(await filterCount(page, 'All')).toBe(total);
  // The default filter is Pending: the table lists exactly that many rows.
  await expect(panel.getByTestId('status-filter')).toHaveValue('Pending');
  await expect(panel.locator('tbody tr[data-request-id]')).toHaveCount(pending);
});

test("focus stays in the details modal after 'Show New Password' (Tab cycles inside, Escape closes it)", async ({ page }) => {
  await signIn(page, 'maria.garcia@adminease.test');
  await expect(page.getByText('Loading your forms...')).toHaveCount(0);
  await page
    .getByRole('group', { name: 'Form type' })
    .getByRole('button', { name: /^Password Reset/ })
    .click();
  const row = page.getByTestId('form-row').first();
  await row.getByRole('button', { name: /^View Details of/ }).click();
  const modal = page.getByRole('dialog', { name: 'Password Reset Details' });
  await expect(modal.getByTestId('form-details')).toBeVisible();
  await modal.getByRole('button', { name: 'Show New Password' }).click();
  await expect(modal.getByTestId('revealed-password')).toBeVisible();
  const inModal = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await inModal(), `focus after Tab ${i + 1}`).toBe(true);
  }
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await inModal(), `focus after Shift+Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
});

test("the 'Form Approval Updates' dialog opens on a first sign-in when there are unread notifications", async ({ page }) => {
  // An account no other spec signs in with, so this is its first sign-in on the test server.
  await page.goto('/');
  await page.getByLabel('Email').fill('rahul.verma@adminease.test');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const answer = page.waitForResponse((r) => r.url().includes('/api/form-state/check-changes'));
  await page.getByRole('button', { name: 'Sign In' }).click();
  const body = (await (await answer).json()) as { notifications: unknown[] };
  expect(body.notifications.length).toBeGreaterThan(0);
  const dialog = page.getByRole('dialog', { name: 'Form Approval Updates' });
  await expect(dialog).toBeVisible();
  const n = body.notifications.length;
  await expect(dialog).toContainText(`${n} approval update${n === 1 ? '' : 's'}`);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
});

/** The API as `email` (a token of its own, beside the browser's session). */
async function apiPost(request: APIRequestContext, email: string, url: string, data: unknown): Promise<any> {
  const login = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { Authorization: `Bearer ${(await login.json()).access_token}` };
  const res = await request.post(url, { headers, data });
  expect(res.ok(), `POST ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

test("every approver queue: each tile = its status filter's count, the type chips add up to All Forms = the total", async ({ page }) => {
  test.setTimeout(120_000);
  for (const [email, totalLabel] of [
    ['meera.iyer@adminease.test', 'Total Forms'],
    ['arjun.mehta@adminease.test', 'Total Requests'],
    ['sofia.rossi@adminease.test', 'Total Requests'],
    ['kenji.watanabe@adminease.test', 'Total Requests'],
  ] as const) {
    await signIn(page, email);
    const panel = page.locator('#approval-panel');
    await expect(panel.getByTestId('stat-value').first()).toHaveText(/^\d+$/);
    await expect(panel.getByText('Loading…')).toHaveCount(0);
    const pending = await tile(page, 'Pending');
    expect(pending, email).toBe(await filterCount(page, 'Pending'));
    expect(await tile(page, 'Approved'), email).toBe(await filterCount(page, 'Approved'));
    expect(await tile(page, 'Rejected'), email).toBe(await filterCount(page, 'Rejected'));
    const total = await tile(page, totalLabel);
    expect(total, email).toBe(await filterCount(page, 'All'));
    const chips = panel.getByRole('group', { name: 'Form type' });
    if ((await chips.count()) > 0) {
      const [all, ...types] = await chipCounts(chips);
      expect(all, email).toEqual({ label: 'All Forms', count: total });
      expect(
        types.reduce((n, c) => n + c.count, 0),
        `${email}: the type chips add up to All Forms`,
      ).toBe(total);
    }
    await expect(panel.locator('tbody tr[data-request-id]')).toHaveCount(pending);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  }
});

test('IT: the Open, Resolved and Closed tiles are the rows of their filters and add up to Total Tickets', async ({ page }) => {
  await signIn(page, 'lena.fischer@adminease.test');
  const status = page.getByLabel('Status', { exact: true });
  const rows = page.locator('tr[data-testid^="it-ticket-"]');
  await expect(page.getByText(/^\d+ of \d+ shown$/)).toBeVisible();
  const total = await tile(page, 'Total Tickets');
  let sum = 0;
  for (const bucket of ['Open', 'Resolved', 'Closed']) {
    const n = await tile(page, bucket);
    sum += n;
    await status.selectOption(bucket);
    await expect(page.getByText(/^\d+ of \d+ shown$/), bucket).toHaveText(`${n} of ${total} shown`);
    await expect(rows, bucket).toHaveCount(n);
  }
  expect(sum, 'Open + Resolved + Closed = Total Tickets').toBe(total);
  await status.selectOption('All');
  await expect(rows).toHaveCount(total);
});

test("an approver's automatic greeting is never spoken and never disables the chat (sound on)", async ({ page }) => {
  // The greeting's answer is held back for a moment, so the chat can be used while it is on its way.
  let greetingBody: Record<string, unknown> | null = null;
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  // Approvers stream from their own family's endpoint (/ai/manager/chat-stream, ...).
  const isStream = (url: string) => /\/ai\/([a-z-]+\/chat-stream|streaming-chat)$/.test(url);
  await page.route(
    (u) => isStream(u.pathname),
    async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      if (body.auto_greeting === true) {
        greetingBody = body;
        await held;
      }
      await route.continue();
    },
  );
  const greeting = page.waitForResponse((r) => isStream(r.url()) && r.request().postDataJSON()?.auto_greeting === true, {
    timeout: 30_000,
  });
  await signIn(page, 'grace.liu@adminease.test');
  const chat = page.getByTestId('chat-panel');
  await expect.poll(() => greetingBody !== null).toBe(true);
  // Sound is on (the default), yet the greeting asks for no speech.
  await expect(chat.getByTestId('sound-toggle')).toHaveAttribute('aria-pressed', 'true');
  expect(greetingBody!.tts).toBe(false);
  // While it is on its way: the input, the mic and the suggestions work.
  const input = chat.locator('#chat-input');
  await expect(input).toBeEnabled();
  await input.fill('typed during the greeting');
  await expect(input).toHaveValue('typed during the greeting');
  // The mic is as usable as after the greeting (headless Chromium may lack speech recognition altogether).
  const micDuring = await chat.getByTestId('mic-button').isDisabled();
  for (const b of await chat.getByTestId('suggestions').getByRole('button').all()) await expect(b).toBeEnabled();
  release();
  const answer = await greeting;
  const events = (await answer.text()).split('\n').filter((l) => /"type":\s*"tts(_chunk)?"/.test(l));
  expect(events, 'the greeting carried speech').toEqual([]);
  await expect(chat.getByTestId('bot-message').last()).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 });
  // Nothing was played, the input kept what was typed and is still enabled.
  const audio = page.getByTestId('chat-audio');
  if ((await audio.count()) > 0) {
    await expect(audio).not.toHaveAttribute('data-playing', 'true');
    expect(Number((await audio.getAttribute('data-played')) ?? '0')).toBe(0);
  }
  await expect(input).toBeEnabled();
  await expect(input).toHaveValue('typed during the greeting');
  expect(await chat.getByTestId('mic-button').isDisabled()).toBe(micDuring);
});

test('the form calendar moves by a day with the left and right arrows and by a week with up and down', async ({ page }) => {
  await signIn(page, 'nina.patel@adminease.test');
  await page.getByTestId('calendar-button').click();
  const calendar = page.getByTestId('form-calendar');
  await expect(calendar).toBeVisible();
  const start = calendar.locator('td[aria-selected="true"] button');
  await start.focus();
  const from = (await start.getAttribute('data-date'))!;
  const shift = (days: number) => new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date ?? '');
  for (const [key, days] of [
    ['ArrowRight', 1],
    ['ArrowRight', 2],
    ['ArrowLeft', 1],
    ['ArrowDown', 8],
    ['ArrowUp', 1],
    ['ArrowLeft', 0],
  ] as const) {
    await page.keyboard.press(key);
    await expect.poll(focused, `after ${key}`).toBe(shift(days));
    await expect(calendar.locator('td[aria-selected="true"] button')).toHaveAttribute('data-date', shift(days));
  }
});

test("opening a view-only IT incident or password reset as the line manager says 'Acknowledged'", async ({ page, request }) => {
  // Sam Wilson reports to Grace Liu.
  const incident = await apiPost(request, 'sam.wilson@adminease.test', '/api/forms/it-incident', {
    affected_system: 'VPN client',
    incident_description: 'The VPN drops every few minutes since the update.',
    employee_system_number: 'LT-7001',
    contact_info: 'ext. 4410',
  });
  const reset = await apiPost(request, 'sam.wilson@adminease.test', '/api/forms/password-reset', {
    system_for_reset: 'CRM',
    reset_reason: 'Locked Account',
  });
  await signIn(page, 'grace.liu@adminease.test');
  const panel = page.locator('#approval-panel');
  await panel.getByTestId('status-filter').selectOption('All');
  for (const rec of [incident, reset]) {
    const id: string = rec.request_id ?? rec.form?.request_id;
    const row = panel.locator(`tr[data-request-id="${id}"]`);
    await expect(row).toContainText('View Only');
    await expect(row).not.toContainText('Acknowledged');
    const acknowledged = page.waitForResponse((r) => /\/api\/manager\/acknowledge-/.test(r.url()));
    await row.getByRole('button', { name: `View details of ${id}` }).click();
    const modal = page.getByRole('dialog').last();
    expect((await acknowledged).ok()).toBe(true);
    await expect(modal.getByTestId('acknowledgement')).toContainText('Acknowledged.');
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(row).toContainText('Acknowledged');
  }
});

test("a direct link to a view-only IT incident or password reset acknowledges it too and says 'Acknowledged'", async ({
  page,
  request,
}) => {
  const incident = await apiPost(request, 'sam.wilson@adminease.test', '/api/forms/it-incident', {
    affected_system: 'Printer on floor 2',
    incident_description: 'The printer rejects every job since this morning.',
    employee_system_number: 'LT-7002',
    contact_info: 'ext. 4411',
  });
  const reset = await apiPost(request, 'sam.wilson@adminease.test', '/api/forms/password-reset', {
    system_for_reset: 'ERP',
    reset_reason: 'Forgotten Password',
  });
  await signIn(page, 'grace.liu@adminease.test');
  for (const rec of [incident, reset]) {
    const id: string = rec.request_id ?? rec.form?.request_id;
    // The link as a notification or an e-mail gives it: the page loads on the request's own address.
    const acknowledged = page.waitForResponse((r) => /\/api\/manager\/acknowledge-/.test(r.url()));
    await page.goto(`/requests/${id}`);
    const modal = page.getByRole('dialog').last();
    await expect(modal).toContainText(id);
    expect((await acknowledged).ok()).toBe(true);
    await expect(modal.getByTestId('acknowledgement')).toContainText('Acknowledged.');
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    // The server kept it: after a reload the row says so.
    await page.goto('/?status=All');
    await expect(page.locator(`#approval-panel tr[data-request-id="${id}"]`)).toContainText('Acknowledged');
  }
});

test('the History menu: ArrowDown only moves the choice, Enter opens the screen', async ({ page }) => {
  await signIn(page, 'nina.patel@adminease.test');
  const history = page.getByLabel('History');
  const before = page.url();
  await history.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(history).not.toHaveValue('');
  await expect(page.getByTestId('history-screen')).toHaveCount(0);
  expect(page.url(), 'the address did not change').toBe(before);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('history-screen')).toBeVisible();
});

test('on a phone the assistant sheet keeps focus inside; Escape closes it and returns focus to its button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'victoria.adams@adminease.test');
  const opener = page.getByTestId('open-assistant');
  await opener.click();
  const sheet = page.locator('#assistant-panel');
  await expect(sheet).toHaveAttribute('role', 'dialog');
  await expect(page.getByTestId('chat-panel')).toBeVisible();
  const inSheet = () => page.evaluate(() => Boolean(document.activeElement?.closest('#assistant-panel')));
  for (let i = 0; i < 25; i += 1) {
    await page.keyboard.press('Tab');
    expect(await inSheet(), `focus after Tab ${i + 1}`).toBe(true);
  }
  for (let i = 0; i < 5; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await inSheet(), `focus after Shift+Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('chat-panel')).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(sheet).not.toHaveAttribute('role', 'dialog');
});

/** Do two boxes overlap? */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test("a toast never covers the header's controls (phone and laptop) or the phone's assistant button", async ({ page }) => {
  await signIn(page, 'victoria.adams@adminease.test');
  // A decision that fails (the answer is replaced): an error toast, and nothing changes on the server.
  await page.route('**/api/manager/update-status', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Simulated outage' }) }),
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const row = page
      .locator('[data-testid="approval-table"] tbody tr[data-request-id]')
      .filter({ has: page.getByRole('button', { name: /^Approve / }) });
    await row
      .first()
      .getByRole('button', { name: /^Approve / })
      .click();
    const toast = page.locator('[data-layer="toast"] [role="alert"]').last();
    await expect(toast).toContainText('Failed to approve request');
    // The pointer over the toast holds it (it would leave by itself after 7 s, which a slow machine's checks can pass).
    await toast.hover();
    await expect(toast).toHaveAttribute('data-held', 'true');
    const box = (await toast.boundingBox())!;
    const controls = page.locator('header').first().locator('button:visible, a:visible');
    expect(await controls.count()).toBeGreaterThan(0);
    for (const c of await controls.all()) {
      const b = await c.boundingBox();
      if (b)
        expect(overlaps(box, b), `the toast covers '${(await c.getAttribute('aria-label')) ?? (await c.innerText())}' at ${width} px`).toBe(
          false,
        );
    }
    const header = (await page.locator('header').first().boundingBox())!;
    expect(box.y, `the toast starts inside the header at ${width} px`).toBeGreaterThanOrEqual(header.y + header.height);
    if (width < 600) {
      const assistant = (await page.getByTestId('open-assistant').boundingBox())!;
      expect(overlaps(box, assistant), 'the toast covers the assistant button').toBe(false);
    }
    await page.screenshot({ path: `e2e/screenshots/toast-${width}.png` });
    await toast.getByRole('button', { name: 'Dismiss notification' }).click();
    await expect(toast).toBeHidden();
  }
});

test("in card view a row's checkbox sits on the card's first line, beside the request id", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'victoria.adams@adminease.test');
  const row = page
    .locator('[data-testid="approval-table"] tbody tr[data-request-id]')
    .filter({ has: page.getByRole('checkbox') })
    .first();
  await expect(row).toBeVisible();
  const id = (await row.getAttribute('data-request-id'))!;
  const box = (await row.getByRole('checkbox', { name: `Select ${id}` }).boundingBox())!;
  const idBox = (await row.getByText(id, { exact: true }).boundingBox())!;
  const lead = (await row.locator('td[data-cell="lead"]').boundingBox())!;
  // Same line: the checkbox's middle lies within the lead line, left of the id; the card's top is the lead line.
  expect(box.y + box.height / 2).toBeGreaterThanOrEqual(lead.y);
  expect(box.y + box.height / 2).toBeLessThanOrEqual(lead.y + lead.height);
  expect(box.x + box.width).toBeLessThanOrEqual(idBox.x);
  const rowBox = (await row.boundingBox())!;
  expect(lead.y - rowBox.y).toBeLessThan(24);
  await screenshot(page, 'line-manager-390-cards');
});
