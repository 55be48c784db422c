import type { CallbackHealthState, CallbackHealthView, CallbackSelfTestView } from '#shared/views';
import type { CallbackRoute } from '#main/tunnel/callback-url';

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

type Problem =
  | {
      readonly kind: 'missed-callback';
      readonly since: number;
      readonly saleId: number | null;
      readonly reference: string;
    }
  | {
      readonly kind: 'self-test-failed';
      readonly since: number;
      readonly result: CallbackSelfTestView;
    };

interface Watch {
  readonly saleId: number | null;
  readonly reference: string;
  readonly sessionId: string;
  /** A callback for this payment received at or after this time counts. */
  readonly from: number;
  readonly cancel: () => void;
}

/** Self-test failures that say nothing about the provider's path: the state does not change. */
const INCONCLUSIVE: ReadonlySet<CallbackSelfTestView['code']> = new Set([
  'NO_ROUTE',
  'ALLOW_LIST_REFUSED',
]);

/** Keeps the memory of seen callbacks bounded on a busy till. */
const MAX_REMEMBERED = 5_000;

/**
 * Whether the provider's callbacks are proven to reach this till. A callback is only a hint, so
 * the till checks every sale by itself anyway; this monitor decides how fast (degraded()) and
 * what the header says. A missed callback is judged only after its window has passed, so a
 * check that simply ran before the callback could arrive raises no alarm. A real callback
 * clears every problem; a passed self-test clears a failed self-test but not a missed callback
 * (it proves the till's address answers, not that the provider sends to it).
 */
