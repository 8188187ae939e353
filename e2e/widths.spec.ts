// Every dashboard (the seven work queues and the administrator's People table) from 360 to 2560 px: nothing overflows
// the page sideways, every action button of every row is inside the window and not cut off by a box around it, each
// sampled row's primary action is clickable, the list does not scroll inside a box of its own, the spec's columns are
// shown where there is room (1440 px and up), on a phone the work starts on the first screen under a compact header,
// a details modal fits a phone, and on a phone the assistant opens from a button with its typed text kept.
// Screenshots go to e2e/screenshots/<dashboard>-<width>.png.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD, apiLogin, apiPost, newTeam, screenshot, signIn, signOut } from './helpers';

interface Board {
  slug: string;
  email: string;
  /** Rows of the dashboard's own list. */
  rows: string;
  /** Column headers the spec lists for this table, expected visible at 1440 px and wider. */
  specColumns: string[];
  /** The row button that opens a modal (default: View Details). */
  opens?: RegExp;
  /** Where the dashboard's list is (default: the first screen after sign-in). */
  path?: string;
}

const BOARDS: Board[] = [
  {
    slug: 'line-manager',
    email: 'victoria.adams@adminease.test',
    rows: '[data-testid="approval-table"] tbody tr[data-request-id]',
    specColumns: ['Form', 'Employee', 'Department', 'Created', 'Manager Approval'],
  },
  {
    slug: 'hr',
    email: 'meera.iyer@adminease.test',
    rows: '[data-testid="approval-table"] tbody tr[data-request-id]',
    specColumns: ['Form', 'Employee', 'Department', 'Created', 'HR Approval'],
  },
  {
    slug: 'finance',
    email: 'arjun.mehta@adminease.test',
    rows: '[data-testid="approval-table"] tbody tr[data-request-id]',
    specColumns: ['Employee', 'Amount', 'Purpose', 'Manager', 'Finance Status'],
  },
  {
    slug: 'it',
    email: 'lena.fischer@adminease.test',
    rows: 'tr[data-testid^="it-ticket-"]',
    specColumns: ['Employee', 'Affected System', 'Incident Date', 'Status'],
  },
  {
    slug: 'facilities-desk',
    email: 'sofia.rossi@adminease.test',
    rows: '[data-testid="approval-table"] tbody tr[data-request-id]',
    specColumns: ['Employee', 'Department', 'Form Type', 'Details', 'Date', 'Status'],
  },
  {
    slug: 'facilities-manager',
    email: 'kenji.watanabe@adminease.test',
    rows: '[data-testid="approval-table"] tbody tr[data-request-id]',
    specColumns: ['Employee', 'Form Type', 'Date', 'Desk Approval', 'Manager Status'],
  },
  {
    slug: 'employee',
    email: 'alex.johnson@adminease.test',
    rows: '[data-testid="form-row"]',
    specColumns: ['Form', 'Status', 'Submission', 'Category', 'Date'],
  },
  {
    slug: 'admin',
    email: 'olivia.brooks@adminease.test',
    rows: 'tr[data-testid^="person-"]',
    specColumns: ['Name', 'Code', 'Role', 'Status'],
    opens: /^Edit /,
    path: '/#people',
  },
];

const WIDTHS = [390, 1280, 1440, 1920];

async function noPageOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'the page is wider than the window').toBeLessThanOrEqual(innerWidth);
}

/** Shows every row, not only the pending ones, where the dashboard has a status filter. */
async function showAll(page: Page) {
  const filter = page.getByTestId('status-filter').first();
  if ((await filter.count()) > 0) await filter.selectOption('All');
}

/** The row's first button in its actions cell: Approve where the row is decidable, else View Details. */
function primaryAction(row: Locator): Locator {
  return row.locator('td[data-cell="actions"] button:visible').filter({ hasNotText: /^$/ }).first();
}

