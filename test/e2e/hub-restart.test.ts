/**
 * The fault test of the shop hub: the hub crashes (SIGKILL) while two paired counters hold open
 * sales, and the customer of one of them pays during the gap. Real Chromium, a standalone
 * `npm run sandbox` (so money can land while the hub is down), the hub on fixed ports (chosen
 * free beforehand, so that the counters' addresses work after the restart) and the same data
 * directory. Each counter must say it lost the hub within 2 s; after the restart the paid sale
 * shows paid with no button and no reload, the other stays open until it is paid, and the hub's
 * report counts each payment once. Nothing here runs a recovery step (a reload, a check, a sync)
 * before the check it could hide.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairingLinkView } from '#shared/hub';
import { formatNaira } from '#shared/money';
import type { ZReportView } from '#shared/views';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { freePort } from '#support/free-port';
import {
  counterContext,
  pairCounterPage,
  pairingLinkParts,
  startHubShell,
  type HubShellLine,
} from '#support/hub-shell';
import { expectText, startSale, textOf, watchPage } from '#support/till-page';
import { callTill, sandboxTransfer, type SandboxLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
/** How long a page may take to show what the hub learnt (reconnecting included: ≤ 8 s waits). */
const SETTLE_MS = 30_000;
/** The bound: a counter that loses the hub shows it within this. */
const LOST_WITHIN_MS = 2_000;
/**
 * What Chromium logs by itself when the hub crashes (the open event stream is cut mid-chunk) and
 * while it is down (reconnect tries are refused): expected here, not problems.
 */
const EXPECTED_CONSOLE = [
  /Failed to load resource: net::ERR_CONNECTION_REFUSED/,
  /Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING/,
];

interface Counter {
  readonly name: string;
  readonly amountNaira: number;
  readonly page: Page;
  accountNumber: string;
}

let sandbox: JsonChild<SandboxLine>;
let hub: JsonChild<HubShellLine>;
let dataDir: string;
let port: number;
let lanPort: number;
let browser: Browser;
const counters: Counter[] = [];
const problems: string[] = [];

function kobo(naira: number): number {
  return Math.round(naira * 100);
}

function startHub(): Promise<JsonChild<HubShellLine>> {
  return startHubShell({
    root,
    dataDir,
    port,
    lanPort,
    sandboxUrl: sandbox.first.control_url,
  });
}

function counterAt(index: number): Counter {
  const counter = counters[index];
  if (!counter) throw new Error(`no counter ${index + 1} (an earlier step failed)`);
  return counter;
}

async function shot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, file), fullPage: true });
}

