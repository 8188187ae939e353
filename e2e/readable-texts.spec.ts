// What people read: no screen shows an ISO date ('2026-11-24', '2026-11-24T10:00'), another date format than the one
// ('2 Mar 2015'), an amount not written 'USD $1,234.50', or a raw code ('leave-request', 'facilities_desk', 'None',
// 'null', 'NaN'). Walks every dashboard at a phone width (cards show every column) and a laptop width, a details modal
// of each dashboard's first rows, the employee's history screens and the administrator's People table.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { FORM_TYPE_IDS } from '../src/domain/forms';
import { signIn } from './helpers';

const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
const CODES = [...FORM_TYPE_IDS];
const WORDS = ['None', 'null', 'undefined', 'NaN', 'Invalid Date', '[object Object]'];
/** snake_case words: stage and field names ('facilities_desk', 'line_manager_approval'). */
const SNAKE = /\b[a-z]+(?:_[a-z0-9]+)+\b/;
/** The app's one date format is '2 Mar 2015': no '03/02/2015', '2/3/15' or '2015/03/02'. */
const SLASH_DATE = /\b\d{1,4}\/\d{1,2}\/\d{2,4}\b/;
/** The one money format is 'USD $1,234.50': a '$' without 'USD ' before it, or thousands without separators. */
const BARE_DOLLAR = /(^|[^D] |[^ ])\$\s?\d/;
const NO_THOUSANDS = /USD \$\d{4,}/;
/**
 * An amount with no currency: a number with cents ('1450.00', '1,450.00', '85.5' is not one) not written after
 * 'USD $'. Percentages ('12.50%') are not amounts.
 */
const NO_CURRENCY = /(?<![$\d.,])(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}(?![\d.]|\s?%)/;

/** Every line of `text` that shows something a person should not have to decode. */
function unreadable(text: string): string[] {
  const bad: string[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    if (ISO_DATE.test(l)) bad.push(`ISO date: ${l}`);
    if (SNAKE.test(l)) bad.push(`snake_case: ${l}`);
    if (SLASH_DATE.test(l)) bad.push(`other date format: ${l}`);
    if (BARE_DOLLAR.test(l) || NO_THOUSANDS.test(l) || NO_CURRENCY.test(l)) bad.push(`money not as 'USD $1,234.50': ${l}`);
    for (const c of CODES) if (new RegExp(`(^|[^\\w-])${c}($|[^\\w-])`).test(l)) bad.push(`code ${c}: ${l}`);
    for (const w of WORDS) if (new RegExp(`(^|[^\\w])${w.replace(/[[\]]/g, '\\$&')}($|[^\\w])`).test(l)) bad.push(`${w}: ${l}`);
  }
  return bad;
}

/** The visible text of `where`, without the chat's messages (the assistant quotes what people typed). */
async function visibleText(where: Locator): Promise<string> {
  return where.evaluate((el) => {
    const all = (el as HTMLElement).innerText;
    const log = el.querySelector<HTMLElement>('[data-testid="chat-messages"]');
    return log ? all.replace(log.innerText, '') : all;
  });
}

async function expectReadable(where: Locator, what: string) {
  expect(unreadable(await visibleText(where)), what).toEqual([]);
}

async function showAll(page: Page) {
  const filter = page.getByTestId('status-filter').first();
  if ((await filter.count()) > 0) await filter.selectOption('All');
}

