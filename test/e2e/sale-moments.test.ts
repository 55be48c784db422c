/**
 * The counter's bad moments, each with one next action on the till and the customer display
 * beside it: real Chromium, the browser shell (--dev-clock), the embedded sandbox. New sale on
 * an open sale asks and cancels; a left sale paid later comes back amber; the bank processing
 * a transfer hides every number; a customer who paid twice is a red refund the cashier notes
 * before the next sale; the time running out is "Expired" at once. At every till class.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coloursOf, TILL_CLASSES, type ScreenClass } from '#support/screen-classes';
import { checkScreen, type ShellUnderTest } from '#support/screen-suite';
import { expectText, startSale, textOf } from '#support/till-page';
import { startTillWithDisplay, type TillWithDisplay } from '#support/till-with-display';
import { advanceTillClock, sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;
/** Shorter than main's last check after the time given (check-schedule expiryCheckDelayMs). */
const LAST_CHECK_MS = 3_500;
const SEE_CASHIER = 'Payment received: please see the cashier';
const PAID_TWICE = 'Payment received twice: please see the cashier';
const PROCESSING = "Received by the customer's bank: don't pay again";
/** The theme's red (styles.css --red) under white words. */
const RED = { color: 'rgb(255, 255, 255)', background: 'rgb(176, 0, 32)' };

let counter: TillWithDisplay;
let shell: ShellUnderTest;
let display: Page;