async function expectInViewport(page: Page, target: Locator, what: string) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const vp = page.viewportSize()!;
  expect(box, `${what} has no box`).not.toBeNull();
  expect(box!.x, `${what} starts left of the window`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends right of the window`).toBeLessThanOrEqual(vp.width + 0.5);
  // Vertically a pixel of rounding is allowed (scrolled into view at a fractional position); the trial click that
  // follows checks that nothing covers it.
  expect(box!.y, `${what} starts above the window`).toBeGreaterThanOrEqual(-1);
  expect(box!.y + box!.height, `${what} ends below the window`).toBeLessThanOrEqual(vp.height + 1);
}

/**
 * Every action button of every row (Approve, Reject, Fill, View Details, ...), measured in the page: inside the window
 * sideways and not cut off by any box around it that clips or scrolls (a table box scrolled sideways, a cell with
 * hidden overflow). Answers what is wrong, one line per button; a row without any visible action is wrong too.
 */
async function clippedActions(page: Page, rowsSelector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const bad: string[] = [];
    const rows = [...document.querySelectorAll<HTMLElement>(selector)];
    rows.forEach((row, i) => {
      const buttons = [...row.querySelectorAll<HTMLElement>('td[data-cell="actions"] button')].filter(
        (b) => b.getClientRects().length > 0 && getComputedStyle(b).visibility !== 'hidden',
      );
      const name = (b: HTMLElement) =>
        `row ${i + 1} (${row.dataset.requestId ?? row.dataset.testid ?? ''}) '${b.getAttribute('aria-label') ?? b.innerText}'`;
      if (buttons.length === 0) bad.push(`row ${i + 1} (${row.dataset.requestId ?? row.dataset.testid ?? ''}) shows no action`);
      for (const b of buttons) {
        const r = b.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) bad.push(`${name(b)} has no size`);
        if (r.left < -0.5 || r.right > window.innerWidth + 0.5) bad.push(`${name(b)} is outside the window (${r.left}-${r.right})`);
        for (let a = b.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowX === 'visible') continue;
          const box = a.getBoundingClientRect();
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
            bad.push(`${name(b)} is cut off by ${a.tagName.toLowerCase()}.${String(a.className).slice(0, 40)}`);
        }
      }
    });
    return bad;
  }, rowsSelector);
}

/** Boxes around the list that scroll vertically on their own (a new row could end up out of sight inside them). */
async function ownScrollBoxes(rows: Locator): Promise<string[]> {
  return rows.first().evaluate((row) => {
    const out: string[] = [];
    for (let a = row.parentElement; a && a !== document.body; a = a.parentElement) {
      const y = getComputedStyle(a).overflowY;
      if ((y === 'auto' || y === 'scroll' || y === 'hidden') && a.scrollHeight > a.clientHeight + 1)
        out.push(`${a.tagName.toLowerCase()}.${String(a.className).slice(0, 60)} (${a.scrollHeight} > ${a.clientHeight})`);
    }
    return out;
  });
}

/** No sideways overflow of the page or a table; every row's actions on screen; sampled primary actions clickable. */
async function checkRows(page: Page, board: Board) {
  const rows = page.locator(board.rows);
  await expect(rows.first()).toBeVisible();
  await noPageOverflow(page);
  // No table scrolls sideways either: its box is as wide as its content.
  for (const region of await page.locator('.table-box').all()) {
    const { sw, cw } = await region.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
    expect(sw, 'a table scrolls sideways').toBeLessThanOrEqual(cw);
  }
  expect(await clippedActions(page, board.rows), 'row actions cut off or off screen').toEqual([]);
  expect(await ownScrollBoxes(rows), 'the list scrolls inside a box of its own').toEqual([]);
  // Scrolled to and clicked (a trial click: nothing covers it): the first row and the last one (the measurement above
  // covers every row; a trial click per row would cost seconds per width on long queues).
  const total = await rows.count();
  expect(total).toBeGreaterThan(0);
  const sample = [...new Set([0, total - 1])];
  for (const i of sample) {
    const action = primaryAction(rows.nth(i));
    const name = `row ${i + 1}'s action '${(await action.getAttribute('aria-label')) ?? (await action.innerText())}'`;
    await expectInViewport(page, action, name);
    await action.click({ trial: true });
  }
}

/** On a phone: the header stays compact, the chat is behind its button and the list starts on the first screen. */
async function workFirst(page: Page, board: Board) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const vp = page.viewportSize()!;
  const header = (await page.locator('header').first().boundingBox())!;
  expect(header.height, 'the sticky header is compact on a phone').toBeLessThanOrEqual(64);
  await expect(page.getByTestId('chat-panel')).toBeHidden();
  const first = (await page.locator(board.rows).first().boundingBox())!;
  expect(first.y, "the first row starts on the phone's first screen").toBeLessThan(vp.height - 40);
}

/**
 * The dialog lies inside the window (its buttons with it), nothing in it is cut off sideways, and its content area
 * scrolls vertically when the content is longer than the phone.
 */
