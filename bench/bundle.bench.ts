/**
 * Bundle figure: the renderer's initial load, gzipped. A fresh production build with
 * scripts/renderer-bundle.ts (ensureRendererBundle into a temp dir, forced), then every script,
 * module preload and stylesheet that the built index.html references (not the chunks loaded
 * later by dynamic import), each gzipped at level 9 (what a web server's static gzip would send;
 * the desktop app reads them from disk). Beside it, in the same run: the same files uncompressed.
 * The lazy chunks are listed in the note.
 *
 * Five builds (three in quick mode), each into its own temp dir: a build should be deterministic,
 * and the spread shows it (a spread wider than 0 is a finding in itself). A size is not a speed:
 * the machine's load does not change it, so its target is a bound, judged as such; the gzip ratio
 * is printed only (how well the code compresses says nothing about whether it is too big).
 *
 * Beside it, the desktop app as `npm run build` makes it (electron-vite's build API into a temp
 * dir, interleaved with the browser builds): its renderer's initial load measured the same way,
 * judged as a ratio to the browser shell's (the same screens, minified alike: ≤ 1.1×), and its
 * sandboxed preload, judged as a ratio to its own source in src/preload (the bridge and the
 * channel names, no library: ≤ 4×; with zod bundled it was 205 KB, over 100×).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build as buildDesktop } from 'electron-vite';
import { ensureRendererBundle } from '../scripts/renderer-bundle';
import { repetitions, summarise, type BenchContext, type BenchFigure } from './bench-figure';

const TARGET_KB = 300;
/** Desktop renderer gzip over the browser shell's: the same screens, minified alike. */
const DESKTOP_RATIO_MAX = 1.1;
/** Built preload over its source: the channel names grow it a little, a bundled library 100×. */
const PRELOAD_RATIO_MAX = 4;
const KB = 1024;
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Local files the page loads at once: script src, modulepreload and stylesheet hrefs. */
export function initialAssets(html: string): readonly string[] {
  const found = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag);
    const rel = /\brel\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1]?.toLowerCase();
    if (!isScript && rel !== 'stylesheet' && rel !== 'modulepreload') continue;
    const url = /\b(?:src|href)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (url && !/^[a-z]+:|^\/\//i.test(url)) found.add(url.replace(/^\.?\//, ''));
  }
  return [...found];
}

function gzipKb(bytes: Buffer): number {
  return gzipSync(bytes, { level: 9 }).length / KB;
}

interface Measured {
  readonly gzipped: number;
  readonly raw: number;
  readonly parts: readonly string[];
  readonly lazy: readonly string[];
}

interface Build extends Measured {
  readonly seconds: number;
}

interface DesktopBuild {
  readonly seconds: number;
  readonly renderer: Measured;
  readonly preloadRaw: number;
  readonly preloadGzipped: number;
}

/** The initial load of a built renderer folder, and its lazy chunks (for the note). */
function measureRenderer(outDir: string): Measured {
  const initial = initialAssets(readFileSync(join(outDir, 'index.html'), 'utf8'));
  if (!initial.some((file) => file.endsWith('.js'))) {
    throw new Error(`no script found in the built index.html: ${initial.join(', ')}`);
  }
  let gzipped = 0;
  let raw = 0;
  const parts: string[] = [];
  for (const file of initial) {
    const bytes = readFileSync(join(outDir, file));
    const size = gzipKb(bytes);
    gzipped += size;
    raw += bytes.length / KB;
    parts.push(`${file} ${(bytes.length / KB).toFixed(1)} → ${size.toFixed(1)} KB`);
  }
  const assetsDir = join(outDir, 'assets');
  const lazy = readdirSync(assetsDir)
    .map((name) => `assets/${name}`)
    .filter((file) => /\.(js|css)$/.test(file) && !initial.includes(file))
    .map((file) => {
      const bytes = readFileSync(join(outDir, file));
      return `${file} ${(statSync(join(outDir, file)).size / KB).toFixed(1)} → ${gzipKb(bytes).toFixed(1)} KB`;
    });
  return { gzipped, raw, parts, lazy };
}

