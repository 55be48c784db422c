import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layeringRule } from './layering.js';

const root = resolve(import.meta.dirname, '..');
const at = (path: string) => resolve(root, path);

/** Each [file, code] as an invalid case with one report whose reason names the layers. */
function upImports(cases: ReadonlyArray<readonly [string, string]>) {
  return cases.map(([file, code]) => ({
    filename: at(file),
    code,
    errors: [{ message: /must not import from src\/main\/.*imports run down/ }],
  }));
}

/** Each [file, code] as an invalid case: a test helper reached by a relative path. */
function relativeSupportImports(cases: ReadonlyArray<readonly [string, string]>) {
  return cases.map(([file, code]) => ({
    filename: at(file),
    code,
    errors: [{ message: /#support/ }],
  }));
}

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
});

describe('layering rule', () => {
  // RuleTester asserts that every valid case has no report and every invalid case has exactly
  // the listed reports, so each case below can fail.
  tester.run('layering', layeringRule, {
    valid: [
      {
        filename: at('src/shared/money.ts'),
        code: "import { z } from 'zod'; import { x } from './csp';",
      },
      { filename: at('src/shared/money.test.ts'), code: "import { it } from 'vitest';" },
      {
        filename: at('src/main/provider/client.ts'),
        code: "import { readFileSync } from 'node:fs'; import { nairaToKobo } from '../../shared/money';",
      },
      {
        filename: at('src/main/electron/main.ts'),
        code: "import { app } from 'electron'; import { createCore } from '../core/create-core';",
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import { contextBridge } from 'electron'; import { buildWindowApi } from '../shared/bridge/contract';",
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import { useState } from 'react'; import type { AppInfo } from '../../shared/bridge/contract'; import './styles.css';",
      },
      {
        filename: at('scripts/web.ts'),
        code: "import { createCore } from '../src/main/core/create-core'; import 'electron';",
      },
      // test/support is for tests (a *.test.ts(x) file anywhere, test/**) and benchmarks.
      {
        filename: at('test/faults/campaign.ts'),
        code: "import { createPrng } from '#support/random'; import { drawScript } from './script';",
      },
      {
        filename: at('test/support/hub-shell.ts'),
        code: "import { callTill } from './web-till'; import { launchChromium } from './chromium';",
      },
      {
        filename: at('test/support/sync-world.ts'),
        code: "import { createTransactionSync } from '../../src/main/sync/sync'; import { ManualScheduler } from './clock';",
      },
      // The path aliases are the folders they stand for (tsconfig.paths.json).
      {
        filename: at('src/main/engine/sales-engine.ts'),
        code: "import { nairaToKobo } from '#shared/money'; import { openDb } from '#main/store/database';",
      },
      {
        filename: at('src/main/electron/main.ts'),
        code: "import { createCore } from '#main/core/create-core'; import { x } from '#main/electron/ipc';",
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import { buildWindowApi } from '#shared/bridge/contract';",
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import type { AppInfo } from '#shared/bridge/contract';",
      },
      {
        filename: at('src/renderer/src/app.test.tsx'),
        code: "import { createFakeBridge } from '#support/renderer/fake-bridge';",
      },
      {
        filename: at('src/main/store/repos.test.ts'),
        code: "import { createTestDb } from '#support/database';",
      },
      {
        filename: at('bench/z-report.bench.ts'),
        code: "import { createTestDb } from '#support/database'; import { openDb } from '#main/store/database';",
      },
      {
        filename: at('scripts/web.ts'),
        code: "import { createCore } from '#main/core/create-core';",
      },
      // Inside src/main an import runs down the layers or stays in its own (MAIN_FOLDERS).
      {
        filename: at('src/main/secrets/secret-store.ts'),
        code: "import { x } from '#main/settings/schema'; import { redact } from '../logging/redact';",
      },
      {
        filename: at('src/main/store/database.ts'),
        code: "import type { Scheduler } from '#main/clock/scheduler';",
      },
      {
        filename: at('src/main/webhook/webhook-listener.ts'),
        code: "import { equal } from '#main/security/constant-time'; import { openDb } from '#main/store/database';",
      },
      {
        filename: at('src/main/reports/z-report.ts'),
        code: "import { x } from '#main/sync/sync-runs'; import { y } from '#main/webhook/callback-parser';",
      },
      {
        filename: at('src/main/sync/sync.ts'),
        code: "import type { Scheduler } from '#main/clock/scheduler';",
      },
      {
        filename: at('src/main/auth/roles.ts'),
        code: "import { pairedCounterOf } from './caller'; import { getSale } from '#main/store/sales-repo';",
      },
      {
        filename: at('src/main/hub/hub.ts'),
        code: "import { openDb } from '#main/store/database'; import { x } from '#main/auth/caller';",
      },
      {
        filename: at('src/main/core/create-core.ts'),
        code: "import { createHub } from '#main/hub/hub'; import { planReceiptPrint } from '#main/printing/print-plan'; import '#main/tunnel';",
      },
      {
        filename: at('src/main/bridge/dispatch.ts'),
        code: "import { accessRefusal } from '#main/auth/caller';",
      },
      {
        filename: at('src/main/web/lan-listener.ts'),
        code: "import type { Core } from '#main/core/create-core'; import { sendJson } from './json-io'; import { x } from '#main/hub/hub-types';",
      },
      {
        filename: at('src/main/electron/main.ts'),
        code: "import { startLanService } from '#main/web/lan-service'; import { x } from '#main/desktop/tray-state';",
      },
      // A colocated test may build its world from parts above its folder; the house is drawn
      // from production imports (eslint-rules/house.js).
      {
        filename: at('src/main/store/trend-queries.test.ts'),
        code: "import { registerAttributionSql } from '#main/reports/attribution-sql';",
      },
    ],
    invalid: [
      {
        filename: at('src/shared/money.ts'),
        code: "import { readFileSync } from 'node:fs';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "import path from 'path';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "import { app } from 'electron';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "import { createRoot } from 'react-dom/client';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "export { App } from '../renderer/src/app';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "import type { Core } from '../main/core/create-core';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/provider/client.ts'),
        code: "import { net } from 'electron';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/provider/client.ts'),
        code: "const e = require('electron');",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/provider/client.ts'),
        code: "const e = await import('electron/main');",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/core/create-core.ts'),
        code: "import { registerIpc } from '../electron/ipc';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/core/create-core.ts'),
        code: "import { App } from '../../renderer/src/app';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import { createCore } from '../../main/core/create-core';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import { ipcRenderer } from 'electron';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import fs from 'node:fs';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import x from '../../preload/index';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "type T = typeof import('../../main/core/create-core');",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import { z } from 'zod';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import fs from 'node:fs';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import { dispatch } from '../main/bridge/dispatch';",
        errors: [{ messageId: 'layer' }],
      },
      // An import up the layers of src/main, one per layer, in each import form.
      ...upImports([
        // platform → store, platform → adapters; config → web is the old web-flags → lan-flags.
        ['src/main/clock/scheduler.ts', "import { openDb } from '#main/store/database';"],
        ['src/main/config/web-flags.ts', "import { readLanFlags } from '#main/web/lan-flags';"],
        [
          'src/main/settings/test-connection.ts',
          "import type { ProviderClient } from '../provider/client';",
        ],
        // store → domain, adapters → domain.
        [
          'src/main/store/sales-repo.ts',
          "export { createSalesEngine } from '#main/engine/sales-engine';",
        ],
        ['src/main/provider/client.ts', "const engine = await import('../engine/sales-engine');"],
        ['src/main/sandbox/index.ts', "import { createCore } from '#main/core/create-core';"],
        // domain → hub, domain → core: auth → bridge is the old caller's place.
        ['src/main/sync/sync.ts', "import { createHub } from '#main/hub/hub';"],
        ['src/main/auth/roles.ts', "import { dispatch } from '#main/bridge/dispatch';"],
        ['src/main/engine/sales-engine.ts', "type S = typeof import('#main/core/create-core');"],
        // hub → core and hub → web: the LAN listener's old arrows.
        ['src/main/hub/lan-listener.ts', "import type { Core } from '#main/core/create-core';"],
        ['src/main/hub/lan-listener.ts', "import { sendJson } from '#main/web/json-io';"],
        // core → shells: printing-handlers → desktop/print-plan was the old one.
        [
          'src/main/core/printing-handlers.ts',
          "import { planReceiptPrint } from '#main/desktop/print-plan';",
        ],
        ['src/main/bridge/dispatch.ts', "import { sendJson } from '../web/json-io';"],
      ]),
      // A folder with no layer, on either side of the import.
      {
        filename: at('src/main/widgets/gadget.ts'),
        code: "import { openDb } from '#main/store/database';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/core/create-core.ts'),
        code: "import { gadget } from '#main/widgets/gadget';",
        errors: [{ messageId: 'layer' }],
      },
      // Only the Electron glue imports electron, even inside the shells layer.
      {
        filename: at('src/main/web/web-server.ts'),
        code: "import { app } from 'electron';",
        errors: [{ messageId: 'layer' }],
      },
      // Tests reach their helpers by the alias, not by a relative path (test/support itself aside).
      ...relativeSupportImports([
        [
          'src/main/store/repos.test.ts',
          "import { createTestDb } from '../../../test/support/database';",
        ],
        [
          'src/renderer/src/app.test.tsx',
          "import { ManualScheduler } from '../../../test/support/clock';",
        ],
        [
          'test/engine/fallback.test.ts',
          "import { createHarness } from '../support/sales-harness';",
        ],
        ['test/core.test.ts', "import { startJsonChild } from './support/child-json';"],
        ['bench/z-report.bench.ts', "import { createTestDb } from '../test/support/database';"],
      ]),
      // Production code must not reach test code, in any layer and in any import form.
      {
        filename: at('src/main/store/repos.ts'),
        code: "import { createTestDb } from '../../../test/support/database';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/engine/sales-engine.ts'),
        code: "import type { Harness } from '../../../test/support/sales-harness';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/clock/scheduler.ts'),
        code: "const clock = await import('../../../test/support/clock');",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/electron/main.ts'),
        code: "export { ManualScheduler } from '../../../test/support/clock';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/core/create-core.ts'),
        code: "import { NO_FAULTS } from '../../../test/faults/script';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "import { createPrng } from '../../test/support/random';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import { ManualScheduler } from '../../../test/support/clock';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import { ManualScheduler } from '../../test/support/clock';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('scripts/web.ts'),
        code: "import { ManualScheduler } from '../test/support/clock';",
        errors: [{ messageId: 'layer' }],
      },
      // The same rules through the path aliases: an alias is not a package.
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import { createCore } from '#main/core/create-core';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "type T = typeof import('#main/core/create-core');",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "import type { Core } from '#main/core/create-core';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/preload/index.ts'),
        code: "import { dispatch } from '#main/bridge/dispatch';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/core/create-core.ts'),
        code: "import { registerIpc } from '#main/electron/ipc';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/main/store/repos.ts'),
        code: "import { createTestDb } from '#support/database';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/renderer/src/app.tsx'),
        code: "import { createFakeBridge } from '#support/renderer/fake-bridge';",
        errors: [{ messageId: 'layer' }],
      },
      {
        filename: at('src/shared/money.ts'),
        code: "export { createPrng } from '#support/random';",
        errors: [{ messageId: 'layer' }],
      },
    ],
  });
});

