/**
 * A fresh till's first start in a real Chromium against the browser shell (the embedded
 * sandbox): the shop's name is asked before the first sale at every till class, the preview
 * follows what is typed, and once given it is the account name the provider received for the
 * next sale (the sandbox's record) and the one the sale screen shows. Screenshots:
 * docs/screens/first-start-<class>.png.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import { classContext, TILL_CLASSES } from '#support/screen-classes';
import { AxeLedger, checkScreen, startShell, type ShellUnderTest } from '#support/screen-suite';
import { expectText, startSale, watchPage } from '#support/till-page';

const SETTLE_MS = 15_000;
const SHOP = 'Mama Put Stores';

let shell: ShellUnderTest;
let browser: Browser;
const ledger = new AxeLedger();
const problems: string[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  shell = await startShell('first-start', { firstStart: true });
  browser = await launchChromium();
});

afterAll(async () => {
  console.log(ledger.report('first-start'));
  for (const context of contexts) await context.close();
  await browser?.close();
  await shell?.stop();
});

async function openTill(screenClass: (typeof TILL_CLASSES)[number]): Promise<Page> {
  const context = await classContext(browser, screenClass);
  contexts.push(context);
  const page = await context.newPage();
  watchPage(page, screenClass, problems);
  await page.goto(shell.web.first.url);
  return page;
}

const nameField = (page: Page) => page.getByRole('textbox', { name: /shop.*name/i });

describe('a fresh till asks what customers will see before the first sale', () => {
  it.each(TILL_CLASSES)(
    'at the %s class: the name, its preview and Continue',
    async (screenClass) => {
      const page = await openTill(screenClass);
      const heading = page.getByRole('heading', { name: 'What will customers see?' });
      await heading.waitFor({ timeout: SETTLE_MS });
      expect(await page.getByRole('textbox', { name: /Amount/ }).count()).toBe(0);
      await nameField(page).fill(SHOP);
      await expectText(
        page.getByTestId('account-name-preview'),
        `Account name: ${SHOP}`,
        SETTLE_MS,
      );
      await checkScreen(
        page,
        {
          screen: 'first-start',
          screenClass,
          mustSee: [
            { name: 'heading', locator: heading },
            { name: 'name field', locator: nameField(page) },
            { name: 'preview', locator: page.getByTestId('account-name-preview') },
            { name: '"Continue"', locator: page.getByRole('button', { name: 'Continue' }) },
          ],
        },
        ledger,
      );
      expect(problems.splice(0)).toEqual([]);
    },
  );

  it('a blank name is refused in words, and nothing is saved', async () => {
    const page = await openTill('pc');
    await nameField(page).fill('   ');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectText(page.getByRole('alert'), 'Shop name: Enter the shop name', SETTLE_MS);
    expect(await page.getByRole('heading', { name: 'What will customers see?' }).count()).toBe(1);
  });

  it('the name given is the account name of the first sale, on screen and at the provider', async () => {
    const page = await openTill('phone');
    await nameField(page).fill(`  ${SHOP} `);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByRole('heading', { name: 'How do you want to start?' })
      .waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'Practise with the sandbox' }).click();
    const accountNumber = await startSale(page, 2500, SETTLE_MS);
    await expectText(page.getByTestId('account-name'), SHOP, SETTLE_MS);

    const response = await fetch(`${shell.web.first.control_url}/accounts`);
    const { accounts } = (await response.json()) as {
      readonly accounts: readonly Record<string, unknown>[];
    };
    expect(accounts.find((account) => account['account_number'] === accountNumber)).toMatchObject({
      account_name: SHOP,
    });

    // Every page of the till now sells: the answer is the till's, not one browser's.
    const other = await openTill('touch');
    await other.getByRole('textbox', { name: /Amount/ }).waitFor({ timeout: SETTLE_MS });
    expect(await other.getByRole('heading', { name: 'What will customers see?' }).count()).toBe(0);
    // The footer fills in once the till has answered: wait for it, do not read it once.
    await expectText(other.getByTestId('app-version'), new RegExp(` · ${SHOP} · `), SETTLE_MS);
    expect(problems.splice(0)).toEqual([]);
  });
});
