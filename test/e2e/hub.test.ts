/**
 * The shop hub end to end: real Chromium, one hub (`npm run web -- --lan`, LAN listener on
 * 127.0.0.1, the embedded sandbox) and two counters paired to it, each in a browser context of
 * its own (two devices). Counter 1 pairs with the start line's pairing_url, counter 2 with a link
 * the owner makes on the Counters screen. Both sell at once and are paid; the hub's report tells
 * them apart and adds them up. A used link pairs nothing, a revoked counter is refused, the
 * customer display's token calls nothing, and a counter cannot open Settings: each checked on
 * the page and, in main, over the wire.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames } from '#shared/bridge/contract';
import type { HubView, PairedCounterView } from '#shared/hub';
import { formatNaira } from '#shared/money';
import { referencePrefix } from '#shared/till-id';
import type { ZReportView } from '#shared/views';
import type { JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { hubRequest } from '#support/hub-client';
import {
  callOnLan,
  counterContext,
  counterTokenOf,
  pairCounterPage,
  pairingLinkParts,
  refusalCode,
  startHubShell,
  type HubShellLine,
} from '#support/hub-shell';
import { expectText, startSale, textOf, watchPage } from '#support/till-page';
import { callTill, sandboxTransfer } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
/** How long a page may take to show what the hub learnt (a shared 2-core machine). */
const SETTLE_MS = 20_000;
/**
 * What Chromium logs by itself for answers these tests provoke on purpose: a refused token
 * (401), a refused channel (403), a used pairing link (410).
 */
const EXPECTED_CONSOLE = [
  /Failed to load resource: the server responded with a status of (401|403|410)/,
];

interface Counter {
  readonly name: string;
  readonly amountNaira: number;
  readonly context: BrowserContext;
  readonly page: Page;
  token: string;
  accountNumber: string;
}

let dataDir: string;
let hub: JsonChild<HubShellLine>;
let browser: Browser;
let ownerContext: BrowserContext;
let owner: Page;
const counters: Counter[] = [];
const problems: string[] = [];

function kobo(naira: number): number {
  return Math.round(naira * 100);
}

function counterNamed(name: string): Counter {
  const found = counters.find((counter) => counter.name === name);
  if (!found) throw new Error(`no counter ${name} (an earlier test failed)`);
  return found;
}

async function shot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, file), fullPage: true });
}

/** The hub's counters as main has them (the owner's token). */
async function hubView(): Promise<HubView> {
  const result = await callTill(hub.first.url, 'getHub', {});
  if (!result.ok) throw new Error(`getHub: ${result.error.message}`);
  return result.value as HubView;
}

async function pairedCounter(name: string): Promise<PairedCounterView> {
  const found = (await hubView()).counters.find((counter) => counter.name === name);
  if (!found) throw new Error(`the hub lists no counter ${name}`);
  return found;
}

async function newCounter(name: string, amountNaira: number): Promise<Counter> {
  const context = await counterContext(browser);
  const page = await context.newPage();
  watchPage(page, name, problems, EXPECTED_CONSOLE);
  const counter: Counter = { name, amountNaira, context, page, token: '', accountNumber: '' };
  counters.push(counter);
  return counter;
}

/** Same-document navigation to another screen, as a click on a link makes. */
async function goTo(page: Page, hash: string): Promise<void> {
  await page.goto(`${page.url().replace(/#.*$/, '')}${hash}`);
}

async function navNames(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents();
}

/** A counter's page shows it is paired as `name`, with the till id main gave it. */
async function expectPairedPage(counter: Counter): Promise<void> {
  const paired = await pairedCounter(counter.name);
  await expectText(counter.page.getByTestId('session-who'), `Counter: ${counter.name}`, SETTLE_MS);
  await expectText(counter.page.getByTestId('till-id'), paired.tillId, SETTLE_MS);
  expect(paired.tillId, 'a counter gets a till id of its own').not.toBe(await hubTillId());
  // The code is used up: it left the address bar.
  expect(counter.page.url()).not.toContain('code=');
}

async function hubTillId(): Promise<string> {
  const status = await callTill(hub.first.url, 'getStatus', {});
  if (!status.ok) throw new Error(`getStatus: ${status.error.message}`);
  return (status.value as { tillId: string }).tillId;
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-hub-'));
  hub = await startHubShell({ root, dataDir });
  expect(new URL(hub.first.lan_url).hostname).toBe('127.0.0.1');
  browser = await launchChromium();
  ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  owner = await ownerContext.newPage();
  watchPage(owner, 'owner', problems, EXPECTED_CONSOLE);
  await owner.goto(hub.first.url);
  await owner
    .getByTestId('environment-badge')
    .filter({ hasText: /^SANDBOX$/ })
    .waitFor({ timeout: SETTLE_MS });
});

