/**
 * A sale paid while the till's disk is full, end to end: real Chromium, the browser shell with
 * --dev-clock, the embedded sandbox provider over HTTP, and the till's real SQLite file limited
 * with PRAGMA max_page_count through the shell's dev endpoint (a true full disk cannot be made
 * safely on a shared machine; the limit makes SQLite answer SQLITE_FULL just as one does).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import {
  advanceTillClock,
  callTill,
  sandboxTransfer,
  tokenOf,
  type WebShellLine,
} from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
const SETTLE_MS = 10_000;

let dataDir: string;
let web: JsonChild<WebShellLine>;
let browser: Browser;
let till: Page;
const problems: string[] = [];

async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

async function expectText(locator: Locator, pattern: RegExp, timeout = SETTLE_MS): Promise<void> {
  await expect.poll(() => textOf(locator), { timeout, interval: 100 }).toMatch(pattern);
}

/** --dev-clock: limits the store's growth (a full disk) or lifts the limit (space returns). */
async function limitStore(limited: boolean): Promise<{ full: boolean }> {
  const response = await fetch(new URL('/api/dev/store-limit', web.first.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${tokenOf(web.first.url)}`,
    },
    body: JSON.stringify({ limited }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { value: { full: boolean } }).value;
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-disk-'));
  web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir, '--dev-clock'],
    { cwd: root, timeoutMs: 120_000 },
  );
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  till = await context.newPage();
  till.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await till.goto(web.first.url);
  await till
    .getByTestId('environment-badge')
    .filter({ hasText: /^SANDBOX$/ })
    .waitFor({ timeout: SETTLE_MS });
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a sale paid while the disk is full', () => {
  it('shows the banner, refuses new sales, shows paid only once the payment is stored', async () => {
    const amountField = till.getByRole('textbox', { name: /Amount/ });
    await amountField.waitFor();
    await amountField.fill('1500');
    await amountField.press('Enter');
    const accountNumber = till.getByTestId('account-number');
    await accountNumber.waitFor({ timeout: SETTLE_MS });
    const digits = (await textOf(accountNumber)).replace(/\s+/g, '');
    const status = till.getByTestId('sale-status');
    await expectText(status, /Waiting for transfer/);
    await expect(till.getByTestId('disk-full-banner').count()).resolves.toBe(0);

    // The disk fills: the banner says so at once.
    expect(await limitStore(true)).toMatchObject({ full: true });
    const banner = till.getByTestId('disk-full-banner');
    await expectText(banner, /The till's disk is full: free some space/);

    // The customer pays. The callback arrives and the checks run, but the payment cannot be
    // stored: the sale is not shown paid.
    await sandboxTransfer(web.first.control_url, digits, 1500);
    await new Promise((done) => setTimeout(done, 1_500));
    await advanceTillClock(web.first.url, 20_000);
    await new Promise((done) => setTimeout(done, 500));
    expect(await textOf(status)).toMatch(/Waiting for transfer/);
    expect(await textOf(status)).not.toMatch(/Paid/);
    for (const [name, width, height] of [
      ['pc', 1366, 768],
      ['touch', 1024, 600],
      ['phone', 390, 844],
    ] as const) {
      await till.setViewportSize({ width, height });
      await till.screenshot({ path: join(artifacts, `disk-full-sale-open-${name}.png`) });
    }
    await till.setViewportSize({ width: 1366, height: 768 });

    // A new sale is refused with the same words.
    const refused = await callTill(web.first.url, 'createSale', { amount: '200' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'DISK_FULL' } });
    if (!refused.ok) expect(refused.error.message).toContain("The till's disk is full");

    // Space returns: the banner goes, the next check stores the payment, then it shows paid.
    expect(await limitStore(false)).toMatchObject({ full: false });
    await expect.poll(() => banner.count(), { timeout: SETTLE_MS }).toBe(0);
    await advanceTillClock(web.first.url, 20_000);
    await expectText(status, /Paid/);
    await till.screenshot({ path: join(artifacts, 'disk-full-recovered-pc.png') });

    const activity = await callTill(web.first.url, 'getActivity', {});
    expect(activity.ok).toBe(true);
    const listed = activity.ok ? (activity.value as { alerts: { kind: string }[] }).alerts : [];
    const kinds = listed.map((alert) => alert.kind);
    expect(kinds.filter((kind) => kind === 'disk_full')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'disk_recovered')).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
