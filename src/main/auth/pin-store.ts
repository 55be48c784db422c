/**
 * The owner's and cashiers' PINs, as salted scrypt hashes in <dataDir>/pins.json (never the PIN
 * itself), and the lock-out state of each, persisted so that a restart does not reset it. The
 * file never reaches the renderer; the bridge says only whether a PIN is set.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { keepPrivate } from '#main/config/private-files';
import { isAtomicTempName, writeFileAtomic } from '#main/secrets/atomic-write';
import { AuthError } from './auth-errors';
import {
  activeLock,
  afterFailure,
  lockoutFromFile,
  lockoutToFile,
  NO_FAILURES,
  triesLeft,
  waitWords,
  type LockoutClocks,
  type LockoutState,
} from './lockout';
import { hashPin, isPinHash, PIN_KDF, verifyPin, type PinKdfParams } from './pin-hash';

export const PINS_FILE = 'pins.json';

/** Whose PIN: the owner's, or one cashier's (names compare without case). */
export type PinSubject =
  { readonly kind: 'owner' } | { readonly kind: 'cashier'; readonly name: string };
export const OWNER: PinSubject = Object.freeze({ kind: 'owner' });

export function cashierSubject(name: string): PinSubject {
  return { kind: 'cashier', name };
}

function keyOf(subject: PinSubject): string {
  return subject.kind === 'owner' ? 'owner' : `cashier:${subject.name.trim().toLowerCase()}`;
}

/**
 * Where a PIN is typed: the hub itself (its desktop window and browser shell, one device however
 * many tabs, so a new session does not buy new tries) or one paired counter ("counter:<id>").
 * Wrong PINs count per subject and device: a counter's wrong tries never lock the PIN at the hub.
 */
export type PinDevice = 'hub' | `counter:${string}`;
export const HUB_DEVICE: PinDevice = 'hub';

/** The hub's count keeps the key of earlier versions, so a lock-out on disk still holds. */
function lockoutKeyOf(subject: PinSubject, device: PinDevice): string {
  return device === HUB_DEVICE ? keyOf(subject) : `${keyOf(subject)}@${device}`;
}

const lockoutSchema = z.object({
  failures: z.number().int().min(0),
  lockedUntil: z.number().nullable(),
});
const fileSchema = z.object({
  format: z.literal(1),
  pins: z.record(z.string(), z.string().refine(isPinHash)),
  lockouts: z.record(z.string(), lockoutSchema),
});

export interface PinsFileRecovery {
  readonly movedTo: string;
  readonly message: string;
}

export interface PinStore {
  isSet(subject: PinSubject): boolean;
  /** Sets (or with null, removes) a PIN and clears its lock-out. Checking the old one is the caller's. */
  set(subject: PinSubject, pin: string | null): Promise<void>;
  /**
   * Resolves when `pin` is right. Otherwise throws AuthError: LOCKED_OUT (nothing is checked while
   * locked), WRONG_PIN (counted, persisted), PIN_NOT_SET. Tries are checked one at a time, so that
   * parallel guesses cannot all slip in before the count goes up.
   */
  verify(subject: PinSubject, pin: string, device?: PinDevice): Promise<void>;
  /**
   * The end of the subject's lock-out on that device (the hub by default), on the till's clock as
   * it reads now, or null.
   */
  lockedUntil(subject: PinSubject, device?: PinDevice): number | null;
  /** Set when pins.json was damaged and moved aside (every PIN must then be set again). */
  readonly recovery: PinsFileRecovery | null;
}

export interface PinStoreOptions {
  readonly dataDir: string;
  /** The till's time: what pins.json records a lock-out's end in, and file names' stamps. */
  readonly now: () => number;
  /**
   * A clock nothing in the till can move (default: performance.now): lock-outs count on it, so
   * the --dev-clock endpoint that moves the till's time cannot end one.
   */
  readonly monotonic?: () => number;
  /** Tests pass cheaper parameters where the cost itself is not under test. */
  readonly kdf?: PinKdfParams;
}

function stamp(at: number): string {
  return new Date(at).toISOString().replace(/[:.]/g, '-');
}

type LockoutMap = Record<string, LockoutState>;

function mapLockouts(from: LockoutMap, convert: (state: LockoutState) => LockoutState) {
  return Object.fromEntries(Object.entries(from).map(([key, state]) => [key, convert(state)]));
}

/**
 * pins.json as it is on disk (lock-outs end on the wall clock), or nothing; a damaged file is
 * moved aside and said so.
 */
