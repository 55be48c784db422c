/**
 * The hub bench's pure parts: how many rounds of how long (quick mode runs the same path,
 * shorter), which loopback address each counter and the flood connect from, and what the hub's
 * log says about the connections it refused.
 */
import { REPETITIONS } from './bench-figure';

export interface HubPlan {
  readonly rounds: number;
  /** Each variant's window in a round. */
  readonly windowMs: number;
}

export function hubPlan(quick: boolean): HubPlan {
  return quick ? { rounds: 2, windowMs: 5_000 } : { rounds: REPETITIONS, windowMs: 20_000 };
}

/**
 * 127.0.0.<host>. Linux routes all of 127.0.0.0/8 to the loopback interface, so a client binds
 * any of these without root, and the hub sees each as an address of its own.
 */
export function loopbackAddress(host: number): string {
  if (!Number.isInteger(host) || host < 2 || host > 254) {
    throw new RangeError(`hub bench: no loopback address 127.0.0.${host} to give`);
  }
  return `127.0.0.${host}`;
}

const FIRST_COUNTER_HOST = 10;

/** Counter i (from 0) connects from 127.0.0.(10 + i), as each phone in a shop has its own address. */
export function counterAddress(index: number): string {
  return loopbackAddress(FIRST_COUNTER_HOST + index);
}

/** The one address that opens more connections than the per-address cap allows. */
export const FLOOD_ADDRESS = loopbackAddress(200);

/**
 * The addresses the hub's log (JSON lines) names as refused over a connection cap. The hub logs
 * a refusal at most once a minute, so this says from where, not how many.
 */
export function refusedAddresses(logText: string): ReadonlySet<string> {
  const found = new Set<string>();
  for (const line of logText.split('\n')) {
    if (!line.includes('"cap"')) continue;
    let entry: { from?: unknown; cap?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (typeof entry.from === 'string' && (entry.cap === 'per-address' || entry.cap === 'total')) {
      found.add(entry.from);
    }
  }
  return found;
}
