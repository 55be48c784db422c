/**
 * End-to-end tills start as a shop that has given its name: a fresh till's first screen asks the
 * shop's name before the first sale (src/main/settings/shop-name.ts), which the tests of other
 * screens would meet first. Their data directory gets a settings file before the browser shell
 * starts, as a till set up earlier has: its own till id, the name given. The first-start test
 * opts out (`firstStart: true` in startJsonChild).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTillId } from '#main/settings/till-id';

/** The data directory a browser shell's arguments name (`--data-dir D`), or null. */
function dataDirOf(args: readonly string[]): string | null {
  const at = args.indexOf('--data-dir');
  return at >= 0 ? (args[at + 1] ?? null) : null;
}

/** Writes a named till's settings into the shell's data directory, unless it has settings already. */
export function seedNamedTill(args: readonly string[]): void {
  const dataDir = dataDirOf(args);
  if (dataDir === null) return;
  const file = join(dataDir, 'settings.json');
  if (existsSync(file)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const settings = { shop: { tillId: generateTillId(), nameConfirmed: true } };
  writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
}
