/**
 * The owner's standing-account limit on the Shop page, in real Chromium on the browser shell
 * (`npm run web`, its own data folder): typed in Naira, saved, and still there in a new window
 * (main kept it in kobo). Then a ₦60,000 transfer into a static-flex standing account through the
 * embedded sandbox raises the alert and shows on the report screen as a case to resolve. Shoots
 * the section and the report at each screen class into test-results/e2e for a person to look at.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { textOf, watchPage } from '#support/till-page';
import { callTill, sandboxTransfer, type WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
const CLASSES = [
  { name: 'pc', width: 1366, height: 768 },
  { name: 'touch', width: 1024, height: 600 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const LABEL = 'Flag a payment into a standing account above (₦)';

let web: JsonChild<WebShellLine>;
let browser: Browser;
let dataDir: string;
const problems: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'till-standing-limit-'));
  web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir],
    { cwd: root, timeoutMs: 120_000 },
  );
  browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function shopPage(width: number, height: number, hash = '#/settings/shop'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  watchPage(page, `${width}x${height}`, problems);
  await page.goto(web.first.url);
  await page.getByTestId('till-id').first().waitFor();
  // Only the fragment changes, as a click on a link would make.
  await page.goto(`${page.url().replace(/#.*$/, '')}${hash}`);
  if (hash === '#/settings/shop') {
    await page.getByRole('region', { name: 'End-of-day report' }).waitFor();
  }
  return page;
}

describe('the standing-account limit, in Chromium', () => {
  it('is typed in Naira, saved, and kept for the next window', async () => {
    const page = await shopPage(1366, 768);
    const section = page.getByRole('region', { name: 'End-of-day report' });
    const input = section.getByLabel(LABEL);
    expect(await input.inputValue()).toBe('');
    await input.fill('abc');
    // The Shop page has one Save, below its sections.
    await page.getByRole('button', { name: 'Save shop settings' }).click();
    await section
      .getByText('Enter an amount in Naira, e.g. 50000 or 2500.50, or leave it blank')
      .waitFor();
    await input.fill('50,000');
    await page.getByRole('button', { name: 'Save shop settings' }).click();
    await page.getByText('Saved.').waitFor({ timeout: 15_000 });
    await page.context().close();

    // A new window: the page reads the settings back from main.
    const again = await shopPage(1366, 768);
    const kept = again.getByRole('region', { name: 'End-of-day report' }).getByLabel(LABEL);
    expect(await kept.inputValue()).toBe('50000');
    await again.context().close();

    // A standing account, a transfer below the limit and one above it.
    const created = await callTill(web.first.url, 'createStandingAccount', { type: 'static-flex' });
    if (!created.ok) throw new Error(created.error.message);
    const { accountNumber } = created.value as { accountNumber: string };
    await sandboxTransfer(web.first.control_url, accountNumber, 800);
    await sandboxTransfer(web.first.control_url, accountNumber, 60_000);
    const report = await shopPage(1366, 768, '#/report');
    const exception = report
      .getByRole('listitem')
      .filter({ hasText: 'Payment above ₦50,000.00 into a standing account' });
    await exception.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      await report.screenshot({ path: join(artifacts, 'standing-limit-failed.png') });
      throw error;
    });
    expect(await textOf(exception)).toContain('₦60,000.00');
    expect(await textOf(exception)).toContain(accountNumber);
    expect(await report.getByText('₦800.00 arrived in standing account').count()).toBe(0);
    await exception.getByRole('button', { name: 'Record what was done' }).waitFor();
    await exception.scrollIntoViewIfNeeded();
    await report.screenshot({ path: join(artifacts, 'standing-limit-report-pc.png') });
    await report.context().close();
    const alerts = await callTill(web.first.url, 'getActivity', {});
    expect(JSON.stringify(alerts)).toContain('standing_above_limit');

    for (const { name, width, height } of CLASSES) {
      const shot = await shopPage(width, height);
      const region = shot.getByRole('region', { name: 'End-of-day report' });
      await region.scrollIntoViewIfNeeded();
      expect(
        await shot.evaluate<number>('document.documentElement.scrollWidth'),
      ).toBeLessThanOrEqual(width);
      await shot.screenshot({ path: join(artifacts, `standing-limit-${name}.png`) });
      await shot.context().close();
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