/** Every transfer the sandbox recorded as a success, by account number. */
async function sandboxSuccesses(): Promise<readonly string[]> {
  const ledger = (await (await fetch(`${sandbox.first.control_url}/ledger`)).json()) as {
    transactions: { status: string; account_number: string }[];
  };
  return ledger.transactions.filter((tx) => tx.status === 'success').map((tx) => tx.account_number);
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  sandbox = await startJsonChild<SandboxLine>('src/main/sandbox/cli.ts', ['--port', '0'], {
    cwd: root,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-hub-restart-'));
  port = await freePort();
  lanPort = await freePort();
  hub = await startHub();
  expect(hub.first.control_url).toBe(sandbox.first.control_url);
  expect(hub.first.lan_url).toBe(`https://127.0.0.1:${lanPort}/`);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await hub?.stop();
  await sandbox?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the hub crashes while counters hold open sales', () => {
  it('two counters pair with the hub', async () => {
    // Counter 1 pairs with the start line's link, counter 2 with one the owner asks for.
    const link = await callTill(hub.first.url, 'createPairingLink', { name: 'Counter 2' });
    if (!link.ok) throw new Error(`createPairingLink: ${link.error.message}`);
    const links = [hub.first.pairing_url, (link.value as PairingLinkView).url];
    for (const [index, amountNaira] of [1500, 2750].entries()) {
      const name = `Counter ${index + 1}`;
      const context = await counterContext(browser);
      const page = await context.newPage();
      watchPage(page, name, problems, EXPECTED_CONSOLE);
      await pairCounterPage(page, links[index] ?? '', SETTLE_MS);
      await expectText(page.getByTestId('session-who'), `Counter: ${name}`, SETTLE_MS);
      counters.push({ name, amountNaira, page, accountNumber: '' });
    }
  });

  it('each counter holds an open sale', async () => {
    expect(counters).toHaveLength(2);
    for (const counter of counters) {
      counter.accountNumber = await startSale(counter.page, counter.amountNaira, SETTLE_MS);
      await expectText(counter.page.getByTestId('sale-status'), /Waiting/, SETTLE_MS);
      // A mark on the document: a reload would lose it.
      await counter.page.evaluate("document.documentElement.dataset.e2eMark = 'same-page'");
    }
  });

  it('each counter shows it lost the hub within 2 s of the crash', async () => {
    // A crash, not a clean stop: no stream is ended politely, nothing is flushed.
    await hub.stop('SIGKILL');
    await Promise.all(
      counters.map((counter) =>
        expectText(
          counter.page.getByTestId('connection-banner'),
          /Lost the connection/,
          LOST_WITHIN_MS,
        ),
      ),
    );
    for (const counter of counters) {
      expect(await counter.page.getByTestId('connection-banner').getAttribute('role')).toBe(
        'alert',
      );
    }
    await shot(counterAt(0).page, 'hub-restart-lost.png');
  });

  it("counter 1's customer pays during the gap; its page cannot know yet", async () => {
    const first = counterAt(0);
    await sandboxTransfer(sandbox.first.control_url, first.accountNumber, first.amountNaira);
    expect(await sandboxSuccesses()).toEqual([first.accountNumber]);
    expect(await textOf(first.page.getByTestId('sale-status'))).toMatch(/Waiting/);
  });

  it('after the restart, counter 1 shows its sale paid without a button or a reload', async () => {
    const before = hub.first;
    hub = await startHub();
    // The same addresses and the same certificate: the counters need nothing new.
    expect(hub.first.url).toBe(before.url);
    expect(hub.first.lan_url).toBe(before.lan_url);
    expect(pairingLinkParts(hub.first.pairing_url).fingerprint).toBe(
      pairingLinkParts(before.pairing_url).fingerprint,
    );

    const first = counterAt(0);
    await expectText(first.page.getByTestId('sale-status'), /Paid/, SETTLE_MS);
    expect(await textOf(first.page.getByTestId('amount-due'))).toBe(
      formatNaira(kobo(first.amountNaira)),
    );
    expect(await first.page.evaluate('document.documentElement.dataset.e2eMark')).toBe('same-page');
    await shot(first.page, 'hub-restart-paid.png');
  });

  it("counter 2's sale is still open, and is paid after, shown paid", async () => {
    const second = counterAt(1);
    // Back in touch with the hub (the banner is gone or says so), and still waiting.
    await expect
      .poll(
        async () => {
          const banner = second.page.getByTestId('connection-banner');
          return (await banner.count()) === 0 || /again/.test(await textOf(banner));
        },
        { timeout: SETTLE_MS },
      )
      .toBe(true);
    expect(await textOf(second.page.getByTestId('sale-status'))).toMatch(/Waiting/);

    await sandboxTransfer(sandbox.first.control_url, second.accountNumber, second.amountNaira);
    await expectText(second.page.getByTestId('sale-status'), /Paid/, SETTLE_MS);
    expect(await second.page.evaluate('document.documentElement.dataset.e2eMark')).toBe(
      'same-page',
    );
  });

  it("the hub's report counts both payments once", async () => {
    const totalKobo = counters.reduce((sum, counter) => sum + kobo(counter.amountNaira), 0);
    expect([...(await sandboxSuccesses())].sort()).toEqual(
      counters.map((counter) => counter.accountNumber).sort(),
    );
    const result = await callTill(hub.first.url, 'getZReport', {});
    if (!result.ok) throw new Error(`getZReport: ${result.error.message}`);
    const report = result.value as ZReportView;
    expect(report.success).toEqual({ count: 2, amountKobo: totalKobo });
    expect(report.shop.shopTotal).toEqual({ count: 2, amountKobo: totalKobo });
    expect(
      [...report.shop.otherTills]
        .map((till) => [till.counterName, till.count, till.amountKobo])
        .sort(),
    ).toEqual(counters.map((counter) => [counter.name, 1, kobo(counter.amountNaira)]).sort());
    expect(report.byTill.reduce((sum, row) => sum + row.count, 0)).toBe(2);
  });

  it('showed no unexpected page or console errors', () => {
    expect(problems).toEqual([]);
  });
});
