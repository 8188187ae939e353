// Every dashboard at a phone, a laptop, a 1440 px and a 1920 px width: nothing overflows the page sideways, every
// row's primary action is on screen and clickable without scrolling sideways, the spec's columns are shown where
// there is room (1440 px and up), a details modal fits a phone, and on a phone the assistant opens from a button
// with its typed text kept. Screenshots go to e2e/screenshots/<dashboard>-<width>.png.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { screenshot, signIn } from './helpers';

interface Board {
  slug: string;
  email: string;
  /** Rows of the dashboard's own list. */
  rows: string;
  /** Column headers the spec lists for this table, expected visible at 1440 px and wider. */
  specColumns: string[];
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
    specColumns: [],
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

/** No sideways overflow of the page or a table, and every row's primary action on screen and clickable. */
async function checkRows(page: Page, board: Board) {
  const rows = page.locator(board.rows);
  await expect(rows.first()).toBeVisible();
  await noPageOverflow(page);
  // No table scrolls sideways either: its box is as wide as its content.
  for (const region of await page.locator('.table-box').all()) {
    const { sw, cw } = await region.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
    expect(sw, 'a table scrolls sideways').toBeLessThanOrEqual(cw);
  }
  // The first five rows and the last one (every row would cost seconds per width on long queues; their cells share one
  // layout).
  const total = await rows.count();
  expect(total).toBeGreaterThan(0);
  const sample = [...new Set([...Array.from({ length: Math.min(total, 5) }, (_, i) => i), total - 1])];
  for (const i of sample) {
    const action = primaryAction(rows.nth(i));
    const name = `row ${i + 1}'s action '${(await action.getAttribute('aria-label')) ?? (await action.innerText())}'`;
    await expectInViewport(page, action, name);
    await action.click({ trial: true });
  }
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
    await showAll(page);
    for (const width of [360, 390, 768, 1024, 1280, 1440, 1920, 2560]) {
      await test.step(`${width} px`, async () => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await checkRows(page, board);
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
    await showAll(page);
    const row = page.locator(board.rows).first();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: /View Details/i }).click();
    const dialog = page.getByRole('dialog').last();
    await expect(dialog).toBeVisible();
    // Measured once its opening animation (a small scale-up) has finished.
    await dialog.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390.5);
    expect(box.y + box.height).toBeLessThanOrEqual(844.5);
    // Nothing in it is wider than the dialog, and its content area scrolls vertically when it is long.
    const fit = await dialog.evaluate((el) => {
      const wide = [...el.querySelectorAll<HTMLElement>('*')].filter(
        (c) =>
          c.scrollWidth > c.clientWidth + 1 &&
          getComputedStyle(c).overflowX !== 'auto' &&
          getComputedStyle(c).overflowX !== 'scroll' &&
          c.clientWidth > 0,
      );
      const body = [...el.querySelectorAll<HTMLElement>('*')].find((c) => getComputedStyle(c).overflowY === 'auto');
      return { wide: wide.map((c) => `${c.tagName}.${c.className}`.slice(0, 80)), scrolls: Boolean(body) };
    });
    expect(fit.wide, 'elements cut off inside the dialog').toEqual([]);
    expect(fit.scrolls, 'the dialog has a scrolling content area').toBe(true);
    // What the phone shows (a full-page picture would stretch the fixed dialog).
    await page.screenshot({ path: `e2e/screenshots/${board.slug}-390-details.png`, animations: 'disabled' });
  });
}

test('on a phone the assistant opens from a button as a sheet and keeps what was typed', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'victoria.adams@adminease.test');
  // The work comes first: the table starts within the first screen, the chat is not shown.
  await expect(page.getByTestId('chat-panel')).toBeHidden();
  const table = page.getByTestId('approval-table');
  const top = (await table.boundingBox())!.y;
  expect(top).toBeLessThan(844 * 1.2);
  const header = (await page.locator('header').first().boundingBox())!;
  expect(header.height, 'the sticky header is compact on a phone').toBeLessThanOrEqual(64);

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
