import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layeringRule } from './layering.js';

const root = resolve(import.meta.dirname, '..');
const at = (path: string) => resolve(root, path);

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
    ];
    for (const [file, code] of cases) {
      expect(await layeringMessages(file, code), file).toHaveLength(1);
    }
  });

  it('accepts the same import where the layers allow it', async () => {
    expect(
      await layeringMessages(
        'src/main/electron/lint-probe-5.ts',
        "import { app } from 'electron';\nexport const x = app;\n",
      ),
    ).toEqual([]);
  });

  it('refuses DOM globals in src/shared', async () => {
    const messages = await lintProbe(
      'src/shared/lint-probe.ts',
      'export const title = () => document.title;\n',
    );
    expect(messages.map((m) => m.ruleId)).toContain('no-restricted-globals');
  });
});
