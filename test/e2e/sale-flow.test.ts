/**
 * The sale screen end to end: real Chromium, the browser shell, the embedded sandbox provider.
 * One shell and one browser for the whole file; the scenarios run in order on one till page, as
 * a cashier would work through them (each starts from a fresh amount field).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { backToAmount } from '#support/till-page';
import {
  advanceTillClock,
  countdownSeconds,
  decodeQrDataUrl,
  sandboxTransfer,
  type WebShellLine,
} from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
/** How long the cashier may wait for the bank's answer to show. */
const SETTLE_MS = 10_000;
const EXPIRY_MS = 15 * 60_000;
/** Past the deadline and the final status check 5 s after it. */
const PAST_EXPIRY_MS = EXPIRY_MS + 10_000;

let dataDir: string;
let web: JsonChild<WebShellLine>;
let browser: Browser;
let context: BrowserContext;
let till: Page;
/** Page errors and console errors from every page; any one fails the test that saw it. */
const problems: string[] = [];

function watch(page: Page, name: string): void {
  page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${name}: console error: ${message.text()}`);
  });
}

async function shot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, file), fullPage: true });
}

async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

/** Polls a locator's text until it matches (the bank's answer arrives asynchronously). */
async function expectText(locator: Locator, pattern: RegExp, timeout = SETTLE_MS): Promise<void> {
  await expect.poll(() => textOf(locator), { timeout, interval: 100 }).toMatch(pattern);
}

function saleStatus(page: Page): Locator {
  return page.getByTestId('sale-status');
}

function amountField(page: Page): Locator {
  return page.getByRole('textbox', { name: /Amount/ });
}

/** Back to an empty amount field, from whatever the sale screen shows. */
async function startOver(page: Page): Promise<void> {
  await backToAmount(page);
}

/** Keyboard only: focus the amount field, type the amount, press Enter. Returns the account. */
async function createSaleWithKeyboard(page: Page, amount: string): Promise<string> {
  await amountField(page).focus();
  await page.keyboard.type(amount);
  await page.keyboard.press('Enter');
  const accountNumber = page.getByTestId('account-number');
  await accountNumber.waitFor({ timeout: SETTLE_MS });
  const digits = (await textOf(accountNumber)).replace(/\s+/g, '');
  expect(digits).toMatch(/^\d{10}$/);
  return digits;
}

/** The time left on a countdown, in seconds; fails when it shows anything but mm:ss. */
async function secondsLeft(countdown: Locator): Promise<number> {
  const text = await textOf(countdown);
  const seconds = countdownSeconds(text);
  if (seconds === null) throw new Error(`the countdown shows ${JSON.stringify(text)}, not mm:ss`);
  return seconds;
}

async function openAlertCount(page: Page): Promise<number> {
  const text = await textOf(page.getByTestId('alert-count'));
  const match = /^(\d+) open alerts?$/.exec(text);
  if (!match) throw new Error(`unexpected alert count: ${JSON.stringify(text)}`);
  return Number(match[1]);
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-sale-'));
  web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir, '--dev-clock'],
    { cwd: root, timeoutMs: 120_000 },
  );
  expect(web.first.control_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/control$/);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The page's clock is faked but flows with real time until a test fast-forwards it, so that
  // the countdown can be moved in step with the till's --dev-clock.
  await context.clock.install();
  till = await context.newPage();
  watch(till, 'till');
  await till.goto(web.first.url);
  await till
    .getByTestId('environment-badge')
    .filter({ hasText: /^SANDBOX$/ })
    .waitFor({ timeout: SETTLE_MS });
});

afterEach(() => {
  // Taken out, so that one test's errors are reported once, by that test.
  expect(problems.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a sale in the browser shell on the sandbox provider', () => {
  it('creates a ₦1,500 sale from the keyboard and shows it paid after the exact transfer', async () => {
    await startOver(till);
    const accountNumber = await createSaleWithKeyboard(till, '1500');

    expect(await textOf(till.getByTestId('bank-name'))).toBe('Sandbox Bank');
    expect(await textOf(till.getByTestId('amount-due'))).toBe('₦1,500.00');
    const left = await secondsLeft(till.getByTestId('countdown'));
    expect(left).toBeGreaterThanOrEqual(14 * 60 + 30);
    expect(left).toBeLessThanOrEqual(15 * 60);
    await expectText(saleStatus(till), /Waiting for transfer/);

    const qr = till.getByTestId('qr-code');
    await qr.waitFor({ timeout: SETTLE_MS });
    const src = (await qr.getAttribute('src')) ?? '';
    expect(src).toMatch(/^data:image\/png;base64,/);
    const decoded = decodeQrDataUrl(src);
    expect(decoded).not.toBeNull();
    expect(decoded).toContain(accountNumber);
    expect(decoded).toMatch(/Amount\D*1,?500(\.00)?\b/);
    await shot(till, 'sale-created.png');

    await sandboxTransfer(web.first.control_url, accountNumber, 1500);
    await expectText(saleStatus(till), /Paid/);
    expect(await textOf(saleStatus(till))).not.toMatch(/late/i);
    await shot(till, 'sale-paid.png');
  });

  it('rejects a transfer of the wrong amount when the customer says they paid', async () => {
    await startOver(till);
    const accountNumber = await createSaleWithKeyboard(till, '2000');
    expect(await textOf(till.getByTestId('amount-due'))).toBe('₦2,000.00');

    // The sandbox sends no callback for a wrong amount: the till learns it from the status check.
    await sandboxTransfer(web.first.control_url, accountNumber, 1999);
    await till.getByRole('button', { name: 'Customer says they paid' }).click();
    await expectText(saleStatus(till), /Wrong amount ₦1,999\.00: not accepted/);
    const status = await textOf(saleStatus(till));
    expect(status).toContain('₦1,999.00');
    expect(status).toContain('₦2,000.00');
    // The check did find a transfer: nothing may say the bank has reported none.
    expect(await till.getByText(/has not reported this transfer yet/).count()).toBe(0);
    await shot(till, 'wrong-amount.png');
  });

  it('expires a sale in fast time, on the countdown and in the status', async () => {
    await startOver(till);
    await createSaleWithKeyboard(till, '3000');
    const countdown = till.getByTestId('countdown');
    expect(await secondsLeft(countdown)).toBeGreaterThan(14 * 60);

    // The page's clock alone: the countdown keeps the till's time, so the sale stays open.
    await till.clock.fastForward(PAST_EXPIRY_MS);
    await till.waitForTimeout(1_500);
    expect(await secondsLeft(countdown)).toBeGreaterThan(13 * 60);
    await expectText(saleStatus(till), /Waiting for transfer/);

    // Then the till's (and the sandbox's) clock, by the same amount: the sale expires.
    await advanceTillClock(web.first.url, PAST_EXPIRY_MS);
    await expectText(saleStatus(till), /Expired/);
    // An expired sale shows no time left at all, and no "Waiting for transfer".
    expect(await countdown.count()).toBe(0);
    expect(await textOf(saleStatus(till))).not.toMatch(/Waiting/);
    await shot(till, 'expired.png');
  });

  it('flags a sale paid after it was cancelled as paid late, with an alert', async () => {
    await startOver(till);
    const accountNumber = await createSaleWithKeyboard(till, '2500');
    // Both clocks moved together: the new sale has its full time again on screen.
    expect(await secondsLeft(till.getByTestId('countdown'))).toBeGreaterThan(14 * 60);
    const alertsBefore = await openAlertCount(till);

    await till.getByRole('button', { name: 'Cancel', exact: true }).click();
    const confirm = till.getByRole('group', { name: 'Cancel this sale?' });
    await confirm.getByRole('button', { name: 'Yes, cancel the sale' }).click();
    await expectText(saleStatus(till), /Cancelled/);

    // Cancel is local: the account stays valid at the provider, and the money still arrives.
    await sandboxTransfer(web.first.control_url, accountNumber, 2500);
    await expectText(saleStatus(till), /arrived after you cancelled: give the goods or refund/);
    await expect
      .poll(() => openAlertCount(till), { timeout: SETTLE_MS })
      .toBeGreaterThan(alertsBefore);
    await shot(till, 'paid-late.png');

    await till.getByRole('link', { name: 'Activity', exact: true }).click();
    const alert = till.getByRole('listitem').filter({ hasText: 'LATE PAYMENT' });
    await alert.waitFor({ timeout: SETTLE_MS });
    expect(await textOf(alert)).toContain('₦2,500.00');
    await shot(till, 'activity-late-payment.png');
    await till.getByRole('link', { name: 'Sale', exact: true }).click();
  });

  it('shows the running sale on the customer display, then "Paid, thank you"', async () => {
    const display = await context.newPage();
    watch(display, 'customer display');
    await display.goto(web.first.display_url);
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });

    await startOver(till);
    const accountNumber = await createSaleWithKeyboard(till, '1200');
    await expectText(display.getByTestId('amount-due'), /^₦1,200\.00$/);
    await expectText(display.getByTestId('account-number'), /\d/);
    expect((await textOf(display.getByTestId('account-number'))).replace(/\s+/g, '')).toBe(
      accountNumber,
    );
    expect(await textOf(display.getByTestId('bank-name'))).toBe('Sandbox Bank');
    // The display's page shares the till's (fast-forwarded) page clock: its full time is shown.
    expect(await secondsLeft(display.getByTestId('countdown'))).toBeGreaterThan(14 * 60);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await shot(display, 'customer-display.png');

    await sandboxTransfer(web.first.control_url, accountNumber, 1200);
    await display.getByRole('heading', { name: 'Paid, thank you' }).waitFor({ timeout: SETTLE_MS });
    expect(await textOf(display.getByTestId('paid-amount'))).toBe('₦1,200.00');
    await expectText(saleStatus(till), /Paid/);
    await shot(display, 'customer-display-thanks.png');
    await display.close();
  });
});
