/**
 * The till says the amount of a paid sale, in real Chromium through the browser shell on the
 * embedded sandbox. Headless Chromium here has no voices at all, so each page gets a stand-in
 * speechSynthesis before its own scripts run: one with a single Nigerian English voice that
 * records every utterance, and one with no voice, where the chime must play instead (counted by
 * wrapping AudioContext, which only the chime uses).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { backToAmount } from '#support/till-page';
import { sandboxTransfer, type WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '../..');
const artifacts = join(root, 'test-results', 'e2e');
const SETTLE_MS = 10_000;

interface SpyVoice {
  readonly name: string;
  readonly lang: string;
  readonly voiceURI: string;
  readonly localService: boolean;
  readonly default: boolean;
}

interface Heard {
  readonly text: string;
  readonly voice: string | null;
  readonly volume: number;
}

const NGOZI: SpyVoice = {
  name: 'Ngozi',
  lang: 'en-NG',
  voiceURI: 'spy:Ngozi',
  localService: true,
  default: true,
};

/**
 * Plain JavaScript for the page (this file is typechecked without the DOM): replaces
 * speechSynthesis and SpeechSynthesisUtterance with a spy that offers `voices`, records what it
 * is asked to say and answers like an engine (start, then end); counts AudioContexts made.
 */
function speechSpyScript(voices: readonly SpyVoice[]): string {
  return `(() => {
    const voices = ${JSON.stringify(voices)};
    const heard = [];
    let chimes = 0;
    class SpyUtterance {
      constructor(text) {
        this.text = text === undefined ? '' : String(text);
        this.lang = '';
        this.voice = null;
        this.volume = 1;
        this.rate = 1;
        this.pitch = 1;
        this.onstart = null;
        this.onend = null;
        this.onerror = null;
      }
    }
    const synthesis = new EventTarget();
    Object.assign(synthesis, {
      speaking: false,
      pending: false,
      paused: false,
      onvoiceschanged: null,
      getVoices: () => voices,
      speak(utterance) {
        heard.push({
          text: utterance.text,
          voice: utterance.voice ? utterance.voice.name : null,
          volume: utterance.volume,
        });
        setTimeout(() => {
          if (utterance.onstart) utterance.onstart({});
          if (utterance.onend) utterance.onend({});
        }, 20);
      },
      cancel() {},
      pause() {},
      resume() {},
    });
    Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
    Object.defineProperty(window, 'SpeechSynthesisUtterance', {
      value: SpyUtterance,
      configurable: true,
    });
    const RealAudioContext = window.AudioContext;
    window.AudioContext = class extends RealAudioContext {
      constructor(...args) {
        chimes += 1;
        super(...args);
      }
    };
    window.__speechSpy = { heard, chimes: () => chimes };
  })();`;
}

let dataDir: string;
let web: JsonChild<WebShellLine>;
let port: string;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Page errors and console errors from every page; any one fails the test that saw it. */
const problems: string[] = [];
/** What the browser logs by itself while the shell is down: expected, not a problem. */
const EXPECTED_CONSOLE = [/Failed to load resource: net::ERR_CONNECTION_REFUSED/];

function startShell(portArg: string): Promise<JsonChild<WebShellLine>> {
  return startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', portArg, '--data-dir', dataDir],
    {
      cwd: root,
      timeoutMs: 120_000,
    },
  );
}

/** A till page in its own browser context, with the speech spy offering `voices`. */
async function openTill(name: string, voices: readonly SpyVoice[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await context.addInitScript({ content: speechSpyScript(voices) });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !EXPECTED_CONSOLE.some((pattern) => pattern.test(text))) {
      problems.push(`${name}: console error: ${text}`);
    }
  });
  await page.goto(web.first.url);
  await page
    .getByTestId('environment-badge')
    .filter({ hasText: /^SANDBOX$/ })
    .waitFor({ timeout: SETTLE_MS });
  return page;
}

function heard(page: Page): Promise<readonly Heard[]> {
  return page.evaluate<readonly Heard[]>('window.__speechSpy.heard');
}

function chimes(page: Page): Promise<number> {
  return page.evaluate<number>('window.__speechSpy.chimes()');
}

async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

