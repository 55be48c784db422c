/**
 * The four screen classes of CONTRACTS.md in a real Chromium: a browser context per class, what
 * "on screen" means (in the viewport, not clipped, no sideways scroll, one line), axe-core's
 * findings, and the screenshots the docs use (docs/screens/<screen>-<class>.png).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

export type ScreenClass = 'pc' | 'touch' | 'phone' | 'display';

export interface ScreenClassSpec {
  readonly width: number;
  readonly height: number;
  /** A finger, not a mouse: targets must be at least TOUCH_TARGET_PX. */
  readonly touch: boolean;
  readonly mobile: boolean;
}

export const SCREEN_CLASSES: Readonly<Record<ScreenClass, ScreenClassSpec>> = {
  pc: { width: 1366, height: 768, touch: false, mobile: false },
  touch: { width: 1024, height: 600, touch: true, mobile: false },
  phone: { width: 390, height: 844, touch: true, mobile: true },
  display: { width: 800, height: 480, touch: false, mobile: false },
};

/** The classes a cashier's till page serves; the customer display has its own. */
export const TILL_CLASSES: readonly ScreenClass[] = ['pc', 'touch', 'phone'];

export const TOUCH_TARGET_PX = 44;

export const SCREENS_DIR = resolve(import.meta.dirname, '../../docs/screens');

/**
 * A context at a class's size. `clockOffsetMs`: the page's clock is that far off the real one
 * (a tablet set wrong), flowing with real time.
 */
export async function classContext(
  browser: Browser,
  screenClass: ScreenClass,
  options: {
    readonly clockOffsetMs?: number;
    readonly width?: number;
    /** A shorter screen of the class (a 360×740 phone). */
    readonly height?: number;
  } = {},
): Promise<BrowserContext> {
  const spec = SCREEN_CLASSES[screenClass];
  const context = await browser.newContext({
    viewport: { width: options.width ?? spec.width, height: options.height ?? spec.height },
    hasTouch: spec.touch,
    isMobile: spec.mobile,
    deviceScaleFactor: 1,
    // Sounds must not wait for a gesture in a test, and the voice must not need one either.
    reducedMotion: 'reduce',
  });
  if (options.clockOffsetMs) {
    await context.clock.install({ time: Date.now() + options.clockOffsetMs });
  }
  return context;
}

/*
 * The page's globals, as far as the in-page functions below use them: this file is typed for
 * Node (no DOM library), and these declarations stay inside this module.
 */
interface PageRect {
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
  readonly width: number;
  readonly height: number;
}
interface PageElement {
  readonly tagName: string;
  readonly clientHeight: number;
  readonly type?: string;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): PageRect;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}
declare const document: {
  readonly documentElement: PageElement;
  querySelectorAll(selector: string): Iterable<PageElement>;
  createRange(): {
    selectNodeContents(element: PageElement): void;
    getClientRects(): Iterable<PageRect>;
  };
};
declare const window: {
  readonly innerWidth: number;
  readonly innerHeight: number;
  readonly scrollY: number;
};
declare function getComputedStyle(element: PageElement): {
  readonly overflowX: string;
  readonly color: string;
  readonly backgroundColor: string;
};

function colours(element: PageElement) {
  const style = getComputedStyle(element);
  return { color: style.color, background: style.backgroundColor };
}

/** An element's text and background colours as computed ("rgb(…)"). */
export function coloursOf(locator: Locator): Promise<{ color: string; background: string }> {
  return locator.first().evaluate(colours);
}

function pageExtent() {
  return {
    scrollWidth: document.documentElement.scrollWidth,
    // The layout viewport: a mobile page that overflows widens innerWidth (it zooms out), not this.
    innerWidth: document.documentElement.clientWidth,
    scrollY: window.scrollY,
  };
}

function elementBox(element: PageElement) {
  const rect = element.getBoundingClientRect();
  return {
    top: rect.top,
    bottom: rect.bottom,
    left: rect.left,
    right: rect.right,
    clipped:
      element.scrollWidth > element.clientWidth + 1 &&
      getComputedStyle(element).overflowX !== 'visible',
    hidden: rect.width === 0 || rect.height === 0,
    vw: document.documentElement.clientWidth,
    vh: document.documentElement.clientHeight,
  };
}

