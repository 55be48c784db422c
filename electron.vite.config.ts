import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { viteAliases } from './vite.aliases';
import { rendererConfig } from './vite.renderer.config';
import { schemaDataAsJson } from './vite.schema-data';

export default defineConfig({
  main: {
    resolve: { alias: viteAliases('#shared', '#main') },
    build: {
      // Native modules (better-sqlite3, @ngrok/ngrok) and every other runtime dependency stay
      // external: they are shipped in node_modules and rebuilt for Electron by electron-builder.
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/main/electron/main.ts') },
      },
    },
  },
  preload: {
    resolve: { alias: viteAliases('#shared') },
    // The channel names as data (src/shared/schema-data.ts): the preload carries no zod.
    plugins: [schemaDataAsJson()],
    build: {
      // A sandboxed preload can require only 'electron': bundle everything else into one CJS file
      // per preload (the till's, and the customer display's), with no chunk shared between them.
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/preload/index.ts'),
          display: resolve(import.meta.dirname, 'src/preload/display.ts'),
        },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});