afterAll(async () => {
  await browser?.close();
  await hub?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a hub and two paired counters in Chromium', () => {
  it("counter 1 pairs with the start line's pairing_url", async () => {
    const counter = await newCounter('Counter 1', 1500);
    counter.token = await pairCounterPage(counter.page, hub.first.pairing_url, SETTLE_MS);
    await expectPairedPage(counter);
    // A counter is offered selling and its own sales only.
    expect(await navNames(counter.page)).toEqual(['Sale', 'Activity']);
    await shot(counter.page, 'hub-counter-paired.png');
  });

  it("counter 2 pairs with a link the owner makes on the hub's Counters screen", async () => {
    await owner.getByRole('link', { name: 'Counters', exact: true }).click();
    await owner.getByLabel('Counter name').fill('Back counter');
    await owner.getByRole('button', { name: 'Add counter' }).click();
    const shown = owner.getByTestId('pairing-url');
    await shown.waitFor({ timeout: SETTLE_MS });
    const link = await textOf(shown);
    // The same listener and certificate as the start line's link; another one-time code.
    expect(new URL(link).origin).toBe(new URL(hub.first.lan_url).origin);
    expect(pairingLinkParts(link).fingerprint).toBe(
      pairingLinkParts(hub.first.pairing_url).fingerprint,
    );
    expect(pairingLinkParts(link).code).not.toBe(pairingLinkParts(hub.first.pairing_url).code);
    await shot(owner, 'hub-add-counter.png');

    const counter = await newCounter('Back counter', 2250.5);
    counter.token = await pairCounterPage(counter.page, link, SETTLE_MS);
    await expectPairedPage(counter);
    expect(counter.token).not.toBe(counterNamed('Counter 1').token);
    // The owner's screen sees the link used, and both counters connected.
    await owner.getByText('Back counter is paired.').waitFor({ timeout: SETTLE_MS });
    for (const name of ['Counter 1', 'Back counter']) {
      await expectText(
        owner.getByRole('listitem', { name, exact: true }).getByTestId('counter-last-contact'),
        'connected now',
        SETTLE_MS,
      );
    }
    const tillIds = (await hubView()).counters.map((paired) => paired.tillId);
    expect(new Set(tillIds).size).toBe(2);
  });

  it('both counters sell at once and both are paid through the sandbox', async () => {
    const [first, second] = counters;
    if (!first || !second) throw new Error('two paired counters expected');
    // Both amounts typed and Enter pressed together: two sales in flight on the hub at once.
    const accounts = await Promise.all(
      counters.map((counter) => startSale(counter.page, counter.amountNaira, SETTLE_MS)),
    );
    counters.forEach((counter, index) => {
      counter.accountNumber = accounts[index] ?? '';
    });
    expect(first.accountNumber).not.toBe(second.accountNumber);
    for (const counter of counters) {
      expect(await textOf(counter.page.getByTestId('amount-due'))).toBe(
        formatNaira(kobo(counter.amountNaira)),
      );
      await expectText(counter.page.getByTestId('sale-status'), /Waiting/, SETTLE_MS);
    }
    // Each sale is the counter's: its till id's prefix in the reference the provider holds.
    const accountsIssued = (await (await fetch(`${hub.first.control_url}/accounts`)).json()) as {
      accounts: { account_number: string; external_reference: string }[];
    };
    for (const counter of counters) {
      const issued = accountsIssued.accounts.find(
        (account) => account.account_number === counter.accountNumber,
      );
      const reference = issued?.external_reference ?? '';
      const prefix = referencePrefix((await pairedCounter(counter.name)).tillId);
      expect(reference, `${counter.name}'s account reference`).toMatch(
        new RegExp(`^${prefix}-`, 'i'),
      );
    }

    await Promise.all(
      counters.map((counter) =>
        sandboxTransfer(hub.first.control_url, counter.accountNumber, counter.amountNaira),
      ),
    );
    await Promise.all(
      counters.map((counter) =>
        expectText(counter.page.getByTestId('sale-status'), /Paid/, SETTLE_MS),
      ),
    );
    for (const counter of counters) {
      await shot(counter.page, `hub-${counter.name.replace(/\W+/g, '-').toLowerCase()}-paid.png`);
    }
  });

  it("the hub's report is right per counter and in total", async () => {
    const totalKobo = counters.reduce((sum, counter) => sum + kobo(counter.amountNaira), 0);
    await owner.getByRole('link', { name: 'Report', exact: true }).click();
    await expectText(owner.getByTestId('report-success-count'), '2', SETTLE_MS);
    await expectText(owner.getByTestId('report-success-amount'), formatNaira(totalKobo), SETTLE_MS);
    // The counters' money is theirs, not the hub's own till's.
    await expectText(owner.getByTestId('report-this-till-count'), '0', SETTLE_MS);
    await expectText(owner.getByTestId('report-other-tills-count'), '2', SETTLE_MS);
    await expectText(owner.getByTestId('report-shop-total-count'), '2', SETTLE_MS);
    await expectText(
      owner.getByTestId('report-shop-total-amount'),
      formatNaira(totalKobo),
      SETTLE_MS,
    );
    const shopTable = owner.getByTestId('report-shop');
    for (const counter of counters) {
      // Each counter has its own line, by the name the owner gave it.
      const line = shopTable.getByRole('row').filter({ hasText: new RegExp(`^${counter.name} ·`) });
      expect(await line.count(), `${counter.name}'s line`).toBe(1);
      const cells = (await line.getByRole('cell').allTextContents()).map((cell) => cell.trim());
      expect(cells).toEqual(['1', formatNaira(kobo(counter.amountNaira))]);
    }
    await shot(owner, 'hub-report.png');

    // The same in the report the screen is made from.
    const result = await callTill(hub.first.url, 'getZReport', {});
    if (!result.ok) throw new Error(`getZReport: ${result.error.message}`);
    const report = result.value as ZReportView;
    expect(report.success).toEqual({ count: 2, amountKobo: totalKobo });
    expect(report.shop.thisTill).toEqual({ count: 0, amountKobo: 0 });
    expect(report.shop.shopTotal).toEqual({ count: 2, amountKobo: totalKobo });
    const expectedLines = await Promise.all(
      [...counters]
        .sort((a, b) => b.amountNaira - a.amountNaira)
        .map(async (counter) => ({
          tillPrefix: referencePrefix((await pairedCounter(counter.name)).tillId),
          counterName: counter.name,
          count: 1,
          amountKobo: kobo(counter.amountNaira),
        })),
    );
    expect(report.shop.otherTills).toEqual(expectedLines);
  });

  it("the display token can call nothing, and its page shows the hub's sale", async () => {
    const displayToken = /[#&]display=([A-Za-z0-9_-]+)/.exec(hub.first.display_url)?.[1];
    if (!displayToken) throw new Error(`no display token in ${hub.first.display_url}`);

    // Every channel of the contract, on the loopback listener and on the LAN listener.
    const answers: string[] = [];
    for (const channel of channelNames) {
      const loopback = await fetch(new URL(`/api/call/${channel}`, hub.first.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${displayToken}` },
        body: '{}',
      });
      const body = (await loopback.json()) as { ok: boolean; error?: { code: string } };
      answers.push(`${channel} loopback ${loopback.status} ${body.ok ? 'ok' : body.error?.code}`);
      const lan = await callOnLan(hub.first, displayToken, channel);
      answers.push(`${channel} lan ${lan.status} ${refusalCode(lan) ?? 'ok'}`);
    }
    expect(answers.length).toBe(channelNames.length * 2);
    expect(answers.filter((line) => !/ (401|403) [A-Z_]+$/.test(line))).toEqual([]);
    expect(
      answers
        .filter((line) => line.includes(' loopback '))
        .every((line) => line.endsWith(' 403 DISPLAY_ONLY')),
    ).toBe(true);

    // Its page: the customer display only, from its event stream, with no channel call at all.
    const display = await ownerContext.newPage();
    watchPage(display, 'customer display', problems, EXPECTED_CONSOLE);
    const calls: string[] = [];
    display.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/call/')) calls.push(request.url());
    });
    await display.goto(hub.first.display_url);
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });

    await owner.getByRole('link', { name: 'Sale', exact: true }).click();
    const accountNumber = await startSale(owner, 1000, SETTLE_MS);
    await expectText(display.getByTestId('amount-due'), '₦1,000.00', SETTLE_MS);
    await expectText(display.getByTestId('account-number'), /\d/, SETTLE_MS);
    expect((await textOf(display.getByTestId('account-number'))).replace(/\s+/g, '')).toBe(
      accountNumber,
    );
    await shot(display, 'hub-customer-display.png');
    await sandboxTransfer(hub.first.control_url, accountNumber, 1000);
    await display.getByRole('heading', { name: 'Thank you' }).waitFor({ timeout: SETTLE_MS });
    await expectText(owner.getByTestId('sale-status'), /Paid/, SETTLE_MS);
    expect(calls).toEqual([]);
    await display.close();
  });

  it('a used pairing link pairs nothing', async () => {
    const context = await counterContext(browser);
    try {
      const page = await context.newPage();
      watchPage(page, 'third device', problems, EXPECTED_CONSOLE);
      await page.goto(hub.first.pairing_url);
      const refusal = page.getByTestId('pairing-failed');
      await refusal.waitFor({ timeout: SETTLE_MS });
      // Main's refusal, in main's words, checked again over the wire below.
      const shown = await textOf(refusal);
      expect(shown).toMatch(/used already/);
      await shot(page, 'hub-used-link.png');
      expect(await counterTokenOf(page)).toBeNull();
      expect(await page.evaluate('window.sessionStorage.length')).toBe(0);
      expect(await page.getByRole('textbox', { name: /Amount/ }).count()).toBe(0);

      const again = await hubRequest(new URL('/api/pair', hub.first.lan_url).href, {
        fingerprint: pairingLinkParts(hub.first.pairing_url).fingerprint,
        body: { code: pairingLinkParts(hub.first.pairing_url).code },
      });
      expect(again.status).toBe(410);
      expect(refusalCode(again)).toBe('PAIRING_USED');
      const message = (again.json as { error: { message: string } }).error.message;
      expect(shown).toContain(message);
      // Still the two counters, no third.
      expect((await hubView()).counters.map((paired) => paired.name).sort()).toEqual([
        'Back counter',
        'Counter 1',
      ]);
    } finally {
      await context.close();
    }
  });

  it('a counter cannot open Settings', async () => {
    const counter = counterNamed('Counter 1');
    await goTo(counter.page, '#/settings');
    await counter.page
      .getByRole('heading', { name: 'This screen is at the hub' })
      .waitFor({ timeout: SETTLE_MS });
    expect(await textOf(counter.page.getByTestId('at-the-hub'))).toContain('Settings');
    expect(await counter.page.getByRole('heading', { name: 'Settings', level: 2 }).count()).toBe(0);
    expect(await counter.page.getByRole('button', { name: /Save/ }).count()).toBe(0);
    await shot(counter.page, 'hub-counter-settings.png');

    // And main refuses it, whatever the page does.
    const answer = await callOnLan(hub.first, counter.token, 'getSettings');
    expect([answer.status, refusalCode(answer)]).toEqual([403, 'FORBIDDEN']);
    // Its token still sells: the refusal is of the channel, not of the counter.
    const status = await callOnLan(hub.first, counter.token, 'getStatus');
    expect(status.status).toBe(200);
    await goTo(counter.page, '#/sale');
  });

  it('a revoked counter is refused at once', async () => {
    const counter = counterNamed('Back counter');
    await owner.getByRole('link', { name: 'Counters', exact: true }).click();
    const row = owner.getByRole('listitem', { name: 'Back counter', exact: true });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.getByText(/^Revoked /).waitFor({ timeout: SETTLE_MS });

    // Its page says so (its event stream ended, its next try was refused) and forgets the token.
    await counter.page.getByTestId('counter-removed').waitFor({ timeout: SETTLE_MS });
    expect(await textOf(counter.page.getByTestId('counter-removed'))).toMatch(
      /removed by the owner/,
    );
    await expect.poll(() => counterTokenOf(counter.page), { timeout: SETTLE_MS }).toBeNull();
    await shot(counter.page, 'hub-counter-revoked.png');

    for (const channel of ['getStatus', 'createSale']) {
      const answer = await callOnLan(hub.first, counter.token, channel, { amount: '100' });
      expect([channel, answer.status, refusalCode(answer)]).toEqual([
        channel,
        401,
        'COUNTER_REVOKED',
      ]);
    }
    // The other counter goes on.
    const other = await callOnLan(hub.first, counterNamed('Counter 1').token, 'getStatus');
    expect(other.status).toBe(200);
    expect((await pairedCounter('Back counter')).revokedAt).not.toBeNull();
  });

  it('showed no unexpected page or console errors', () => {
    expect(problems).toEqual([]);
  });
});
