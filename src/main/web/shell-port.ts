import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepPrivate, PRIVATE_FILE_MODE } from '#main/config/private-files';
import { AppError } from '#shared/errors';

/**
 * The browser shell's port, in its data directory: without --port the shell comes back on the
 * port it used last, so the till's bookmark and the customer display's link survive a restart.
 */
export const SHELL_PORT_FILE = 'web-port';

/** The first start's port (loopback only): fixed, so that a first bookmark lasts too. */
export const DEFAULT_SHELL_PORT = 7420;

export interface ShellPortChoice {
  readonly port: number;
  /** Where it came from: --port, the port used last, or the first start's default. */
  readonly source: 'flag' | 'saved' | 'default';
}

/** The port saved by the last start, or null (none saved, or a file that is not a port). */
export function savedShellPort(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, SHELL_PORT_FILE), 'utf8').trim();
  } catch {
    return null;
  }
  const port = Number(text);
  return /^\d+$/.test(text) && port >= 1 && port <= 65535 ? port : null;
}

/** --port wins; else the port used last; else the default. */
export function chooseShellPort(flagPort: number | undefined, dataDir: string): ShellPortChoice {
  if (flagPort !== undefined) return { port: flagPort, source: 'flag' };
  const saved = savedShellPort(dataDir);
  return saved === null
    ? { port: DEFAULT_SHELL_PORT, source: 'default' }
    : { port: saved, source: 'saved' };
}

/** Keeps the port this start listens on, for the next start without --port. */
export function saveShellPort(dataDir: string, port: number): void {
  const path = join(dataDir, SHELL_PORT_FILE);
  // Written aside and renamed: a crash mid-write never leaves half a number behind.
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, `${port}\n`, { mode: PRIVATE_FILE_MODE });
  // A file of that name left by a crash keeps its own mode: set it.
  keepPrivate(aside);
  renameSync(aside, path);
}

/** The shell's port is held by another program: one line, naming the port and the way out. */
export class ShellPortTakenError extends AppError<'SHELL_PORT_TAKEN'> {
  constructor(
    readonly port: number,
    source: ShellPortChoice['source'],
  ) {
    const why =
      source === 'saved'
        ? ' (the port this till used last)'
        : source === 'default'
          ? ' (the first start’s default)'
          : '';
    super(
      'SHELL_PORT_TAKEN',
      `port ${port}${why} on 127.0.0.1 is taken by another program (another till?): stop it, or start with --port <another port>`,
    );
    this.name = 'ShellPortTakenError';
  }
}