/** Opens the details of the first `n` rows (View Details) and checks each dialog. */
async function checkDetails(page: Page, rows: Locator, n: number, what: string) {
  const count = Math.min(await rows.count(), n);
  for (let i = 0; i < count; i += 1) {
    const row = rows.nth(i);
    const id = (await row.getAttribute('data-request-id')) ?? String(i);
    await row
      .getByRole('button', { name: /View Details/i })
      .first()
      .click();
    const dialog = page.getByRole('dialog').last();
    await expect(dialog).toBeVisible();
    // Loaded details: no spinner left.
    await expect(dialog.getByText(/^Loading/)).toHaveCount(0);
    await expectReadable(dialog, `${what}: details of ${id}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
}

// The check itself: what it must flag and what it must let through (a check that flags nothing passes every screen).
test('the check flags amounts without currency or separators, ISO dates and codes, and passes the one formats', () => {
  for (const line of [
    'Amount 1450.00',
    'Total: 1,450.00',
    '$1,450.00',
    'USD $1450.00',
    'Estimated cost 2800.00 for the trip',
    'Submitted 2026-11-24',
    'leave-request',
    'None',
  ])
    expect(unreadable(line), line).not.toEqual([]);
  for (const line of ['USD $1,450.00', 'USD $85.50', 'Submitted 2 Mar 2015', '12.50% of the budget', '3.5 days', 'Leave Request'])
    expect(unreadable(line), line).toEqual([]);
});

const APPROVERS = [
  { slug: 'line-manager', email: 'victoria.adams@adminease.test', rows: '[data-testid="approval-table"] tbody tr[data-request-id]' },
  { slug: 'hr', email: 'meera.iyer@adminease.test', rows: '[data-testid="approval-table"] tbody tr[data-request-id]' },
  { slug: 'finance', email: 'arjun.mehta@adminease.test', rows: '[data-testid="approval-table"] tbody tr[data-request-id]' },
  { slug: 'it', email: 'lena.fischer@adminease.test', rows: 'tr[data-testid^="it-ticket-"]' },
  { slug: 'facilities-desk', email: 'sofia.rossi@adminease.test', rows: '[data-testid="approval-table"] tbody tr[data-request-id]' },
  { slug: 'facilities-manager', email: 'kenji.watanabe@adminease.test', rows: '[data-testid="approval-table"] tbody tr[data-request-id]' },
];

for (const board of APPROVERS) {
  test(`${board.slug}: no ISO dates or raw codes on the dashboard (phone and laptop) or in its details`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, board.email);
    await showAll(page);
    const rows = page.locator(board.rows);
    await expect(rows.first()).toBeVisible();
    await expectReadable(page.locator('body'), `${board.slug} at 1280 px`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectReadable(page.locator('body'), `${board.slug} at 390 px (cards)`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await checkDetails(page, rows, 4, board.slug);
  });
}

test('the employee: no ISO dates or raw codes on the dashboard, in the details of each form type, or on the history screens', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'alex.johnson@adminease.test');
  await expect(page.getByText('Loading your forms...')).toHaveCount(0);
  await showAll(page);
  await expect(page.getByTestId('form-row').first()).toBeVisible();
  await expectReadable(page.locator('body'), 'employee dashboard at 1440 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectReadable(page.locator('body'), 'employee dashboard at 390 px');
  await page.setViewportSize({ width: 1440, height: 900 });

  // One details modal per form type the employee has (the chips list them).
  const chips = page.getByRole('group', { name: 'Form type' }).getByRole('button');
  const labels = (await chips.allTextContents()).map((t) => t.replace(/\d+$/, '').trim()).filter((t) => t !== 'All Forms');
  for (const label of labels) {
    await page
      .getByRole('group', { name: 'Form type' })
      .getByRole('button', { name: new RegExp(`^${label}`) })
      .click();
    await checkDetails(page, page.getByTestId('form-row'), 1, `employee ${label}`);
  }

  // Each history screen the History menu opens.
  const options = await page
    .getByLabel('History')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  expect(options.length).toBeGreaterThan(0);
  for (const value of options) {
    await page.getByLabel('History').selectOption(value);
    const screen = page.getByTestId('history-screen');
    await expect(screen).toBeVisible();
    await expect(screen.getByText(/^Loading/)).toHaveCount(0);
    await expectReadable(screen, `history screen ${value}`);
    // Escape or, where the screen does not close on it, its Back/Close button (never a click on a closed screen).
    await page.keyboard.press('Escape');
    if (await screen.isVisible())
      await screen
        .getByRole('button', { name: /Back|Close/ })
        .first()
        .click();
    await expect(screen).toBeHidden();
  }
});

test("the administrator's People table: no ISO dates or raw codes (phone and laptop)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'olivia.brooks@adminease.test');
  await expect(page.locator('tr[data-testid^="person-"]').first()).toBeVisible();
  await expectReadable(page.locator('main'), 'People at 1280 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectReadable(page.locator('main'), 'People at 390 px (cards)');
});
