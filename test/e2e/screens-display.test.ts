/**
 * The customer display at 800×480 beside a till, and the honest clock and state of both: a
 * tablet whose clock is 10 minutes fast and a display 10 minutes slow still count down from the
 * till service's time; the service killed mid-sale takes every "live" claim away within 2 s,
 * says so in red and disables what needs it. Real Chromium, the browser shell, the sandbox.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import { classContext, coloursOf, layoutProblems } from '#support/screen-classes';
import {
  AxeLedger,
  checkScreen,
  openSaleParts,
  startShell,
  type ShellUnderTest,
} from '#support/screen-suite';
import { expectText, startSale, textOf, watchPage } from '#support/till-page';
import { advanceTillClock, countdownSeconds, sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;
const PAST_EXPIRY_MS = 15 * 60_000 + 10_000;
const TEN_MINUTES = 10 * 60_000;

let shell: ShellUnderTest;
let browser: Browser;
let tillContext: BrowserContext;
let displayContext: BrowserContext;
let till: Page;
let display: Page;
const ledger = new AxeLedger();
const problems: string[] = [];

beforeAll(async () => {
  shell = await startShell('display');
  browser = await launchChromium();
  // The till's device 10 minutes fast, the display's 10 minutes slow: neither may matter.
  tillContext = await classContext(browser, 'phone', { clockOffsetMs: TEN_MINUTES });
  displayContext = await classContext(browser, 'display', { clockOffsetMs: -TEN_MINUTES });
  till = await tillContext.newPage();
  display = await displayContext.newPage();
  // The killed service's stream and calls fail in the console: expected there, nowhere else.
  watchPage(till, 'till', problems, [/Failed to load resource|ERR_CONNECTION_REFUSED/]);
  watchPage(display, 'display', problems, [/Failed to load resource|ERR_CONNECTION_REFUSED/]);
  await till.goto(shell.web.first.url);
  await display.goto(shell.web.first.display_url);
  await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
});

afterAll(async () => {
  console.log(ledger.report('screens-display'));
  await browser?.close();
  await shell?.stop();
  expect(problems).toEqual([]);
});

function displayParts(page: Page) {
  return [
    { name: 'amount', locator: page.getByTestId('amount-due') },
    { name: 'account number', locator: page.getByTestId('account-number') },
    { name: 'bank', locator: page.getByTestId('bank-name') },
    { name: 'account name', locator: page.getByTestId('account-name') },
    { name: 'countdown', locator: page.getByTestId('countdown') },
    { name: 'QR', locator: page.getByTestId('qr-code') },
  ];
}

describe('the customer display at 800×480', () => {
  it('welcomes', async () => {
    await checkScreen(
      display,
      {
        screen: 'display-welcome',
        screenClass: 'display',
        mustSee: [{ name: 'welcome', locator: display.getByText('Welcome') }],
      },
      ledger,
    );
  });

  it("counts a fresh sale down from the till service's clock on a fast till and a slow display", async () => {
    await startSale(till, 4500, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    for (const page of [till, display]) {
      const left = countdownSeconds(await textOf(page.getByTestId('countdown')));
      expect(left).toBeGreaterThan(14 * 60 + 30);
      expect(left).toBeLessThanOrEqual(15 * 60);
    }
    // The till's cashier is told, quietly; the customer is not.
    await expectText(till.getByTestId('clock-notice'), /10 minutes ahead of the till's/, SETTLE_MS);
    expect(await display.getByTestId('clock-notice').count()).toBe(0);
  });

  it('shows amount, number on one line, bank, name, countdown and QR without scrolling', async () => {
    expect(await textOf(display.getByTestId('amount-due'))).toBe('₦4,500.00');
    await checkScreen(
      display,
      {
        screen: 'display-open',
        screenClass: 'display',
        mustSee: displayParts(display),
        oneLine: [display.getByTestId('account-number'), display.getByTestId('amount-due')],
      },
      ledger,
    );
  });

  it('says "Paid, thank you ₦4,500.00" for a few seconds, then welcomes again', async () => {
    const accountNumber = (await textOf(till.getByTestId('account-number'))).replace(/\s/g, '');
    await sandboxTransfer(shell.web.first.control_url, accountNumber, 4500);
    await display.getByRole('heading', { name: 'Paid, thank you' }).waitFor({ timeout: SETTLE_MS });
    expect(await textOf(display.getByTestId('paid-amount'))).toBe('₦4,500.00');
    await checkScreen(
      display,
      {
        screen: 'display-paid',
        screenClass: 'display',
        mustSee: [{ name: 'paid amount', locator: display.getByTestId('paid-amount') }],
      },
      ledger,
    );
    await display.getByText('Welcome').waitFor({ timeout: 15_000 });
  });

  it('says "This account has expired: ask the cashier" with the number struck, then welcomes', async () => {
    await till.keyboard.press('Escape');
    await startSale(till, 700, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await advanceTillClock(shell.web.first.url, PAST_EXPIRY_MS);
    const words = display.getByRole('heading', {
      name: 'This account has expired: ask the cashier',
    });
    await words.waitFor({ timeout: SETTLE_MS });
    await display.locator('s[data-testid="account-number"]').waitFor();
    expect(await textOf(display.getByTestId('dead-number-words'))).toBe(
      'Do not pay into this account',
    );
    await checkScreen(
      display,
      {
        screen: 'display-expired',
        screenClass: 'display',
        mustSee: [
          { name: 'expired words', locator: words },
          { name: 'dead number', locator: display.getByTestId('dead-number-words') },
        ],
      },
      ledger,
    );
    await display.getByText('Welcome').waitFor({ timeout: 15_000 });
  });
});

describe('the narrowest phone counter (360 px)', () => {
  it('still shows the open sale whole, the number on one line, without sideways scroll', async () => {
    const narrow = await classContext(browser, 'phone', { width: 360 });
    const page = await narrow.newPage();
    watchPage(page, 'narrow phone', problems);
    await page.goto(shell.web.first.url);
    await startSale(page, 123456.78, SETTLE_MS);
    expect(await textOf(page.getByTestId('amount-due'))).toBe('₦123,456.78');
    const problemsSeen = await layoutProblems(page, openSaleParts(page), {
      oneLine: [page.getByTestId('account-number'), page.getByTestId('amount-due')],
      touch: true,
    });
    expect(problemsSeen).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Yes, cancel the sale' }).click();
    await narrow.close();
  });
});

describe('the till service killed mid-sale', () => {
  it('takes every "live" claim away within 2 s, says so in red, and disables what needs it', async () => {
    await till.getByRole('button', { name: 'New sale for ₦700.00' }).click();
    await expectText(till.getByTestId('sale-status'), /Waiting for transfer/, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await expectText(till.getByTestId('callback-status'), /.+/, SETTLE_MS);

    await shell.web.stop('SIGKILL');
    const killedAt = Date.now();
    const banner = till.getByTestId('connection-banner');
    await expectText(banner, /Lost the connection to the till service/, 2_000);
    expect(Date.now() - killedAt).toBeLessThan(2_000);
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await textOf(banner)).toMatch(/Payments will show here when it is back/);
    // Red, not the pale-blue notice of old: the theme's red on its pale red.
    expect(await coloursOf(banner)).toEqual({
      color: 'rgb(176, 0, 32)',
      background: 'rgb(255, 214, 214)',
    });
    expect(await textOf(till.getByTestId('callback-status'))).toBe('Till service lost');
    expect(await till.getByText(/live/i).count()).toBe(0);
    for (const name of ['Customer says they paid', 'Cancel']) {
      expect(await till.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    }
    await expectText(display.getByTestId('connection-banner'), /Lost the connection/, 2_000);
    await checkScreen(
      till,
      {
        screen: 'sale-service-lost',
        screenClass: 'phone',
        mustSee: [{ name: 'red alert', locator: banner }],
      },
      ledger,
    );
  });
});
