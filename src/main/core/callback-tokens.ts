import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { keepPrivate } from '#main/config/private-files';
import type { Redactor } from '#main/logging/redact';
import { writeFileAtomic } from '#main/secrets/atomic-write';
import type { SecretBox } from '#main/secrets/secret-box';
import { generateCallbackToken, isUsableCallbackToken } from '#main/webhook';

export const CALLBACK_TOKENS_FILE = 'callback-tokens.json';
/** How long the previous token stays valid after a rotation: the longest account lifetime. */
export const ROTATION_GRACE_MS = 24 * 60 * 60_000;

const fileSchema = z.object({
  format: z.literal(1),
  current: z.string(),
  previous: z.string().nullable(),
  previousUntil: z.number().nullable(),
});

export interface CallbackTokens {
  /** Valid tokens, newest first (the listener builds the callback path from the first). */
  list(): readonly string[];
  /** A new token; the old one keeps working for ROTATION_GRACE_MS so open sales still land. */
  rotate(): void;
}

/**
 * The secret part of the callback path (256 bits), persisted encrypted with the secret box so
 * that the callback URL survives restarts. Unreadable or missing: a fresh token is made (sales
 * created before fall back to polling, which is safe).
 */
export function openCallbackTokens(options: {
  readonly dataDir: string;
  readonly box: SecretBox;
  readonly redactor: Redactor;
  readonly now: () => number;
}): CallbackTokens {
  const path = join(options.dataDir, CALLBACK_TOKENS_FILE);
  keepPrivate(path);
  let current = '';
  let previous: string | null = null;
  let previousUntil: number | null = null;

  const seal = (token: string) => options.box.encrypt(token).toString('base64');
  const open = (sealed: string) => options.box.decrypt(Buffer.from(sealed, 'base64'));

  function save(): void {
    const file = {
      format: 1,
      current: seal(current),
      previous: previous === null ? null : seal(previous),
      previousUntil,
    };
    writeFileAtomic(path, `${JSON.stringify(file)}\n`, 0o600);
  }

  try {
    if (!existsSync(path)) throw new Error('no token yet');
    const file = fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    current = open(file.current);
    previous = file.previous === null ? null : open(file.previous);
    previousUntil = file.previousUntil;
    if (!isUsableCallbackToken(current)) throw new Error('stored token unusable');
  } catch {
    current = generateCallbackToken();
    previous = null;
    previousUntil = null;
    save();
  }
  options.redactor.addSecret(current);
  if (previous) options.redactor.addSecret(previous);

  return {
    list() {
      const stillValid =
        previous !== null && previousUntil !== null && options.now() < previousUntil;
      return stillValid && previous ? [current, previous] : [current];
    },
    rotate() {
      previous = current;
      previousUntil = options.now() + ROTATION_GRACE_MS;
      current = generateCallbackToken();
      options.redactor.addSecret(current);
      save();
    },
  };
}
