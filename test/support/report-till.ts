/**
 * The owner's report end to end: `npm run web` on a fresh data directory (which `prepare` may
 * seed first, e.g. the till's own database file), real Chromium at a desk-sized window that
 * accepts downloads, the till open, its page errors collected.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startJsonChild, type JsonChild } from './child-json';
import { launchChromium } from './chromium';
import type { WebShellLine } from './web-till';

const root = resolve(import.meta.dirname, '../..');
const SETTLE_MS = 10_000;
/** Where the report tests leave their pictures (not docs/screens: these are evidence). */
export const E2E_ARTIFACTS = join(root, 'test-results', 'e2e');

export interface ReportTill {
  readonly web: JsonChild<WebShellLine>;
  readonly dataDir: string;
  readonly till: Page;
  /** The till page's uncaught errors. */
  readonly problems: string[];
  stop(): Promise<void>;
}

export interface ReportTillOptions {
  /** Runs on the empty data directory before the shell starts (seeds its database file). */
  readonly prepare?: (dataDir: string) => void;
  /** A script every page of the window runs first (as text: the tests have no DOM types). */
  readonly initScript?: string;
}

export async function startReportTill(
  name: string,
  options: ReportTillOptions = {},
): Promise<ReportTill> {
  mkdirSync(E2E_ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), `till-e2e-${name}-`));
  let web: JsonChild<WebShellLine> | null = null;
  let browser: Browser | null = null;
  const stop = async (): Promise<void> => {
    await browser?.close();
    await web?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    options.prepare?.(dataDir);
    web = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      ['--port', '0', '--data-dir', dataDir],
      { cwd: root, timeoutMs: 120_000 },
    );
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    if (options.initScript) await context.addInitScript(options.initScript);
    const till = await context.newPage();
    const problems: string[] = [];
    till.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await till.goto(web.first.url);
    await till.getByTestId('environment-badge').waitFor({ timeout: SETTLE_MS });
    return { web, dataDir, till, problems, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
