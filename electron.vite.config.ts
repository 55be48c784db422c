import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { normalizePath, type Plugin } from 'vite';
import { channelNames } from './src/shared/bridge/contract';
import { viteAliases } from './vite.aliases';
import { rendererConfig } from './vite.renderer.config';

/**
 * The preload needs the table's channel names, not its schemas: src/preload/channel-names.ts is
 * built as the list itself, read here from the table when the build starts (so the preload does
 * not carry zod's runtime, about 200 KB).
 */
function channelNamesAsData(): Plugin {
  const file = normalizePath(resolve(import.meta.dirname, 'src/preload/channel-names.ts'));
  return {
    name: 'transfer-till-channel-names',
    enforce: 'pre',
    load(id) {
      if (normalizePath(id) !== file) return null;
      return `export const channelNames = Object.freeze(${JSON.stringify(channelNames)});\n`;
    },
  };
}

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
    plugins: [channelNamesAsData()],
    build: {
      // A sandboxed preload can require only 'electron': bundle everything else into one CJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});
