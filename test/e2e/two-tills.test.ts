/**
 * Two tills of one shop training on one standalone sandbox, as a shop trains its counters:
 * real Chromium, two browser shells (each its own data directory) started with --sandbox-url,
 * one `npm run sandbox`. The provider's listing is merchant-wide, so each till's report sees
 * both sales: its own, and the other till's as "other tills of this shop", never as money that
 * tells staff to hold goods.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNaira } from '#shared/money';
import { referencePrefix } from '#shared/till-id';
import type { ZReportView } from '#shared/views';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { callTill, sandboxTransfer, type SandboxLine, type WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
/** How long a page may take to show what the till learnt. */
const SETTLE_MS = 15_000;

interface Till {
  readonly name: string;
  readonly amountNaira: number;
  readonly dataDir: string;
  readonly web: JsonChild<WebShellLine>;
  readonly page: Page;
}

let sandbox: JsonChild<SandboxLine>;
let browser: Browser;
const tills: Till[] = [];
/** Each till's id, as its status says (read at start). */
const tillIds = new Map<Till, string>();
/** Page errors and console errors from every page. */
const problems: string[] = [];

/** The text shown, '' while the element is not there (polls wait for it). */
async function textOf(locator: Locator): Promise<string> {
  if ((await locator.count()) === 0) return '';
  return ((await locator.first().textContent()) ?? '').trim();
}

async function expectText(locator: Locator, pattern: RegExp | string): Promise<void> {
  const poll = expect.poll(() => textOf(locator), { timeout: SETTLE_MS, interval: 100 });
  await (typeof pattern === 'string' ? poll.toBe(pattern) : poll.toMatch(pattern));
}

function prefixOfTill(till: Till): string {
  const tillId = tillIds.get(till);
  if (!tillId) throw new Error(`till ${till.name}: its till id was not read`);
  return referencePrefix(tillId);
}

function kobo(naira: number): number {
  return Math.round(naira * 100);
}

async function report(till: Till): Promise<ZReportView> {
  const result = await callTill(till.web.first.url, 'getZReport', {});
  if (!result.ok) throw new Error(`${till.name}: getZReport: ${result.error.message}`);
  return result.value as ZReportView;
}

/** The cashier sells from the keyboard and the customer pays the exact amount. */
async function sellAndGetPaid(till: Till): Promise<void> {
  const { page } = till;
  await page.getByRole('link', { name: 'Sale', exact: true }).click();
  const amount = page.getByRole('textbox', { name: /Amount/ });
  await amount.waitFor({ timeout: SETTLE_MS });
  await amount.fill(String(till.amountNaira));
  await amount.press('Enter');
  const accountNumber = page.getByTestId('account-number');
  await accountNumber.waitFor({ timeout: SETTLE_MS });
  expect(await textOf(page.getByTestId('amount-due'))).toBe(formatNaira(kobo(till.amountNaira)));
  await sandboxTransfer(
    sandbox.first.control_url,
    (await textOf(accountNumber)).replace(/\s+/g, ''),
    till.amountNaira,
  );
  await expectText(page.getByTestId('sale-status'), /Paid/);
  await page.screenshot({ path: join(artifacts, `two-tills-${till.name}-paid.png`) });
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  sandbox = await startJsonChild<SandboxLine>('src/main/sandbox/cli.ts', ['--port', '0'], {
    cwd: root,
  });
  browser = await launchChromium();
  for (const [name, amountNaira] of [
    ['a', 1500],
    ['b', 2250.5],
  ] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), `till-e2e-two-${name}-`));
    // One at a time: each may have to build the renderer bundle.
    const web = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      ['--port', '0', '--data-dir', dataDir, '--sandbox-url', sandbox.first.control_url],
      { cwd: root, timeoutMs: 120_000 },
    );
    // Separate contexts: two counters, two browsers' worth of storage.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${name}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${name}: ${message.text()}`);
    });
    const till: Till = { name, amountNaira, dataDir, web, page };
    tills.push(till);
    const status = await callTill(web.first.url, 'getStatus', {});
    if (!status.ok) throw new Error(`till ${name}: getStatus: ${status.error.message}`);
    tillIds.set(till, (status.value as { tillId: string }).tillId);
    await page.goto(web.first.url);
    await page
      .getByTestId('environment-badge')
      .filter({ hasText: /^SANDBOX$/ })
      .waitFor({ timeout: SETTLE_MS });
  }
});

