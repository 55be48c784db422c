/**
 * Two small parts of the callback health: the route it judges (a new address starts over) and
 * the last proof, which expires on its own after `liveForMs`.
 */
import type { CallbackHealthView } from '#shared/views';
import type { CallbackRoute } from '#main/tunnel/callback-url';

type Proof = CallbackHealthView['lastProof'];

export interface ProofHolder {
  get(): Proof;
  /** The proof now (or none); subscribers hear when it runs out, without any other event. */
  set(next: Proof): void;
  /** A later proof wins: a late-arriving older one never moves the time back. */
  prove(at: number, kind: NonNullable<Proof>['kind']): void;
  live(): boolean;
  close(): void;
}

export function createProofHolder(options: {
  readonly now: () => number;
  readonly setTimer: (delayMs: number, fn: () => void) => () => void;
  readonly liveForMs: number;
  readonly expired: () => void;
  readonly closed: () => boolean;
}): ProofHolder {
  let proof: Proof = null;
  let cancelExpiry: (() => void) | null = null;
  function set(next: Proof): void {
    proof = next;
    cancelExpiry?.();
    cancelExpiry = null;
    if (next !== null && !options.closed()) {
      const delay = Math.max(0, next.at + options.liveForMs - options.now());
      cancelExpiry = options.setTimer(delay, options.expired);
    }
  }
  return {
    get: () => proof,
    set,
    prove: (at, kind) => set({ at: Math.max(at, proof?.at ?? at), kind }),
    live: () => proof !== null && options.now() - proof.at < options.liveForMs,
    close: () => cancelExpiry?.(),
  };
}

export interface RouteTracker {
  /** The route as last read. */
  readonly route: () => CallbackRoute;
  /** Which address callbacks go to (null: polling only), as last read. */
  readonly key: () => string | null;
  /** When the route in use began. */
  readonly since: () => number;
  /** Reads the route; a new address calls `changed` (earlier proofs and watches mean nothing). */
  observe(): void;
}

export function trackRoute(options: {
  readonly route: () => CallbackRoute;
  readonly now: () => number;
  readonly changed: () => void;
}): RouteTracker {
  let route = options.route();
  let key = keyOf(route);
  let since = options.now();
  return {
    route: () => route,
    key: () => key,
    since: () => since,
    observe() {
      route = options.route();
      const next = keyOf(route);
      if (next === key) return;
      key = next;
      since = options.now();
      options.changed();
    },
  };
}

/**
 * Which address callbacks go to, for deciding whether a proof still holds. The last path segment
 * is the listener's token: a rotation keeps the old token working, so it is not a new route.
 */
export function keyOf(route: CallbackRoute): string | null {
  if (route.mode === 'polling-only') return null;
  return `${route.mode} ${route.callbackUrl.replace(/\/[^/]*$/, '')}`;
}
