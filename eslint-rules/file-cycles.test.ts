import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCycles, importsOf, renderFileCycles } from './file-cycles.js';

const root = resolve(import.meta.dirname, '..');

describe('import cycles between the files of src/', () => {
  it('has no runtime cycle (a cycle through type imports only is reported, not refused)', () => {
    const cycles = fileCycles(root);
    expect(cycles.runtime, renderFileCycles(cycles)).toEqual([]);
    // The check reads the repository: the known type-only cycles are found.
    expect(cycles.typeOnly).toContainEqual([
      'src/shared/bridge/contract.ts',
      'src/shared/bridge/window-api.ts',
    ]);
  });
});

describe('importsOf', () => {
  it('tells the imports erased at runtime from the ones that run', () => {
    const code = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { type D, e } from './c';",
      "import f from './d';",
      "import './e';",
      "export type { G } from './f';",
      "export { h } from './g';",
      "export * from './h';",
      "type I = import('./i').I;",
      "const j = () => import('./j');",
    ].join('\n');
    expect(importsOf(code, 'x.ts')).toEqual([
      { source: './a', typeOnly: true },
      { source: './b', typeOnly: true },
      { source: './c', typeOnly: false },
      { source: './d', typeOnly: false },
      { source: './e', typeOnly: false },
      { source: './f', typeOnly: true },
      { source: './g', typeOnly: false },
      { source: './h', typeOnly: false },
      { source: './i', typeOnly: true },
      { source: './j', typeOnly: false },
    ]);
  });
});

describe('fileCycles on planted files', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function plant(files: Record<string, string>) {
    dir = mkdtempSync(join(tmpdir(), 'file-cycles-'));
    writeFileSync(
      join(dir, 'tsconfig.paths.json'),
      JSON.stringify({ compilerOptions: { paths: { '#shared/*': ['./src/shared/*'] } } }),
    );
    for (const [path, code] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), code);
    }
    return fileCycles(dir);
  }

  it('fails on a runtime cycle through an alias, a folder index and a .tsx file', () => {
    const cycles = plant({
      'src/renderer/screen.tsx': "import { rule } from '#shared/rules';\nexport const C = 1;\n",
      'src/shared/rules/index.ts': "export { rule } from './rule';\n",
      'src/shared/rules/rule.ts':
        "import { C } from '../../renderer/screen';\nexport const rule = C;\n",
      'src/shared/alone.ts': "import { rule } from './rules';\n",
    });
    expect(cycles.runtime).toEqual([
      ['src/renderer/screen.tsx', 'src/shared/rules/index.ts', 'src/shared/rules/rule.ts'],
    ]);
    expect(cycles.typeOnly).toEqual([]);
  });

  it('reports a cycle closed by a type import as type-only', () => {
    const cycles = plant({
      'src/shared/a.ts': "import { b } from './b';\nexport type A = string;\n",
      'src/shared/b.ts': "import type { A } from './a';\nexport const b: A = '';\n",
      'src/shared/c.ts': "import { d, type D } from './d';\nexport const c = 1;\n",
      'src/shared/d.ts': "import { c } from './c';\nexport const d = c;\nexport type D = 1;\n",
    });
    expect(cycles.runtime).toEqual([['src/shared/c.ts', 'src/shared/d.ts']]);
    expect(cycles.typeOnly).toEqual([['src/shared/a.ts', 'src/shared/b.ts']]);
    expect(renderFileCycles(cycles)).toMatch(
      /runtime import cycles between files: 1\n {2}src\/shared\/c\.ts ⇄ src\/shared\/d\.ts\ntype-only import cycles between files \(reported, allowed\): 1/,
    );
  });
});
