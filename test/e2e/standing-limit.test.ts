/**
 * The owner's standing-account limit on the Shop page, in real Chromium on the browser shell
 * (`npm run web`, its own data folder): typed in Naira, saved, and still there in a new window
 * (main kept it in kobo). Shoots the End-of-day report section at each screen class into
 * test-results/e2e for a person to look at.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { watchPage } from '#support/till-page';
import type { WebShellLine } from '#support/web-till';

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

async function shopPage(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  watchPage(page, `${width}x${height}`, problems);
  await page.goto(web.first.url);
  await page.getByTestId('till-id').first().waitFor();
  // Only the fragment changes, as a click on a link would make.
  await page.goto(`${page.url().replace(/#.*$/, '')}#/settings/shop`);
  await page
    .getByRole('region', { name: 'End-of-day report' })
    .waitFor()
    .catch(async (error: unknown) => {
      await page.screenshot({ path: join(artifacts, 'standing-limit-failed.png') });
      throw error;
    });
  return page;
}

describe('the standing-account limit, in Chromium', () => {
  it('is typed in Naira, saved, and kept for the next window', async () => {
    const page = await shopPage(1366, 768);
    const section = page.getByRole('region', { name: 'End-of-day report' });
    const input = section.getByLabel(LABEL);
    expect(await input.inputValue()).toBe('');
    await input.fill('abc');
    await section.getByRole('button', { name: 'Save report settings' }).click();
    await section
      .getByText('Enter an amount in Naira, e.g. 50000 or 2500.50, or leave it blank')
      .waitFor();
    await input.fill('50,000');
    await section.getByRole('button', { name: 'Save report settings' }).click();
    await section.getByText('Saved.').waitFor({ timeout: 15_000 });
    await page.context().close();

    // A new window: the page reads the settings back from main.
    const again = await shopPage(1366, 768);
    const kept = again.getByRole('region', { name: 'End-of-day report' }).getByLabel(LABEL);
    expect(await kept.inputValue()).toBe('50000');
    await again.context().close();

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
