import { createSeededRandom } from '#main/sandbox/seeded-random';

/**
 * Seeded randomness for tests and the fault campaign, on the project's one generator (mulberry32
 * in src/main/sandbox/seeded-random.ts, which the sandbox's faults use): one seed gives one run's
 * whole script (sales, customers, faults, restarts), so a failing run replays from its seed.
 */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability p; always draws, so the draws of a script do not depend on its rates. */
  chance(p: number): boolean;
  pick<T>(items: readonly [T, ...T[]]): T;
  /** A 31-bit integer, e.g. the seed of the sandbox's own fault generator. */
  seed(): number;
}

export function createPrng(seed: number): Prng {
  // The same generator the sandbox uses for its faults, with the helpers a script needs.
  const base = createSeededRandom(seed);
  const next = (): number => base.next();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] ?? items[0],
    seed: () => Math.floor(next() * 2 ** 31),
  };
}

/** The seed of run `index` of a campaign: independent of how many runs go in parallel. */
export function runSeed(campaignSeed: number, index: number): number {
  let h = (campaignSeed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
