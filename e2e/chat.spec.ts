// The Chief Smile Officer in the browser: an employee books a meeting room through the chat panel and sees it in
// 'Your Forms & Requests'; a line manager approves from the approval action buttons of the automatic greeting;
// the panel's texts, suggestions, the waiting indicator and 'Go to Approval Panel'. Screenshots: mid-stream
// and the approval buttons.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, screenshot, signIn } from './helpers';

async function apiAs(request: APIRequestContext, email: string) {
  const res = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBe(true);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

function chat(page: Page) {
  return page.getByTestId('chat-panel');
}

async function send(page: Page, text: string) {
  const input = chat(page).getByPlaceholder('Type your message or click the mic to use voice input...');
  await input.fill(text);
  await input.press('Enter');
}

/** Speech is the voice feature's (tested in its own spec); these tests read text, so sound goes off first. */
async function soundOff(page: Page) {
  const toggle = chat(page).getByTestId('sound-toggle');
  await expect(toggle).toBeVisible();
  if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
}

function lastBot(page: Page) {
  return chat(page).getByTestId('bot-message').last();
}

test('an employee books a meeting room through the chat and sees it in the list', async ({ page }) => {
  await signIn(page, 'chloe.martin@adminease.test');
  const panel = chat(page);
  await soundOff(page);
  await expect(panel.getByRole('heading', { name: 'Chat with Chief Smile Officer' })).toBeVisible();
  await expect(panel.getByText('Text messages and voice transcripts appear here.')).toBeVisible();
  await expect(panel.getByText('Online', { exact: true })).toBeVisible();
  await expect(panel.getByText('CSO', { exact: true })).toBeVisible();
  await expect(page.getByTestId('avatar-panel')).toBeVisible();
  await expect(lastBot(page)).toContainText("I'm Chief Smile Officer");
  await expect(panel.getByText('Suggested Actions')).toBeVisible();
  for (const s of ['Request leave', 'Book meeting room', 'Report IT issue', 'Update info'])
    await expect(panel.getByRole('button', { name: s })).toBeVisible();

  // a blank message is not sent
  const input = panel.getByPlaceholder('Type your message or click the mic to use voice input...');
  await input.fill('   ');
  await input.press('Enter');
  await expect(panel.getByTestId('user-message')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Send message' })).toBeDisabled();

  await send(page, 'Book the Huddle Room 2 on 18 February 2027 from 10:00 to 11:00 for 4 people');
  await expect(panel.getByTestId('user-message').last()).toContainText('Huddle Room 2');
  // while the reply streams in, the avatar speaks; capture the panel mid-stream
  await expect(lastBot(page)).toHaveAttribute('data-streaming', 'true');
  // the reply is revealed piece by piece: catch it half-way (some lines shown, the question not yet)
  await page.waitForFunction(
    () => {
      const bots = document.querySelectorAll<HTMLElement>('[data-testid="bot-message"]');
      const last = bots[bots.length - 1];
      const text = last?.textContent ?? '';
      return last?.dataset.streaming === 'true' && text.includes('Room:') && !text.includes('Shall I submit');
    },
    undefined,
    { polling: 'raf', timeout: 10_000 },
  );
  await expect(page.getByTestId('cso-avatar')).toHaveAttribute('data-state', 'speaking', { timeout: 1_000 });
  await page.getByTestId('assistant-panel').screenshot({ path: 'e2e/screenshots/chat-mid-stream.png', animations: 'allow' });
  await expect(lastBot(page)).toHaveAttribute('data-streaming', 'false', { timeout: 15_000 });
  await expect(lastBot(page)).toContainText('Shall I submit it?');
  await expect(lastBot(page)).toContainText('Huddle Room 2');
  await expect(lastBot(page).locator('time')).toHaveText(/^\d{2}:\d{2}$/);

  await send(page, 'yes');
  await expect(lastBot(page)).toContainText(/MR-\d{6}/, { timeout: 15_000 });
  await expect(lastBot(page)).toHaveAttribute('data-streaming', 'false', { timeout: 15_000 });
  const id = (await lastBot(page).textContent())!.match(/MR-\d{6,}/)![0];
  // the list refreshes on its own after the chat changed something
  await expect(page.locator(`[data-testid="form-row"][data-request-id="${id}"]`)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('cso-avatar')).toHaveAttribute('data-state', 'greeting', { timeout: 5_000 });
  await screenshot(page, 'chat-employee-booked');
  await expectNoSeriousA11yViolations(page);
});

test('a line manager approves a request from the approval action buttons', async ({ page, request }) => {
  const alex = await apiAs(request, 'alex.johnson@adminease.test');
  const submitted = await request.post('/api/forms/leave-request', {
    headers: alex,
    data: { leave_type: 'Annual', start_date: '2027-06-14', end_date: '2027-06-15', reason: 'Family visit (chat e2e)' },
  });
  expect(submitted.status()).toBe(201);
  const id = (await submitted.json()).request_id as string;

  await signIn(page, 'priya.sharma@adminease.test');
  const panel = chat(page);
  await soundOff(page);
  // the automatic greeting summarises what waits, with buttons per request
  const card = panel.locator(`[data-testid="approval-action"][data-request-id="${id}"]`);
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(lastBot(page)).toContainText('waiting for your approval');
  await expect(lastBot(page)).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 });
  await expect(card.getByRole('button', { name: `Approve ${id}` })).toBeVisible();
  await expect(card.getByRole('button', { name: `Reject ${id}` })).toBeVisible();
  await expect(card.getByRole('button', { name: `View ${id}` })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: 'e2e/screenshots/chat-approval-buttons.png' });

  // 'Go to Approval Panel' scrolls to the panel and highlights it for 2 s
  await lastBot(page)
    .getByRole('button', { name: /Go to Approval Panel/ })
    .click();
  const approvalPanel = page.locator('#approval-panel');
  await expect(approvalPanel).toHaveAttribute('data-cso-highlight', '');
  await expect(approvalPanel).not.toHaveAttribute('data-cso-highlight', '', { timeout: 4_000 });
  // '[View Approvals]' is a link
  await expect(lastBot(page).getByRole('button', { name: 'View Approvals' })).toBeVisible();

  const row = page.locator(`tr[data-request-id="${id}"]`);
  await expect(row).toBeVisible();
  await card.getByRole('button', { name: `Approve ${id}` }).click();
  await expect(lastBot(page)).toContainText(`Approve ${id}`, { timeout: 15_000 });
  await expect(lastBot(page)).toContainText('(yes / no)', { timeout: 15_000 });
  await panel.getByRole('button', { name: 'Yes, approve' }).click();
  await expect(lastBot(page)).toContainText(`${id} (Leave Request from Alex Johnson) is approved`, { timeout: 15_000 });
  // the queue refreshes: the request has left the Pending view of the table
  await expect(row).toHaveCount(0, { timeout: 15_000 });
  const check = await request.get('/api/forms/user-forms', { headers: alex });
  const rec = ((await check.json())['leave-request'] as Array<Record<string, unknown>>).find((r) => r.request_id === id)!;
  expect(rec.line_manager_approval).toBe('Approved');
  expect(rec.line_manager_signature).toBe('Priya Sharma');
  await screenshot(page, 'chat-manager-approved');
});

