/**
 * What the screens-* end-to-end files share: one browser shell on the sandbox (--dev-clock), the
 * axe figures per screen class, and one check of a screen at a class (layout, axe, screenshot).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startJsonChild, type JsonChild } from './child-json';
import {
  axeFindings,
  layoutProblems,
  screenshotOf,
  SCREEN_CLASSES,
  tallyOf,
  type AxeFinding,
  type AxeTally,
  type ScreenClass,
} from './screen-classes';
import type { WebShellLine } from './web-till';

const root = resolve(import.meta.dirname, '../..');

export interface ShellUnderTest {
  readonly web: JsonChild<WebShellLine>;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/**
 * `npm run web` on a fresh data directory, its clock movable (--dev-clock): a till that has
 * given its shop's name, or with `firstStart` one that asks it first.
 */
export async function startShell(
  name: string,
  options: { readonly firstStart?: boolean } = {},
): Promise<ShellUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), `till-${name}-`));
  const web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir, '--dev-clock'],
    { cwd: root, timeoutMs: 120_000, firstStart: options.firstStart === true },
  );
  return {
    web,
    dataDir,
    async stop() {
      await web.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** axe findings of every screen checked, by class: the figures the closing note reports. */
export class AxeLedger {
  private readonly rows: {
    screen: string;
    screenClass: ScreenClass;
    tally: AxeTally;
    findings: readonly AxeFinding[];
  }[] = [];

  add(screen: string, screenClass: ScreenClass, findings: readonly AxeFinding[]): void {
    this.rows.push({ screen, screenClass, tally: tallyOf(findings), findings });
  }

  /** Written to test-results/e2e/axe-<file>.json and printed, one line per class. */
  report(file: string): string {
    const byClass = new Map<ScreenClass, AxeTally & { screens: number }>();
    for (const row of this.rows) {
      const sum = byClass.get(row.screenClass) ?? {
        screens: 0,
        critical: 0,
        serious: 0,
        moderate: 0,
        minor: 0,
      };
      sum.screens += 1;
      for (const key of ['critical', 'serious', 'moderate', 'minor'] as const) {
        sum[key] += row.tally[key];
      }
      byClass.set(row.screenClass, sum);
    }
    const dir = join(root, 'test-results', 'e2e');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `axe-${file}.json`),
      JSON.stringify({ byClass: Object.fromEntries(byClass), screens: this.rows }, null, 2),
    );
    return [...byClass]
      .map(
        ([screenClass, sum]) =>
          `axe ${screenClass}: ${sum.screens} screens, critical ${sum.critical}, serious ${sum.serious}, moderate ${sum.moderate}, minor ${sum.minor}`,
      )
      .join('\n');
  }
}

/** An open sale's parts that must all be on screen at once, at every till class. */
export function openSaleParts(page: Page): { readonly name: string; readonly locator: Locator }[] {
  return [
    { name: 'amount due', locator: page.getByTestId('amount-due') },
    { name: 'account number', locator: page.getByTestId('account-number') },
    { name: 'bank', locator: page.getByTestId('bank-name') },
    { name: 'account name', locator: page.getByTestId('account-name') },
    { name: 'countdown', locator: page.getByTestId('countdown') },
    {
      name: '"Customer says they paid"',
      locator: page.getByRole('button', { name: 'Customer says they paid' }),
    },
    { name: '"Cancel"', locator: page.getByRole('button', { name: 'Cancel', exact: true }) },
  ];
}

export interface ScreenCheck {
  /** The screenshot's name: docs/screens/<screen>-<class>.png. */
  readonly screen: string;
  readonly screenClass: ScreenClass;
  /** What must be wholly inside the viewport, named for the failure message. */
  readonly mustSee: readonly { readonly name: string; readonly locator: Locator }[];
  /** What must be laid out on one line (the amount, the account number). */
  readonly oneLine?: readonly Locator[];
}

/**
 * One screen at one class, as a cashier sees it: in view, not clipped, no sideways scroll,
 * targets big enough for a finger on the touch classes, no critical or serious axe finding; then
 * its screenshot.
 */
export async function checkScreen(page: Page, check: ScreenCheck, ledger: AxeLedger) {
  const spec = SCREEN_CLASSES[check.screenClass];
  const layout = await layoutProblems(page, check.mustSee, {
    oneLine: check.oneLine ?? [],
    touch: spec.touch,
  });
  const findings = await axeFindings(page);
  ledger.add(check.screen, check.screenClass, findings);
  await screenshotOf(page, check.screen, check.screenClass);
  expect(layout, `${check.screen} at ${check.screenClass}`).toEqual([]);
  const grave = findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');
  expect(grave, `${check.screen} at ${check.screenClass}: axe`).toEqual([]);
}
