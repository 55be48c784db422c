/**
 * Going live in one place, as a shop does it on the day: real Chromium on the browser shell
 * (`npm run web`), a standalone `npm run sandbox` (plain http on this computer) whose keys are
 * entered as the STAGING keys, one Save and one "Check everything" that passes, callbacks
 * included (the route: the shop's own address pointing at the till's loopback listener),
 * and a trial account made as a sale's would be (its number and bank on a ✓ line), then the
 * switch and a sale paid on STAGING, all without a restart. Writes the Settings screenshots at
 * each screen class, the go-live ones with the trial account's ✓ line in view.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { freePort } from '#support/free-port';
import { screenshotOf } from '#support/screen-classes';
import { expectText, startSale, textOf, watchPage } from '#support/till-page';
import { sandboxTransfer, type SandboxLine, type WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const screens = join(root, 'docs', 'screens');
const CLASSES = [
  { name: 'pc', width: 1366, height: 768 },
  { name: 'touch', width: 1024, height: 600 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let sandbox: JsonChild<SandboxLine>;
let web: JsonChild<WebShellLine>;
let browser: Browser;
let dataDir: string;
const problems: string[] = [];

beforeAll(async () => {
  sandbox = await startJsonChild<SandboxLine>('src/main/sandbox/cli.ts', ['--port', '0'], {
    cwd: root,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'till-go-live-'));
  web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir],
    {
      cwd: root,
      timeoutMs: 120_000,
    },
  );
  browser = await launchChromium();
  mkdirSync(screens, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await sandbox?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function openPage(width: number, height: number, hash: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  watchPage(page, `${width}x${height}`, problems);
  await page.goto(web.first.url);
  await page.getByTestId('till-id').first().waitFor();
  await goTo(page, hash);
  return page;
}

async function goTo(page: Page, hash: string): Promise<void> {
  // Only the fragment changes: a same-document navigation, as a click on a link would make.
  await page.goto(`${page.url().replace(/#.*$/, '')}${hash}`);
}

/** Save as it is, "Check everything", and bring the trial account's ✓ line into view. */
async function checkWithTrial(page: Page): Promise<void> {
  const flow = page.getByRole('region', { name: 'Connect your provider' });
  await flow.getByRole('button', { name: 'Save STAGING connection' }).click();
  await flow.getByRole('button', { name: 'Check everything' }).click();
  const trial = flow
    .getByRole('list', { name: 'Check results' })
    .getByRole('listitem')
    .filter({ hasText: 'Trial account made:' });
  await trial.waitFor({ timeout: 30_000 });
  expect((await trial.textContent())?.slice(0, 2)).toBe('✓ ');
  // The line mid-window, the checks above it in view as far as they fit.
  await trial.evaluate((line: { scrollIntoView(options: { block: 'center' }): void }) =>
    line.scrollIntoView({ block: 'center' }),
  );
}

/** No sideways scroll: the page is no wider than the window. */
async function pageWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

