/**
 * What a Vite build of the renderer is made of, read from the build's own output (each chunk's
 * module ids and imports), not guessed from the minified text: which packages each chunk holds,
 * and which chunks a page loads at once (the entry and what it imports statically) and which it
 * loads later, by `import()` (a lazy screen and what only it needs).
 */
import { build, type Plugin, type Rollup } from 'vite';
import { rendererConfig } from '../../vite.renderer.config';

export interface BuiltChunk {
  readonly fileName: string;
  /** npm packages with a module in this chunk. */
  readonly packages: ReadonlySet<string>;
  /**
   * The entries that load this chunk: 'index' for the page's own script, else the source file
   * (relative to src/renderer/src) of each lazily imported module that needs it.
   */
  readonly loadedBy: readonly string[];
}

/** The package a module id belongs to ('…/node_modules/zod/v4/core/api.js' → 'zod'), or null. */
export function packageOfModule(id: string): string | null {
  const at = id.lastIndexOf('/node_modules/');
  if (at < 0) return null;
  const parts = id.slice(at + '/node_modules/'.length).split('/');
  return (parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]) ?? null;
}

function entryName(chunk: Rollup.OutputChunk): string {
  if (chunk.isEntry) return 'index';
  const id = chunk.facadeModuleId ?? chunk.fileName;
  const at = id.indexOf('/src/renderer/src/');
  return at < 0 ? id : id.slice(at + '/src/renderer/src/'.length);
}

/** Every chunk with the entries that load it (each entry's static imports, followed through). */
export function chunksOf(output: Rollup.RollupOutput): readonly BuiltChunk[] {
  const chunks = new Map<string, Rollup.OutputChunk>();
  for (const item of output.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  const loadedBy = new Map<string, Set<string>>();
  for (const entry of chunks.values()) {
    if (!entry.isEntry && !entry.isDynamicEntry) continue;
    const name = entryName(entry);
    const todo = [entry.fileName];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      const by = loadedBy.get(file) ?? new Set<string>();
      if (by.has(name)) continue;
      by.add(name);
      loadedBy.set(file, by);
      todo.push(...(chunks.get(file)?.imports ?? []));
    }
  }
  return [...chunks.values()].map((chunk) => ({
    fileName: chunk.fileName,
    packages: new Set(chunk.moduleIds.map(packageOfModule).filter((name) => name !== null)),
    loadedBy: [...(loadedBy.get(chunk.fileName) ?? [])].sort(),
  }));
}

/**
 * The renderer built into memory with vite.renderer.config.ts, as both shells build it (the
 * browser shell's scripts/renderer-bundle.ts and electron-vite's renderer). `adjust` may swap
 * the plugins, to plant a fault.
 */
export async function buildRenderer(
  adjust: (plugins: readonly Plugin[]) => readonly Plugin[] = (plugins) => plugins,
): Promise<readonly BuiltChunk[]> {
  // react() gives a list of plugins: the config's list flattened, as Vite itself reads it.
  const plugins = (rendererConfig.plugins ?? []).flat(3).filter(Boolean) as Plugin[];
  const output = await build({
    ...rendererConfig,
    configFile: false,
    logLevel: 'warn',
    plugins: [...adjust(plugins)],
    build: { ...rendererConfig.build, write: false },
  });
  if (Array.isArray(output) || !('output' in output)) {
    throw new Error('expected one build output, written to memory');
  }
  return chunksOf(output);
}