async function expectDialogFits(page: Page, dialog: Locator) {
  // Measured once its opening animation (a small scale-up) has finished.
  // An animation cancelled meanwhile (the element rendered again) rejects `finished` with an AbortError: it is over too.
  await dialog.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))));
  const vp = page.viewportSize()!;
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(vp.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(vp.height + 0.5);
  const fit = await dialog.evaluate((el) => {
    const all = [...el.querySelectorAll<HTMLElement>('*')];
    const wide = all.filter(
      (c) =>
        c.scrollWidth > c.clientWidth + 1 &&
        getComputedStyle(c).overflowX !== 'auto' &&
        getComputedStyle(c).overflowX !== 'scroll' &&
        // Text for screen readers only (a 1 px clipped box, e.g. the password rules' '(met)') is hidden on purpose.
        c.clientWidth > 1,
    );
    const scroller = all.find((c) => getComputedStyle(c).overflowY === 'auto' || getComputedStyle(c).overflowY === 'scroll');
    // Content taller than the dialog must be reachable: it sits in the scrolling area, not cut off below it.
    const panel = el.getBoundingClientRect();
    const cutBelow = all.filter((c) => {
      if (scroller?.contains(c) || c.getClientRects().length === 0) return false;
      const r = c.getBoundingClientRect();
      return r.height > 0 && r.bottom > panel.bottom + 1;
    });
    return {
      wide: wide.map((c) => `${c.tagName}.${c.className}`.slice(0, 80)),
      scrolls: Boolean(scroller),
      cutBelow: cutBelow.map((c) => `${c.tagName}.${c.className}`.slice(0, 80)),
    };
  });
  expect(fit.wide, 'elements cut off sideways inside the dialog').toEqual([]);
  expect(fit.scrolls, 'the dialog has a scrolling content area').toBe(true);
  expect(fit.cutBelow, 'elements below the dialog, outside its scrolling area').toEqual([]);
}

for (const board of BOARDS) {
  // One sign-in per dashboard, then the window is resized: the four widths people use most (390, 1280, 1440, 1920,
  // each with a screenshot) and the edges and breakpoints between 360 and 2560 px.
  test(`${board.slug} from 360 to 2560 px: no sideways overflow, every row's action on screen, the spec's columns when there is room`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, board.email);
    if (board.path) await page.goto(board.path);
    await showAll(page);
    for (const width of [360, 390, 768, 1024, 1280, 1440, 1920, 2560]) {
      await test.step(`${width} px`, async () => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await checkRows(page, board);
        if (width < 600) await workFirst(page, board);
        if (width >= 1440) {
          for (const column of board.specColumns) {
            await expect(page.getByRole('columnheader', { name: column, exact: true }).first(), `column ${column}`).toBeVisible();
          }
        }
        if ((WIDTHS as readonly number[]).includes(width)) {
          await page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(page, `${board.slug}-${width}`);
        }
      });
    }
  });

  test(`${board.slug} at 390 px: a details modal fits the phone and scrolls`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, board.email);
    if (board.path) await page.goto(board.path);
    await showAll(page);
    const row = page.locator(board.rows).first();
    await expect(row).toBeVisible();
    await row
      .getByRole('button', { name: board.opens ?? /View Details/i })
      .first()
      .click();
    const dialog = page.getByRole('dialog').last();
    await expect(dialog).toBeVisible();
    await expectDialogFits(page, dialog);
    // What the phone shows (a full-page picture would stretch the fixed dialog).
    await page.screenshot({ path: `e2e/screenshots/${board.slug}-390-details.png`, animations: 'disabled' });
  });
}

test('on a phone the assistant opens from a button as a sheet and keeps what was typed', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'victoria.adams@adminease.test');
  // The work comes first (every dashboard is measured in its width test): the chat is not shown until asked for.
  await expect(page.getByTestId('chat-panel')).toBeHidden();

  await page.getByTestId('open-assistant').click();
  const chat = page.getByTestId('chat-panel');
  await expect(chat).toBeVisible();
  await page.locator('#chat-input').fill('Show my pending approvals');
  await page.screenshot({ path: 'e2e/screenshots/line-manager-390-assistant.png', animations: 'disabled' });
  await page.getByRole('button', { name: 'Close assistant' }).click();
  await expect(chat).toBeHidden();
  await expect(page.getByTestId('open-assistant')).toBeFocused();
  await page.getByTestId('open-assistant').click();
  await expect(page.locator('#chat-input')).toHaveValue('Show my pending approvals');
  await page.keyboard.press('Escape');
  await expect(chat).toBeHidden();
});

