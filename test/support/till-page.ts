/** What end-to-end tests read and do on a till page in Chromium, the same way in every file. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The trimmed text of a locator's first match; '' while there is none (so polls can wait). */
export async function textOf(locator: Locator): Promise<string> {
  if ((await locator.count()) === 0) return '';
  return ((await locator.first().textContent()) ?? '').trim();
}

/** Waits until the locator's text is `pattern` (a string: exactly), failing after `timeoutMs`. */
export async function expectText(
  locator: Locator,
  pattern: RegExp | string,
  timeoutMs: number,
): Promise<void> {
  const poll = expect.poll(() => textOf(locator), { timeout: timeoutMs, interval: 100 });
  await (typeof pattern === 'string' ? poll.toBe(pattern) : poll.toMatch(pattern));
}

/**
 * Collects a page's uncaught errors and console errors into `problems`, except console lines
 * matching `expected` (what a browser logs by itself for an answer the test provokes).
 */
export function watchPage(
  page: Page,
  name: string,
  problems: string[],
  expected: readonly RegExp[] = [],
): void {
  page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (!expected.some((pattern) => pattern.test(text))) {
      problems.push(`${name}: console error: ${text}`);
    }
  });
}

/**
 * A cashier's sale from the keyboard: the amount (Naira), then Enter. Returns the account number
 * the page shows (digits only) once it is there.
 */
export async function startSale(
  page: Page,
  amountNaira: number,
  timeoutMs: number,
): Promise<string> {
  const amount = page.getByRole('textbox', { name: /Amount/ });
  await amount.waitFor({ timeout: timeoutMs });
  await amount.fill(String(amountNaira));
  await amount.press('Enter');
  const accountNumber = page.getByTestId('account-number');
  await accountNumber.waitFor({ timeout: timeoutMs });
  const digits = (await textOf(accountNumber)).replace(/\s+/g, '');
  if (!/^\d{10}$/.test(digits)) throw new Error(`the page shows account number "${digits}"`);
  return digits;
}

/**
 * Back to an empty amount field from whatever the sale screen shows, as a cashier gets there: a
 * refund owed is noted first, and an open sale is cancelled through the question "New sale" asks.
 */
export async function backToAmount(page: Page, timeoutMs = 30_000): Promise<void> {
  const amount = page.getByRole('textbox', { name: /Amount/ });
  if ((await amount.count()) === 0) {
    const refundNoted = page.getByRole('button', { name: 'Refund noted' });
    if ((await refundNoted.count()) > 0) await refundNoted.click();
    await page.getByRole('button', { name: 'New sale', exact: true }).click({ timeout: timeoutMs });
    const leave = page.getByRole('button', { name: 'Cancel it and start a new sale' });
    await Promise.race([
      amount.waitFor({ timeout: timeoutMs }),
      leave.waitFor({ timeout: timeoutMs }).then(() => leave.click()),
    ]);
  }
  await amount.waitFor({ timeout: timeoutMs });
}
