/**
 * The shop's internet goes down with no sale running, end to end: real Chromium at the till's
 * screen classes (the touchscreen till and the phone counter, and the shop PC), the browser
 * shell with --dev-clock, the embedded sandbox cutting the till's connections
 * (`unreachable_ms`). Within 30 s of the till's clock the header says the provider cannot be
 * reached and no "within seconds" claim stays; within 30 s of its return the claim is back.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import { classContext, TILL_CLASSES, type ScreenClass } from '#support/screen-classes';
import { AxeLedger, checkScreen, startShell, type ShellUnderTest } from '#support/screen-suite';
import { expectText, textOf, watchPage } from '#support/till-page';
import { advanceTillClock, setSandboxFaults } from '#support/web-till';

const SETTLE_MS = 10_000;
const UNREACHABLE = "Provider can't be reached: payments will show when it is back";

let shell: ShellUnderTest;
let browser: Browser;
const pages = new Map<ScreenClass, Page>();
const ledger = new AxeLedger();
const problems: string[] = [];

const setFaults = (faults: Readonly<Record<string, unknown>>) =>
  setSandboxFaults(shell.web.first.control_url, faults);

beforeAll(async () => {
  shell = await startShell('reach');
  browser = await launchChromium();
  for (const screenClass of TILL_CLASSES) {
    const page = await (await classContext(browser, screenClass)).newPage();
    watchPage(page, screenClass, problems);
    await page.goto(shell.web.first.url);
    await page.getByRole('textbox', { name: /Amount/ }).waitFor({ timeout: SETTLE_MS });
    pages.set(screenClass, page);
  }
});

afterAll(async () => {
  console.log(ledger.report('provider-reach'));
  await browser?.close();
  await shell?.stop();
});

describe("the header while the provider can't be reached", () => {
  it('says so within 30 s of the outage at every till class, and gives the claim back within 30 s', async () => {
    for (const page of pages.values()) {
      await expectText(
        page.getByTestId('callback-status'),
        'Payments show within seconds',
        SETTLE_MS,
      );
    }

    await setFaults({ unreachable_ms: 120_000 });
    // No sale runs: the till's idle probe is what finds out.
    await advanceTillClock(shell.web.first.url, 30_000);
    for (const [screenClass, page] of pages) {
      const status = page.getByTestId('callback-status');
      await expectText(status, UNREACHABLE, SETTLE_MS);
      expect(await status.getAttribute('class')).toContain('tone-bad');
      expect(await textOf(page.locator('header'))).not.toMatch(/within seconds|Callbacks live/);
      await checkScreen(
        page,
        {
          screen: 'header-unreachable',
          screenClass,
          mustSee: [
            { name: 'the provider words', locator: status },
            { name: 'the amount field', locator: page.getByRole('textbox', { name: /Amount/ }) },
          ],
        },
        ledger,
      );
    }

    // Still down while the outage lasts; then back within 30 s of its end.
    await advanceTillClock(shell.web.first.url, 60_000);
    for (const page of pages.values()) {
      expect(await textOf(page.getByTestId('callback-status'))).toBe(UNREACHABLE);
    }
    await advanceTillClock(shell.web.first.url, 30_000); // the outage ends (120 s)
    await advanceTillClock(shell.web.first.url, 30_000);
    for (const page of pages.values()) {
      await expectText(
        page.getByTestId('callback-status'),
        'Payments show within seconds',
        SETTLE_MS,
      );
    }
    expect(problems).toEqual([]);
  });
});
