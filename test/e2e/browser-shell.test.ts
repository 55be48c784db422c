import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '#shared/csp';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');

let web: JsonChild<{ url: string }>;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-'));
  web = await startJsonChild<{ url: string }>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir],
    {
      cwd: root,
      timeoutMs: 120_000,
    },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

describe('browser shell in Chromium', () => {
  it('prints its URL as the first line of output', () => {
    expect(web.first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
  });

  it('shows the app shell with data from the core through the HTTP bridge', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(web.first.url);
    await expect.poll(() => page.getByTestId('environment-badge').textContent()).toBe('SANDBOX');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Transfer Till');
    expect(await page.getByTestId('app-version').textContent()).toContain('browser shell');
    // The token left the address bar once read.
    expect(page.url()).not.toContain('token=');
    await page.screenshot({ path: join(artifacts, 'app-shell.png') });
    expect(errors).toEqual([]);
  });

  it('builds the renderer with the strict CSP in index.html', async () => {
    expect(readFileSync(join(root, 'out', 'renderer', 'index.html'), 'utf8')).toContain(
      'http-equiv="Content-Security-Policy"',
    );
    const page = await browser.newPage();
    await page.goto(web.first.url);
    const meta = page.locator('meta[http-equiv="Content-Security-Policy"]');
    expect(await meta.getAttribute('content')).toBe(RENDERER_CSP);
  });

  it('refuses the bridge to a page without the token', async () => {
    const page = await browser.newPage();
    await page.goto(web.first.url.replace(/#.*$/, ''));
    expect(await page.getByRole('alert').textContent()).toContain('npm run web');
  });
});
