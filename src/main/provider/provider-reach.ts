/**
 * Whether the provider can be reached from this till now, learned from what its calls met: a
 * network error or a timeout says it cannot (the shop's internet is down, or the provider is);
 * any answer says it can, a 4xx or 5xx too (the provider is there, it said no). The calls are
 * observed by reach-observer.ts; reach-probe.ts asks when no call has gone out for a while.
 */
import type { ProviderReachView } from '#shared/views';
import { ProviderError } from './errors';

/** What a finished call tells about reach; `silent` tells nothing (cancelled, never sent). */
export type ReachSign = 'answered' | 'unreachable' | 'silent';

export interface ProviderReach {
  view(): ProviderReachView;
  /** True from a call that met a network error or a timeout until one is answered. */
  isUnreachable(): boolean;
  /** A call finished: what it met moves the state (a `silent` one leaves it). */
  note(sign: ReachSign): void;
  /** When a call last told something (epoch ms), or null: the probe waits this long. */
  lastHeardAt(): number | null;
  subscribe(listener: (view: ProviderReachView) => void): () => void;
}

/** A failed call's sign: NETWORK and TIMEOUT only; a cancelled or refused-before-sending call is silent. */
export function reachSignOf(error: unknown): ReachSign {
  if (!(error instanceof ProviderError)) return 'silent';
  switch (error.code) {
    case 'NETWORK':
    case 'TIMEOUT':
      return 'unreachable';
    case 'ABORTED':
    case 'INVALID_REQUEST':
      return 'silent';
    default:
      return 'answered';
  }
}

export function createProviderReach(now: () => number): ProviderReach {
  let view: ProviderReachView = { state: 'reachable', since: null };
  let heardAt: number | null = null;
  const listeners = new Set<(view: ProviderReachView) => void>();

  function note(sign: ReachSign): void {
    if (sign === 'silent') return;
    const at = now();
    heardAt = at;
    const state = sign === 'answered' ? 'reachable' : 'unreachable';
    if (state === view.state && view.since !== null) return;
    const changed = state !== view.state;
    view = { state, since: at };
    if (changed) for (const listener of [...listeners]) listener(view);
  }

  return {
    view: () => view,
    isUnreachable: () => view.state === 'unreachable',
    note,
    lastHeardAt: () => heardAt,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
