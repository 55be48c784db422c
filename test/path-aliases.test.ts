import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { viteAliases } from '../vite.aliases';

const root = resolve(import.meta.dirname, '..');

interface Tsconfig {
  readonly extends?: string | readonly string[];
  readonly compilerOptions?: { readonly paths?: Readonly<Record<string, readonly string[]>> };
}

/** A tsconfig file is JSON with comments: its whole-line `//` comments are dropped first. */
function tsconfig(name: string): Tsconfig {
  const text = readFileSync(resolve(root, name), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  return JSON.parse(text) as Tsconfig;
}

describe('path aliases', () => {
  const paths = tsconfig('tsconfig.paths.json').compilerOptions?.paths ?? {};

  it('are defined once, for tsc (node project) and tsx (the root tsconfig.json)', () => {
    expect(Object.keys(paths).sort()).toEqual(['#main/*', '#shared/*', '#support/*']);
    expect(tsconfig('tsconfig.json').extends).toBe('./tsconfig.paths.json');
    expect(tsconfig('tsconfig.node.json').extends).toContain('./tsconfig.paths.json');
  });

  it('give the renderer src/shared and its own test helpers, never src/main', () => {
    const web = tsconfig('tsconfig.web.json').compilerOptions?.paths ?? {};
    expect(web).toEqual({
      '#shared/*': paths['#shared/*'],
      '#support/renderer/*': ['./test/support/renderer/*'],
    });
  });

  it('resolve to the same folders under Vite', () => {
    const [shared, main, support] = viteAliases('#shared', '#main', '#support');
    expect(String(shared?.find)).toBe('/^#shared\\//');
    expect(shared?.replacement).toBe(`${resolve(root, 'src/shared')}/`);
    expect(main?.replacement).toBe(`${resolve(root, 'src/main')}/`);
    expect(support?.replacement).toBe(`${resolve(root, 'test/support')}/`);
  });
});
