import type { CallbackHealthState, CallbackHealthView, CallbackSelfTestView } from '#shared/views';
import { PROVIDER_TIMESTAMP_PRECISION_MS } from '#shared/provider-time';
import type { CallbackRoute } from '#main/tunnel/callback-url';
import { healthWords, type HealthProblem } from './callback-health-words';
import {
  createCallbackWatches,
  type CallbackWatches,
  type WatchedPayment,
} from './callback-watches';
import {
  createProofHolder,
  keyOf,
  trackRoute,
  type ProofHolder,
  type RouteTracker,
} from './callback-health-parts';

export type { CallbackHealthState } from '#shared/views';

export interface CallbackHealth {
  /** 'off': no callback route (polling only). 'live': proven recently (self-test or real callback). */
  state(): CallbackHealthState;
  /** Open sales are checked on the faster schedule while this is true (not_reaching, and off). */
  degraded(): boolean;
  /** The listener accepted a provider callback (before the engine checks it). */
  callbackReceived(input: {
    readonly at: number;
    readonly reference?: string;
    readonly sessionId?: string;
  }): void;
  /** A status check or listing (not a callback) found a settled success. The monitor waits a short
   *  window after settledAt for its callback; none -> not_reaching. */
  paymentFoundByCheck(input: {
    readonly saleId: number | null;
    readonly reference: string;
    readonly sessionId: string;
    readonly settledAt: number | null;
    readonly foundAt: number;
  }): void;
  view(): CallbackHealthView;
  subscribe(listener: (view: CallbackHealthView) => void): () => void;
  close(): void;
}

/** What the composition root needs beyond the engine's interface: the self-test and route news. */
export interface CallbackHealthMonitor extends CallbackHealth {
  selfTestStarted(): void;
  selfTestFinished(result: CallbackSelfTestView): void;
  /** Re-reads the route (after a tunnel or settings change) and tells subscribers what changed. */
  refresh(): void;
}

export const CALLBACK_HEALTH_DEFAULTS = {
  /** How long after a payment settles its callback may take before it counts as missing. */
  windowMs: 20_000,
  /** How long a proof (a callback or a passed self-test) keeps the state live. */
  liveForMs: 30 * 60_000,
  /** The least wait after a check found a payment: its callback may be on the wire right now. */
  graceMs: 2_000,
  /** The engine's check cadence per open sale, for the words only (the engine owns the policy). */
  steadyCheckMs: 15_000,
  degradedCheckMs: 10_000,
} as const;

export interface CallbackHealthOptions {
  readonly now: () => number;
  /** The engine's Scheduler.setTimer, so fake time drives the window and the expiry of a proof. */
  readonly setTimer: (delayMs: number, fn: () => void) => () => void;
  /** The current callback route; polling-only means 'off'. */
  readonly route: () => CallbackRoute;
  readonly windowMs?: number;
  readonly liveForMs?: number;
  readonly graceMs?: number;
  readonly steadyCheckMs?: number;
  readonly degradedCheckMs?: number;
}

/** Self-test failures that say nothing about the provider's path: the state does not change. */
const INCONCLUSIVE: ReadonlySet<CallbackSelfTestView['code']> = new Set([
  'NO_ROUTE',
  'ALLOW_LIST_REFUSED',
]);

/**
 * Whether the provider's callbacks are proven to reach this till. A callback is only a hint, so
 * the till checks every sale by itself anyway; this monitor decides how fast (degraded()) and
 * what the header says. A missed callback is judged only after its window has passed, so a
 * check that simply ran before the callback could arrive raises no alarm. A real callback
 * clears every problem; a passed self-test clears a failed self-test but not a missed callback
 * (it proves the till's address answers, not that the provider sends to it).
 */
