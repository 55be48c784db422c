import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin, UserConfig } from 'vite';
import { RENDERER_CSP } from './src/shared/csp';
import { viteAliases } from './vite.aliases';
import { schemaDataAsJson } from './vite.schema-data';

/** Puts the strict CSP into the built index.html (dev mode needs React's inline refresh preamble). */
function cspPlugin(): Plugin {
  return {
    name: 'transfer-till-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: RENDERER_CSP },
        injectTo: 'head-prepend',
      },
    ],
  };
}

/** The renderer's Vite config, shared by electron-vite and the browser shell's build. */
export const rendererConfig: UserConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  // schemaDataAsJson: the channel names and default settings as data, so that no zod is loaded.
  plugins: [react(), cspPlugin(), schemaDataAsJson()],
  resolve: { alias: viteAliases('#shared') },
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    // Vite's default, written out: electron-vite's renderer preset turns minification off, and
    // the desktop app would then load twice the script the browser shell does.
    minify: 'oxc',
    rollupOptions: {
      input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') },
    },
  },
};
