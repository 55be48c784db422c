/**
 * Memory figure: the main process's resident set size after a full sync of 100,000
 * transactions. The sync runs in a child process (bench/memory-child.ts, under --expose-gc) so
 * that the figure is that process's RSS, not the bench runner's: the whole core (createCore, the
 * sandbox profile) on a data directory whose embedded sandbox provider was seeded directly with
 * 100,000 transfers (bench/sandbox-seed.ts, as the sync bench seeds its sandbox), with the
 * scheduled and start-up syncs turned off in its settings so that nothing syncs before the
 * measurement. The sync is started through the bridge handler (syncTransactions, mode full) and
 * runs as the app runs it: the runtime's client, page size and read-ahead, each row through the
 * engine's recordListedTransaction.
 *
 * The child is built as the desktop app builds its main process (Vite, dependencies external)
 * and runs on plain Node: under tsx its loader alone adds about 35 MB.
 *
 * Figures: RSS right after the sync, and after full GCs; beside each, the same child's RSS
 * before the sync (after start-up and the same GCs), each the median of five children (each on
 * its own freshly seeded data directory). The ratio to the same process before the sync is
 * judged: a sync that streams its pages keeps it small whatever the machine; the absolute
 * 150 MB of the README is printed. The note has the peak during the sync (sampled every 20 ms),
 * the V8 heap and where the resident pages are (/proc/self/status), of the median child. Quick
 * mode (CI): three children of 50,000 transactions.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { viteAliases } from '../vite.aliases';
import { SANDBOX_DB_FILE } from '#main/config/data-files';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore } from '#main/settings/settings-store';
import {
  median,
  repetitions,
  summarise,
  type BenchContext,
  type BenchFigure,
} from './bench-figure';
import { seedSandboxTransactions } from './sandbox-seed';

const TOTAL = 100_000;
const QUICK_TOTAL = 50_000;
const ACCOUNTS = 4;
const TARGET_MB = 150;
/**
 * RSS right after the sync at most 1.9× the same process before it (garbage not yet collected is
 * in it), and 1.6× after full GCs: what V8 keeps of the heap it grew, and the page caches.
 * Earlier runs: 1.65× and 1.47×.
 */
const AFTER_RATIO = 1.9;
const AFTER_GC_RATIO = 1.6;
const root = fileURLToPath(new URL('..', import.meta.url));
/** Inside node_modules so that the bundle's external imports resolve to this project's packages. */
const BUNDLE_DIR = join(root, 'node_modules', '.cache', 'till-bench-memory');

/**
 * The child built as the desktop app builds its main process (electron.vite.config.ts: Vite, every
 * dependency external), so that it runs on plain Node without tsx's loader (about 35 MB of RSS
 * that the shipped app does not have).
 */
async function buildChild(): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    resolve: { alias: viteAliases('#shared', '#main') },
    build: {
      ssr: join(root, 'bench', 'memory-child.ts'),
      outDir: BUNDLE_DIR,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: '[name].mjs' } },
    },
  });
  return join(BUNDLE_DIR, 'memory-child.mjs');
}

interface ChildReport {
  readonly before: number;
  readonly after: number;
  readonly afterGc: number;
  readonly peak: number;
  readonly heapBefore: number;
  readonly heapAfter: number;
  readonly heapAfterGc: number;
  readonly partsBefore: Readonly<Record<string, number>>;
  readonly partsAfter: Readonly<Record<string, number>>;
  readonly partsAfterGc: Readonly<Record<string, number>>;
  readonly seconds: number;
  readonly status: string;
  readonly inserted: number;
  readonly error: string | null;
}

function runChild(args: readonly string[]): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`memory child exited with ${code}\n${stdout}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(line) as ChildReport);
    });
  });
}

/** One child on a freshly seeded data directory of `total` transfers. */
async function oneChild(bundle: string, total: number): Promise<ChildReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-bench-memory-'));
  try {
    const opened = openNodeSettings(dataDir, '0.0.0-bench');
    createSettingsStore(opened.backend).update({ sync: { intervalMinutes: 0, onStartup: false } });
    seedSandboxTransactions(join(dataDir, SANDBOX_DB_FILE), { total, accounts: ACCOUNTS });
    const report = await runChild([bundle, dataDir]);
    if (report.status !== 'complete' || report.inserted !== total) {
      throw new Error(
        `the sync did not complete: ${report.status}, ${report.inserted} rows ${report.error ?? ''}`,
      );
    }
    return report;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const total = context.quick ? QUICK_TOTAL : TOTAL;
  const children = repetitions(context);
  try {
    const bundle = await buildChild();
    const reports: ChildReport[] = [];
    for (let i = 0; i < children; i++) reports.push(await oneChild(bundle, total));
    const after = summarise(reports.map((r) => r.after));
    const afterGc = summarise(reports.map((r) => r.afterGc));
    const before = summarise(reports.map((r) => r.before));
    const middle = median(reports.map((r) => r.after));
    const report = reports.find((r) => r.after === middle) ?? reports[0];
    if (!report) throw new Error('no memory child ran');
    const part = (parts: Readonly<Record<string, number>>, key: string): string =>
      (parts[key] ?? Number.NaN).toFixed(0);
    const common = `${children} children, each on plain Node (bundled as the desktop main process is, no tsx), whole core in the sandbox profile, its embedded sandbox serving the ${total.toLocaleString('en')} transfers from the same process. Child with the median RSS after the sync: sync ${report.seconds.toFixed(1)} s; peak during the sync ${report.peak.toFixed(0)} MB; V8 heap used ${report.heapBefore.toFixed(0)} → ${report.heapAfter.toFixed(0)} → ${report.heapAfterGc.toFixed(0)} MB after GC, heap reserved ${part(report.partsBefore, 'heapTotal')} → ${part(report.partsAfter, 'heapTotal')} → ${part(report.partsAfterGc, 'heapTotal')} MB; anonymous RSS ${part(report.partsBefore, 'RssAnon')} → ${part(report.partsAfter, 'RssAnon')} → ${part(report.partsAfterGc, 'RssAnon')} MB, file-backed (node binary, native addons) ${part(report.partsAfterGc, 'RssFile')} MB`;
    return [
      {
        name: `main-process RSS after syncing ${total.toLocaleString('en')} transactions`,
        value: after.median,
        spread: after.spread,
        unit: 'MB',
        baselineName: 'same process before the sync',
        baseline: before.median,
        baselineSpread: before.spread,
        ratioTarget: { max: AFTER_RATIO },
        absoluteTarget: { text: `< ${TARGET_MB} MB`, met: after.median < TARGET_MB },
        note: common,
      },
      {
        name: 'main-process RSS after the sync and a full GC',
        value: afterGc.median,
        spread: afterGc.spread,
        unit: 'MB',
        baselineName: 'same process before the sync',
        baseline: before.median,
        baselineSpread: before.spread,
        ratioTarget: { max: AFTER_GC_RATIO },
        absoluteTarget: { text: `< ${TARGET_MB} MB`, met: afterGc.median < TARGET_MB },
      },
    ];
  } finally {
    rmSync(BUNDLE_DIR, { recursive: true, force: true });
  }
}
