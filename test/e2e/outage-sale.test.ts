/**
 * Selling through an outage, as a cashier meets it: real Chromium, the browser shell on a
 * standalone sandbox (--sandbox-url) that is stopped once the till has made its standing
 * account for outages. A sale then cannot be created for lack of connection; one press takes it
 * on the shop's standing account: "Send exactly" with the kobo tag, the account, no countdown,
 * "Unconfirmed", the shop's rule and its press; the customer display shows the same; a new sale
 * leaves it unconfirmed. At the touch, phone and pc classes, with screenshots.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityView } from '#shared/bridge/contract';
import { launchChromium } from '#support/chromium';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { classContext, screenshotOf, type ScreenClass } from '#support/screen-classes';
import { AxeLedger, checkScreen } from '#support/screen-suite';
import { expectText, textOf, watchPage } from '#support/till-page';
import {
  callTill,
  waitForOutageAccount,
  type SandboxLine,
  type WebShellLine,
} from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const SETTLE_MS = 20_000;
const TAKE = "Take it on the shop's standing account";

let sandbox: JsonChild<SandboxLine> | undefined;
let web: JsonChild<WebShellLine>;
let dataDir: string;
let browser: Browser;
let displayContext: BrowserContext;
let display: Page;
let standing: { accountNumber: string; bank: string };
const ledger = new AxeLedger();
const problems: string[] = [];

beforeAll(async () => {
  sandbox = await startJsonChild<SandboxLine>('src/main/sandbox/cli.ts', ['--port', '0'], {
    cwd: root,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-outage-'));
  web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir, '--sandbox-url', sandbox.first.control_url],
    { cwd: root, timeoutMs: 120_000 },
  );
  // The first start online makes the standing account for outages.
  standing = await waitForOutageAccount(web.first.url, SETTLE_MS);
  expect(standing?.accountNumber).toMatch(/^\d{10}$/);
  // The link goes down: nothing answers at the provider's address any more.
  await sandbox.stop();
  sandbox = undefined;
  browser = await launchChromium();
  displayContext = await classContext(browser, 'display');
  display = await displayContext.newPage();
  watchPage(display, 'display', problems);
  await display.goto(web.first.display_url);
  await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
}, 180_000);

afterAll(async () => {
  console.log(ledger.report('outage-sale'));
  await browser?.close();
  await web?.stop();
  await sandbox?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

const CLASSES: readonly [ScreenClass, number][] = [
  ['touch', 1500],
  ['phone', 2750],
  ['pc', 990],
];

describe.each(CLASSES)('at the %s class, the display beside', (screenClass, naira) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await classContext(browser, screenClass);
    page = await context.newPage();
    watchPage(page, screenClass, problems);
    await page.goto(web.first.url);
  });
  afterAll(async () => {
    await context?.close();
  });

  it("a sale that cannot start is taken on the shop's standing account, unconfirmed", async () => {
    const amount = page.getByRole('textbox', { name: /Amount/ });
    await amount.waitFor({ timeout: SETTLE_MS });
    await amount.fill(String(naira));
    await amount.press('Enter');
    await expectText(page.getByTestId('sale-status'), /Could not create account/, SETTLE_MS);
    await page.getByRole('button', { name: TAKE }).click();

    const status = page.getByTestId('sale-status');
    await expectText(status, /^Unconfirmed/, SETTLE_MS);
    expect(await textOf(status)).toContain(
      "The provider can't be reached: this payment will be confirmed when it is back",
    );
    const due = await textOf(page.getByTestId('amount-due'));
    const shown = naira.toLocaleString('en-NG');
    expect(due).toMatch(new RegExp(`^₦${shown}\\.0[1-9]$`));
    expect((await textOf(page.getByTestId('account-number'))).replace(/\s+/g, '')).toBe(
      standing.accountNumber,
    );
    expect(await textOf(page.getByTestId('bank-name'))).toBe(standing.bank);
    expect(await page.getByTestId('countdown').count()).toBe(0);

    // The customer display follows the till: the exact amount and the account, no countdown.
    await display.getByTestId('display-outage').waitFor({ timeout: SETTLE_MS });
    expect(await textOf(display.getByTestId('amount-due'))).toBe(due);
    expect((await textOf(display.getByTestId('account-number'))).replace(/\s+/g, '')).toBe(
      standing.accountNumber,
    );
    expect(await display.getByTestId('countdown').count()).toBe(0);

    const keep = page.getByRole('button', { name: 'Keep waiting' });
    await checkScreen(
      page,
      {
        screen: 'outage-sale',
        screenClass,
        mustSee: [
          { name: 'amount due', locator: page.getByTestId('amount-due') },
          { name: 'account number', locator: page.getByTestId('account-number') },
          { name: 'bank', locator: page.getByTestId('bank-name') },
          { name: '"Keep waiting"', locator: keep },
        ],
        oneLine: [page.getByTestId('amount-due')],
      },
      ledger,
    );
    if (screenClass === 'touch') await screenshotOf(display, 'outage-sale', 'display');

    // The shop's rule (wait): the press is recorded, then a new sale leaves it unconfirmed.
    await keep.click();
    await expectText(
      page.getByTestId('outage-policy'),
      /Waiting for confirmation: recorded\./,
      SETTLE_MS,
    );
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    await page.getByRole('textbox', { name: /Amount/ }).waitFor({ timeout: SETTLE_MS });
    const activity = await callTill(web.first.url, 'getActivity', {});
    if (!activity.ok) throw new Error(activity.error.message);
    const unconfirmed = (activity.value as ActivityView).sales.filter(
      (sale) => sale.state === 'unconfirmed' && sale.amountKobo === naira * 100,
    );
    expect(unconfirmed).toHaveLength(1);
    expect(unconfirmed[0]?.outageAction).toBe('keep_waiting');
  });
});