/** Types the amount on the sale screen, has the customer pay it exactly, waits for "Paid". */
async function sellAndPay(page: Page, amount: string, naira: number): Promise<void> {
  const field = page.getByRole('textbox', { name: /Amount/ });
  await backToAmount(page);
  await field.focus();
  await page.keyboard.type(amount);
  await page.keyboard.press('Enter');
  const account = page.getByTestId('account-number');
  await account.waitFor({ timeout: SETTLE_MS });
  const digits = (await textOf(account)).replace(/\s+/g, '');
  await sandboxTransfer(web.first.control_url, digits, naira);
  await expect
    .poll(() => textOf(page.getByTestId('sale-status')), { timeout: SETTLE_MS, interval: 100 })
    .toMatch(/Paid/);
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'till-e2e-voice-'));
  web = await startShell('0');
  port = new URL(web.first.url).port;
  browser = await launchChromium();
});

afterEach(() => {
  // Taken out, so that one test's errors are reported once, by that test.
  expect(problems.splice(0)).toEqual([]);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await web?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the till says the amount when a sale is paid', () => {
  let till: Page;

  it('says ₦1,500.50 in words with the Nigerian English voice, once, and no chime', async () => {
    till = await openTill('voice till', [NGOZI]);
    await sellAndPay(till, '1500.50', 1500.5);
    await expect
      .poll(() => heard(till), { timeout: SETTLE_MS })
      .toEqual([
        { text: 'one thousand five hundred naira, fifty kobo received', voice: 'Ngozi', volume: 1 },
      ]);
    expect(await chimes(till)).toBe(0);

    // Other screens and back, and time for any late or repeated event: still said once.
    await till.getByRole('link', { name: 'Activity', exact: true }).click();
    await till.getByRole('link', { name: 'Sale', exact: true }).click();
    await till.waitForTimeout(1_500);
    expect(await heard(till)).toHaveLength(1);
    expect(await chimes(till)).toBe(0);
  });

  it('"Test voice" in Settings says the test sentence with the automatic voice', async () => {
    await till.getByRole('link', { name: 'Settings', exact: true }).click();
    await till.getByRole('tab', { name: 'Voice' }).click();
    const section = till.getByRole('region', { name: 'Say the amount' });
    await section.waitFor({ timeout: SETTLE_MS });
    const voice = section.getByRole('combobox', { name: 'Voice' });
    expect(await textOf(voice.locator('option').first())).toBe('Automatic: Ngozi (en-NG)');
    await section.getByRole('button', { name: 'Test voice' }).click();
    await expect
      .poll(() => textOf(section.getByTestId('voice-test-result')), { timeout: SETTLE_MS })
      .toBe('Said: "one thousand five hundred naira received".');
    expect((await heard(till)).map((entry) => entry.text)).toEqual([
      'one thousand five hundred naira, fifty kobo received',
      'one thousand five hundred naira received',
    ]);
    await section.screenshot({ path: join(artifacts, 'voice-settings.png') });
    await till.getByRole('link', { name: 'Sale', exact: true }).click();
  });

  it('says nothing again when the page reconnects to a restarted shell and catches up', async () => {
    const before = await heard(till);
    const firstUrl = web.first.url;
    await web.stop();
    const banner = till.getByTestId('connection-banner');
    await expect.poll(() => banner.count(), { timeout: SETTLE_MS }).toBe(1);

    // Same port and data directory: the page's address (and token) work again.
    web = await startShell(port);
    expect(web.first.url).toBe(firstUrl);
    await expect
      .poll(async () => (await banner.count()) === 0 || /again/.test(await textOf(banner)), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(await textOf(till.getByTestId('sale-status'))).toMatch(/Paid/);
    await till.waitForTimeout(1_500);
    expect(await heard(till)).toEqual(before);
    expect(await chimes(till)).toBe(0);
  });

  it('plays the chime instead where the computer has no voice at all', async () => {
    const silent = await openTill('no-voice till', []);
    expect(await chimes(silent)).toBe(0);
    await sellAndPay(silent, '2000', 2000);
    await expect.poll(() => chimes(silent), { timeout: SETTLE_MS }).toBe(1);
    expect(await heard(silent)).toEqual([]);
    await silent.waitForTimeout(1_000);
    expect(await chimes(silent)).toBe(1);
  });
});
