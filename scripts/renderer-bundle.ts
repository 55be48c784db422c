import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { rendererConfig } from '../vite.renderer.config';

export const RENDERER_OUT_DIR = resolve(import.meta.dirname, '../out/renderer');
const SOURCE_DIRS = ['src/renderer', 'src/shared'].map((dir) =>
  resolve(import.meta.dirname, '..', dir),
);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function bundleTime(outDir: string): number {
  try {
    return statSync(join(outDir, 'index.html')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Builds the renderer bundle when it is missing or older than its sources; returns its folder. */
export async function ensureRendererBundle(
  outDir = RENDERER_OUT_DIR,
  force = false,
): Promise<string> {
  const sourcesTime = Math.max(...SOURCE_DIRS.map(newestMtime));
  if (force || bundleTime(outDir) < sourcesTime) {
    await build({
      ...rendererConfig,
      configFile: false,
      logLevel: 'warn',
      build: { ...rendererConfig.build, outDir, emptyOutDir: true },
    });
  }
  return outDir;
}