test('an employee cannot approve through the chat, and the waiting indicator shows while it thinks', async ({ page }) => {
  await signIn(page, 'maria.garcia@adminease.test');
  await soundOff(page);
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route('**/ai/streaming-chat', async (route) => {
    await held;
    await route.continue();
  });
  await send(page, 'approve LR-000002');
  await expect(chat(page).getByTestId('waiting-indicator')).toHaveText(/Thinking\.\.\./);
  await expect(chat(page).getByTestId('waiting-indicator')).toHaveText(/Collecting data\.\.\./, { timeout: 4_000 });
  // a second send while one is in flight is ignored
  await send(page, 'hello?');
  await expect(chat(page).getByTestId('user-message')).toHaveCount(1);
  release();
  await expect(lastBot(page)).toContainText(/only the assigned approvers|can't approve|cannot/i, { timeout: 15_000 });
});

test('the fallback greeting is typed when the chat server fails', async ({ page }) => {
  await signIn(page, 'nina.patel@adminease.test');
  await soundOff(page);
  await page.route('**/ai/streaming-chat', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
  await send(page, 'hi');
  // the fallback is typed at 50 ms a character (about 4 s for its 78 characters, longer on a loaded machine): wait
  // until the typing has finished, then compare the whole text (the message ends with its hh:mm time)
  await expect(lastBot(page)).toHaveAttribute('data-streaming', 'true');
  await expect(lastBot(page)).toHaveAttribute('data-streaming', 'false', { timeout: 30_000 });
  await expect(lastBot(page)).toHaveText(/^Hello! I'm Chief Smile Officer, your AI assistant\. How can I help you today\?\s*\d{2}:\d{2}$/);
});
