/**
 * The customer's first transfer lands on the sale that expired, after the cashier already
 * pressed "New sale for ₦1,250.00": the open sale says so, where the cashier looks, so the
 * customer is not asked to pay twice. Real Chromium, the browser shell (--dev-clock), the
 * embedded sandbox taking money into an expired account, the customer display beside the till.
 * "Open sale #N" leaves the open sale only through the question "New sale" asks, and the display
 * follows the till. At every till class; on the phone also at its narrowest width, 360 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaleView } from '#shared/sales';
import {
  layoutProblems,
  SCREEN_CLASSES,
  TILL_CLASSES,
  type ScreenClass,
} from '#support/screen-classes';
import { checkScreen, type ShellUnderTest } from '#support/screen-suite';
import { expectText, startSale, textOf } from '#support/till-page';
import { saleIdOn, startTillWithDisplay, type TillWithDisplay } from '#support/till-with-display';
import { advanceTillClock, callTill, sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;
const PAST_EXPIRY_MS = 15 * 60_000 + 10_000;
const AMOUNT = 1250;

let counter: TillWithDisplay;
let shell: ShellUnderTest;
let display: Page;

beforeAll(async () => {
  // A provider that takes money into an expired account (CONTRACTS.md personalities).
  counter = await startTillWithDisplay('other-sale-paid', { expired_payments: 'accept' });
  ({ shell, display } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

async function saleInMain(saleId: number): Promise<SaleView> {
  const answer = await callTill(shell.web.first.url, 'getSale', { saleId });
  if (!answer.ok) throw new Error(`getSale: ${answer.error.message}`);
  return answer.value as SaleView;
}

/** The display shows this account number to pay (digits as the till shows them, grouped). */
async function displayShows(number: string): Promise<void> {
  await expect
    .poll(async () => (await textOf(display.getByTestId('account-number'))).replace(/\s+/g, ''), {
      timeout: SETTLE_MS,
    })
    .toBe(number);
}

/**
 * The open sale expires; Enter on "New sale for ₦1,250.00" opens the next one for the same
 * customer; then the customer's first transfer lands on the expired account. Returns both ids
 * and the new sale's number.
 */
async function paidAfterTheNewSale(page: Page, expiredNumber: string) {
  const expiredId = await saleIdOn(page);
  await advanceTillClock(shell.web.first.url, PAST_EXPIRY_MS);
  await expectText(page.getByTestId('sale-status'), /^Expired/, SETTLE_MS);
  await page.getByRole('button', { name: 'New sale for ₦1,250.00' }).press('Enter');
  await expect.poll(() => saleIdOn(page), { timeout: SETTLE_MS }).not.toBe(expiredId);
  const openId = await saleIdOn(page);
  const openNumber = (await textOf(page.getByTestId('account-number'))).replace(/\s+/g, '');
  await displayShows(openNumber);
  expect(await page.getByTestId('other-sale-paid').count()).toBe(0);

  await sandboxTransfer(shell.web.first.control_url, expiredNumber, AMOUNT);
  const banner = page.getByTestId('other-sale-paid');
  await expectText(
    banner.locator('.other-sale-paid-words'),
    `₦1,250.00 just arrived for sale #${expiredId}: same customer? Cancel this one`,
    SETTLE_MS,
  );
  return { expiredId, openId, openNumber, banner };
}

/** The banner and the sale's own actions, all on screen at once. */
function bannerParts(page: Page, expiredId: number) {
  const banner = page.getByTestId('other-sale-paid');
  return [
    { name: 'banner', locator: banner },
    {
      name: '"Cancel this sale"',
      locator: banner.getByRole('button', { name: 'Cancel this sale' }),
    },
    {
      name: '"Different customer"',
      locator: banner.getByRole('button', { name: 'Different customer' }),
    },
    {
      name: `"Open sale #${expiredId}"`,
      locator: banner.getByRole('button', { name: `Open sale #${expiredId}` }),
    },
    {
      name: 'the sale\'s "Cancel"',
      locator: page.getByRole('button', { name: 'Cancel', exact: true }),
    },
    {
      name: 'the sale\'s "New sale"',
      locator: page.getByRole('button', { name: 'New sale', exact: true }),
    },
    { name: 'account number', locator: page.getByTestId('account-number') },
  ];
}

