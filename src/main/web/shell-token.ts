import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepPrivate } from '#main/config/private-files';
import { AppError } from '#shared/errors';

/** The browser shell's token, in its data directory: the same url works after a restart. */
export const SHELL_TOKEN_FILE = 'web-token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22,128}$/;

export interface ShellTokenStore {
  current(): string;
  /** A new token replaces the old one at once (and on disk, before it is used). */
  rotate(): string;
  /** Why the saved token was replaced at start (unreadable or not a token), or null. */
  readonly replacedAtStart: string | null;
}

export class ShellTokenError extends AppError<'SHELL_TOKEN_UNWRITABLE'> {
  constructor(path: string, cause: unknown) {
    super(
      'SHELL_TOKEN_UNWRITABLE',
      `Cannot save the browser shell's token in ${path}: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = 'ShellTokenError';
  }
}

/** 128 random bits, URL-safe (it travels in the address's fragment). */
export function newShellToken(): string {
  return randomBytes(16).toString('base64url');
}

/** A token held in memory only (tests, or a shell started with a token of its own). */
export function memoryShellToken(initial: string = newShellToken()): ShellTokenStore {
  let token = initial;
  return {
    current: () => token,
    rotate() {
      token = newShellToken();
      return token;
    },
    replacedAtStart: null,
  };
}

function write(path: string, token: string): void {
  // Written aside and renamed: a crash mid-write never leaves half a token behind.
  const aside = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, `${token}\n`, { mode: 0o600 });
    keepPrivate(aside);
    renameSync(aside, path);
  } catch (error) {
    throw new ShellTokenError(path, error);
  }
}

/**
 * The token kept in `<dataDir>/web-token` (mode 0600): made once, read at every start. A file
 * that is not a token is replaced (pages holding the old one were already lost with it); a file
 * others could read is made private again.
 */
export function openShellTokenFile(dataDir: string): ShellTokenStore {
  const path = join(dataDir, SHELL_TOKEN_FILE);
  let token: string | null = null;
  let replacedAtStart: string | null = null;
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (TOKEN_SHAPE.test(text)) token = text;
    else replacedAtStart = 'the saved token file did not hold a token';
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing) replacedAtStart = 'the saved token file could not be read';
  }
  if (token === null) {
    token = newShellToken();
    write(path, token);
  } else {
    keepPrivate(path);
  }
  let current = token;
  return {
    current: () => current,
    rotate() {
      const next = newShellToken();
      write(path, next);
      current = next;
      return next;
    },
    replacedAtStart,
  };
}
