/**
 * References for virtual-account creation. The provider refuses a reused reference (409), and
 * in staging references must be unique per run, so each one carries: the till's prefix (its
 * till id's letters and digits: the provider's listing is merchant-wide, and the prefix is how
 * a report tells which till of the shop made a payment), the local time (readable by support),
 * a run id (random per generator, i.e. per app start and till), a sequence number (unique within
 * the run even if the clock stands still) and crypto randomness (unique across tills and runs
 * even if run ids collide). Example: TILLA7K2-20261122090500-K3J9QF-0001-X7Q2M9AB.
 *
 * A permanent standing account's reference has the word COUNTER where the run id goes, so any
 * till of the shop can tell from the listing alone that a payment went to a standing account:
 * a random run id is Crockford base32, which has no O or U, so it is never that word.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_PROVIDER_TIME_ZONE, formatProviderTimestamp } from '#shared/provider-time';
import { referencePrefix } from '#shared/till-id';
import { REFERENCE_PATTERN } from './schemas';
import { AppError } from '#shared/errors';

/** Crockford's base32: no I, L, O or U, so a reference read aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PART = /^[A-Za-z0-9]{1,16}$/;

export interface ReferenceGeneratorOptions {
  /**
   * Letters and digits, 1..16; default 'TT'. A function is asked at each reference, so a till
   * id changed in Settings names the next sale at once.
   */
  readonly prefix?: string | (() => string);
  /** Letters and digits, 1..16, not COUNTER; default 6 random characters. */
  readonly runId?: string;
  /** Epoch ms; default Date.now. */
  readonly clock?: () => number;
  /** Random bytes; default node:crypto randomBytes. */
  readonly random?: (size: number) => Uint8Array;
  /** Zone of the time part; default Africa/Lagos. */
  readonly timeZone?: string;
}

/**
 * A sale's one-off account, a permanent standing account (static or static-flex), or go-live's
 * trial account (a real account nobody pays into).
 */
export type ReferenceKind = 'sale' | 'counter' | 'trial';

export interface ReferenceGenerator {
  readonly runId: string;
  /**
   * A new reference. With `tillId`, it carries that till's prefix instead of the generator's:
   * a hub makes the references of its paired counters' sales (and a retried sale keeps the
   * prefix of the till that made it).
   */
  next(kind?: ReferenceKind, tillId?: string): string;
}

/** Stands where the run id goes in a standing account's reference (see the top of this file). */
export const COUNTER_RUN_WORD = 'COUNTER';
/**
 * Stands where the run id goes in a go-live trial account's reference, so that it reads as a
 * trial in the provider's records (it holds I and L, so no random run id is ever this word).
 */
export const TRIAL_RUN_WORD = 'TRIAL';

/** What a reference made by this app says about where it came from. */
export interface ParsedReference {
  /** The making till's prefix, upper-cased (older builds wrote it as typed: 'till1'). */
  readonly tillPrefix: string;
  /** YYYYMMDDHHMMSS, the making till's local time. */
  readonly stamp: string;
  /** The run id, or COUNTER_RUN_WORD for a standing account. */
  readonly run: string;
  readonly sequence: number;
  readonly standingAccount: boolean;
  /** Made by go-live's "Check everything": never a sale. */
  readonly trial: boolean;
}

/** PREFIX-YYYYMMDDHHMMSS-RUN-SEQ-RAND, exactly as createReferenceGenerator writes it. */
const MADE_HERE =
  /^([A-Za-z0-9]{1,16})-(\d{14})-([A-Za-z0-9]{1,16})-(\d{4,})-([0-9A-HJKMNP-TV-Z]{8})$/;

/** The parts of a reference this app made, or null for any other reference (or none). */
export function parseReference(reference: string | null): ParsedReference | null {
  const match = reference === null ? null : MADE_HERE.exec(reference);
  if (!match) return null;
  const [, prefix = '', stamp = '', run = '', sequence = ''] = match;
  return {
    tillPrefix: prefix.toUpperCase(),
    stamp,
    run,
    sequence: Number(sequence),
    standingAccount: run === COUNTER_RUN_WORD,
    trial: run === TRIAL_RUN_WORD,
  };
}

export class ReferenceGeneratorError extends AppError<'INVALID_REFERENCE_OPTION'> {
  constructor(message: string) {
    super('INVALID_REFERENCE_OPTION', message);
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
  const option = options.prefix ?? 'TT';
  const prefixOf = typeof option === 'function' ? option : () => option;
  const clock = options.clock ?? Date.now;
  const random = options.random ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const timeZone = options.timeZone ?? DEFAULT_PROVIDER_TIME_ZONE;
  const checkedPrefix = (prefix: string = prefixOf()): string => {
    if (!PART.test(prefix))
      throw new ReferenceGeneratorError('prefix must be 1 to 16 letters or digits');
    return prefix;
  };
  checkedPrefix();
  const runId = options.runId ?? randomText(random, 6);
  if (!PART.test(runId))
    throw new ReferenceGeneratorError('runId must be 1 to 16 letters or digits');
  if ([COUNTER_RUN_WORD, TRIAL_RUN_WORD].includes(runId.toUpperCase()))
    throw new ReferenceGeneratorError(`runId must not be ${runId.toUpperCase()}`);
  let sequence = 0;

  return {
    runId,
    next(kind: ReferenceKind = 'sale', tillId?: string): string {
      const prefix = checkedPrefix(tillId === undefined ? undefined : referencePrefix(tillId));
      sequence += 1;
      const stamp = formatProviderTimestamp(clock(), timeZone).replace(/\D/g, '');
      // At least 4 digits; grows past 9999 rather than wrap, so it never repeats in a run.
      const seq = String(sequence).padStart(4, '0');
      const run = kind === 'counter' ? COUNTER_RUN_WORD : kind === 'trial' ? TRIAL_RUN_WORD : runId;
      const reference = `${prefix}-${stamp}-${run}-${seq}-${randomText(random, 8)}`;
      if (!REFERENCE_PATTERN.test(reference)) {
        throw new ReferenceGeneratorError(
          `Generated reference breaks the provider's rule: ${reference}`,
        );
      }
      return reference;
    },
  };
}
