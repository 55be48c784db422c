/**
 * The till's screens at the screen classes a shop really has (CONTRACTS.md): the shop PC
 * (1366×768), the touchscreen till (1024×600) and the phone counter (390×844, and 360 wide).
 * Real Chromium, the browser shell, the embedded sandbox provider. Each class works through a
 * cashier's day on one page: the amount, an open sale, paid, the next amount typed straight
 * away, an expired sale started again in one press, a cancel kept and then made, then the other
 * screens. Every screen is checked in the viewport, unclipped, without sideways scroll, with
 * axe-core, and photographed into docs/screens/.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import {
  classContext,
  layoutProblems,
  SCREEN_CLASSES,
  TILL_CLASSES,
  type ScreenClass,
} from '#support/screen-classes';
import {
  AxeLedger,
  checkScreen,
  openSaleParts,
  startShell,
  type ShellUnderTest,
} from '#support/screen-suite';
import { expectText, textOf, watchPage } from '#support/till-page';
import { advanceTillClock, countdownSeconds, sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;
const PAST_EXPIRY_MS = 15 * 60_000 + 10_000;

let shell: ShellUnderTest;
let browser: Browser;
const ledger = new AxeLedger();
const problems: string[] = [];

beforeAll(async () => {
  shell = await startShell('screens');
  browser = await launchChromium();
});

afterAll(async () => {
  console.log(ledger.report('screens-till'));
  await browser?.close();
  await shell?.stop();
});

function amountField(page: Page): Locator {
  return page.getByRole('textbox', { name: /Amount/ });
}

/** A closed sale shows its number struck, says not to pay into it, and offers no Copy. */
async function expectDeadNumber(page: Page): Promise<void> {
  await page.locator('s[data-testid="account-number"]').waitFor({ timeout: SETTLE_MS });
  expect(await textOf(page.getByTestId('dead-number-words'))).toBe('Do not pay into this account');
  expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
  expect(await page.getByTestId('qr-code').count()).toBe(0);
}

/** The label text of the focused field (evaluated in the page). */
const FOCUSED_LABEL =
  'document.activeElement?.closest("label")?.querySelector("span")?.textContent';

/** The font sizes (px) of the top menu's links (evaluated in the page). */
const NAV_FONT_SIZES =
  '[...document.querySelectorAll(".app-nav li a")].map((a) => parseFloat(getComputedStyle(a).fontSize))';

async function focusedName(page: Page): Promise<string> {
  return page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""');
}