describe.each(TILL_CLASSES)('at the %s class, the display beside', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;
  let waitingNumber = '';

  beforeAll(async () => {
    ({ context, page } = await counter.openTill(screenClass));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('money for the expired sale is said on the new one; "Different customer" puts it away', async () => {
    const expiredNumber = await startSale(page, AMOUNT, SETTLE_MS);
    const { expiredId, openId, openNumber, banner } = await paidAfterTheNewSale(
      page,
      expiredNumber,
    );
    await checkScreen(
      page,
      { screen: 'sale-other-paid', screenClass, mustSee: bannerParts(page, expiredId) },
      counter.ledger,
    );
    if (screenClass === 'phone') {
      // The narrowest phone counter: the banner still leaves the sale's buttons in view.
      const { width, height } = SCREEN_CLASSES.phone;
      await page.setViewportSize({ width: 360, height });
      expect(
        await layoutProblems(page, bannerParts(page, expiredId), { touch: true }),
        '360 px wide',
      ).toEqual([]);
      await page.setViewportSize({ width, height });
    }

    await banner.getByRole('button', { name: 'Different customer' }).click();
    await expect.poll(() => banner.count(), { timeout: SETTLE_MS }).toBe(0);
    // The sale stays open, on the till and on the display.
    expect(await saleIdOn(page)).toBe(openId);
    expect((await saleInMain(openId)).state).toBe('awaiting_payment');
    await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await displayShows(openNumber);
    waitingNumber = openNumber;
  });

  it('"Cancel this sale" cancels the new sale and shows the one the customer paid', async () => {
    const { expiredId, openId, banner } = await paidAfterTheNewSale(page, waitingNumber);
    await banner.getByRole('button', { name: 'Cancel this sale' }).click();
    await expect.poll(async () => (await saleInMain(openId)).state).toBe('cancelled');
    await expect.poll(() => saleIdOn(page), { timeout: SETTLE_MS }).toBe(expiredId);
    await expectText(
      page.getByTestId('sale-status'),
      /^₦1,250\.00 arrived after the sale expired: is the customer still here\? Give the goods or refund/,
      SETTLE_MS,
    );
    expect(await banner.count()).toBe(0);
    // The cancelled sale's number is not left for the customer to pay.
    await expect
      .poll(() => textOf(display.getByTestId('account-number')), { timeout: SETTLE_MS })
      .toBe('');
  });

  it('"Open sale #N" asks before it leaves the open sale; the display follows the till', async () => {
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    const number = await startSale(page, AMOUNT, SETTLE_MS);
    const { expiredId, openId, openNumber, banner } = await paidAfterTheNewSale(page, number);
    const openEarlier = banner.getByRole('button', { name: `Open sale #${expiredId}` });
    const question = page.getByRole('group', { name: `Cancel it and open sale #${expiredId}?` });

    await openEarlier.click();
    await question.waitFor({ timeout: SETTLE_MS });
    await question.getByRole('button', { name: 'Keep waiting' }).click();
    // Kept: the same open sale, on the till and on the display.
    expect(await saleIdOn(page)).toBe(openId);
    expect((await saleInMain(openId)).state).toBe('awaiting_payment');
    await displayShows(openNumber);

    await openEarlier.click();
    await question.getByRole('button', { name: `Cancel it and open sale #${expiredId}` }).click();
    await expect.poll(async () => (await saleInMain(openId)).state).toBe('cancelled');
    await expect.poll(() => saleIdOn(page), { timeout: SETTLE_MS }).toBe(expiredId);
    // The till left the open sale: its number leaves the display too.
    await expect
      .poll(() => display.getByTestId('account-number').count(), { timeout: SETTLE_MS })
      .toBe(0);
  });
});
