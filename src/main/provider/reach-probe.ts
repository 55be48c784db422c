/**
 * The light question a quiet till asks the provider, so that the reach state (provider-reach.ts)
 * stays true with no sale running: the status of a reference no sale ever has (section 4.2).
 * Its answer (404, no transaction) is one small body, changes nothing and, unlike the listing,
 * cannot grow with a provider that ignores `limit`. It is asked only when no call has been
 * heard for REACH_PROBE_EVERY_MS: the till's own calls (sales checked, syncs) are proof enough.
 */
import type { Scheduler } from '#main/clock/scheduler';
import type { ProviderClient } from './client';
import { reachSignOf, type ProviderReach } from './provider-reach';

/**
 * Silence before the probe asks, lost or back alike. With the probe's own limit below (and the
 * read retries' short waits) a change is seen within 30 s of it, as the header promises.
 */
export const REACH_PROBE_EVERY_MS = 15_000;
/** A probe not answered in this long (real time) counts as unreachable: a silent connection. */
export const REACH_PROBE_TIMEOUT_MS = 10_000;
/** Real references have a prefix, a time and a run id (references.ts): never this. */
export const REACH_PROBE_REFERENCE = 'REACH-PROBE';

export interface ReachProbeDeps {
  readonly reach: ProviderReach;
  readonly scheduler: Scheduler;
  /** The client to ask, not observed (the probe tells the reach itself); throws when not set up. */
  readonly client: () => ProviderClient;
}

/** Asks the provider once, now, and tells the reach what it met. */
export async function probeReach(deps: Pick<ReachProbeDeps, 'reach' | 'client'>): Promise<void> {
  let client: ProviderClient;
  try {
    client = deps.client();
  } catch {
    return; // not set up: there is nothing to reach yet
  }
  const signal = AbortSignal.timeout(REACH_PROBE_TIMEOUT_MS);
  try {
    await client.checkPayment(REACH_PROBE_REFERENCE, { signal });
    deps.reach.note('answered');
  } catch (error) {
    deps.reach.note(signal.aborted ? 'unreachable' : reachSignOf(error));
  }
}

export interface ReachProbe {
  /** Settles a probe in flight (tests and benchmarks, as the engine's idle). */
  idle(): Promise<void>;
  close(): void;
}

/** Probes whenever the provider has been quiet for REACH_PROBE_EVERY_MS. */
export function startReachProbe(deps: ReachProbeDeps): ReachProbe {
  const { reach, scheduler } = deps;
  let cancel: (() => void) | null = null;
  let closed = false;
  let inFlight: Promise<void> | null = null;

  function arm(delayMs: number): void {
    cancel?.();
    cancel = closed ? null : scheduler.setTimer(delayMs, tick);
  }

  function tick(): void {
    cancel = null;
    const heard = reach.lastHeardAt();
    const quietFor = heard === null ? Infinity : scheduler.now() - heard;
    if (quietFor < REACH_PROBE_EVERY_MS) {
      arm(REACH_PROBE_EVERY_MS - quietFor);
      return;
    }
    inFlight = probeReach(deps).finally(() => {
      inFlight = null;
      arm(REACH_PROBE_EVERY_MS);
    });
  }

  arm(REACH_PROBE_EVERY_MS);
  return {
    idle: async () => {
      await inFlight;
    },
    close() {
      closed = true;
      cancel?.();
      cancel = null;
    },
  };
}
