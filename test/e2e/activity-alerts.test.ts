/**
 * Alerts a cashier can act on, end to end: real Chromium, the browser shell (--dev-clock), the
 * embedded sandbox taking money into a cancelled sale's account. The alert in Activity names its
 * sale as a button that opens it, offers the press that resolves it, every target at least
 * 44 px on the touch and phone classes; once "Gave the goods" is recorded on the sale, the alert
 * closes itself and the header's count follows.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCREEN_CLASSES,
  TILL_CLASSES,
  TOUCH_TARGET_PX,
  type ScreenClass,
} from '#support/screen-classes';
import { checkScreen, type ShellUnderTest } from '#support/screen-suite';
import { expectText, startSale, textOf } from '#support/till-page';
import { startTillWithDisplay, type TillWithDisplay } from '#support/till-with-display';
import { sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;

let counter: TillWithDisplay;
let shell: ShellUnderTest;

beforeAll(async () => {
  counter = await startTillWithDisplay('activity-alerts', { expired_payments: 'accept' });
  ({ shell } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

async function heightOf(locator: Locator): Promise<number> {
  return (await locator.boundingBox())?.height ?? 0;
}

/** The header's "N open alerts". */
async function headerCount(page: Page): Promise<number> {
  const text = await textOf(page.getByRole('link', { name: /open alerts?$/ }));
  return Number(/^(\d+)/.exec(text)?.[1] ?? NaN);
}

describe.each(TILL_CLASSES)('at the %s class', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await counter.openTill(screenClass));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('a late payment: its alert opens the sale, and closes itself once the goods are given', async () => {
    const number = await startSale(page, 1250, SETTLE_MS);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, cancel the sale' }).click();
    await expectText(page.getByTestId('sale-status'), /^Cancelled/, SETTLE_MS);
    await sandboxTransfer(shell.web.first.control_url, number, 1250);
    await page.getByRole('button', { name: 'Gave the goods' }).waitFor({ timeout: SETTLE_MS });
    const saleId = Number(/Sale #(\d+)/.exec(await textOf(page.getByTestId('sale-status')))?.[1]);

    await page.getByRole('link', { name: /open alerts?$/ }).click();
    const item = page
      .getByTestId('alert-item')
      .filter({ has: page.getByRole('button', { name: `Open sale #${saleId}` }) });
    await item.waitFor({ timeout: SETTLE_MS });
    // The header counts exactly what Activity lists.
    const listed = await page.getByTestId('alert-item').count();
    expect(await headerCount(page)).toBe(listed);
    const saleButton = item.getByRole('button', { name: `Open sale #${saleId}` });
    const settle = item.getByRole('button', { name: 'Give goods or refund' });
    const acknowledge = item.getByRole('button', { name: 'Acknowledge' });
    const count = page.getByRole('link', { name: /open alerts?$/ });
    if (SCREEN_CLASSES[screenClass].touch) {
      for (const target of [saleButton, settle, acknowledge, count]) {
        expect(await heightOf(target)).toBeGreaterThanOrEqual(TOUCH_TARGET_PX);
      }
    }
    await checkScreen(
      page,
      {
        screen: 'activity-alerts',
        screenClass,
        mustSee: [
          { name: `"Sale #${saleId}"`, locator: saleButton },
          { name: '"Give goods or refund"', locator: settle },
          { name: '"Acknowledge"', locator: acknowledge },
        ],
      },
      counter.ledger,
    );

    await saleButton.click();
    await expectText(page.getByTestId('sale-status'), new RegExp(`Sale #${saleId}`), SETTLE_MS);
    await page.getByRole('button', { name: 'Gave the goods' }).click();
    await page.getByRole('button', { name: 'Gave the goods' }).waitFor({
      state: 'detached',
      timeout: SETTLE_MS,
    });
    await expect.poll(() => headerCount(page), { timeout: SETTLE_MS }).toBe(listed - 1);
    await page.getByRole('link', { name: /open alerts?$/ }).click();
    await page.getByRole('heading', { name: /^Needs attention/ }).waitFor({ timeout: SETTLE_MS });
    await expect
      .poll(() => page.getByRole('button', { name: `Open sale #${saleId}` }).count(), {
        timeout: SETTLE_MS,
      })
      .toBe(0);
    expect(await page.getByTestId('alert-item').count()).toBe(await headerCount(page));
  });
});
