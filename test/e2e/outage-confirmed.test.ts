/**
 * The link comes back, end to end: real Chromium at the touch, phone and pc classes with the
 * customer display beside, the browser shell with --dev-clock and its embedded sandbox cutting
 * the till's connections (`unreachable_ms`). At each class an outage sale is taken, the customer
 * sends the exact amount asked during the outage, the outage ends: the sale is confirmed (the
 * till and the display say paid). Then a customer sends a round amount for a second outage sale:
 * the till does not guess; the owner's Activity shows "Needs a person" naming the sale, and one
 * press gives the payment to it. Screenshots of both at every class.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import { classContext, screenshotOf, type ScreenClass } from '#support/screen-classes';
import { AxeLedger, checkScreen, startShell, type ShellUnderTest } from '#support/screen-suite';
import { expectText, textOf, watchPage } from '#support/till-page';
import {
  callTill,
  sandboxTransfer,
  setSandboxFaults,
  waitForOutageAccount,
} from '#support/web-till';

const SETTLE_MS = 30_000;
const TAKE = "Take it on the shop's standing account";

let shell: ShellUnderTest;
let browser: Browser;
let display: Page;
let displayContext: BrowserContext;
let standing: { accountNumber: string };
const ledger = new AxeLedger();
const problems: string[] = [];

const setFaults = (faults: Readonly<Record<string, unknown>>) =>
  setSandboxFaults(shell.web.first.control_url, faults);

beforeAll(async () => {
  shell = await startShell('outage-confirmed');
  standing = await waitForOutageAccount(shell.web.first.url, SETTLE_MS);
  expect(standing?.accountNumber).toMatch(/^\d{10}$/);
  browser = await launchChromium();
  displayContext = await classContext(browser, 'display');
  display = await displayContext.newPage();
  watchPage(display, 'display', problems);
  await display.goto(shell.web.first.display_url);
  await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
}, 180_000);

afterAll(async () => {
  console.log(ledger.report('outage-confirmed'));
  await browser?.close();
  await shell?.stop();
  expect(problems).toEqual([]);
});

/** Types the amount while the provider cannot be reached and takes it as an outage sale. */
async function takeOutageSale(page: Page, naira: number): Promise<{ due: string; id: string }> {
  const amount = page.getByRole('textbox', { name: /Amount/ });
  await amount.waitFor({ timeout: SETTLE_MS });
  await amount.fill(String(naira));
  await amount.press('Enter');
  await expectText(page.getByTestId('sale-status'), /Could not create account/, SETTLE_MS);
  await page.getByRole('button', { name: TAKE }).click();
  await expectText(page.getByTestId('sale-status'), /^Unconfirmed/, SETTLE_MS);
  const due = await textOf(page.getByTestId('amount-due'));
  const id = /Sale #(\d+)/.exec(await textOf(page.getByTestId('sale-status')))?.[1] ?? '';
  expect(id).not.toBe('');
  return { due, id };
}

const naira = (text: string) => Number(text.replace(/[₦,]/g, ''));

const CLASSES: readonly [ScreenClass, number][] = [
  ['touch', 1800],
  ['phone', 3300],
  ['pc', 870],
];

describe.each(CLASSES)('at the %s class, the display beside', (screenClass, price) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await classContext(browser, screenClass);
    page = await context.newPage();
    watchPage(page, screenClass, problems);
    await page.goto(shell.web.first.url);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('the exact amount sent during the outage confirms the sale when the link is back', async () => {
    await setFaults({ unreachable_ms: 600_000 });
    const { due } = await takeOutageSale(page, price);
    expect(naira(due)).toBeGreaterThan(price);
    expect(naira(due)).toBeLessThan(price + 1);
    // The customer's bank works: the money lands while the shop is offline.
    await sandboxTransfer(shell.web.first.control_url, standing.accountNumber, naira(due));
    await setFaults({ unreachable_ms: 0 });

    const status = page.getByTestId('sale-status');
    await expectText(status, /^✓?\s*Paid/, SETTLE_MS);
    await display.getByText(/Paid, thank you/).waitFor({ timeout: SETTLE_MS });
    await checkScreen(
      page,
      {
        screen: 'outage-confirmed',
        screenClass,
        mustSee: [
          { name: 'the paid status', locator: status },
          { name: 'the amount', locator: page.getByTestId('amount-due') },
        ],
      },
      ledger,
    );
    if (screenClass === 'touch') await screenshotOf(display, 'outage-confirmed', 'display');
  });

  it('a round amount goes to Needs a person, and one press gives it to the sale', async () => {
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    await setFaults({ unreachable_ms: 600_000 });
    const { id } = await takeOutageSale(page, price + 5);
    // The customer rounds the amount: it matches no outage sale exactly.
    await sandboxTransfer(shell.web.first.control_url, standing.accountNumber, price + 5);
    await setFaults({ unreachable_ms: 0 });

    await page.getByRole('link', { name: 'Activity' }).click();
    const give = page.getByRole('button', { name: `Give to sale #${id}` });
    await give.waitFor({ timeout: SETTLE_MS });
    // The till did not guess: the sale still waits until the owner gives it the payment.
    const before = await callTill(shell.web.first.url, 'getSale', { saleId: Number(id) });
    expect(before.ok && before.value).toMatchObject({ state: 'unconfirmed' });
    await checkScreen(
      page,
      {
        screen: 'activity-needs-person',
        screenClass,
        mustSee: [{ name: `"Give to sale #${id}"`, locator: give }],
      },
      ledger,
    );
    await give.click();
    await give.waitFor({ state: 'detached', timeout: SETTLE_MS });
    const sale = await callTill(shell.web.first.url, 'getSale', { saleId: Number(id) });
    if (!sale.ok) throw new Error(sale.error.message);
    expect(sale.value).toMatchObject({ state: 'paid' });
  });
});