export function createCallbackHealth(options: CallbackHealthOptions): CallbackHealthMonitor {
  const windowMs = options.windowMs ?? CALLBACK_HEALTH_DEFAULTS.windowMs;
  const liveForMs = options.liveForMs ?? CALLBACK_HEALTH_DEFAULTS.liveForMs;
  const graceMs = options.graceMs ?? CALLBACK_HEALTH_DEFAULTS.graceMs;
  const steadyCheckMs = options.steadyCheckMs ?? CALLBACK_HEALTH_DEFAULTS.steadyCheckMs;
  const degradedCheckMs = options.degradedCheckMs ?? CALLBACK_HEALTH_DEFAULTS.degradedCheckMs;
  const { now } = options;
  const listeners = new Set<(view: CallbackHealthView) => void>();
  const watches = new Map<string, Watch>();
  /** Latest receipt time of a callback per session id and per reference. */
  const bySession = new Map<string, number>();
  const byReference = new Map<string, number>();
  let anonymousAt = Number.NEGATIVE_INFINITY;

  let route = options.route();
  let routeKey = keyOf(route);
  let routeSince = now();
  let proof: CallbackHealthView['lastProof'] = null;
  let cancelExpiry: (() => void) | null = null;
  let problem: Problem | null = null;
  let lastSelfTest: CallbackSelfTestView | null = null;
  let selfTestRoute: string | null | undefined;
  let selfTestRunning = false;
  let lastState: CallbackHealthState | null = null;
  let since = now();
  let closed = false;
  let lastEmitted = '';

  /** Reads the route; a new address makes earlier proofs and watches meaningless. */
  function observeRoute(): void {
    route = options.route();
    const key = keyOf(route);
    if (key === routeKey) return;
    routeKey = key;
    routeSince = now();
    setProof(null);
    problem = null;
    for (const watch of watches.values()) watch.cancel();
    watches.clear();
    bySession.clear();
    byReference.clear();
    anonymousAt = Number.NEGATIVE_INFINITY;
  }

  function currentState(): CallbackHealthState {
    observeRoute();
    const state: CallbackHealthState =
      routeKey === null
        ? 'off'
        : problem !== null
          ? 'not_reaching'
          : proof !== null && now() - proof.at < liveForMs
            ? 'live'
            : 'unproven';
    if (state !== lastState) {
      lastState = state;
      since = now();
    }
    return state;
  }

  function setProof(next: CallbackHealthView['lastProof']): void {
    proof = next;
    cancelExpiry?.();
    cancelExpiry = null;
    if (next !== null && !closed) {
      // Live expires on its own: the subscribers must hear of it without any other event.
      cancelExpiry = options.setTimer(Math.max(0, next.at + liveForMs - now()), notify);
    }
  }

  function view(): CallbackHealthView {
    const state = currentState();
    const { cause, action } = wordsFor(state);
    return {
      state,
      since,
      lastProof: proof,
      cause,
      action,
      checkEveryMs: isDegraded(state) ? degradedCheckMs : steadyCheckMs,
      missedSaleId: problem?.kind === 'missed-callback' ? problem.saleId : null,
      selfTestRunning,
      lastSelfTest,
    };
  }

  function notify(): void {
    if (closed) return;
    const next = view();
    const text = JSON.stringify(next);
    if (text === lastEmitted) return;
    lastEmitted = text;
    for (const listener of [...listeners]) listener(next);
  }

  function wordsFor(state: CallbackHealthState): {
    readonly cause: string | null;
    readonly action: string | null;
  } {
    switch (state) {
      case 'live':
        return { cause: null, action: null };
      case 'off':
        return {
          cause: route.mode === 'polling-only' ? route.reason : null,
          action: `Callbacks need an ngrok tunnel that is online, or your own public URL (Settings → Payment callbacks).`,
        };
      case 'unproven': {
        const recent = lastSelfTest !== null && lastSelfTest.at >= routeSince ? lastSelfTest : null;
        if (recent?.code === 'ALLOW_LIST_REFUSED') {
          return { cause: recent.detail, action: recent.action };
        }
        return {
          cause:
            proof === null
              ? 'No callback has reached this till yet and no self-test has passed.'
              : `No callback and no passed self-test in the last ${Math.round(liveForMs / 60_000)} minutes.`,
          action:
            'Press "Test callbacks" in Settings to check now. Sales are still confirmed: the till checks each open sale with the provider by itself.',
        };
      }
      case 'not_reaching':
        return problem === null ? { cause: null, action: null } : problemWords(problem);
    }
  }

  function problemWords(current: Problem): { readonly cause: string; readonly action: string } {
    if (current.kind === 'self-test-failed') {
      return {
        cause: `The callback self-test failed: ${current.result.detail}`,
        action: current.result.action ?? 'Press "Test callbacks" in Settings to check again.',
      };
    }
    const payment =
      current.saleId === null ? `the payment ${current.reference}` : `sale #${current.saleId}`;
    const answers = lastSelfTest?.passed === true && lastSelfTest.at >= routeSince;
    switch (route.mode) {
      case 'local-sandbox':
        return {
          cause: `The sandbox's callback for ${payment} never came: its callbacks personality or a fault drops them.`,
          action: `Check the sandbox's personality and faults (GET /personality, GET /faults).`,
        };
      case 'public-url':
        return {
          cause: answers
            ? `Your public URL answers (the self-test passed), but the provider's callback for ${payment} never came: the provider is not sending callbacks to it, or cannot reach it.`
            : `The provider's callback for ${payment} never came through your public URL.`,
          action: `Press "Test callbacks" in Settings; check that your server forwards to this till, and ask the provider's support to check the callback set-up for your merchant account.`,
        };
      default:
        return {
          cause: answers
            ? `The tunnel answers (the self-test passed), but the provider's callback for ${payment} never came: ngrok's allow list or basic auth may keep the provider out, or the provider is not sending callbacks to this address.`
            : `The tunnel is up, but the provider's callback for ${payment} never came: the provider cannot reach the tunnel, or does not send.`,
          action: `Check that ngrok's allow list holds the provider's addresses and that the provider sends the basic-auth user and password (if set); press "Test callbacks" in Settings; ask the provider's support to check the callback set-up for your merchant account.`,
        };
    }
  }

  function covered(watch: Pick<Watch, 'reference' | 'sessionId' | 'from'>): boolean {
    if (bySession.has(watch.sessionId)) return true;
    const byRef = byReference.get(watch.reference);
    return (byRef !== undefined && byRef >= watch.from) || anonymousAt >= watch.from;
  }

  function remember(map: Map<string, number>, key: string | undefined, at: number): void {
    if (key === undefined || key === '') return;
    if (map.size >= MAX_REMEMBERED && !map.has(key)) {
      // Map keeps insertion order: the first key is the oldest one.
      const oldest = map.keys().next();
      if (!oldest.done) map.delete(oldest.value);
    }
    const previous = map.get(key) ?? at;
    map.delete(key);
    map.set(key, Math.max(at, previous));
  }

  function windowPassed(sessionId: string): void {
    const watch = watches.get(sessionId);
    if (!watch || closed) return;
    watches.delete(sessionId);
    observeRoute();
    if (routeKey === null || covered(watch)) {
      notify();
      return;
    }
    problem ??= {
      kind: 'missed-callback',
      since: now(),
      saleId: watch.saleId,
      reference: watch.reference,
    };
    notify();
  }

  const monitor: CallbackHealthMonitor = {
    state: () => currentState(),
    degraded: () => isDegraded(currentState()),
    callbackReceived(input) {
      if (closed) return;
      observeRoute();
      remember(bySession, input.sessionId, input.at);
      remember(byReference, input.reference, input.at);
      if (!input.sessionId && !input.reference) anonymousAt = Math.max(anonymousAt, input.at);
      setProof({ at: Math.max(input.at, proof?.at ?? input.at), kind: 'callback' });
      problem = null;
      notify();
    },
    paymentFoundByCheck(input) {
      if (closed) return;
      observeRoute();
      // No route: no callback was ever coming. Settled before this route existed (or before
      // the till started): its callback went elsewhere or arrived while the till was down.
      if (routeKey === null || watches.has(input.sessionId)) return;
      if (input.settledAt !== null && input.settledAt < routeSince) return;
      const settledAt = input.settledAt ?? input.foundAt;
      const base = Math.min(input.foundAt, Math.max(settledAt, input.foundAt - windowMs));
      const watch = {
        reference: input.reference,
        sessionId: input.sessionId,
        from: base - windowMs,
      };
      if (covered(watch)) return;
      const dueAt = Math.max(base + windowMs, input.foundAt + graceMs);
      const cancel = options.setTimer(Math.max(0, dueAt - now()), () =>
        windowPassed(input.sessionId),
      );
      watches.set(input.sessionId, { ...watch, saleId: input.saleId, cancel });
    },
    selfTestStarted() {
      if (closed) return;
      selfTestRunning = true;
      selfTestRoute = keyOf(options.route());
      notify();
    },
    selfTestFinished(result) {
      if (closed) return;
      selfTestRunning = false;
      lastSelfTest = result;
      observeRoute();
      // A test of an address the till no longer uses says nothing about the current one.
      const sameRoute = selfTestRoute === undefined || selfTestRoute === routeKey;
      selfTestRoute = undefined;
      if (sameRoute && routeKey !== null) {
        if (result.passed) {
          setProof({ at: Math.max(result.at, proof?.at ?? result.at), kind: 'self-test' });
          if (problem?.kind === 'self-test-failed') problem = null;
        } else if (!INCONCLUSIVE.has(result.code)) {
          problem = {
            kind: 'self-test-failed',
            since: problem?.since ?? result.at,
            result,
          };
        }
      }
      notify();
    },
    refresh: () => notify(),
    view,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      cancelExpiry?.();
      for (const watch of watches.values()) watch.cancel();
      watches.clear();
      listeners.clear();
    },
  };
  lastEmitted = JSON.stringify(view());
  return monitor;
}

function isDegraded(state: CallbackHealthState): boolean {
  return state === 'not_reaching' || state === 'off';
}

/**
 * Which address callbacks go to, for deciding whether a proof still holds. The last path segment
 * is the listener's token: a rotation keeps the old token working, so it is not a new route.
 */
function keyOf(route: CallbackRoute): string | null {
  if (route.mode === 'polling-only') return null;
  return `${route.mode} ${route.callbackUrl.replace(/\/[^/]*$/, '')}`;
}
