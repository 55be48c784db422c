/**
 * The desktop app as `npm run build` (electron-vite build) leaves it in out/: what the tests of
 * the built app read. `npm test` builds before the suite; a test run on its own after a source
 * change is told to build, rather than two test files building into out/ at once.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

export const DESKTOP_BUILD = {
  main: join(PROJECT_ROOT, 'out/main/index.js'),
  preload: join(PROJECT_ROOT, 'out/preload/index.cjs'),
  displayPreload: join(PROJECT_ROOT, 'out/preload/display.cjs'),
  rendererIndex: join(PROJECT_ROOT, 'out/renderer/index.html'),
} as const;

/** What the build is made from: a change to any of these makes out/ stale. */
const BUILD_INPUTS = [
  'src/main',
  'src/preload',
  'src/shared',
  'src/renderer',
  'electron.vite.config.ts',
  'vite.renderer.config.ts',
  'vite.aliases.ts',
  'vite.schema-data.ts',
];

function newestInput(path: string): { path: string; mtimeMs: number } {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  let newest = { path, mtimeMs: 0 };
  // Tests beside the sources are not built into the app.
  for (const entry of readdirSync(path).filter((name) => !/\.test\.tsx?$/.test(name))) {
    const found = newestInput(join(path, entry));
    if (found.mtimeMs > newest.mtimeMs) newest = found;
  }
  return newest;
}

/** Throws unless out/ holds a build at least as new as every source it is made from. */
export function assertDesktopBuildCurrent(): typeof DESKTOP_BUILD {
  const outputs = Object.values(DESKTOP_BUILD).map((path) => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      throw new Error(`${path} is missing: run \`npm run build\` (npm test does) first.`);
    }
  });
  const built = Math.min(...outputs);
  const newest = BUILD_INPUTS.map((input) => newestInput(join(PROJECT_ROOT, input))).reduce(
    (a, b) => (b.mtimeMs > a.mtimeMs ? b : a),
  );
  if (newest.mtimeMs > built) {
    throw new Error(
      `out/ is older than ${newest.path}: run \`npm run build\` (npm test does) first.`,
    );
  }
  return DESKTOP_BUILD;
}
