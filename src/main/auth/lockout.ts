/**
 * The lock-out after wrong PINs, as pure functions of a small persisted state. Five tries are
 * free; the fifth wrong one locks PIN entry for 1 minute, and each wrong one after that for
 * longer (5, 15, then 60 minutes each), until a right PIN resets the count.
 *
 * A running till counts a lock-out on a monotonic clock (its `lockedUntil` is on that clock),
 * which nothing in the till can move: not the --dev-clock endpoint, not a changed system time.
 * pins.json keeps the end on the wall clock, so that a restart (which starts the monotonic clock
 * afresh) still honours it; lockoutFromFile and lockoutToFile convert between the two.
 */
export const FREE_TRIES = 5;
export const LOCKOUT_STEPS_MS: readonly number[] = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];

export interface LockoutState {
  /** Wrong PINs in a row. */
  readonly failures: number;
  /** PIN entry is refused until then (epoch ms), or null. */
  readonly lockedUntil: number | null;
}

export const NO_FAILURES: LockoutState = Object.freeze({ failures: 0, lockedUntil: null });

/** The longest lock-out: one read back from the file never waits longer (a clock set back). */
export const LONGEST_LOCKOUT_MS = Math.max(...LOCKOUT_STEPS_MS);

/** The times a conversion reads: the wall clock's and the monotonic clock's, at one moment. */
export interface LockoutClocks {
  readonly wall: number;
  readonly monotonic: number;
}

/** A lock-out as pins.json keeps it (its end on the wall clock), on the monotonic clock. */
export function lockoutFromFile(saved: LockoutState, at: LockoutClocks): LockoutState {
  const left = saved.lockedUntil === null ? 0 : saved.lockedUntil - at.wall;
  return {
    failures: saved.failures,
    lockedUntil: left > 0 ? at.monotonic + Math.min(left, LONGEST_LOCKOUT_MS) : null,
  };
}

/** A lock-out held on the monotonic clock, as pins.json keeps it (its end on the wall clock). */
export function lockoutToFile(held: LockoutState, at: LockoutClocks): LockoutState {
  const left = held.lockedUntil === null ? 0 : held.lockedUntil - at.monotonic;
  return { failures: held.failures, lockedUntil: left > 0 ? at.wall + left : null };
}

/** The end of an active lock-out, or null when a PIN may be tried now. */
export function activeLock(state: LockoutState, now: number): number | null {
  return state.lockedUntil !== null && now < state.lockedUntil ? state.lockedUntil : null;
}

/** How long the lock-out after the `failures`-th wrong PIN in a row lasts (0: none). */
export function lockoutFor(failures: number): number {
  if (failures < FREE_TRIES) return 0;
  const step = Math.min(failures - FREE_TRIES, LOCKOUT_STEPS_MS.length - 1);
  return LOCKOUT_STEPS_MS[step] ?? 0;
}

export function afterFailure(state: LockoutState, now: number): LockoutState {
  const failures = state.failures + 1;
  const duration = lockoutFor(failures);
  return { failures, lockedUntil: duration > 0 ? now + duration : null };
}

/** Wrong PINs still allowed before the next lock-out (1 once past the free tries). */
export function triesLeft(state: LockoutState): number {
  return Math.max(1, FREE_TRIES - state.failures);
}

/** "1 minute", "15 minutes", "1 hour": how long a person has to wait, rounded up. */
export function waitWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes >= 60 && minutes % 60 === 0) {
    const hours = minutes / 60;
    return hours === 1 ? '1 hour' : `${hours} hours`;
  }
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