describe('Connect your provider, in Chromium', () => {
  it('connects STAGING to a standalone sandbox with one Save and one "Check everything", then sells on it', async () => {
    const page = await openPage(1366, 768, '#/settings/connect');
    const flow = page.getByRole('region', { name: 'Connect your provider' });
    await flow.waitFor();
    const port = await freePort();
    const fill = (label: string, value: string) =>
      flow.getByLabel(label, { exact: true }).fill(value);
    await fill('Base URL', sandbox.first.base_url);
    await fill('Payout base URL', sandbox.first.payout_base_url);
    await fill('Merchant ID', 'SHOP-001');
    await fill('Payout account number', sandbox.first.payout_account_id);
    await fill('Secret key', sandbox.first.secret_key);
    await fill('Payout access token', sandbox.first.access_token);
    await flow.getByRole('radio', { name: /The shop's own address/ }).check();
    await fill('Public address', `http://127.0.0.1:${port}`);
    await fill('Listener port', String(port));
    // The payee name customers see starts as the shop's name.
    expect(await flow.getByLabel('Account display name').inputValue()).toBe('My Shop');

    await flow.getByRole('button', { name: 'Save STAGING connection' }).click();
    await flow.getByText('Saved. Now press “Check everything”.').waitFor({ timeout: 15_000 });
    // The keys went to main and are not on the page any more.
    expect(await flow.getByLabel('Secret key', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain(sandbox.first.secret_key);

    await flow.getByRole('button', { name: 'Check everything' }).click();
    const results = flow.getByRole('list', { name: 'Check results' });
    await results.waitFor({ timeout: 30_000 });
    const lines = await results.getByRole('listitem').allTextContents();
    expect(lines.map((line) => line.slice(0, 2))).toEqual(['✓ ', '✓ ', '✓ ', '✓ ']);
    expect(lines[2]).toContain('came back to this till');
    // The trial account: made at the provider as a sale's would be, shown by number and bank.
    const trial = /Trial account made: (\d+) at ([^.]+)\./.exec(lines[3] ?? '');
    expect(trial, lines[3]).not.toBeNull();
    const accounts = (await (await fetch(`${sandbox.first.control_url}/accounts`)).json()) as {
      accounts: { account_number: string; external_reference: string; type: string }[];
    };
    expect(accounts.accounts.find((entry) => entry.account_number === trial?.[1])).toMatchObject({
      type: 'nonstatic',
      external_reference: expect.stringContaining('-TRIAL-') as string,
    });
    expect(await flow.textContent()).toContain(
      'Everything checked. Switch when you are ready to sell with it.',
    );

    await flow.getByRole('button', { name: 'Switch to STAGING' }).click();
    await expectText(
      flow.getByText('This till uses STAGING now.'),
      'This till uses STAGING now.',
      20_000,
    );

    // A sale on STAGING, paid on the standalone sandbox: no restart came in between.
    await goTo(page, '#/sale');
    const accountNumber = await startSale(page, 1500, 20_000);
    await sandboxTransfer(sandbox.first.control_url, accountNumber, 1500);
    await expectText(page.getByTestId('sale-status'), /paid/i, 30_000);
    const afterSale = (await (await fetch(`${sandbox.first.control_url}/accounts`)).json()) as {
      accounts: { account_number: string; callback_url: string }[];
    };
    const account = afterSale.accounts.find((entry) => entry.account_number === accountNumber);
    expect(account?.callback_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/callbacks/`));
    await page.context().close();
  }, 180_000);

  it('says at the Base URL that the saved keys were entered for another origin, at each screen class', async () => {
    const entered = new URL(sandbox.first.base_url).origin;
    const page = await openPage(1366, 768, '#/settings/connect');
    const flow = page.getByRole('region', { name: 'Connect your provider' });
    const base = flow.getByLabel('Base URL', { exact: true });
    const save = async (address: string) => {
      await base.fill(address);
      await flow.getByRole('button', { name: 'Save STAGING connection' }).click();
      await flow.getByText('Saved. Now press “Check everything”.').waitFor({ timeout: 15_000 });
    };
    await save('https://collector.example/api');
    const notice = flow.getByTestId('keys-elsewhere');
    expect(await textOf(notice)).toBe(
      `Saved keys were entered for ${entered}; enter them again to use this address`,
    );
    expect(await base.getAttribute('aria-describedby')).toContain(await notice.getAttribute('id'));
    // Main refuses to send them there, in the same words as the field.
    await flow.getByRole('button', { name: 'Check everything' }).click();
    const results = flow.getByRole('list', { name: 'Check results' });
    await results.waitFor({ timeout: 30_000 });
    expect((await results.getByRole('listitem').allTextContents())[0]).toContain(
      `was entered for ${entered}; the Base URL now points to https://collector.example. Enter the keys again`,
    );
    await page.context().close();

    for (const screenClass of CLASSES) {
      const shot = await openPage(screenClass.width, screenClass.height, '#/settings/connect');
      const field = shot.getByTestId('keys-elsewhere');
      await field.waitFor();
      await shot.getByLabel('Base URL', { exact: true }).scrollIntoViewIfNeeded();
      await field.scrollIntoViewIfNeeded();
      expect(await pageWidth(shot)).toBeLessThanOrEqual(screenClass.width);
      await screenshotOf(shot, 'settings-keys-elsewhere', screenClass.name);
      await shot.context().close();
    }

    // Back at the origin they were entered for, the keys work again.
    const again = await openPage(1366, 768, '#/settings/connect');
    const flowAgain = again.getByRole('region', { name: 'Connect your provider' });
    await flowAgain.getByLabel('Base URL', { exact: true }).fill(sandbox.first.base_url);
    expect(await flowAgain.getByTestId('keys-elsewhere').count()).toBe(0);
    await flowAgain.getByRole('button', { name: 'Save STAGING connection' }).click();
    await flowAgain.getByRole('button', { name: 'Check everything' }).click();
    const passed = flowAgain.getByRole('list', { name: 'Check results' });
    await passed.waitFor({ timeout: 30_000 });
    expect((await passed.getByRole('listitem').allTextContents())[0]?.slice(0, 2)).toBe('✓ ');
    await again.context().close();
  }, 180_000);

  it('writes Settings and the go-live flow at each screen class, with no sideways scroll', async () => {
    for (const screenClass of CLASSES) {
      for (const [hash, name] of [
        ['#/settings/environment', 'settings'],
        ['#/settings/connect', 'settings-golive'],
      ] as const) {
        const page = await openPage(screenClass.width, screenClass.height, hash);
        await page.getByRole('tablist', { name: 'Settings pages' }).waitFor();
        if (name === 'settings-golive') await checkWithTrial(page);
        expect(await pageWidth(page)).toBeLessThanOrEqual(screenClass.width);
        await page.screenshot({ path: join(screens, `${name}-${screenClass.name}.png`) });
        await page.context().close();
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it('shows the environment in use first and masks the callback address until asked', async () => {
    const page = await openPage(1366, 768, '#/settings/callbacks');
    const url = page.getByTestId('callback-url');
    await url.waitFor();
    expect(await textOf(url)).toMatch(/\/callbacks\/•+$/);
    await page.getByRole('button', { name: 'Show the whole address' }).click();
    expect(await textOf(url)).toMatch(/\/callbacks\/[A-Za-z0-9_-]{22,}$/);
    await page.getByRole('tab', { name: 'Environment' }).click();
    const headings = await page.getByRole('heading', { level: 3 }).allTextContents();
    expect(headings.slice(0, 2)).toEqual(['Environment', 'STAGING profile']);
    await page.context().close();
  }, 60_000);
});
