/**
 * Bundle figure: the renderer's initial load, gzipped. A fresh production build with
 * scripts/renderer-bundle.ts (ensureRendererBundle into a temp dir, forced), then every script,
 * module preload and stylesheet that the built index.html references (not the chunks loaded
 * later by dynamic import), each gzipped at level 9 (what a web server's static gzip would send;
 * the desktop app reads them from disk). Beside it, in the same run: the same files uncompressed.
 * The lazy chunks are listed in the note.
 *
 * Five builds, each into its own temp dir: a build should be deterministic, and the spread shows
 * it (a spread wider than 0 is a finding in itself). A size is not a speed: the machine's load
 * does not change it, so its target is a bound, judged as such; the gzip ratio is printed only
 * (how well the code compresses says nothing about whether it is too big).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureRendererBundle } from '../scripts/renderer-bundle';
import { REPETITIONS, summarise, type BenchFigure } from './bench-figure';

const TARGET_KB = 300;
const KB = 1024;

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

interface Build {
  readonly gzipped: number;
  readonly raw: number;
  readonly seconds: number;
  readonly parts: readonly string[];
  readonly lazy: readonly string[];
}

async function buildOnce(): Promise<Build> {
  const outDir = mkdtempSync(join(tmpdir(), 'till-bench-bundle-'));
  try {
    const started = performance.now();
    await ensureRendererBundle(outDir, true);
    const seconds = (performance.now() - started) / 1000;
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
    return { gzipped, raw, seconds, parts, lazy };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<readonly BenchFigure[]> {
  const builds: Build[] = [];
  for (let i = 0; i < REPETITIONS; i++) builds.push(await buildOnce());
  const gzipped = summarise(builds.map((build) => build.gzipped));
  const raw = summarise(builds.map((build) => build.raw));
  const last = builds.at(-1);
  const met = gzipped.spread.max < TARGET_KB;
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
      note: `${REPETITIONS} fresh production builds (${builds.map((b) => b.seconds.toFixed(1)).join(', ')} s); initial: ${last?.parts.join('; ') ?? ''}; loaded later (not counted): ${last?.lazy.join('; ') || 'none'}${
        met ? '' : `; over by ${(gzipped.spread.max - TARGET_KB).toFixed(1)} KB`
      }`,
    },
  ];
}