test('at 390 px the decision and desk dialogs fit the phone too (reject, IT fill ticket)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'victoria.adams@adminease.test');
  const decidable = page
    .locator('[data-testid="approval-table"] tbody tr[data-request-id]')
    .filter({ has: page.getByRole('button', { name: /^Reject / }) })
    .first();
  await decidable.getByRole('button', { name: /^Reject / }).click();
  const reject = page.getByRole('dialog', { name: 'Reject Request' });
  await expect(reject).toBeVisible();
  await expectDialogFits(page, reject);
  await page.screenshot({ path: 'e2e/screenshots/line-manager-390-reject.png', animations: 'disabled' });
  await reject.getByRole('button', { name: 'Cancel' }).click();
  await expect(reject).toBeHidden();
  // Waits for the sign-in screen: the next page.goto would otherwise cut the sign-out's calls short and find
  // Victoria still signed in (it did once, in CI on 2026-11-30).
  await signOut(page);

  await signIn(page, 'lena.fischer@adminease.test');
  const fill = page
    .locator('tr[data-testid^="it-ticket-"] td[data-cell="actions"] button', { hasText: /Fill Details|Update Details|Update Resolution/ })
    .first();
  await fill.click();
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toBeVisible();
  await expectDialogFits(page, dialog);
  await page.screenshot({ path: 'e2e/screenshots/it-390-fill.png', animations: 'disabled' });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

/** The dialog opens and fits the phone (screenshot e2e/screenshots/<shot>.png), then closes (Escape unless given). */
async function fitsThenCloses(page: Page, dialog: Locator, shot: string, close?: (d: Locator) => Promise<void>) {
  await expect(dialog).toBeVisible();
  await expectDialogFits(page, dialog);
  await page.screenshot({ path: `e2e/screenshots/${shot}.png`, animations: 'disabled' });
  if (close) await close(dialog);
  else await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** A Wednesday at least `days` ahead (clear of the demo data's dates), as YYYY-MM-DD. */
function wednesdayAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() !== 3) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

test('at 390 px the other dialogs fit the phone too (Form Approval Updates, Settings, Change password, Set New Password, a form type)', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  // A team of this test's own: the member's leave, approved by the lead, is an update the member sees at sign-in.
  const tag = `w${Date.now().toString(36)}`;
  const password = 'Narrow-Screen-2031';
  const admin = await apiLogin(request, 'olivia.brooks@adminease.test');
  const { lead, member } = await newTeam(request, admin, { tag, password });
  const day = wednesdayAhead(300);
  const { request_id: id } = await apiPost(request, await apiLogin(request, member.email, password), '/api/forms/leave-request', {
    leave_type: 'Sick',
    start_date: day,
    end_date: day,
    reason: 'Narrow screen check',
  });
  await apiPost(request, await apiLogin(request, lead.email, password), '/api/manager/update-status', {
    form_id: id,
    form_type: 'leave-request',
    status: 'Approved',
    manager_id: lead.employee_code,
    manager_name: `${lead.first_name} ${lead.last_name}`,
    comments: '',
    rejection_reason: '',
  });

  // The member signs in: 'Form Approval Updates' opens.
  await page.goto('/');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await fitsThenCloses(page, page.getByRole('dialog', { name: 'Form Approval Updates' }), 'employee-390-updates', (d) =>
    d.getByRole('button', { name: 'Close', exact: true }).click(),
  );
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await fitsThenCloses(page, page.getByRole('dialog', { name: 'Settings' }), 'employee-390-settings', (d) =>
    d.getByRole('button', { name: 'Cancel' }).click(),
  );
  // Change password, from the user menu.
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('button', { name: 'Change password' }).click();
  await fitsThenCloses(page, page.getByRole('dialog', { name: 'Change password' }), 'employee-390-change-password');
  await signOut(page);

  // IT's Set New Password (a reset the line manager has acknowledged; opening the dialog changes nothing).
  await signIn(page, 'lena.fischer@adminease.test');
  await page.getByRole('region', { name: 'IT Support Tickets', exact: true }).getByLabel('Status', { exact: true }).selectOption('All');
  await page.locator('tr[data-testid^="it-ticket-"]').getByRole('button', { name: 'Set New Password' }).first().click();
  await fitsThenCloses(page, page.getByRole('dialog', { name: /^Set New Password - / }), 'it-390-set-password');
  await signOut(page);

  // The administrator's catalogue: a new form type's editor (the largest form dialog).
  await signIn(page, 'olivia.brooks@adminease.test', DEMO_PASSWORD);
  await page.getByRole('tab', { name: 'Form types' }).click();
  await expect(page.getByTestId('form-types-table')).toBeVisible();
  await page.getByRole('button', { name: 'New form type' }).click();
  await fitsThenCloses(page, page.getByRole('dialog', { name: 'New form type' }), 'admin-390-form-type');
});
