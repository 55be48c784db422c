/**
 * Connection honesty and "never a blank till", end to end: real Chromium, the browser shell
 * (`npm run web -- --sandbox-url`) on a standalone sandbox (`npm run sandbox`), so that money
 * can land while the till is down. The shell is stopped during an open sale, the customer pays,
 * the page says it lost the till within 2 s, the shell restarts on the same port and data
 * directory (same token), and the page shows the sale paid with no reload. A screen fed bad data
 * shows the error boundary, not a blank page. A rotated token refuses the pages opened before.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { sandboxTransfer, type SandboxLine, type WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
/** How long a page may take to show what the till learnt (reconnecting included: ≤ 8 s waits). */
const SETTLE_MS = 20_000;

/** The line `npm run web` prints after a rotation. */
interface RotatedLine {
  readonly url: string;
  readonly display_url: string;
  readonly token_rotated: true;
}
function isRotatedLine(line: unknown): line is RotatedLine {
  return typeof line === 'object' && line !== null && 'token_rotated' in line;
}

let sandbox: JsonChild<SandboxLine>;
let web: JsonChild<WebShellLine>;
let dataDir: string;
let port: string;
let browser: Browser;
let till: Page;
/** Uncaught page errors, and console errors other than the expected ones. */
const problems: string[] = [];
/**
 * What a browser logs by itself while the shell is down or refusing an old token, and what
 * React logs for an error a boundary caught on purpose: expected here, not problems.
 */
const EXPECTED_CONSOLE = [
  /Failed to load resource: net::ERR_CONNECTION_REFUSED/,
  // A request in flight (the event stream, a heartbeat apart) when the shell is stopped.
  /Failed to load resource: net::ERR_CONNECTION_RESET/,
  /Failed to load resource: net::ERR_EMPTY_RESPONSE/,
  /Failed to load resource: the server responded with a status of 401/,
  /Cannot read properties of null/,
  /The above error occurred/,
  /React will try to recreate this component tree/,
];

function watch(page: Page, name: string): void {
  page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (!EXPECTED_CONSOLE.some((pattern) => pattern.test(text))) {
      problems.push(`${name}: console error: ${text}`);
    }
  });
}

async function textOf(locator: Locator): Promise<string> {
  if ((await locator.count()) === 0) return '';
  return ((await locator.first().textContent()) ?? '').trim();
}

async function expectText(locator: Locator, pattern: RegExp, timeout = SETTLE_MS): Promise<void> {
  await expect.poll(() => textOf(locator), { timeout, interval: 100 }).toMatch(pattern);
}

function startShell(portArg: string): Promise<JsonChild<WebShellLine>> {
  return startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', portArg, '--data-dir', dataDir, '--sandbox-url', sandbox.first.control_url],
    { cwd: root, timeoutMs: 120_000 },
  );
}