/** The lines an element's text is laid out on (distinct tops of its text's boxes). */
function lineCount(element: PageElement): number {
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
}

/** Buttons, fields and nav links a finger must hit, smaller than `min` px. */
function smallTargets(min: number): string[] {
  const found: string[] = [];
  const targets = document.querySelectorAll(
    'button, input:not([type=hidden]), select, textarea, nav a, .button, summary',
  );
  for (const target of targets) {
    const rect = target.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    if (target.closest('.visually-hidden, [hidden]')) continue;
    // A checkbox's or radio's target is its label, which holds it.
    const choice = target.tagName === 'INPUT' && /checkbox|radio/.test(target.type ?? '');
    const box = choice ? (target.closest('label')?.getBoundingClientRect() ?? rect) : rect;
    if (box.height < min - 0.5 || box.width < min - 0.5) {
      const text = (target.getAttribute('aria-label') ?? target.textContent ?? '').trim();
      const name = text
        ? text.slice(0, 40)
        : `${target.tagName.toLowerCase()} ${target.type ?? ''}`;
      found.push(`touch target "${name}" is ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return found;
}

/** What is wrong with the page's layout as a cashier sees it; [] when nothing is. */
export async function layoutProblems(
  page: Page,
  mustSee: readonly { readonly name: string; readonly locator: Locator }[],
  options: { readonly oneLine?: readonly Locator[]; readonly touch?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const extent = await page.evaluate(pageExtent);
  if (extent.scrollWidth > extent.innerWidth) {
    problems.push(`sideways scroll: page ${extent.scrollWidth} px wide in ${extent.innerWidth}`);
  }
  if (extent.scrollY !== 0) problems.push(`the page is scrolled to ${extent.scrollY}`);
  for (const { name, locator } of mustSee) {
    if ((await locator.count()) === 0) {
      problems.push(`${name}: not on the page`);
      continue;
    }
    const box = await locator.first().evaluate(elementBox);
    if (box.hidden) problems.push(`${name}: has no size`);
    if (box.top < 0 || box.bottom > box.vh + 0.5 || box.left < 0 || box.right > box.vw + 0.5) {
      const at = [box.left, box.top, box.right, box.bottom].map(Math.round);
      problems.push(
        `${name}: outside the viewport (${at[0]},${at[1]})–(${at[2]},${at[3]}) in ${box.vw}×${box.vh}`,
      );
    }
    if (box.clipped) problems.push(`${name}: its text is clipped`);
  }
  for (const locator of options.oneLine ?? []) {
    if ((await locator.count()) === 0) continue;
    const lines = await locator.first().evaluate(lineCount);
    if (lines !== 1) problems.push(`"${await locator.first().textContent()}" is on ${lines} lines`);
  }
  if (options.touch) {
    problems.push(...(await page.evaluate(smallTargets, TOUCH_TARGET_PX)));
  }
  return problems;
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeFinding {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

/**
 * axe-core's violations on the page as it is now (WCAG 2.x A and AA, and best practice).
 * Evaluated through the DevTools protocol, so the page's CSP (script-src 'self') still holds.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(`${axeSource}\n;void 0`);
  return page.evaluate(runAxe);
}

async function runAxe(): Promise<AxeFinding[]> {
  const { axe } = window as unknown as { readonly axe: AxeApi };
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}

interface AxeApi {
  run(
    context: unknown,
    options: { readonly resultTypes: readonly string[] },
  ): Promise<{
    readonly violations: readonly {
      readonly id: string;
      readonly impact: string | null;
      readonly help: string;
      readonly nodes: readonly { readonly target: readonly string[] }[];
    }[];
  }>;
}

/** Findings by impact, for the figures per class. */
export type AxeTally = Record<'critical' | 'serious' | 'moderate' | 'minor', number>;

export function tallyOf(findings: readonly AxeFinding[]): AxeTally {
  const tally: AxeTally = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const finding of findings) {
    if (finding.impact in tally) tally[finding.impact as keyof AxeTally] += 1;
  }
  return tally;
}

/** The screen as it is, into docs/screens/<screen>-<class>.png (the viewport, as a cashier sees it). */
export async function screenshotOf(
  page: Page,
  screen: string,
  screenClass: ScreenClass,
): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const path = join(SCREENS_DIR, `${screen}-${screenClass}.png`);
  // Caret and animations off, so that the same screen gives the same picture.
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}
