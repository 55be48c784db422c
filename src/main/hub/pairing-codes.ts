/**
 * One-time pairing codes: what a pairing link carries. Held in memory only (a hub restart voids
 * every outstanding link, which is safe: the owner makes a new one), 128 random bits, usable
 * once, for PAIRING_TTL_MS. They are kept by their SHA-256, so looking a code up compares no
 * secret byte by byte (a timing difference would only tell about a hash).
 */
import { createHash, randomBytes } from 'node:crypto';
import { PAIRING_TTL_MS } from '#shared/hub';
import { AppError, type AppErrorCode } from '#shared/errors';

/** At most this many links wait to be used; making one more drops the oldest. */
export const MAX_OUTSTANDING_CODES = 50;

export type PairingErrorCode = Extract<
  AppErrorCode,
  'PAIRING_USED' | 'PAIRING_EXPIRED' | 'PAIRING_UNKNOWN'
>;

const PAIRING_MESSAGES: Readonly<Record<PairingErrorCode, string>> = {
  PAIRING_USED:
    'This pairing link was used already: each link pairs one counter. Ask the owner for a new link at the hub.',
  PAIRING_EXPIRED:
    'This pairing link is more than 10 minutes old. Ask the owner for a new link at the hub.',
  PAIRING_UNKNOWN:
    'The hub does not know this pairing link (it may have restarted since). Ask the owner for a new link.',
};

export class PairingError extends AppError<PairingErrorCode> {
  constructor(code: PairingErrorCode) {
    super(code, PAIRING_MESSAGES[code]);
    this.name = 'PairingError';
  }
}

export interface IssuedCode {
  /** base64url, 22 characters; shown once in the link, never kept. */
  readonly code: string;
  readonly name: string;
  readonly expiresAt: number;
}

export interface PairingCodes {
  issue(name: string): IssuedCode;
  /**
   * Runs `use` with the code's counter name and marks the code used if `use` returns; a code
   * that is used, expired or unknown throws a PairingError and `use` never runs. Synchronous,
   * so two requests with one code cannot both get through.
   */
  redeem<T>(code: string, use: (name: string) => T): T;
  /** Codes that can still be used now. */
  outstanding(): number;
}

interface Entry {
  readonly name: string;
  readonly expiresAt: number;
  used: boolean;
}

export function createPairingCodes(options: {
  readonly now: () => number;
  readonly random?: (size: number) => Uint8Array;
  readonly ttlMs?: number;
  readonly max?: number;
}): PairingCodes {
  const { now } = options;
  const random = options.random ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const ttlMs = options.ttlMs ?? PAIRING_TTL_MS;
  const max = options.max ?? MAX_OUTSTANDING_CODES;
  // Insertion order is age: the first entry is the oldest. Used and expired entries are kept a
  // while longer (one more TTL) so that a second try is told "used" or "expired", not "unknown".
  const entries = new Map<string, Entry>();

  const keyOf = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');
  const live = (entry: Entry, at: number) => !entry.used && at < entry.expiresAt;

  function forgetOld(at: number): void {
    for (const [key, entry] of entries) {
      if (at >= entry.expiresAt + ttlMs) entries.delete(key);
    }
  }

  function makeRoom(at: number): void {
    forgetOld(at);
    // Oldest first, until a new code fits among `max` waiting ones and the record stays bounded.
    let waiting = [...entries.values()].filter((entry) => live(entry, at)).length;
    for (const [key, entry] of entries) {
      if (waiting < max && entries.size < max * 4) break;
      if (live(entry, at)) waiting -= 1;
      entries.delete(key);
    }
  }

  return {
    issue(name) {
      const at = now();
      makeRoom(at);
      const bytes = random(16);
      if (bytes.length < 16) throw new Error('The random source returned too few bytes');
      const code = Buffer.from(bytes.subarray(0, 16)).toString('base64url');
      const entry: Entry = { name, expiresAt: at + ttlMs, used: false };
      entries.set(keyOf(code), entry);
      return { code, name, expiresAt: entry.expiresAt };
    },
    redeem(code, use) {
      const at = now();
      forgetOld(at);
      const entry = entries.get(keyOf(code));
      if (!entry) throw new PairingError('PAIRING_UNKNOWN');
      if (entry.used) throw new PairingError('PAIRING_USED');
      if (at >= entry.expiresAt) throw new PairingError('PAIRING_EXPIRED');
      const result = use(entry.name);
      entry.used = true;
      return result;
    },
    outstanding() {
      const at = now();
      return [...entries.values()].filter((entry) => live(entry, at)).length;
    },
  };
}
