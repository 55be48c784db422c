/**
 * A cheap phone as the counter: the till page at 390×844 in Debian's Chromium with the CPU
 * throttled 6× (DevTools Emulation.setCPUThrottlingRate), beside the same page unthrottled in
 * the same run (rounds interleaved in a seeded order). Two figures:
 *
 * - load: navigation start → the amount field in the DOM with the focus, at the next frame
 *   (the page's own performance clock, from an init script, so the test's polling adds nothing);
 * - paid: the stream chunk carrying the sale's `paid` event handed to the page's JavaScript →
 *   the paid screen (sale status "Paid") at the next frame. The chunk's arrival is read where
 *   the page reads its stream (ReadableStreamDefaultReader.read, wrapped by the init script).
 *
 * Each repetition is a fresh browser context (a phone opening the page anew), one load and one
 * sale paid by a sandbox transfer. Bounds (issue 21): load ≤ 2.5 s and paid ≤ 300 ms throttled,
 * judged on the worst repetition. Five repetitions each way; three in quick mode (CI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { launchChromium } from '#support/chromium';
import { classContext } from '#support/screen-classes';
import { sandboxTransfer, type WebShellLine } from '#support/web-till';
import { repetitions, summarise, type BenchContext, type BenchFigure } from './bench-figure';
import { describeOrders, interleave } from './interleave';

const THROTTLE = 6;
const LOAD_BOUND_MS = 2_500;
const PAID_BOUND_MS = 300;
const SETTLE_MS = 30_000;
const WARMUP = 1;
const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs in the page before its own scripts (through CDP: the page's CSP does not apply). */
const INIT = `(() => {
  const bench = { ready: null, paidEvent: null, paidShown: null };
  window.__bench = bench;
  const afterFrame = (set) => requestAnimationFrame(() => set(performance.now()));
  const read = ReadableStreamDefaultReader.prototype.read;
  const decoder = new TextDecoder();
  ReadableStreamDefaultReader.prototype.read = function () {
    return read.call(this).then((result) => {
      if (bench.paidEvent === null && result.value instanceof Uint8Array) {
        const text = decoder.decode(result.value);
        if (text.includes('"state":"paid"')) bench.paidEvent = performance.now();
      }
      return result;
    });
  };
  new MutationObserver(() => {
    if (bench.ready === null) {
      const field = document.querySelector('input.amount-input');
      if (field && document.activeElement === field) {
        bench.ready = -1;
        afterFrame((at) => (bench.ready = at));
      }
    }
    if (bench.paidEvent !== null && bench.paidShown === null) {
      const status = document.querySelector('[data-testid="sale-status"]');
      if (status && /^✓?Paid/.test(status.textContent || '')) {
        bench.paidShown = -1;
        afterFrame((at) => (bench.paidShown = at));
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

interface Times {
  readonly ready: number | null;
  readonly paidEvent: number | null;
  readonly paidShown: number | null;
}

const READ = `window.__bench`;

interface Sample {
  readonly loadMs: number;
  readonly paidMs: number;
}

async function until(read: () => Promise<Times>, done: (t: Times) => boolean, what: string) {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const times = await read();
    if (done(times)) return times;
    if (Date.now() > deadline) throw new Error(`counter-phone: no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One phone opening the page, then one sale paid by the customer's transfer. */
async function onePhone(
  browser: Browser,
  web: JsonChild<WebShellLine>,
  rate: number,
  amount: number,
): Promise<Sample> {
  const context = await classContext(browser, 'phone');
  try {
    const page = await context.newPage();
    await page.addInitScript(INIT);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(web.first.url);
    const read = () => page.evaluate<Times>(READ);
    const loaded = await until(read, (t) => (t.ready ?? -1) > 0, 'amount field');
    const field = page.getByRole('textbox', { name: /Amount/ });
    await field.fill(String(amount));
    await field.press('Enter');
    const number = page.getByTestId('account-number');
    await number.waitFor({ timeout: SETTLE_MS });
    const digits = ((await number.textContent()) ?? '').replace(/\s+/g, '');
    await sandboxTransfer(web.first.control_url, digits, amount);
    const paid = await until(read, (t) => (t.paidShown ?? -1) > 0, 'paid screen');
    return {
      loadMs: loaded.ready ?? Number.NaN,
      paidMs: (paid.paidShown ?? Number.NaN) - (paid.paidEvent ?? Number.NaN),
    };
  } finally {
    await context.close();
  }
}

export async function run(bench: BenchContext): Promise<readonly BenchFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-bench-phone-'));
  let web: JsonChild<WebShellLine> | null = null;
  let browser: Browser | null = null;
  try {
    web = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      ['--port', '0', '--data-dir', dataDir],
      { cwd: root, timeoutMs: 120_000 },
    );
    browser = await launchChromium();
    const shell = web;
    const chromium = browser;
    let amount = 1200;
    for (let i = 0; i < WARMUP; i++) {
      await onePhone(chromium, shell, 1, amount++);
      await onePhone(chromium, shell, THROTTLE, amount++);
    }
    const { results, orders } = await interleave(
      {
        throttled: () => onePhone(chromium, shell, THROTTLE, amount++),
        unthrottled: () => onePhone(chromium, shell, 1, amount++),
      },
      repetitions(bench),
      bench.seed,
    );
    const order = describeOrders(orders);
    const loadThrottled = summarise(results.throttled.map((s) => s.loadMs));
    const loadPlain = summarise(results.unthrottled.map((s) => s.loadMs));
    const paidThrottled = summarise(results.throttled.map((s) => s.paidMs));
    const paidPlain = summarise(results.unthrottled.map((s) => s.paidMs));
    return [
      {
        name: `counter page 390×844, CPU ${THROTTLE}× slower: load → amount field ready`,
        unit: 'ms',
        value: loadThrottled.median,
        spread: loadThrottled.spread,
        baselineName: 'the same page unthrottled',
        baseline: loadPlain.median,
        baselineSpread: loadPlain.spread,
        bound: {
          max: LOAD_BOUND_MS,
          why: 'issue 21: a cheap phone opens the counter in 2.5 s',
        },
        note: `a fresh context per repetition, ${WARMUP} warm-up each way; order (seed ${bench.seed}): ${order}`,
      },
      {
        name: `counter page 390×844, CPU ${THROTTLE}× slower: paid event → paid screen`,
        unit: 'ms',
        value: paidThrottled.median,
        spread: paidThrottled.spread,
        baselineName: 'the same page unthrottled',
        baseline: paidPlain.median,
        baselineSpread: paidPlain.spread,
        bound: {
          max: PAID_BOUND_MS,
          why: 'issue 21: the cashier sees "Paid" within 300 ms of the event on a cheap phone',
        },
        note: 'from the stream chunk with the paid event reaching the page to the next frame after "Paid" is in the DOM',
      },
    ];
  } finally {
    await browser?.close();
    await web?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