export function createCallbackHealth(options: CallbackHealthOptions): CallbackHealthMonitor {
  const liveForMs = options.liveForMs ?? CALLBACK_HEALTH_DEFAULTS.liveForMs;
  const { now } = options;
  const flags: HealthFlags = {
    closed: false,
    problem: null,
    lastSelfTest: null,
    selfTestRoute: undefined,
    selfTestRunning: false,
  };
  const listeners = new Set<(view: CallbackHealthView) => void>();
  const watches = createCallbackWatches({
    now,
    setTimer: options.setTimer,
    windowMs: options.windowMs ?? CALLBACK_HEALTH_DEFAULTS.windowMs,
    graceMs: options.graceMs ?? CALLBACK_HEALTH_DEFAULTS.graceMs,
    windowPassed: (watch) => windowPassed(parts, watch),
  });
  const routes = trackRoute({
    route: options.route,
    now,
    changed: () => {
      proof.set(null);
      flags.problem = null;
      watches.clear();
    },
  });
  const proof = createProofHolder({
    now,
    setTimer: options.setTimer,
    liveForMs,
    expired: () => notify(),
    closed: () => flags.closed,
  });
  let lastState: CallbackHealthState | null = null;
  let since = now();
  let lastEmitted = '';

  function currentState(): CallbackHealthState {
    routes.observe();
    const state: CallbackHealthState =
      routes.key() === null
        ? 'off'
        : flags.problem !== null
          ? 'not_reaching'
          : proof.live()
            ? 'live'
            : 'unproven';
    if (state !== lastState) {
      lastState = state;
      since = now();
    }
    return state;
  }

  function view(): CallbackHealthView {
    const state = currentState();
    const { problem, lastSelfTest } = flags;
    const facts = {
      route: routes.route(),
      routeSince: routes.since(),
      hasProof: proof.get() !== null,
      problem,
      lastSelfTest,
      liveForMs,
    };
    return {
      state,
      since,
      lastProof: proof.get(),
      ...healthWords(state, facts),
      checkEveryMs: isDegraded(state)
        ? (options.degradedCheckMs ?? CALLBACK_HEALTH_DEFAULTS.degradedCheckMs)
        : (options.steadyCheckMs ?? CALLBACK_HEALTH_DEFAULTS.steadyCheckMs),
      missedSaleId: problem?.kind === 'missed-callback' ? problem.saleId : null,
      selfTestRunning: flags.selfTestRunning,
      lastSelfTest,
    };
  }

  function notify(): void {
    if (flags.closed) return;
    const next = view();
    const text = JSON.stringify(next);
    if (text === lastEmitted) return;
    lastEmitted = text;
    for (const listener of [...listeners]) listener(next);
  }

  const parts: HealthParts = {
    options,
    flags,
    routes,
    proof,
    watches,
    listeners,
    currentState,
    view,
    notify,
  };
  lastEmitted = JSON.stringify(view());
  return monitorOf(parts);
}

/** What the monitor changes as it hears of callbacks, checks and self-tests. */
interface HealthFlags {
  closed: boolean;
  problem: HealthProblem | null;
  lastSelfTest: CallbackSelfTestView | null;
  /** The route a running self-test was started on (undefined: none running). */
  selfTestRoute: string | null | undefined;
  selfTestRunning: boolean;
}

interface HealthParts {
  readonly options: CallbackHealthOptions;
  readonly flags: HealthFlags;
  readonly routes: RouteTracker;
  readonly proof: ProofHolder;
  readonly watches: CallbackWatches;
  readonly listeners: Set<(view: CallbackHealthView) => void>;
  readonly currentState: () => CallbackHealthState;
  readonly view: () => CallbackHealthView;
  /** Tells the subscribers, when the view changed. */
  readonly notify: () => void;
}

function windowPassed(parts: HealthParts, watch: WatchedPayment): void {
  const { flags, routes } = parts;
  if (flags.closed) return;
  routes.observe();
  if (routes.key() !== null && !parts.watches.covered(watch)) {
    flags.problem ??= {
      kind: 'missed-callback',
      since: parts.options.now(),
      saleId: watch.saleId,
      reference: watch.reference,
    };
  }
  parts.notify();
}

/** A finished self-test of the route in use proves it, or (unless inconclusive) fails it. */
function judgeSelfTest(parts: HealthParts, result: CallbackSelfTestView): void {
  const { flags, routes } = parts;
  // A test of an address the till no longer uses says nothing about the current one.
  const sameRoute = flags.selfTestRoute === undefined || flags.selfTestRoute === routes.key();
  flags.selfTestRoute = undefined;
  if (!sameRoute || routes.key() === null) return;
  if (result.passed) {
    parts.proof.prove(result.at, 'self-test');
    if (flags.problem?.kind === 'self-test-failed') flags.problem = null;
  } else if (!INCONCLUSIVE.has(result.code)) {
    flags.problem = { kind: 'self-test-failed', since: flags.problem?.since ?? result.at, result };
  }
}

function monitorOf(parts: HealthParts): CallbackHealthMonitor {
  const { flags, routes, proof, watches, listeners, notify } = parts;
  return {
    state: () => parts.currentState(),
    degraded: () => isDegraded(parts.currentState()),
    callbackReceived(input) {
      if (flags.closed) return;
      routes.observe();
      watches.received(input);
      proof.prove(input.at, 'callback');
      flags.problem = null;
      notify();
    },
    paymentFoundByCheck(input) {
      if (flags.closed) return;
      routes.observe();
      // No route: no callback was ever coming. Settled before this route existed (or before
      // the till started): its callback went elsewhere or arrived while the till was down.
      if (routes.key() === null) return;
      // The provider's `date` has whole seconds: ignored only when that second ended before.
      if (
        input.settledAt !== null &&
        input.settledAt + PROVIDER_TIMESTAMP_PRECISION_MS <= routes.since()
      )
        return;
      watches.found(input);
    },
    selfTestStarted() {
      if (flags.closed) return;
      flags.selfTestRunning = true;
      flags.selfTestRoute = keyOf(parts.options.route());
      notify();
    },
    selfTestFinished(result) {
      if (flags.closed) return;
      flags.selfTestRunning = false;
      flags.lastSelfTest = result;
      routes.observe();
      judgeSelfTest(parts, result);
      notify();
    },
    refresh: () => notify(),
    view: () => parts.view(),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      flags.closed = true;
      proof.close();
      watches.clear();
      listeners.clear();
    },
  };
}

function isDegraded(state: CallbackHealthState): boolean {
  return state === 'not_reaching' || state === 'off';
}
