/**
 * Addresses refused for a while (too many wrong pairing codes), in a bounded map: a flood from
 * many addresses cannot grow it past `max`; expired entries go first, then the oldest.
 */
export interface BlockList {
  /** Refuses the address until then (epoch ms). */
  block(address: string, until: number): void;
  /** When the address's block ends, or null when it is not blocked now. */
  blockedUntil(address: string): number | null;
  size(): number;
}

export function createBlockList(options: {
  readonly max: number;
  readonly now: () => number;
}): BlockList {
  // Insertion order is age: re-blocking an address moves it to the end.
  const until = new Map<string, number>();

  function makeRoom(): void {
    const at = options.now();
    for (const [address, end] of until) {
      if (end <= at) until.delete(address);
    }
    for (const address of until.keys()) {
      if (until.size < options.max) break;
      until.delete(address);
    }
  }

  return {
    block(address, end) {
      until.delete(address);
      if (until.size >= options.max) makeRoom();
      until.set(address, end);
    },
    blockedUntil(address) {
      const end = until.get(address);
      if (end === undefined) return null;
      if (end > options.now()) return end;
      until.delete(address);
      return null;
    },
    size: () => until.size,
  };
}