afterAll(async () => {
  await browser?.close();
  for (const till of tills) {
    await till.web?.stop();
    rmSync(till.dataDir, { recursive: true, force: true });
  }
  await sandbox?.stop();
});

describe('two tills training on one standalone sandbox', () => {
  it('both use the shared sandbox, and each has its own till id', async () => {
    for (const till of tills) {
      expect(till.web.first.control_url).toBe(sandbox.first.control_url);
      // Every screen shows it (CONTRACTS.md).
      await expectText(till.page.getByTestId('till-id'), tillIds.get(till) ?? '');
    }
    const [a, b] = tills.map(prefixOfTill);
    expect(a, 'two fresh installs must not share a till id').not.toBe(b);
  });

  it('each till sells and gets paid', async () => {
    for (const till of tills) await sellAndGetPaid(till);
    // Both sales are on the one sandbox, each under its own till's reference prefix.
    const ledger = (await (await fetch(`${sandbox.first.control_url}/ledger`)).json()) as {
      transactions: { status: string; external_reference: string; amount: number }[];
    };
    for (const till of tills) {
      const paid = ledger.transactions.find(
        (tx) => tx.status === 'success' && tx.amount === till.amountNaira,
      );
      expect(paid?.external_reference).toMatch(new RegExp(`^${prefixOfTill(till)}-`));
    }
  });

  it("each report shows its own sale, the other's as another till's, and the shop total", async () => {
    const totalKobo = tills.reduce((sum, till) => sum + kobo(till.amountNaira), 0);
    for (const till of tills) {
      const other = tills.find((candidate) => candidate !== till);
      if (!other) throw new Error('two tills expected');
      const { page } = till;
      await page.getByRole('link', { name: 'Report', exact: true }).click();
      // The other till's sale reaches this till through the merchant-wide listing.
      await page.getByRole('button', { name: 'Sync', exact: true }).click();
      await expectText(page.getByTestId('report-success-count'), '2');
      await expectText(page.getByTestId('report-success-amount'), formatNaira(totalKobo));
      await expectText(page.getByTestId('report-this-till-count'), '1');
      await expectText(
        page.getByTestId('report-this-till-amount'),
        formatNaira(kobo(till.amountNaira)),
      );
      await expectText(page.getByTestId('report-other-tills-count'), '1');
      await expectText(
        page.getByTestId('report-other-tills-amount'),
        formatNaira(kobo(other.amountNaira)),
      );
      await expectText(page.getByTestId('report-shop-total-count'), '2');
      await expectText(page.getByTestId('report-shop-total-amount'), formatNaira(totalKobo));
      // Labelled as such, naming the other till by its prefix.
      expect(await page.getByText(/other tills of this shop/i).count()).toBeGreaterThan(0);
      expect(await textOf(page.locator('.z-report'))).toContain(prefixOfTill(other));
      // No exception tells staff to hold goods (or anything else) over the other till's sale.
      expect(await page.getByText(/do not hand out goods/i).count()).toBe(0);
      await page.screenshot({
        path: join(artifacts, `two-tills-${till.name}-report.png`),
        fullPage: true,
      });

      // The same in the report the screen is made from.
      const view = await report(till);
      expect(view.shop.tillPrefix).toBe(prefixOfTill(till));
      expect(view.shop.thisTill).toEqual({ count: 1, amountKobo: kobo(till.amountNaira) });
      expect(view.shop.otherTills).toEqual([
        { tillPrefix: prefixOfTill(other), count: 1, amountKobo: kobo(other.amountNaira) },
      ]);
      expect(view.shop.shopTotal).toEqual({ count: 2, amountKobo: totalKobo });
      expect(view.shop.notOurs).toEqual({ count: 0, amountKobo: 0 });
      expect(view.exceptions.filter((e) => e.kind === 'unmatched_inflow')).toEqual([]);
      expect(view.exceptions.filter((e) => /goods/i.test(e.action))).toEqual([]);
    }
  });

  it('shows no page or console errors', () => {
    expect(problems).toEqual([]);
  });
});