beforeAll(async () => {
  // A cancelled account stays payable (the interface has no cancel); a paid one takes a second
  // exact transfer (CONTRACTS.md personalities).
  counter = await startTillWithDisplay('sale-moments', {
    expired_payments: 'accept',
    repeat_payments: 'accept',
  });
  ({ shell, display } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

/** The words of what has the keyboard focus. */
function focusedText(page: Page): Promise<string | null> {
  return page.evaluate<string | null>('document.activeElement?.textContent ?? null');
}

/** Nothing on the display a customer could pay into. */
async function expectDisplayNoNumber(): Promise<void> {
  expect(await display.getByTestId('account-number').count()).toBe(0);
  expect(await display.getByTestId('qr-code').count()).toBe(0);
}

describe.each(TILL_CLASSES)('at the %s class, the display beside', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await counter.openTill(screenClass));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('New sale on an open sale asks; cancelling it empties the display; paid later, the till says so', async () => {
    const number = await startSale(page, 1250, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    const question = page.getByRole('group', { name: 'Cancel it and start a new sale?' });
    const keep = question.getByRole('button', { name: 'Keep waiting' });
    const leave = question.getByRole('button', { name: 'Cancel it and start a new sale' });
    await checkScreen(
      page,
      {
        screen: 'sale-leave-ask',
        screenClass,
        mustSee: [
          { name: 'the question', locator: question },
          { name: '"Keep waiting"', locator: keep },
          { name: '"Cancel it and start a new sale"', locator: leave },
        ],
      },
      counter.ledger,
    );
    expect(await focusedText(page)).toBe('Keep waiting');
    await leave.click();
    await page.getByRole('textbox', { name: /Amount/ }).waitFor({ timeout: SETTLE_MS });
    // The till left the sale: the display keeps no number of it, then welcomes.
    await display.getByTestId('display-ended').waitFor({ timeout: SETTLE_MS });
    await expectDisplayNoNumber();
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });

    await sandboxTransfer(shell.web.first.control_url, number, 1250);
    await expectText(
      page.getByTestId('sale-status'),
      /^₦1,250\.00 arrived after you cancelled: give the goods or refund/,
      SETTLE_MS,
    );
    await display.getByRole('heading', { name: SEE_CASHIER }).waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'Gave the goods' }).click();
    await page.getByTestId('paid-late-done').waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
  });

  it('the bank processing a transfer: "don\'t pay again", no number, QR, Copy or time left anywhere', async () => {
    const number = await startSale(page, 1600, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    // The customer's bank holds the transfer for an hour.
    await sandboxTransfer(shell.web.first.control_url, number, 1600, 60 * 60_000);
    await page.getByRole('button', { name: 'Customer says they paid' }).click();
    const status = page.getByTestId('sale-status');
    await expectText(status, new RegExp(`^${PROCESSING}`), SETTLE_MS);
    for (const id of ['account-number', 'qr-code', 'countdown']) {
      expect(await page.getByTestId(id).count(), id).toBe(0);
    }
    expect(await page.getByRole('button', { name: /Copy/ }).count()).toBe(0);
    await display.getByTestId('display-processing').waitFor({ timeout: SETTLE_MS });
    expect(await textOf(display.getByTestId('display-processing'))).toBe(
      "Your bank has received it: please don't pay again",
    );
    await expectDisplayNoNumber();
    expect(await display.getByTestId('countdown').count()).toBe(0);
    await checkScreen(
      page,
      {
        screen: 'sale-processing',
        screenClass,
        mustSee: [
          { name: 'status', locator: status },
          { name: 'amount', locator: page.getByTestId('amount-due') },
          { name: '"Cancel"', locator: page.getByRole('button', { name: 'Cancel', exact: true }) },
        ],
      },
      counter.ledger,
    );
    if (screenClass === 'touch') {
      await checkScreen(
        display,
        {
          screen: 'display-processing',
          screenClass: 'display',
          mustSee: [
            { name: 'words', locator: display.getByTestId('display-processing') },
            { name: 'amount', locator: display.getByTestId('amount-due') },
          ],
        },
        counter.ledger,
      );
    }
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, cancel the sale' }).click();
    await expectText(status, /^Cancelled/, SETTLE_MS);
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
  });

  it('paid twice: a red refund, focus on "Refund noted", no key clears it, the display never thanks', async () => {
    const number = await startSale(page, 3000, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await sandboxTransfer(shell.web.first.control_url, number, 3000);
    await display.getByText('Paid, thank you').waitFor({ timeout: SETTLE_MS });
    await sandboxTransfer(shell.web.first.control_url, number, 3000);

    const status = page.getByTestId('sale-status');
    await expectText(status, /^Refund ₦3,000\.00 to this customer/, SETTLE_MS);
    expect(await coloursOf(status)).toEqual(RED);
    expect(await textOf(status)).not.toMatch(/\d{30}/);
    const noted = page.getByRole('button', { name: 'Refund noted' });
    const next = page.getByRole('button', { name: 'New sale', exact: true });
    await expect.poll(() => focusedText(page)).toBe('Refund noted');
    expect(await next.isDisabled()).toBe(true);
    await display.getByRole('heading', { name: PAID_TWICE }).waitFor({ timeout: SETTLE_MS });
    expect(await display.getByText('Paid, thank you').count()).toBe(0);
    await checkScreen(
      page,
      {
        screen: 'sale-paid-twice',
        screenClass,
        mustSee: [
          { name: 'red refund', locator: status },
          { name: '"Refund noted"', locator: noted },
          { name: '"New sale"', locator: next },
          { name: '"Details"', locator: page.getByText('Details', { exact: true }) },
        ],
      },
      counter.ledger,
    );
    if (screenClass === 'touch') {
      await checkScreen(
        display,
        {
          screen: 'display-paid-twice',
          screenClass: 'display',
          mustSee: [{ name: 'words', locator: display.getByRole('heading', { name: PAID_TWICE }) }],
        },
        counter.ledger,
      );
    }
    // Keys meant for the next sale do not clear it.
    await page.keyboard.press('Escape');
    await page.keyboard.press('5');
    expect(await noted.isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: /Amount/ }).count()).toBe(0);

    await noted.click();
    await expect.poll(() => noted.count(), { timeout: SETTLE_MS }).toBe(0);
    expect(await next.isDisabled()).toBe(false);
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
    await next.click();
  });

  it('the time running out shows "Expired" at once on the till and the display, before the last check', async () => {
    await startSale(page, 1700, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    // To just past the time given: main's own expiry comes a few seconds later.
    await advanceTillClock(shell.web.first.url, 15 * 60_000 + 300);
    const status = page.getByTestId('sale-status');
    // Within main's last-check delay (5 s): no "Waiting for transfer" beside a dead countdown.
    await expectText(status, /^Expired/, LAST_CHECK_MS);
    expect(await textOf(status)).not.toContain('Waiting for transfer');
    expect(await page.getByTestId('qr-code').count()).toBe(0);
    await display.getByTestId('display-ended').waitFor({ timeout: SETTLE_MS });
    expect(await display.getByTestId('qr-code').count()).toBe(0);
    // Main's expiry then agrees.
    await page
      .getByRole('button', { name: /^New sale for ₦1,700\.00$/ })
      .waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
  });
});
