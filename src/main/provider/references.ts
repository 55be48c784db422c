/**
 * References for virtual-account creation. The provider refuses a reused reference (409), and
 * in staging references must be unique per run, so each one carries: the local time (readable
 * by support), a run id (random per generator, i.e. per app start and till), a sequence number
 * (unique within the run even if the clock stands still) and crypto randomness (unique across
 * tills and runs even if run ids collide). Example: TT-20261122090500-K3J9QF-0001-X7Q2M9AB.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_PROVIDER_TIME_ZONE, formatProviderTimestamp } from '../../shared/provider-time';
import { REFERENCE_PATTERN } from './schemas';

/** Crockford's base32: no I, L, O or U, so a reference read aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PART = /^[A-Za-z0-9]{1,16}$/;

export interface ReferenceGeneratorOptions {
  /** Letters and digits, 1..16; default 'TT'. */
  readonly prefix?: string;
  /** Letters and digits, 1..16; default 6 random characters. A till id fits here. */
  readonly runId?: string;
  /** Epoch ms; default Date.now. */
  readonly clock?: () => number;
  /** Random bytes; default node:crypto randomBytes. */
  readonly random?: (size: number) => Uint8Array;
  /** Zone of the time part; default Africa/Lagos. */
  readonly timeZone?: string;
}

export interface ReferenceGenerator {
  readonly runId: string;
  next(): string;
}

export class ReferenceGeneratorError extends Error {
  readonly code = 'INVALID_REFERENCE_OPTION';
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceGeneratorError';
  }
}

function randomText(random: (size: number) => Uint8Array, length: number): string {
  const bytes = random(length);
  if (bytes.length < length)
    throw new ReferenceGeneratorError('The random source returned too few bytes');
  let text = '';
  // 256 is a multiple of 32, so the low five bits are uniform.
  for (let i = 0; i < length; i++) text += ALPHABET[(bytes[i] ?? 0) & 31];
  return text;
}

export function createReferenceGenerator(
  options: ReferenceGeneratorOptions = {},
): ReferenceGenerator {
  const prefix = options.prefix ?? 'TT';
  const clock = options.clock ?? Date.now;
  const random = options.random ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const timeZone = options.timeZone ?? DEFAULT_PROVIDER_TIME_ZONE;
  if (!PART.test(prefix))
    throw new ReferenceGeneratorError('prefix must be 1 to 16 letters or digits');
  const runId = options.runId ?? randomText(random, 6);
  if (!PART.test(runId))
    throw new ReferenceGeneratorError('runId must be 1 to 16 letters or digits');
  let sequence = 0;

  return {
    runId,
    next(): string {
      sequence += 1;
      const stamp = formatProviderTimestamp(clock(), timeZone).replace(/\D/g, '');
      // At least 4 digits; grows past 9999 rather than wrap, so it never repeats in a run.
      const seq = String(sequence).padStart(4, '0');
      const reference = `${prefix}-${stamp}-${runId}-${seq}-${randomText(random, 8)}`;
      if (!REFERENCE_PATTERN.test(reference)) {
        throw new ReferenceGeneratorError(
          `Generated reference breaks the provider's rule: ${reference}`,
        );
      }
      return reference;
    },
  };
}