async function shot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, file), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  sandbox = await startJsonChild<SandboxLine>('src/main/sandbox/cli.ts', ['--port', '0'], {
    cwd: root,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-connection-'));
  web = await startShell('0');
  port = new URL(web.first.url).port;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  till = await context.newPage();
  watch(till, 'till');
  await till.goto(web.first.url);
  await till
    .getByTestId('environment-badge')
    .filter({ hasText: /^SANDBOX$/ })
    .waitFor({ timeout: SETTLE_MS });
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await sandbox?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the till page when the browser shell goes away and comes back', () => {
  it('keeps its token in the data directory, private', () => {
    const file = join(dataDir, 'web-token');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(/#token=(.+)$/.exec(web.first.url)?.[1]);
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('shows the banner within 2 s, and the sale paid in the gap as paid on return, with no reload', async () => {
    // A mark on the document: a reload would lose it.
    await till.evaluate("document.documentElement.dataset.e2eMark = 'same-page'");
    const amount = till.getByRole('textbox', { name: /Amount/ });
    await amount.waitFor({ timeout: SETTLE_MS });
    await amount.fill('1500');
    await amount.press('Enter');
    const accountNumber = till.getByTestId('account-number');
    await accountNumber.waitFor({ timeout: SETTLE_MS });
    const account = (await textOf(accountNumber)).replace(/\s+/g, '');
    await expectText(till.getByTestId('sale-status'), /Waiting/);

    // The shell stops (Ctrl+C): the page must say so within 2 s.
    const firstUrl = web.first.url;
    await web.stop();
    const banner = till.getByTestId('connection-banner');
    await expectText(banner, /Lost the connection to the till service/, 2_000);
    expect(await banner.getAttribute('role')).toBe('alert');
    await shot(till, 'connection-lost.png');

    // The customer pays while the till is down; the page cannot know yet.
    await sandboxTransfer(sandbox.first.control_url, account, 1500);
    expect(await textOf(till.getByTestId('sale-status'))).toMatch(/Waiting/);

    // The shell restarts on the same port and data directory: the same address works.
    web = await startShell(port);
    expect(web.first.url).toBe(firstUrl);
    await expectText(till.getByTestId('sale-status'), /Paid/);
    await expect
      .poll(async () => (await banner.count()) === 0 || /again/.test(await textOf(banner)), {
        timeout: SETTLE_MS,
      })
      .toBe(true);
    expect(await till.evaluate('document.documentElement.dataset.e2eMark')).toBe('same-page');
    await shot(till, 'connection-back-paid.png');
  });

  it('shows the open sale as main has it after a reload', async () => {
    await till.reload();
    await expectText(till.getByTestId('sale-status'), /Paid/);
    expect(await textOf(till.getByTestId('amount-due'))).toBe('₦1,500.00');
  });
});

describe('never a blank till', () => {
  it('a screen that throws on bad data shows the boundary, logs the error, and reloads alone', async () => {
    // A test-only answer from "main": activity whose sales are not a list.
    await till.route('**/api/call/getActivity', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          ok: true,
          value: { sales: null, inflows: [], alerts: [], standingAccounts: [] },
        }),
      }),
    );
    await till.getByRole('link', { name: 'Activity', exact: true }).click();
    const heading = till.getByRole('heading', { name: 'This screen hit a problem' });
    await heading.waitFor({ timeout: SETTLE_MS });
    // Not blank: the header, navigation and the till id are all still there.
    expect(await till.getByTestId('environment-badge').isVisible()).toBe(true);
    expect(await textOf(till.getByTestId('till-id'))).not.toBe('');
    await shot(till, 'connection-screen-error.png');

    // The error reached the main log, through the bridge.
    const log = join(dataDir, 'logs', 'main.log');
    await expect
      .poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : ''), { timeout: SETTLE_MS })
      .toMatch(
        /"screen":"activity".*"msg":"renderer error"|"msg":"renderer error".*"screen":"activity"/,
      );

    await till.unroute('**/api/call/getActivity');
    await till.getByRole('button', { name: 'Reload this screen' }).click();
    await till.getByRole('heading', { name: /Today's sales/ }).waitFor({ timeout: SETTLE_MS });
    expect(await heading.count()).toBe(0);
  });
});

describe('rotating the access token', () => {
  it('refuses pages opened before, tells them why, and this page goes on', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const other = await context.newPage();
    watch(other, 'other');
    await other.goto(web.first.url);
    await other.getByTestId('till-id').waitFor({ timeout: SETTLE_MS });

    await till.getByRole('link', { name: 'Settings', exact: true }).click();
    await till.getByRole('tab', { name: 'Browser access' }).click();
    await till.getByRole('button', { name: 'Rotate access token' }).click();
    const shown = till.getByTestId('shell-url');
    await shown.waitFor({ timeout: SETTLE_MS });
    const printed = await web.waitForLine(isRotatedLine);
    expect(await textOf(shown)).toBe(printed.url);
    expect(printed.url).not.toBe(web.first.url);
    expect(readFileSync(join(dataDir, 'web-token'), 'utf8').trim()).toBe(
      /#token=(.+)$/.exec(printed.url)?.[1],
    );

    await expectText(other.getByTestId('connection-banner'), /access was replaced/);
    await shot(other, 'connection-token-refused.png');

    // The page that rotated carries on with the new token.
    await till.getByRole('link', { name: 'Activity', exact: true }).click();
    await till.getByRole('heading', { name: /Today's sales/ }).waitFor({ timeout: SETTLE_MS });
    await expect
      .poll(async () => textOf(till.getByTestId('connection-banner')), { timeout: SETTLE_MS })
      .not.toMatch(/Lost|replaced/);
    await context.close();
  });
});

describe('the pages', () => {
  it('showed no unexpected page or console errors', () => {
    expect(problems).toEqual([]);
  });
});
