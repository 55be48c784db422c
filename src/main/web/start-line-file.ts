import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '#shared/errors';

/**
 * The running browser shell's start line, kept in its data directory so that a second terminal
 * (`npm run pay`, `npm run web-info`) finds the till and its sandbox without copying addresses.
 * It holds the shell's `url` with its token, so it is written like `web-token`: mode 0600.
 */
export const START_LINE_FILE = 'web-shell.json';

/** The start line's keys that scripts read (CONTRACTS.md: the browser shell's first line). */
export interface StartLine {
  readonly url: string;
  readonly display_url: string;
  readonly control_url?: string;
  readonly [key: string]: unknown;
}

export class StartLineError extends AppError<'NO_RUNNING_SHELL'> {
  constructor(message: string) {
    super('NO_RUNNING_SHELL', message);
    this.name = 'StartLineError';
  }
}

/** Writes the start line (a new file renamed over the old one, so a reader never sees half). */
export function writeStartLine(dataDir: string, line: StartLine): void {
  const path = join(dataDir, START_LINE_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** The start line the browser shell last wrote in this data directory, or a clear error. */
export function readStartLine(dataDir: string): StartLine {
  const path = join(dataDir, START_LINE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new StartLineError(
      `No browser shell has started with the data directory ${dataDir} (${START_LINE_FILE} is missing). Start the till with \`npm run web\` first (same --data-dir or TRANSFER_TILL_DATA_DIR).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StartLineError(`${path} is not JSON: start the till again with \`npm run web\`.`);
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as { url?: unknown }).url !== 'string' ||
    typeof (parsed as { display_url?: unknown }).display_url !== 'string'
  ) {
    throw new StartLineError(
      `${path} holds no start line: start the till again with \`npm run web\`.`,
    );
  }
  return parsed as StartLine;
}
