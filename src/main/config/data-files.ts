/**
 * The names of the files a till keeps in its data directory. A shop's data is found by these
 * names after an update, so they never change (data-files.test.ts pins them).
 */
import { join } from 'node:path';
import type { Environment } from '#shared/settings-schema';

/** The embedded sandbox provider's own database (also `npm run sandbox --data-dir`'s). */
export const SANDBOX_DB_FILE = 'sandbox-provider.sqlite';

/** One database per provider environment: practice money never mixes with real money. */
export function tillDbFile(environment: Environment): string {
  return `till-${environment}.sqlite`;
}

export function tillDbPath(dataDir: string, environment: Environment): string {
  return join(dataDir, tillDbFile(environment));
}

export function sandboxDbPath(dataDir: string): string {
  return join(dataDir, SANDBOX_DB_FILE);
}
