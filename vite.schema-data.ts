import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { normalizePath, type Plugin } from 'vite';
import * as schemaData from './src/shared/schema-data';

const SCHEMA_DATA_FILE = normalizePath(resolve(import.meta.dirname, 'src/shared/schema-data.ts'));

/** src/shared/schema-data.ts as a build loads it: each export a JSON literal, no import at all. */
export function schemaDataModule(): string {
  return Object.entries(schemaData)
    .map(([name, value]) => {
      const json = JSON.stringify(value);
      if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) {
        throw new Error(`src/shared/schema-data.ts: ${name} is not plain JSON data`);
      }
      return `export const ${name} = ${json};\n`;
    })
    .join('');
}

/**
 * Builds src/shared/schema-data.ts as its values (read here from the zod modules when the build
 * starts): the renderer and the sandboxed preload then load neither zod nor the schemas, about
 * 170 KB of the renderer's first script and 200 KB of the preload.
 */
export function schemaDataAsJson(): Plugin {
  return {
    name: 'transfer-till-schema-data',
    enforce: 'pre',
    load(id) {
      return normalizePath(id) === SCHEMA_DATA_FILE ? schemaDataModule() : null;
    },
  };
}
