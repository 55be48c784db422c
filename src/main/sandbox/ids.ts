import { randomBytes, randomInt } from 'node:crypto';
import { nipTimestamp } from './lagos-time';

export function newSecretKey(): string {
  return `sk_sandbox_${randomBytes(16).toString('hex')}`;
}

export function newAccessToken(): string {
  return `at_sandbox_${randomBytes(16).toString('hex')}`;
}

export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}

/** NUBAN-like: 10 digits. Callers check uniqueness against what is already issued. */
export function newAccountNumber(): string {
  return randomDigits(10);
}

export function newAccountReference(): string {
  return `SBX-${randomBytes(12).toString('hex').toUpperCase()}`;
}

/** Sandbox institution code used as the first six digits of every session id. */
export const SANDBOX_INSTITUTION_CODE = '999999';

/**
 * A 30-digit NIP-shaped session id: institution code (6), Lagos yymmddHHmmss (12), random (12).
 * The time part plus 12 random digits keeps ids unique even across a reset in-memory sandbox,
 * which matters because the app deduplicates inflows by session_id.
 */
export function newSessionId(epochMs: number): string {
  return `${SANDBOX_INSTITUTION_CODE}${nipTimestamp(epochMs)}${randomDigits(12)}`;
}
