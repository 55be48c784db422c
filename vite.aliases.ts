import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Alias } from 'vite';

/** The path aliases: `#shared/…` is src/shared, `#main/…` src/main, `#support/…` test/support. */
export type AliasName = '#shared' | '#main' | '#support';

interface PathsFile {
  readonly compilerOptions: { readonly paths: Readonly<Record<string, readonly string[]>> };
}

const root = import.meta.dirname;
// Defined once, in tsconfig.paths.json (tsc and tsx read it); each Vite build takes only the
// aliases its process may use, so the renderer's bundle cannot resolve `#main/…` at all.
const { paths } = (
  JSON.parse(readFileSync(resolve(root, 'tsconfig.paths.json'), 'utf8')) as PathsFile
).compilerOptions;

/** Vite `resolve.alias` entries for the named aliases. */
export function viteAliases(...names: readonly AliasName[]): Alias[] {
  return names.map((name) => {
    const target = paths[`${name}/*`]?.[0];
    if (target === undefined) throw new Error(`tsconfig.paths.json has no ${name}/*`);
    return {
      find: new RegExp(`^${name}/`),
      replacement: `${resolve(root, target.replace(/\*$/, ''))}/`,
    };
  });
}