async function inTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The browser shell's bundle: scripts/renderer-bundle.ts, as `npm run web` builds it. */
function buildBrowserOnce(): Promise<Build> {
  return inTempDir('till-bench-bundle-', async (outDir) => {
    const started = performance.now();
    await ensureRendererBundle(outDir, true);
    const seconds = (performance.now() - started) / 1000;
    return { ...measureRenderer(outDir), seconds };
  });
}

/** The desktop app: electron-vite's build of electron.vite.config.ts, as `npm run build` does. */
function buildDesktopOnce(): Promise<DesktopBuild> {
  return inTempDir('till-bench-desktop-', async (outDir) => {
    const started = performance.now();
    await buildDesktop({
      root: PROJECT_ROOT,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    const seconds = (performance.now() - started) / 1000;
    const preload = readFileSync(join(outDir, 'preload', 'index.cjs'));
    return {
      seconds,
      renderer: measureRenderer(join(outDir, 'renderer')),
      preloadRaw: preload.length / KB,
      preloadGzipped: gzipKb(preload),
    };
  });
}

/** The preload's own source (src/preload, tests aside): what the built preload is judged against. */
function preloadSourceKb(): { kb: number; files: readonly string[] } {
  const dir = join(PROJECT_ROOT, 'src', 'preload');
  const files = readdirSync(dir).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  );
  const bytes = files.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  return { kb: bytes / KB, files };
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const rounds = repetitions(context);
  const builds: Build[] = [];
  const desktops: DesktopBuild[] = [];
  // Interleaved, so that the two builds see the same machine.
  for (let i = 0; i < rounds; i++) {
    builds.push(await buildBrowserOnce());
    desktops.push(await buildDesktopOnce());
  }
  const gzipped = summarise(builds.map((build) => build.gzipped));
  const raw = summarise(builds.map((build) => build.raw));
  const last = builds.at(-1);
  const met = gzipped.spread.max < TARGET_KB;
  const desktopGzipped = summarise(desktops.map((build) => build.renderer.gzipped));
  const preloadRaw = summarise(desktops.map((build) => build.preloadRaw));
  const lastDesktop = desktops.at(-1);
  const source = preloadSourceKb();
  const sourceSpread = { min: source.kb, max: source.kb, n: 1 };
  return [
    {
      name: 'renderer initial load, gzip (JS + CSS of index.html)',
      value: gzipped.median,
      spread: gzipped.spread,
      unit: 'KB',
      baselineName: 'same files uncompressed',
      baseline: raw.median,
      baselineSpread: raw.spread,
      bound: { max: TARGET_KB, why: 'a size in bytes, which no machine load changes' },
      note: `${rounds} fresh production builds (${builds.map((b) => b.seconds.toFixed(1)).join(', ')} s); initial: ${last?.parts.join('; ') ?? ''}; loaded later (not counted): ${last?.lazy.join('; ') || 'none'}${
        met ? '' : `; over by ${(gzipped.spread.max - TARGET_KB).toFixed(1)} KB`
      }`,
    },
    {
      name: 'desktop renderer initial load, gzip (electron-vite build)',
      value: desktopGzipped.median,
      spread: desktopGzipped.spread,
      unit: 'KB',
      baselineName: 'browser shell renderer, gzip (same run)',
      baseline: gzipped.median,
      baselineSpread: gzipped.spread,
      // The same screens: the desktop app must not load more than the browser shell does.
      ratioTarget: { max: DESKTOP_RATIO_MAX },
      note: `${rounds} electron-vite builds of main, preload and renderer (${desktops.map((b) => b.seconds.toFixed(1)).join(', ')} s); initial: ${lastDesktop?.renderer.parts.join('; ') ?? ''}; loaded later (not counted): ${lastDesktop?.renderer.lazy.join('; ') || 'none'}`,
    },
    {
      name: 'desktop preload, raw',
      value: preloadRaw.median,
      spread: preloadRaw.spread,
      unit: 'KB',
      baselineName: `its source (src/preload: ${source.files.join(', ')})`,
      baseline: source.kb,
      baselineSpread: sourceSpread,
      // The bridge and the channel names, not a library: about the size of what it is made of.
      ratioTarget: { max: PRELOAD_RATIO_MAX },
      note: `gzip ${lastDesktop?.preloadGzipped.toFixed(1) ?? '?'} KB; read from disk by every window before the page starts`,
    },
  ];
}
