/**
 * The counter as the moment tests see it: one browser shell on the sandbox (--dev-clock) with
 * a sandbox personality, real Chromium, the customer display open beside the till (welcome
 * shown), the axe figures and the pages' errors collected; then a till page per screen class.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium } from './chromium';
import { classContext, type ScreenClass } from './screen-classes';
import { AxeLedger, startShell, type ShellUnderTest } from './screen-suite';
import { textOf, watchPage } from './till-page';
import { setSandboxPersonality } from './web-till';

const SETTLE_MS = 10_000;

export interface TillWithDisplay {
  readonly shell: ShellUnderTest;
  readonly browser: Browser;
  /** The customer display page, at the display class. */
  readonly display: Page;
  readonly ledger: AxeLedger;
  /** Uncaught errors and console errors of every page opened through this counter. */
  readonly problems: string[];
  /** A till page at a class, on the till's address, its errors collected. */
  openTill(screenClass: ScreenClass): Promise<{ context: BrowserContext; page: Page }>;
  /** Prints the axe figures, closes everything, and fails on any page error collected. */
  stop(): Promise<void>;
}

/** `name` names the data directory and the axe report; `personality` as CONTRACTS.md says. */
export async function startTillWithDisplay(
  name: string,
  personality: Readonly<Record<string, string>>,
): Promise<TillWithDisplay> {
  const shell = await startShell(name);
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    const opened = browser;
    await setSandboxPersonality(shell.web.first.control_url, personality);
    const ledger = new AxeLedger();
    const problems: string[] = [];
    const display = await (await classContext(opened, 'display')).newPage();
    watchPage(display, 'display', problems);
    await display.goto(shell.web.first.display_url);
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
    return {
      shell,
      browser: opened,
      display,
      ledger,
      problems,
      async openTill(screenClass) {
        const context = await classContext(opened, screenClass);
        const page = await context.newPage();
        watchPage(page, screenClass, problems);
        await page.goto(shell.web.first.url);
        return { context, page };
      },
      async stop() {
        console.log(ledger.report(name));
        await opened.close();
        await shell.stop();
        expect(problems).toEqual([]);
      },
    };
  } catch (error) {
    await browser?.close();
    await shell.stop();
    throw error;
  }
}

/** The sale's id from its banner ("… Sale #12"). */
export async function saleIdOn(page: Page): Promise<number> {
  const match = /Sale #(\d+)/.exec(await textOf(page.getByTestId('sale-status')));
  if (!match?.[1]) throw new Error('the sale banner names no sale');
  return Number(match[1]);
}
