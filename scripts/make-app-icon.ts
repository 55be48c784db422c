/**
 * Writes the app icon files into build/ for electron-builder: `npx tsx scripts/make-app-icon.ts`.
 * The shapes live in src/main/desktop/icon-art.ts (the tray draws its icons from them at run
 * time); change them there, run this, and commit build/. A unit test checks the files match.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { appIconFiles } from '#main/desktop/icon-files';

const BUILD_DIR = resolve(import.meta.dirname, '../build');

for (const file of appIconFiles()) {
  const path = join(BUILD_DIR, file.path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file.bytes);
  console.log(`${file.path}  ${file.bytes.length} bytes`);
}
