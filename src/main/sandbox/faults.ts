import { z } from 'zod';
import type { SandboxDb } from './sandbox-db';
import { readSetting, writeSetting } from './sandbox-state';
import { createSeededRandom, type SeededRandom } from './seeded-random';

const rate = z.number().min(0).max(1);

/** Past any sensible client timeout: the provider client's default is 15 s. */
export const DEFAULT_TIMEOUT_HOLD_MS = 20_000;
export const MAX_TIMEOUT_HOLD_MS = 10 * 60_000;
/** The longest outage one POST may ask for: a whole day. */
export const MAX_UNREACHABLE_MS = 24 * 60 * 60_000;

/** Body of POST /faults: every field optional; given fields replace, others stay. */
export const faultPatchSchema = z.strictObject({
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  error_rate: rate.optional(),
  drop_callbacks: rate.optional(),
  duplicate_callbacks: rate.optional(),
  malformed_rate: rate.optional(),
  count_skew: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  /** The provider does the work and commits it, then answers 500. */
  side_effect_error_rate: rate.optional(),
  /** The provider does the work, then holds the answer `timeout_hold_ms` (real time). */
  timeout_rate: rate.optional(),
  timeout_hold_ms: z.number().int().min(0).max(MAX_TIMEOUT_HOLD_MS).optional(),
  /**
   * The shop's internet is down for this many ms from now (sandbox clock): the till's requests
   * have their sockets destroyed, callbacks wait for the end. 0 ends an outage now.
   */
  unreachable_ms: z.number().int().min(0).max(MAX_UNREACHABLE_MS).optional(),
  /** Restarts the fault generator, so the same seed replays the same decisions. */
  seed: z.number().int().optional(),
});

export type FaultPatch = z.infer<typeof faultPatchSchema>;

export interface FaultSettings {
  readonly latency_ms: number;
  readonly error_rate: number;
  readonly drop_callbacks: number;
  readonly duplicate_callbacks: number;
  readonly malformed_rate: number;
  readonly count_skew: number;
  readonly side_effect_error_rate: number;
  readonly timeout_rate: number;
  readonly timeout_hold_ms: number;
  /** When the outage asked by `unreachable_ms` ends (sandbox clock, epoch ms); null: none. */
  readonly unreachable_until_ms: number | null;
}

export const NO_FAULTS: FaultSettings = {
  latency_ms: 0,
  error_rate: 0,
  drop_callbacks: 0,
  duplicate_callbacks: 0,
  malformed_rate: 0,
  count_skew: 0,
  side_effect_error_rate: 0,
  timeout_rate: 0,
  timeout_hold_ms: DEFAULT_TIMEOUT_HOLD_MS,
  unreachable_until_ms: null,
};

const storedSchema = faultPatchSchema
  .omit({ seed: true, unreachable_ms: true })
  .extend({ unreachable_until_ms: z.number().int().nullable().optional() });
const FAULTS_KEY = 'faults';

/** Fault settings (persisted with the sandbox) and the seeded generator that rolls them. */
export class FaultInjector {
  private settings: FaultSettings;
  private seed: number;
  readonly random: SeededRandom;

  constructor(
    private readonly db: SandboxDb,
    seed: number,
    /** The sandbox's clock: an outage runs on it, so a fast-forwarded test clock ends it. */
    private readonly now: () => number,
  ) {
    this.seed = seed;
    this.random = createSeededRandom(seed);
    const stored = readSetting(db, FAULTS_KEY);
    const parsed = stored === undefined ? undefined : storedSchema.safeParse(JSON.parse(stored));
    this.settings = { ...NO_FAULTS, ...(parsed?.success === true ? parsed.data : {}) };
  }

  get current(): FaultSettings & { readonly seed: number } {
    return { ...this.settings, seed: this.seed };
  }

  apply(patch: FaultPatch): void {
    const { seed, unreachable_ms, ...rest } = patch;
    this.settings = { ...this.settings, ...stripUndefined(rest) };
    if (unreachable_ms !== undefined) {
      this.settings = {
        ...this.settings,
        unreachable_until_ms: unreachable_ms > 0 ? this.now() + unreachable_ms : null,
      };
    }
    if (seed !== undefined) {
      this.seed = seed;
      this.random.reseed(seed);
    }
    writeSetting(this.db, FAULTS_KEY, JSON.stringify(this.settings));
  }

  clear(): void {
    this.settings = NO_FAULTS;
    writeSetting(this.db, FAULTS_KEY, undefined);
  }

  /** The shop cannot reach the provider now (an outage asked by `unreachable_ms`). */
  unreachableNow(): boolean {
    return this.unreachableUntil() !== null;
  }

  /** When the outage in force ends (sandbox clock), or null when there is none now. */
  unreachableUntil(): number | null {
    const until = this.settings.unreachable_until_ms;
    return until !== null && this.now() < until ? until : null;
  }

  shouldFail(): boolean {
    return this.random.chance(this.settings.error_rate);
  }

  shouldSideEffectFail(): boolean {
    return this.random.chance(this.settings.side_effect_error_rate);
  }

  shouldTimeout(): boolean {
    return this.random.chance(this.settings.timeout_rate);
  }

  shouldMalform(): boolean {
    return this.random.chance(this.settings.malformed_rate);
  }

  shouldDropCallback(): boolean {
    return this.random.chance(this.settings.drop_callbacks);
  }

  shouldDuplicateCallback(): boolean {
    return this.random.chance(this.settings.duplicate_callbacks);
  }

  /** Picks one of `options` with the seeded generator. */
  pick<T>(options: readonly [T, ...T[]]): T {
    return options[Math.floor(this.random.next() * options.length)] ?? options[0];
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
