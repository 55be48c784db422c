import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';

/**
 * better-sqlite3 built for Electron's ABI. In development `npm start` builds it into
 * .electron-native/ (tests keep the Node build in node_modules); packaged apps get a build
 * rebuilt for Electron by electron-builder, loaded by better-sqlite3's default lookup.
 */
export function sqliteNativeBinding(): string | undefined {
  if (app.isPackaged) return undefined;
  const path = join(app.getAppPath(), '.electron-native', 'better_sqlite3.node');
  return existsSync(path) ? path : undefined;
}
