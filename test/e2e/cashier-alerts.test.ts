/**
 * A cashier's alerts, end to end: real Chromium, the browser shell, the embedded sandbox, the
 * customer display beside the till. Her header counts exactly what her Activity lists (another
 * cashier's alert, which the owner sees, counts in neither: auth/alert-visibility.ts). "Customer
 * says they paid" with no money yet ends in the alert that asks for the transfer receipt
 * (poll_cap, "Check payment now"); once the customer's transfer lands, that alert closes itself
 * and leaves her Activity and her count. At the touch and phone classes.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaleView } from '#shared/sales';
import type { StatusView } from '#shared/views';
import type { ScreenClass } from '#support/screen-classes';
import { startSale, textOf } from '#support/till-page';
import { saleIdOn, startTillWithDisplay, type TillWithDisplay } from '#support/till-with-display';
import { callTill, sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;
/** The interface's backoff after the cashier's press (2 s, 4 s, 8 s), then the alert. */
const BACKOFF_MS = 40_000;
const OWNER_PIN = '482913';
const RECEIPT_WORDS = 'ask the customer to show the transfer receipt';

let counter: TillWithDisplay;
/** Bola's sale, paid after she cancelled it: an alert Ada is not to count. */
let bolaSaleId = 0;

async function owner<T>(channel: string, input: unknown): Promise<T> {
  const answer = await callTill(counter.shell.web.first.url, channel, input);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
  return answer.value as T;
}

beforeAll(async () => {
  counter = await startTillWithDisplay('cashier-alerts', { expired_payments: 'accept' });
  await owner('updateSettings', { patch: { shop: { cashiers: ['Ada', 'Bola'] } } });
  // Bola's sale, cancelled, then paid after all: a paid-late alert on a sale of hers.
  const bola = await owner<SaleView>('createSale', { amount: '700', cashier: 'Bola' });
  bolaSaleId = bola.id;
  await owner('cancelSale', { saleId: bola.id });
  await sandboxTransfer(counter.shell.web.first.control_url, bola.accountNumber ?? '', 700);
  // The owner sees that alert before any cashier signs in.
  const until = Date.now() + SETTLE_MS;
  while ((await owner<StatusView>('getStatus', {})).openAlerts === 0) {
    if (Date.now() > until) throw new Error("Bola's paid-late alert was never raised");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // From now on a page opens signed out, and a cashier signs in by name.
  await owner('setOwnerPin', { pin: OWNER_PIN });
});

afterAll(async () => {
  await counter?.stop();
});

/** The header's "N open alerts". */
async function headerCount(page: Page): Promise<number> {
  const text = await textOf(page.getByTestId('alert-count'));
  return Number(/^(\d+)/.exec(text)?.[1] ?? NaN);
}

/** Activity's "Needs attention" as the cashier sees it: the alerts listed. */
async function activityAlerts(page: Page): Promise<number> {
  await page.getByRole('link', { name: 'Activity', exact: true }).click();
  await page.getByRole('heading', { name: /^Needs attention/ }).waitFor({ timeout: SETTLE_MS });
  await page
    .getByText("Loading today's activity…")
    .waitFor({ state: 'detached', timeout: SETTLE_MS });
  return page.getByTestId('alert-item').count();
}

describe.each(['touch', 'phone'] as const)('at the %s class', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await counter.openTill(screenClass));
    await page.getByRole('heading', { name: 'Who is at this till?' }).waitFor();
    await page.getByRole('button', { name: 'Ada', exact: true }).click();
    await page.getByText('Cashier: Ada', { exact: true }).waitFor({ timeout: SETTLE_MS });
  });
  afterAll(async () => {
    await context?.close();
  });

  it("her header counts what her Activity lists: not another cashier's alert", async () => {
    await page.getByTestId('alert-count').waitFor({ timeout: SETTLE_MS });
    expect(await headerCount(page)).toBe(0);
    expect(await activityAlerts(page)).toBe(0);
    expect(await page.getByRole('button', { name: `Open sale #${bolaSaleId}` }).count()).toBe(0);
    await page.getByText('Nothing needs attention.').waitFor();
  });

  it('the transfer-receipt alert closes itself once the sale is paid', async () => {
    await page.getByRole('link', { name: 'Sale', exact: true }).click();
    const number = await startSale(page, 1800, SETTLE_MS);
    const saleId = await saleIdOn(page);
    await page.getByRole('button', { name: 'Customer says they paid' }).click();
    // No money yet: the checks back off, then a person is asked for.
    await expect.poll(() => headerCount(page), { timeout: BACKOFF_MS }).toBe(1);
    expect(await activityAlerts(page)).toBe(1);
    const item = page.getByTestId('alert-item');
    expect(await textOf(item)).toContain(RECEIPT_WORDS);
    await item.getByRole('button', { name: 'Check payment now' }).waitFor();
    await item.getByRole('button', { name: `Open sale #${saleId}` }).waitFor();

    await sandboxTransfer(counter.shell.web.first.control_url, number, 1800);
    await expect.poll(() => page.getByTestId('alert-item').count(), { timeout: SETTLE_MS }).toBe(0);
    await page.getByText('Nothing needs attention.').waitFor();
    await expect.poll(() => headerCount(page), { timeout: SETTLE_MS }).toBe(0);
    // Closed in main, not only off this screen: read again, it stays closed.
    expect(await activityAlerts(page)).toBe(0);
  });
});
