/**
 * Settings as a shopkeeper finishes it, at the till's screen classes (pc, touch, phone): every
 * page of Settings saves with exactly one Save button (folded parts unfolded too), each page is
 * checked in the viewport with axe and photographed; and the till's "Open customer display" opens
 * the display in a window of its own while the till stays the till. Real Chromium, the browser
 * shell, the embedded sandbox provider.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import { classContext, TILL_CLASSES, type ScreenClass } from '#support/screen-classes';
import { AxeLedger, checkScreen, startShell, type ShellUnderTest } from '#support/screen-suite';
import { watchPage } from '#support/till-page';

const SETTLE_MS = 10_000;

/**
 * The Save buttons each page holds. On Cashiers and PINs the one Save is for the sign-in setting;
 * the PINs change each by its own named action ("Set owner PIN", "Set PIN for Ada"), since each
 * needs its own PIN. Browser access only rotates a token: no form of settings, so no Save.
 */
const SAVES: Readonly<Record<string, number>> = {
  Environment: 1,
  'Connect provider': 1,
  Callbacks: 1,
  Shop: 1,
  'Cashiers and PINs': 1,
  'Sync, backups, sounds': 1,
  Receipts: 1,
  Voice: 1,
  'Shop hub': 1,
  'Browser access': 0,
};

let shell: ShellUnderTest;
let browser: Browser;
const ledger = new AxeLedger();
const problems: string[] = [];

beforeAll(async () => {
  shell = await startShell('settings-pages');
  browser = await launchChromium();
});

afterAll(async () => {
  console.log(ledger.report('settings-pages'));
  await browser?.close();
  await shell?.stop();
  expect(problems).toEqual([]);
});

function saveButtons(page: Page) {
  return page.locator('#settings-page').getByRole('button', { name: /^Save/ });
}

function fileName(tab: string): string {
  return `settings-${tab
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/-$/, '')}`;
}

describe.each(TILL_CLASSES)('Settings at the %s class', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await classContext(browser, screenClass);
    page = await context.newPage();
    watchPage(page, screenClass, problems);
    await page.goto(shell.web.first.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.locator('#settings-heading').waitFor({ timeout: SETTLE_MS });
    await page.getByRole('tab').first().waitFor({ timeout: SETTLE_MS });
    // A fresh till asks how to start (first class only: the answer is kept); practice it is.
    const practise = page.getByRole('button', { name: 'Practise with the sandbox' });
    for (let tries = 0; tries < 5 && (await practise.isVisible()); tries += 1) {
      await practise.click();
      await page.waitForTimeout(300);
    }
    expect(await practise.count()).toBe(0);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('offers the pages of this shell, and no desktop-only page', async () => {
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(Object.keys(SAVES));
  });

  it.each(Object.entries(SAVES))('saves the %s page with %i Save button', async (tab, saves) => {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await page
      .getByRole('tab', { name: tab, exact: true, selected: true })
      .waitFor({ timeout: SETTLE_MS });
    await page.locator('#settings-page .settings-section').first().waitFor({ timeout: SETTLE_MS });
    await page.waitForTimeout(500);
    // The last page's folded parts were unfolded down the page: this one is looked at from its top.
    await page.evaluate('window.scrollTo(0, 0)');
    await checkScreen(
      page,
      {
        screen: fileName(tab),
        screenClass,
        mustSee: [
          { name: 'the page tab', locator: page.getByRole('tab', { name: tab, exact: true }) },
        ],
      },
      ledger,
    );
    expect(await saveButtons(page).count()).toBe(saves);
    // Folded parts (the profiles not in use) unfolded: still the one Save of the page.
    for (const summary of await page.locator('#settings-page details > summary').all()) {
      await summary.click();
    }
    expect(await saveButtons(page).count()).toBe(saves);
  });
});

describe('the customer display from the till', () => {
  it('opens in a window of its own, and the till stays the till', async () => {
    const context = await classContext(browser, 'pc');
    const till = await context.newPage();
    watchPage(till, 'till', problems);
    await till.goto(shell.web.first.url);
    const amount = till.getByRole('textbox', { name: /Amount/ });
    await amount.waitFor({ timeout: SETTLE_MS });
    const [display] = await Promise.all([
      context.waitForEvent('page'),
      till.getByRole('button', { name: 'Open customer display' }).click(),
    ]);
    watchPage(display, 'display', problems);
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
    // Its own window, cut off from the till's (noopener), at the display's own address.
    expect(await display.evaluate('window.opener === null')).toBe(true);
    expect(await till.evaluate('location.hash')).not.toContain('display');
    await amount.waitFor({ timeout: SETTLE_MS });
    expect(await till.getByRole('navigation', { name: 'Screens' }).isVisible()).toBe(true);
    // A reload of the till is still the till (the display's token stayed in the display's tab).
    await till.reload();
    await amount.waitFor({ timeout: SETTLE_MS });
    expect(await display.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
    await context.close();
  });
});