describe('npm run lint with the project config', () => {
  const eslint = new ESLint({ cwd: root });

  // The type-aware config lints only files that exist in a tsconfig, so each probe is written to
  // disk for the moment it is linted.
  async function lintProbe(file: string, code: string) {
    const path = at(file);
    writeFileSync(path, code);
    try {
      const [result] = await eslint.lintFiles([path]);
      const messages = result?.messages ?? [];
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      return messages;
    } finally {
      rmSync(path, { force: true });
    }
  }

  async function layeringMessages(file: string, code: string): Promise<string[]> {
    const messages = await lintProbe(file, code);
    return messages.filter((m) => m.ruleId === 'local/layering').map((m) => m.message);
  }

  it('fails a deliberate violation in each layer', async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      [
        'src/shared/lint-probe-1.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ],
      ['src/main/lint-probe-2.ts', "import { app } from 'electron';\nexport const x = app;\n"],
      [
        'src/renderer/src/lint-probe-3.ts',
        "import { createCore } from '../../main/core/create-core';\nexport const x = createCore;\n",
      ],
      [
        'src/preload/lint-probe-4.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ],
      // Up the layers inside src/main: hub → core, as the LAN listener once did.
      [
        'src/main/hub/lint-probe-10.ts',
        "import type { Core } from '#main/core/create-core';\nexport type X = Core;\n",
      ],
    ];
    for (const [file, code] of cases) {
      expect(await layeringMessages(file, code), file).toHaveLength(1);
    }
    // Type-aware linting starts slowly on a busy machine; the cases above are five lint runs.
  }, 120_000);

  it('accepts the same import where the layers allow it', async () => {
    expect(
      await layeringMessages(
        'src/main/electron/lint-probe-5.ts',
        "import { app } from 'electron';\nexport const x = app;\n",
      ),
    ).toEqual([]);
    expect(
      await layeringMessages(
        'src/main/core/lint-probe-11.ts',
        "import type { Hub } from '#main/hub/hub-types';\nexport type X = Hub;\n",
      ),
    ).toEqual([]);
  }, 60_000);

  it('reads the path aliases as their folders', async () => {
    const code =
      "import { createCore } from '#main/core/create-core';\nexport const x = createCore;\n";
    expect(await layeringMessages('src/renderer/src/lint-probe-8.ts', code)).toHaveLength(1);
    expect(await layeringMessages('src/main/electron/lint-probe-9.ts', code)).toEqual([]);
  });

  it('keeps test/support out of production code and open to tests', async () => {
    const code = (from: string) =>
      `import { ManualScheduler } from '${from}';\nexport const x = ManualScheduler;\n`;
    expect(await layeringMessages('src/main/lint-probe-6.ts', code('#support/clock'))).toHaveLength(
      1,
    );
    expect(await layeringMessages('src/main/lint-probe-7.test.ts', code('#support/clock'))).toEqual(
      [],
    );
    expect(
      await layeringMessages('src/main/lint-probe-7.test.ts', code('../../test/support/clock')),
    ).toHaveLength(1);
  }, 60_000);

  it('refuses DOM globals in src/shared', async () => {
    const messages = await lintProbe(
      'src/shared/lint-probe.ts',
      'export const title = () => document.title;\n',
    );
    expect(messages.map((m) => m.ruleId)).toContain('no-restricted-globals');
  });
});
