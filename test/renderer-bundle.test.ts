/**
 * The renderer loads no zod: the channel table's and the settings' schemas are main's (it
 * validates every input); a page needs only their names and defaults, built in as data
 * (src/shared/schema-data.ts, vite.schema-data.ts) and plain constants (environments.ts,
 * bridge/wire.ts). With zod in it, the counter page's first script was 364 KB (110 KB gzip), 167 KB
 * of them zod, and a cheap phone missed the 2.5 s load bound (bench/counter-phone.bench.ts).
 *
 * One place still loads zod, later and on its own: the Settings screen checks a form with the
 * settings schema before saving (screens/settings/settings-form.ts). Only chunks that Settings
 * alone loads may hold it; the counter's first load never.
 *
 * A real production build (Vite with the renderer's config, into memory), read from the build's
 * own module lists.
 */
import { describe, expect, it } from 'vitest';
import { channelNames } from '#shared/bridge/contract';
import { DEFAULT_SETTINGS, DEFAULT_VOICE_SETTINGS } from '#shared/settings-schema';
import { settingLabels } from '#shared/settings/registry';
import { buildRenderer, packageOfModule, type BuiltChunk } from '#support/bundle-chunks';
import { schemaDataModule } from '../vite.schema-data';

const BUILD_MS = 120_000;
/** The one lazily loaded screen allowed to carry zod (see above). */
const SETTINGS_SCREEN = 'screens/settings/settings-screen.tsx';

function withZod(chunks: readonly BuiltChunk[]): readonly BuiltChunk[] {
  return chunks.filter((chunk) => chunk.packages.has('zod'));
}

function firstLoad(chunks: readonly BuiltChunk[]): readonly BuiltChunk[] {
  return chunks.filter((chunk) => chunk.loadedBy.includes('index'));
}

describe('the built renderer', () => {
  it(
    'loads no zod at first, and only the Settings screen loads it later',
    async () => {
      const chunks = await buildRenderer();
      const first = firstLoad(chunks);
      // The reader sees packages at all: React is in the first load.
      expect(first.some((chunk) => chunk.packages.has('react-dom'))).toBe(true);
      expect(first.filter((chunk) => chunk.packages.has('zod'))).toEqual([]);
      for (const chunk of withZod(chunks)) {
        expect({ chunk: chunk.fileName, loadedBy: chunk.loadedBy }).toEqual({
          chunk: chunk.fileName,
          loadedBy: [SETTINGS_SCREEN],
        });
      }
    },
    BUILD_MS,
  );

  it(
    'would load zod at first without the schema data built in (planted)',
    async () => {
      const chunks = await buildRenderer((plugins) =>
        plugins.filter((plugin) => plugin.name !== 'transfer-till-schema-data'),
      );
      expect(firstLoad(withZod(chunks)).length).toBeGreaterThan(0);
    },
    BUILD_MS,
  );

  it(
    'would load zod at first if a screen imported a schema (planted)',
    async () => {
      const chunks = await buildRenderer((plugins) => [
        ...plugins,
        {
          name: 'plant-a-schema-import',
          transform(code, id) {
            if (!id.endsWith('/src/renderer/src/app.tsx')) return null;
            return `import { settingsSchema as planted } from '#shared/settings-schema';\nconsole.log(planted);\n${code}`;
          },
        },
      ]);
      expect(firstLoad(withZod(chunks)).length).toBeGreaterThan(0);
    },
    BUILD_MS,
  );
});

describe('the schema data a build carries', () => {
  it('is what the zod modules compute, as plain data', async () => {
    const source = schemaDataModule();
    expect(source).not.toMatch(/\bimport\b/);
    const built = (await import(
      `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`
    )) as Record<string, unknown>;
    expect({ ...built }).toEqual({
      channelNames: [...channelNames],
      DEFAULT_SETTINGS,
      DEFAULT_VOICE_SETTINGS,
      SETTING_LABELS: settingLabels(),
    });
  });
});

describe('packageOfModule', () => {
  it('names the package of a module id, the innermost node_modules winning', () => {
    expect(packageOfModule('/p/node_modules/zod/v4/core/api.js')).toBe('zod');
    expect(packageOfModule('/p/node_modules/@scope/pkg/dist/x.js')).toBe('@scope/pkg');
    expect(packageOfModule('/p/node_modules/a/node_modules/b/index.js')).toBe('b');
    expect(packageOfModule('/p/src/renderer/src/app.tsx')).toBeNull();
    expect(packageOfModule('\0vite/preload-helper.js')).toBeNull();
  });
});
