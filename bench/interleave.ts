/**
 * Interleaved runs in a random, balanced order. Run in a fixed order (baseline first, subject
 * last), a figure and its baseline meet different machines: a warmer JIT, a fuller page cache,
 * another helper's test suite starting halfway. So each round runs every variant once, in an
 * order drawn from a seeded generator (a printed seed replays it), and the rounds are balanced:
 * every n rounds (n variants) form a random Latin square, so each variant runs in each position
 * once. Two variants: every two rounds are A B and B A, in a random order. Pure chance could
 * give A first in six rounds of seven, and the order would decide again.
 */
import { createSeededRandom, type SeededRandom } from '#main/sandbox/seeded-random';

function shuffled<T>(items: readonly T[], random: SeededRandom): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    const swap = order[i] as T;
    order[i] = order[j] as T;
    order[j] = swap;
  }
  return order;
}

/**
 * A random Latin square over `items`: the cyclic square with its symbols, rows and columns
 * shuffled. Shuffling the columns varies which variant follows which from round to round.
 */
function latinSquare<T>(items: readonly T[], random: SeededRandom): T[][] {
  const n = items.length;
  const symbols = shuffled(items, random);
  const columns = shuffled(
    Array.from({ length: n }, (_, i) => i),
    random,
  );
  const rows = shuffled(
    Array.from({ length: n }, (_, i) => i),
    random,
  );
  return rows.map((row) => columns.map((column) => symbols[(row + column) % n] as T));
}

/** `rounds` orders of `items`: consecutive random Latin squares, cut to `rounds`. */
export function roundOrders<T>(items: readonly T[], rounds: number, seed: number): T[][] {
  const random = createSeededRandom(seed);
  const orders: T[][] = [];
  while (orders.length < rounds && items.length > 0) orders.push(...latinSquare(items, random));
  return orders.slice(0, rounds);
}

/** The orders in a line for a note: "B A | A B | …". */
export function describeOrders(orders: readonly (readonly string[])[]): string {
  return orders.map((order) => order.join(' ')).join(' | ');
}

/** What each variant of `interleave` gave, one entry per round, in round order. */
export type RoundResults<V extends Record<string, () => Promise<unknown>>> = {
  [K in keyof V]: Awaited<ReturnType<V[K]>>[];
};

/**
 * Runs `rounds` rounds of every variant in a seeded random, balanced order (roundOrders) and
 * returns each variant's results in round order, with the orders used (for the note).
 */
export async function interleave<V extends Record<string, () => Promise<unknown>>>(
  variants: V,
  rounds: number,
  seed: number,
): Promise<{ results: RoundResults<V>; orders: (keyof V & string)[][] }> {
  const names = Object.keys(variants) as (keyof V & string)[];
  const orders = roundOrders(names, rounds, seed);
  const results = Object.fromEntries(names.map((name) => [name, [] as unknown[]])) as {
    [K in keyof V]: unknown[];
  };
  for (const order of orders) {
    for (const name of order) {
      const variant = variants[name] as () => Promise<unknown>;
      results[name].push(await variant());
    }
  }
  return { results: results as RoundResults<V>, orders };
}
