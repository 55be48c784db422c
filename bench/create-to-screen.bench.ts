/**
 * Create-to-screen figure: the browser shell (scripts/web.ts, a fresh --data-dir, the embedded
 * sandbox provider) driven in Debian's Chromium as test/e2e/browser-shell.test.ts does. For each
 * sale the cashier's keyboard is used (type an amount, press Enter); the time runs from the
 * bridge's POST /api/call/createSale leaving the page (its Resource Timing startTime) to the
 * account-number test id showing ten digits in the DOM (a MutationObserver, same page clock),
 * minus the provider's own time for that sale: the shell process's createVirtualAccount round
 * trip to the sandbox (undici's request create → trailers, recorded by a diagnostics-channel
 * preload given to the shell through NODE_OPTIONS; the shell's code is unchanged). Five rounds
 * of six sales after 3 warm-ups (three rounds in quick mode): the figure is the median of the
 * rounds' medians.
 *
 * Beside it, in the same rounds (each round in a seeded random order): the bare
 * createVirtualAccount call, six times from this process with the real provider client against
 * the same sandbox (with the merchant key read from the shell's sandbox database). The two are
 * not the same work (the figure has the provider's part taken out), so there is no fair ratio
 * to judge yet: the ratio is printed, and so is the absolute 50 ms of the README.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { createProviderClient } from '#main/provider/client';
import { SANDBOX_DB_FILE } from '#main/config/data-files';
import { openSandboxDb } from '#main/sandbox/sandbox-db';
import { readMerchant } from '#main/sandbox/sandbox-state';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { backToAmount } from '#support/till-page';
import { launchChromium } from '#support/chromium';
import type { WebShellLine } from '#support/web-till';
import {
  repetitions,
  percentile,
  summarise,
  type BenchContext,
  type BenchFigure,
} from './bench-figure';
import { describeOrders, interleave } from './interleave';

const SALES_PER_ROUND = 6;
const WARMUP = 3;
const TARGET_MS = 50;
const SETTLE_MS = 10_000;
const root = fileURLToPath(new URL('..', import.meta.url));

const ROUND_TRIP = 'BENCH_CREATE_ROUND_TRIP_MS';
const HANDLING = 'BENCH_CREATE_HANDLING_MS';

/** Loaded into the shell with --import: timestamps only, written to stderr. Plain JavaScript. */
const PRELOAD = `
import dc from 'node:diagnostics_channel';
const CREATE = '/virtual/new-account';
const clientStarted = new Map();
const serverStarted = new WeakMap();
dc.subscribe('undici:request:create', ({ request }) => {
  if (request.path.includes(CREATE)) clientStarted.set(request, performance.now());
});
dc.subscribe('undici:request:trailers', ({ request }) => {
  const started = clientStarted.get(request);
  if (started === undefined) return;
  clientStarted.delete(request);
  process.stderr.write('${ROUND_TRIP} ' + (performance.now() - started) + '\\n');
});
dc.subscribe('http.server.request.start', ({ request }) => {
  if (request.url && request.url.includes(CREATE)) serverStarted.set(request, performance.now());
});
dc.subscribe('http.server.response.finish', ({ request }) => {
  const started = serverStarted.get(request);
  if (started !== undefined) process.stderr.write('${HANDLING} ' + (performance.now() - started) + '\\n');
});
`;

/** Runs in the page (a string: the node tsconfig has no DOM types). */
const OBSERVE = `(() => {
  window.__bench = { shown: null };
  new MutationObserver(() => {
    if (window.__bench.shown !== null) return;
    const element = document.querySelector('[data-testid="account-number"]');
    const digits = element ? (element.textContent || '').replace(/\\s+/g, '') : '';
    if (/^\\d{10}$/.test(digits)) window.__bench.shown = performance.now();
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
  return true;
})()`;
const RESET = `(() => { window.__bench.shown = null; performance.clearResourceTimings(); return true; })()`;
const READ = `(() => {
  const entries = performance.getEntriesByType('resource')
    .filter((entry) => entry.name.includes('/api/call/createSale'));
  const last = entries[entries.length - 1];
  return last
    ? { start: last.startTime, responseEnd: last.responseEnd, shown: window.__bench.shown }
    : null;
})()`;

interface PageTimes {
  readonly start: number;
  readonly responseEnd: number;
  readonly shown: number;
}

interface Sample {
  readonly screenMs: number;
  readonly providerMs: number;
  /** The page's own part: bridge answer in → digits in the DOM. */
  readonly renderMs: number;
}

function median(values: readonly number[]): number {
  return percentile(
    Float64Array.from(values).sort((a, b) => a - b),
    50,
  );
}

function stderrValues(web: JsonChild<WebShellLine>, label: string): number[] {
  return web
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith(`${label} `))
    .map((line) => Number(line.slice(label.length + 1)));
}

