/**
 * A small seedable generator (mulberry32) for fault decisions, so a fault run replays exactly
 * with the same seed. Identifiers use node:crypto instead: they must never repeat across runs.
 */
export interface SeededRandom {
  /** Uniform in [0, 1); needs no `this`, so it can be handed on alone as a `() => number`. */
  next(this: void): number;
  /** True with probability `rate`; rates of exactly 0 and 1 consume no randomness. */
  chance(rate: number): boolean;
  reseed(seed: number): void;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance(rate) {
      if (rate <= 0) return false;
      if (rate >= 1) return true;
      return next() < rate;
    },
    reseed(newSeed) {
      state = newSeed >>> 0;
    },
  };
}