function readPinsFile(
  path: string,
  now: () => number,
): { pins: Record<string, string>; lockouts: LockoutMap; recovery: PinsFileRecovery | null } {
  const empty = { pins: {}, lockouts: {} };
  if (!existsSync(path)) return { ...empty, recovery: null };
  try {
    const parsed = fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    return { pins: { ...parsed.pins }, lockouts: { ...parsed.lockouts }, recovery: null };
  } catch {
    const base = `${path}.invalid-${stamp(now())}`;
    let movedTo = base;
    for (let n = 1; existsSync(movedTo); n++) movedTo = `${base}-${n}`;
    renameSync(path, movedTo);
    return {
      ...empty,
      recovery: {
        movedTo,
        message: `The PIN file was damaged and was kept as ${movedTo}. No owner PIN is set now: set the owner PIN and the cashiers' PINs again in Settings.`,
      },
    };
  }
}

export function openPinStore(options: PinStoreOptions): PinStore {
  const { dataDir, now } = options;
  const monotonic = options.monotonic ?? (() => performance.now());
  const clocks = (): LockoutClocks => ({ wall: now(), monotonic: monotonic() });
  const kdf = options.kdf ?? PIN_KDF;
  const path = join(dataDir, PINS_FILE);
  mkdirSync(dataDir, { recursive: true });
  keepPrivate(path);
  for (const name of readdirSync(dataDir)) {
    if (isAtomicTempName(name, PINS_FILE)) rmSync(join(dataDir, name), { force: true });
  }

  const file = readPinsFile(path, now);
  const { pins, recovery } = file;
  // Held on the monotonic clock from here on.
  const started = clocks();
  const lockouts: LockoutMap = mapLockouts(file.lockouts, (s) => lockoutFromFile(s, started));

  function save(): void {
    const at = clocks();
    const onDisk = mapLockouts(lockouts, (state) => lockoutToFile(state, at));
    writeFileAtomic(
      path,
      `${JSON.stringify({ format: 1, pins, lockouts: onDisk }, null, 2)}\n`,
      0o600,
    );
  }

  function lockoutOf(key: string): LockoutState {
    return lockouts[key] ?? NO_FAILURES;
  }

  let queue: Promise<unknown> = Promise.resolve();
  function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  /** A new or removed PIN starts every device's count afresh. */
  function clearLockouts(subject: PinSubject): void {
    const key = keyOf(subject);
    for (const held of Object.keys(lockouts)) {
      if (held === key || held.startsWith(`${key}@`)) delete lockouts[held];
    }
  }

  async function check(subject: PinSubject, pin: string, device: PinDevice): Promise<void> {
    const key = lockoutKeyOf(subject, device);
    const before = lockoutOf(key);
    const lock = activeLock(before, monotonic());
    if (lock !== null) {
      throw new AuthError(
        'LOCKED_OUT',
        `Too many wrong PINs: PIN entry is locked. Try again in ${waitWords(lock - monotonic())}.`,
        'pin',
      );
    }
    const hash = pins[keyOf(subject)];
    if (hash === undefined) {
      throw new AuthError(
        'PIN_NOT_SET',
        subject.kind === 'owner'
          ? 'No owner PIN is set.'
          : `${subject.name} has no PIN yet: ask the owner to set one in Settings.`,
      );
    }
    if (await verifyPin(pin, hash)) {
      if (before.failures > 0 || before.lockedUntil !== null) {
        delete lockouts[key];
        save();
      }
      return;
    }
    const after = afterFailure(before, monotonic());
    lockouts[key] = after;
    save();
    if (after.lockedUntil !== null) {
      throw new AuthError(
        'LOCKED_OUT',
        `Wrong PIN. Too many wrong PINs: PIN entry is locked for ${waitWords(after.lockedUntil - monotonic())}.`,
        'pin',
      );
    }
    const left = triesLeft(after);
    throw new AuthError(
      'WRONG_PIN',
      `Wrong PIN. ${left === 1 ? '1 more wrong PIN locks' : `${left} more wrong PINs lock`} PIN entry for a while.`,
      'pin',
    );
  }

  return {
    isSet: (subject) => pins[keyOf(subject)] !== undefined,
    set: (subject, pin) =>
      oneAtATime(async () => {
        const key = keyOf(subject);
        if (pin === null) delete pins[key];
        else pins[key] = await hashPin(pin, kdf);
        clearLockouts(subject);
        save();
      }),
    verify: (subject, pin, device = HUB_DEVICE) => oneAtATime(() => check(subject, pin, device)),
    lockedUntil(subject, device = HUB_DEVICE) {
      const lock = activeLock(lockoutOf(lockoutKeyOf(subject, device)), monotonic());
      return lock === null ? null : now() + (lock - monotonic());
    },
    get recovery() {
      return recovery;
    },
  };
}