async function waitFor<T>(read: () => Promise<T | null> | T | null, what: string): Promise<T> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`create-to-screen: no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function oneSale(page: Page, web: JsonChild<WebShellLine>, index: number): Promise<Sample> {
  const amountField = page.getByRole('textbox', { name: /Amount/ });
  await backToAmount(page, SETTLE_MS);
  await page.evaluate(RESET);
  await amountField.focus();
  await page.keyboard.type(String(1500 + index));
  await page.keyboard.press('Enter');
  // A function, not a string: the page's CSP forbids eval, and a function goes in through CDP.
  await page.waitForFunction(
    () => (globalThis as unknown as { __bench: { shown: number | null } }).__bench.shown !== null,
    undefined,
    { timeout: SETTLE_MS },
  );
  const times = await waitFor(() => page.evaluate<PageTimes | null>(READ), 'createSale timing');
  const providerMs = await waitFor(
    () => stderrValues(web, ROUND_TRIP)[index] ?? null,
    'provider round trip from the shell',
  );
  return {
    screenMs: times.shown - times.start,
    providerMs,
    renderMs: times.shown - times.responseEnd,
  };
}

/** The bare call: the real client from this process, against the shell's own sandbox. */
function directClient(controlUrl: string, dataDir: string): () => Promise<number> {
  const db = openSandboxDb(join(dataDir, SANDBOX_DB_FILE));
  const merchant = readMerchant(db);
  db.close();
  if (!merchant) throw new Error('the shell sandbox has no merchant');
  const origin = controlUrl.replace(/\/control$/, '');
  const client = createProviderClient({
    baseUrl: `${origin}/api`,
    payoutBaseUrl: `${origin}/payout`,
    secretKey: merchant.secretKey,
    accessToken: merchant.accessToken,
  });
  let call = 0;
  return async () => {
    call += 1;
    const started = performance.now();
    await client.createVirtualAccount({
      reference: `BENCHDIRECT${Date.now()}${call}`,
      accountName: 'Transfer Till',
      merchantId: 'SANDBOX-MERCHANT',
      merchant: 'others',
      type: 'nonstatic',
      amountKobo: 150_000 + call * 100,
      expiryMinutes: 15,
      callbackUrl: 'http://127.0.0.1:9/unused',
    });
    return performance.now() - started;
  };
}

export async function run(bench: BenchContext): Promise<readonly BenchFigure[]> {
  const rounds = repetitions(bench);
  const dataDir = mkdtempSync(join(tmpdir(), 'till-bench-screen-'));
  const preloadDir = mkdtempSync(join(tmpdir(), 'till-bench-preload-'));
  const preload = join(preloadDir, 'create-timing.mjs');
  writeFileSync(preload, PRELOAD);
  let web: JsonChild<WebShellLine> | null = null;
  let browser: Awaited<ReturnType<typeof launchChromium>> | null = null;
  try {
    web = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      ['--port', '0', '--data-dir', dataDir],
      {
        cwd: root,
        timeoutMs: 120_000,
        env: {
          NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${pathToFileURL(preload).href}`,
        },
      },
    );
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(web.first.url);
    await page
      .getByTestId('environment-badge')
      .filter({ hasText: /^SANDBOX$/ })
      .waitFor({ timeout: SETTLE_MS });
    await page.evaluate(OBSERVE);

    let index = 0;
    for (; index < WARMUP; index++) await oneSale(page, web, index);
    const direct = directClient(web.first.control_url, dataDir);
    for (let i = 0; i < WARMUP; i++) await direct();
    const shell = web;
    const { results, orders } = await interleave(
      {
        screen: async () => {
          const round: Sample[] = [];
          for (let i = 0; i < SALES_PER_ROUND; i++) round.push(await oneSale(page, shell, index++));
          return round;
        },
        direct: async () => {
          const round: number[] = [];
          for (let i = 0; i < SALES_PER_ROUND; i++) round.push(await direct());
          return round;
        },
      },
      rounds,
      bench.seed,
    );
    const samples = results.screen.flat();
    const handling = stderrValues(web, HANDLING).slice(WARMUP, WARMUP + samples.length);
    const value = summarise(
      results.screen.map((round) => median(round.map((s) => s.screenMs - s.providerMs))),
    );
    const baseline = summarise(results.direct.map((round) => median(round)));
    return [
      {
        name: 'create on the bridge → account on screen, minus provider',
        unit: 'ms',
        value: value.median,
        spread: value.spread,
        baselineName: 'bare createVirtualAccount call (median of each round)',
        baseline: baseline.median,
        baselineSpread: baseline.spread,
        absoluteTarget: { text: `< ${TARGET_MS} ms`, met: value.median < TARGET_MS },
        note: `${rounds} rounds of ${SALES_PER_ROUND} sales after ${WARMUP} warm-ups, keyboard in Chromium, browser shell with the embedded sandbox; order per round (seed ${bench.seed}): ${describeOrders(orders)}. All ${samples.length} sales: whole time median ${median(samples.map((s) => s.screenMs)).toFixed(1)} ms; provider create round trip seen by the shell median ${median(samples.map((s) => s.providerMs)).toFixed(1)} ms (its own handling ${median(handling).toFixed(1)} ms), subtracted per sale; bridge answer → digits in the DOM median ${median(samples.map((s) => s.renderMs)).toFixed(1)} ms`,
      },
    ];
  } finally {
    await browser?.close();
    await web?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(preloadDir, { recursive: true, force: true });
  }
}
