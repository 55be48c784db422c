/**
 * Owner and cashier roles end to end: real Chromium, the browser shell (its own data directory),
 * the embedded sandbox. The owner sets a PIN and the cashier list through the UI; a cashier on
 * another tab signs in and can reach neither Settings nor Balance, through the UI or the bridge;
 * a wrong owner PIN is refused and PIN entry locks after five.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { tokenOf, type WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
const OWNER_PIN = '482913';

let dataDir: string;
let web: JsonChild<WebShellLine>;
let browser: Browser;
let context: BrowserContext;
let owner: Page;
let cashier: Page;
const problems: string[] = [];

function watch(page: Page, name: string): void {
  page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
  page.on('console', (message) => {
    // A refused call answers 403, which Chromium logs as a failed resource: that is the point.
    if (message.type() === 'error' && !/status of 403/.test(message.text())) {
      problems.push(`${name}: console error: ${message.text()}`);
    }
  });
}

async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

async function navNames(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents();
}

async function goTo(page: Page, hash: string): Promise<void> {
  // Only the fragment changes: a same-document navigation, as a click on a link would make.
  await page.goto(`${page.url().replace(/#.*$/, '')}${hash}`);
}

/** The session id main gave each page (it answers every call with it). */
const sessions = new Map<Page, string>();
function followSession(page: Page): void {
  page.on('response', (response) => {
    const id = response.headers()['x-till-session'];
    if (id) sessions.set(page, id);
  });
}

/** A bridge call with the page's own token and session, as any script on the page could make. */
async function callAs(
  page: Page,
  channel: string,
): Promise<{ status: number; code: string | null }> {
  const response = await fetch(new URL(`/api/call/${channel}`, web.first.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${tokenOf(web.first.url)}`,
      'x-till-session': sessions.get(page) ?? '',
    },
    body: '{}',
  });
  const body = (await response.json()) as { ok: boolean; error?: { code: string } };
  return { status: response.status, code: body.ok ? null : (body.error?.code ?? null) };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-roles-'));
  web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir],
    {
      cwd: root,
      timeoutMs: 120_000,
    },
  );
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  owner = await context.newPage();
  watch(owner, 'owner');
  followSession(owner);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await web?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('owner and cashier roles in Chromium', () => {
  it('the owner adds cashiers and sets an owner PIN through Settings', async () => {
    await owner.goto(web.first.url);
    await expect.poll(() => textOf(owner.getByTestId('session-who'))).toBe('Owner (no PIN)');
    await goTo(owner, '#/settings');
    await owner.getByTestId('no-owner-pin-notice').waitFor();

    // Settings has pages: the shop's, then the cashiers' and PINs'.
    await owner.getByRole('tab', { name: 'Shop', exact: true }).click();
    const shop = owner.getByRole('region', { name: 'Shop and till' });
    for (const name of ['Ada', 'Bola']) {
      await shop.getByLabel('New cashier name').fill(name);
      await shop.getByRole('button', { name: 'Add cashier' }).click();
    }
    // The Shop page has one Save, below its sections.
    await owner.getByRole('button', { name: 'Save shop settings' }).click();
    await owner.getByText('Saved.').waitFor();

    await owner.getByRole('tab', { name: 'Cashiers and PINs' }).click();
    const roles = owner.getByRole('region', { name: 'Owner and cashiers' });
    await roles.getByLabel('Owner PIN (4 to 12 digits)').fill(OWNER_PIN);
    await roles.getByLabel('The same PIN again').fill(OWNER_PIN);
    await roles.getByRole('button', { name: 'Set owner PIN' }).click();
    await roles.getByText('Owner PIN set.').waitFor();
    expect(await textOf(owner.getByTestId('session-who'))).toBe('Owner');
    expect(await owner.getByTestId('no-owner-pin-notice').count()).toBe(0);
    await owner.screenshot({ path: join(artifacts, 'roles-owner-settings.png'), fullPage: true });
  });

  it('a cashier signs in by name on another tab and sells; owner screens are not offered', async () => {
    cashier = await context.newPage();
    watch(cashier, 'cashier');
    followSession(cashier);
    await cashier.goto(web.first.url);
    await cashier.getByRole('heading', { name: 'Who is at this till?' }).waitFor();
    expect(await navNames(cashier)).toEqual([]);
    await cashier.screenshot({ path: join(artifacts, 'roles-sign-in.png'), fullPage: true });

    await cashier.getByRole('button', { name: 'Ada', exact: true }).click();
    await cashier.getByRole('textbox', { name: /Amount/ }).waitFor();
    expect(await textOf(cashier.getByTestId('session-who'))).toBe('Cashier: Ada');
    expect(await navNames(cashier)).toEqual(['Sale', 'Activity']);

    await cashier.getByRole('textbox', { name: /Amount/ }).fill('1500');
    await cashier.keyboard.press('Enter');
    await cashier.getByTestId('account-number').waitFor({ timeout: 10_000 });
  });

  it('Settings and Balance are not reachable by the cashier in the UI', async () => {
    for (const [hash, words] of [
      ['#/settings', 'Settings is for the owner'],
      ['#/balance', 'The balance is for the owner'],
    ] as const) {
      await goTo(cashier, hash);
      await cashier.getByRole('heading', { name: 'For the owner' }).waitFor();
      expect(await cashier.getByText(words).count()).toBe(1);
      expect(await cashier.getByRole('heading', { name: 'Settings', level: 2 }).count()).toBe(0);
      expect(await cashier.getByTestId('available-balance').count()).toBe(0);
    }
    await cashier.screenshot({ path: join(artifacts, 'roles-cashier-gate.png'), fullPage: true });
  });

  it('and the bridge refuses them to the cashier in main, whatever the page does', async () => {
    for (const channel of ['getSettings', 'getBalance', 'exportCsv', 'getZReport']) {
      expect(await callAs(cashier, channel), channel).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
    }
    // The owner's tab keeps its own session and its access.
    expect(await callAs(owner, 'getSettings')).toEqual({ status: 200, code: null });
  });

  it('a wrong owner PIN is refused, and PIN entry locks after five wrong ones', async () => {
    await goTo(cashier, '#/settings');
    const gate = cashier.locator('.owner-gate');
    const pin = gate.getByLabel('Owner PIN');
    const unlock = gate.getByRole('button', { name: 'Unlock', exact: true });
    const messages: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      await pin.fill('000000');
      await unlock.click();
      const alert = cashier.locator('.owner-gate [role="alert"]');
      await expect
        .poll(async () => ((await alert.count()) > 0 ? await textOf(alert) : ''))
        .not.toBe('');
      messages.push(await textOf(alert));
      await pin.fill('');
    }
    expect(messages.slice(0, 4).every((m) => m.startsWith('Wrong PIN.'))).toBe(true);
    expect(messages[4]).toContain('locked');

    // Now even the right PIN is refused until the lock-out ends.
    await pin.fill(OWNER_PIN);
    await unlock.click();
    await expect
      .poll(() => textOf(cashier.locator('.owner-gate [role="alert"]')))
      .toContain('Try again in');
    expect(await cashier.getByRole('heading', { name: 'Settings', level: 2 }).count()).toBe(0);
    expect(await callAs(cashier, 'getSettings')).toEqual({ status: 403, code: 'FORBIDDEN' });
    await cashier.screenshot({ path: join(artifacts, 'roles-locked-out.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
