/**
 * `npm run --silent web-info -- [key] [--data-dir D]`: the start line of the browser shell that
 * runs with that data directory (the same --data-dir, TRANSFER_TILL_DATA_DIR or the default),
 * as the shell keeps it there: the whole JSON object, or one key's value (`url`, `display_url`,
 * `control_url`, …) for a script. Exit codes: 0 printed, 1 no start line or no such key, 2 a bad
 * command line.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '#main/config/data-dir';
import { readStartLine } from '#main/web/start-line-file';

function main(argv: readonly string[]): number {
  let key: string | undefined;
  try {
    const { positionals } = parseArgs({
      args: [...argv],
      options: { 'data-dir': { type: 'string' } },
      allowPositionals: true,
    });
    if (positionals.length > 1) throw new Error('at most one key');
    key = positionals[0];
  } catch (error) {
    process.stderr.write(
      `transfer-till web-info: ${error instanceof Error ? error.message : String(error)}\nusage: npm run --silent web-info -- [url|display_url|control_url|…] [--data-dir D]\n`,
    );
    return 2;
  }
  const dataDir = resolveDataDir(argv, process.env, join(homedir(), '.transfer-till', 'web'));
  try {
    const line = readStartLine(dataDir);
    if (key === undefined) {
      process.stdout.write(`${JSON.stringify(line)}\n`);
      return 0;
    }
    const value = line[key];
    if (typeof value !== 'string') {
      const keys = Object.keys(line).join(', ');
      throw new Error(`the start line has no "${key}" (it has ${keys})`);
    }
    process.stdout.write(`${value}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(
      `transfer-till web-info: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