describe.each(TILL_CLASSES)('the till at the %s class', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await classContext(browser, screenClass);
    page = await context.newPage();
    watchPage(page, screenClass, problems);
    await page.goto(shell.web.first.url);
    await page
      .getByTestId('environment-badge')
      .filter({ hasText: /^SANDBOX$/ })
      .waitFor({ timeout: SETTLE_MS });
  });
  afterAll(async () => {
    await context?.close();
    expect(problems.splice(0)).toEqual([]);
  });

  it('shows the amount field and "New sale" without scrolling', async () => {
    await amountField(page).waitFor({ timeout: SETTLE_MS });
    await expect.poll(() => page.evaluate(FOCUSED_LABEL)).toBe('Amount (₦)');
    // The amount is grouped in the field as it is typed: an extra zero is plain to see.
    await page.keyboard.type('1234567.5');
    expect(await amountField(page).inputValue()).toBe('₦1,234,567.5');
    await checkScreen(
      page,
      {
        screen: 'sale-entry',
        screenClass,
        mustSee: [
          { name: 'amount field', locator: amountField(page) },
          { name: '"New sale"', locator: page.getByRole('button', { name: 'New sale' }) },
          { name: 'keypad', locator: page.getByRole('group', { name: 'Keypad' }) },
        ],
      },
      ledger,
    );
    await page.keyboard.press('Escape');
    expect(await amountField(page).inputValue()).toBe('');
  });

  it('shows every screen of the top menu whole and readable (on the phone at 390 and 360 px)', async () => {
    const nav = page.getByRole('navigation', { name: 'Screens' });
    const links = await nav.getByRole('link').all();
    expect(links.length).toBe(6);
    const { width, height } = SCREEN_CLASSES[screenClass];
    for (const wide of screenClass === 'phone' ? [width, 360] : [width]) {
      await page.setViewportSize({ width: wide, height });
      const mustSee = [
        { name: 'the menu', locator: nav.getByRole('list') },
        ...(await Promise.all(
          links.map(async (link) => ({ name: `"${await textOf(link)}"`, locator: link })),
        )),
      ];
      expect(await layoutProblems(page, mustSee, { oneLine: links }), `${wide} px wide`).toEqual(
        [],
      );
      // Readable at arm's length: no menu word shrunk below 14 px to fit.
      const sizes = await page.evaluate<number[]>(NAV_FONT_SIZES);
      expect(Math.min(...sizes), `${wide} px wide`).toBeGreaterThanOrEqual(14);
    }
    await page.setViewportSize({ width, height });
  });

  it('shows an open sale whole: amount with kobo, the number on one line, bank, name, countdown, both actions', async () => {
    await page.keyboard.type('4500');
    await page.keyboard.press('Enter');
    await page.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    expect(await textOf(page.getByTestId('amount-due'))).toBe('₦4,500.00');
    expect((await textOf(page.getByTestId('account-number'))).replace(/\s/g, '')).toMatch(
      /^\d{10}$/,
    );
    // The next action has the focus, not the page body.
    await expect.poll(() => focusedName(page)).toBe('Cancel');
    // No callback banner of its own: the header is the one place for callback health.
    expect(await page.getByText('Payment alerts are live').count()).toBe(0);
    await checkScreen(
      page,
      {
        screen: 'sale-open',
        screenClass,
        mustSee: openSaleParts(page),
        oneLine: [page.getByTestId('account-number'), page.getByTestId('amount-due')],
      },
      ledger,
    );
  });

  it('asks before cancelling with the safe choice focused: Esc then Enter keeps the sale', async () => {
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('group', { name: 'Cancel this sale?' });
    await confirm.waitFor();
    expect(await focusedName(page)).toBe('No, keep waiting');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await expectText(page.getByTestId('sale-status'), /Waiting for transfer/, SETTLE_MS);
  });

  it('shows paid with the amount received, the number dead, and the focus on "New sale"', async () => {
    const accountNumber = (await textOf(page.getByTestId('account-number'))).replace(/\s/g, '');
    await sandboxTransfer(shell.web.first.control_url, accountNumber, 4500);
    await expectText(page.getByTestId('sale-status'), /^✓?Paid₦4,500\.00/, SETTLE_MS);
    expect(await textOf(page.getByTestId('paid-amount'))).toBe('₦4,500.00');
    await expectDeadNumber(page);
    await expect.poll(() => focusedName(page)).toBe('New sale');
    await checkScreen(
      page,
      {
        screen: 'sale-paid',
        screenClass,
        mustSee: [
          { name: 'status', locator: page.getByTestId('sale-status') },
          { name: 'dead number', locator: page.getByTestId('dead-number-words') },
          { name: '"New sale"', locator: page.getByRole('button', { name: 'New sale' }) },
        ],
      },
      ledger,
    );
  });

  it('starts the next amount when the cashier types digits after a sale, and Enter creates it', async () => {
    await page.keyboard.type('700');
    await expect.poll(() => amountField(page).inputValue()).toBe('₦700');
    await page.keyboard.press('Enter');
    await expectText(page.getByTestId('amount-due'), '₦700.00', SETTLE_MS);
    await page.getByTestId('countdown').waitFor({ timeout: SETTLE_MS });
  });

  it('expires the sale on the till service\'s clock and offers "New sale for ₦700.00" in one press', async () => {
    await advanceTillClock(shell.web.first.url, PAST_EXPIRY_MS);
    await expectText(page.getByTestId('sale-status'), /^Expired/, SETTLE_MS);
    await expectDeadNumber(page);
    const again = page.getByRole('button', { name: 'New sale for ₦700.00' });
    await expect.poll(() => focusedName(page)).toBe('New sale for ₦700.00');
    await checkScreen(
      page,
      {
        screen: 'sale-expired',
        screenClass,
        mustSee: [
          { name: 'status', locator: page.getByTestId('sale-status') },
          { name: 'dead number', locator: page.getByTestId('dead-number-words') },
          { name: '"New sale for ₦700.00"', locator: again },
        ],
      },
      ledger,
    );
    await page.keyboard.press('Enter');
    await expectText(page.getByTestId('sale-status'), /Waiting for transfer/, SETTLE_MS);
    expect(await textOf(page.getByTestId('amount-due'))).toBe('₦700.00');
    // The new sale has its full time on the service's clock (which just moved 15 minutes on).
    const left = countdownSeconds(await textOf(page.getByTestId('countdown')));
    expect(left).toBeGreaterThan(14 * 60 + 30);
    expect(left).toBeLessThanOrEqual(15 * 60);
  });

  it('cancels after the question, and offers the same amount again', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Yes, cancel the sale' }).click();
    await expectText(page.getByTestId('sale-status'), /^Cancelled/, SETTLE_MS);
    await expectDeadNumber(page);
    await page.getByRole('button', { name: 'New sale for ₦700.00' }).waitFor();
    await checkScreen(
      page,
      {
        screen: 'sale-cancelled',
        screenClass,
        mustSee: [
          { name: 'status', locator: page.getByTestId('sale-status') },
          {
            name: '"New sale for ₦700.00"',
            locator: page.getByRole('button', { name: 'New sale for ₦700.00' }),
          },
        ],
      },
      ledger,
    );
    await page.keyboard.press('Escape');
    await amountField(page).waitFor();
  });

  it.each([
    ['activity', 'Activity', 'activity-heading'],
    ['report', 'Report', 'report-success-count'],
    ['balance', 'Balance', 'available-balance'],
    ['settings', 'Settings', 'settings-heading'],
  ])('shows %s without sideways scroll', async (screen, link, first) => {
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: link })
      .click();
    const mark = first.endsWith('-heading') ? page.locator(`#${first}`) : page.getByTestId(first);
    await mark.waitFor({ timeout: SETTLE_MS });
    // The screen's own data settles (the report's charts, the settings' sections), then look.
    await page.waitForTimeout(1_000);
    await checkScreen(
      page,
      { screen, screenClass, mustSee: [{ name: first, locator: mark }] },
      ledger,
    );
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Sale' })
      .click();
  });
});
