import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreRowImports, drawHouse, renderHouse } from './house.js';
import { MAIN_FOLDERS } from './layering.js';

const root = resolve(import.meta.dirname, '..');

describe('the house drawn from the imports of src/main', () => {
  const house = drawHouse(root);

  it('gives every folder of src/main a layer', () => {
    expect(house.folders.filter((f) => f.layer === null).map((f) => f.folder)).toEqual([]);
    expect(house.folders.length).toBeGreaterThan(20);
  });

  it('has no arrow up and no cycle between folders', () => {
    const up = house.arrows.filter((a) => a.up).flatMap((a) => a.imports);
    expect(up, renderHouse(house)).toEqual([]);
    expect(house.cycles).toEqual([]);
    // The drawing saw the imports (the core composes most of the house).
    expect(house.arrows.filter((a) => a.from.folder === 'core').length).toBeGreaterThan(10);
  });
});

describe('the core composes', () => {
  it('reads or writes no rows: no core file imports a repository, a query or the inbox', () => {
    expect(coreRowImports(root)).toEqual([]);
  });
});

describe('drawHouse on a planted house', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function plant(files: Record<string, string>) {
    dir = mkdtempSync(join(tmpdir(), 'house-'));
    writeFileSync(
      join(dir, 'tsconfig.paths.json'),
      JSON.stringify({ compilerOptions: { paths: { '#main/*': ['./src/main/*'] } } }),
    );
    for (const [path, code] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), code);
    }
    return drawHouse(dir);
  }

  it('finds an arrow up, a cycle inside one layer and a folder with no layer', () => {
    expect(MAIN_FOLDERS.sync).toBe(MAIN_FOLDERS.engine);
    const house = plant({
      'src/main/store/sales-repo.ts': "import { x } from '#main/engine/sales-engine';\n",
      'src/main/engine/sales-engine.ts': "import { y } from '../sync/sync';\nexport const x = 1;\n",
      'src/main/sync/sync.ts': "import type { X } from '#main/engine/sales-engine';\n",
      'src/main/sync/sync.test.ts': "import { z } from '#main/web/web-server';\n",
      'src/main/widgets/gadget.ts': "import { openDb } from '#main/store/database';\n",
    });
    const up = house.arrows.filter((a) => a.up);
    expect(up.map((a) => `${a.from.folder} → ${a.to.folder}`).sort()).toEqual([
      'store → engine',
      'widgets → store',
    ]);
    expect(house.cycles).toEqual([['engine', 'sync']]);
    expect(house.folders.find((f) => f.folder === 'widgets')?.layer).toBeNull();
    // Tests are not part of the house: sync.test.ts's import of web drew no arrow.
    expect(house.arrows.some((a) => a.to.folder === 'web')).toBe(false);
    expect(renderHouse(house)).toMatch(/arrows up: 2 \(2 imports\)\ncycles between folders: 1/);
  });

  it('finds a core file reading rows, typed or not, and lets the core open and keep the store', () => {
    plant({
      'src/main/core/runtime.ts':
        "import { openDatabase } from '#main/store/database';\n" +
        "import { createStoreSpace } from '../store/store-space';\n",
      'src/main/core/handler-table.ts': "import { listOpenSales } from '#main/store/sales-repo';\n",
      'src/main/core/row-views.ts': "import type { AlertRow } from '../store/alerts-repo';\n",
      'src/main/core/runtime.test.ts': "import { getSale } from '#main/store/sales-repo';\n",
      'src/main/engine/activity.ts':
        "import { listRecentInflows } from '#main/store/inflows-repo';\n",
    });
    expect(coreRowImports(dir)).toEqual([
      'core/handler-table.ts → #main/store/sales-repo',
      'core/row-views.ts → ../store/alerts-repo',
    ]);
  });
});
