/**
 * The callback route and its proof: which address the provider is given (decided from the
 * settings, the listener and the tunnel), the health monitor that says whether callbacks are
 * live, and the self-tests that earn "live": at start, when the route appears or changes, when
 * the tunnel comes online, on the owner's request, and every 10 minutes while the proof is stale.
 */
import type { BridgeEvent } from '#shared/bridge/contract';
import type { Environment } from '#shared/settings-schema';
import type { CallbackSelfTestTrigger, CallbackSelfTestView } from '#shared/views';
import {
  CALLBACK_HEALTH_DEFAULTS,
  createCallbackHealth,
  type CallbackHealthMonitor,
} from './callback-health';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import {
  createCallbackSelfTester,
  decideCallbackRoute,
  type CallbackRoute,
  type CallbackSelfTester,
  type TunnelManager,
} from '#main/tunnel';
import type { WebhookListener } from '#main/webhook';

/** How often a quiet till checks whether its proof needs renewing. */
const PERIODIC_CHECK_MS = 10 * 60_000;

export interface CallbackProofDeps {
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly listener: WebhookListener;
  readonly tunnel: TunnelManager;
  readonly emit: (event: BridgeEvent) => void;
}

/** Basic auth at the ngrok edge: present only when the shop set both a user and a password. */
export type EdgeBasicAuth = { readonly basicAuth?: { username: string; password: string } };

export interface CallbackProof {
  readonly health: CallbackHealthMonitor;
  readonly selfTester: CallbackSelfTester;
  /** The route as the settings, the listener and the tunnel make it now. */
  readonly route: () => CallbackRoute;
  /** The self-test of `environment`'s route (the active one's counts towards health). */
  readonly check: (environment: Environment) => Promise<CallbackSelfTestView>;
  /** The listener's hook for either tester. */
  readonly receive: (body: string) => boolean;
  /** Runs a self-test in the background (none once closed). */
  readonly selfTest: (trigger: CallbackSelfTestTrigger) => void;
  /** A route that appeared or changed address gets its own self-test. */
  readonly selfTestNewRoute: () => void;
  /** The first self-test (when there is a route already) and the periodic check after it. */
  readonly start: () => void;
  readonly basicAuth: (username: string) => EdgeBasicAuth;
  readonly close: () => void;
}

export function createCallbackProof(deps: CallbackProofDeps): CallbackProof {
  const { scheduler, logger, settings, secrets, listener, tunnel } = deps;
  let closed = false;
  /** The callback address last self-tested, so that a new one is tested once. */
  let lastTestedUrl: string | null = null;
  let cancelPeriodic: (() => void) | null = null;

  function route(): CallbackRoute {
    return routeFor(settings.get().environment);
  }

  /**
   * The route `environment` would use: the active one's, or (for the go-live check of an
   * environment not in use yet) the same settings with the tunnel as it runs now, which is only
   * when the till is on STAGING or LIVE.
   */
  function routeFor(environment: Environment): CallbackRoute {
    const current = settings.get();
    const tunnelRuns = current.environment !== 'sandbox';
    return decideCallbackRoute({
      sandbox: environment === 'sandbox',
      listener: { port: listener.port, path: listener.callbackPath() },
      configuredMode: current.callbacks.mode,
      publicBaseUrl: current.callbacks.publicUrl,
      tunnel: tunnelRuns ? tunnel.status() : { state: 'off' },
    });
  }

  function basicAuth(username: string): EdgeBasicAuth {
    const password = secrets.get('global', 'ngrokBasicAuthPassword');
    return username && password ? { basicAuth: { username, password } } : {};
  }

  const health: CallbackHealthMonitor = createCallbackHealth({
    now: () => scheduler.now(),
    setTimer: (delayMs, fn) => scheduler.setTimer(delayMs, fn),
    route,
  });
  health.subscribe((view) => deps.emit({ type: 'callback-health', payload: view }));

  const selfTester: CallbackSelfTester = createCallbackSelfTester({
    route,
    basicAuth: () => basicAuth(settings.get().callbacks.ngrokBasicAuthUser).basicAuth ?? null,
    now: () => scheduler.now(),
    onStarted: () => {
      const current = route();
      lastTestedUrl = current.mode === 'polling-only' ? null : current.callbackUrl;
      health.selfTestStarted();
    },
    onFinished: (result) => {
      health.selfTestFinished(result);
      const log = result.passed ? logger.info.bind(logger) : logger.warn.bind(logger);
      log({ code: result.code, trigger: result.trigger }, `callback self-test: ${result.detail}`);
    },
    listenerPort: () => listener.port,
  });

  /** The go-live check of an environment not in use: its own nonces, no effect on health. */
  let checkedEnvironment: Environment = settings.get().environment;
  const otherTester: CallbackSelfTester = createCallbackSelfTester({
    route: () => routeFor(checkedEnvironment),
    basicAuth: () => basicAuth(settings.get().callbacks.ngrokBasicAuthUser).basicAuth ?? null,
    now: () => scheduler.now(),
    listenerPort: () => listener.port,
  });

  function selfTest(trigger: CallbackSelfTestTrigger): void {
    if (closed) return;
    void selfTester.run(trigger).catch((error: unknown) => {
      logger.error({ err: error }, 'callback self-test failed to run');
    });
  }

  /**
   * A quiet till tests itself again before its proof runs out (so "Callbacks live" stays
   * earned), and a till whose callbacks are not proven keeps trying, every 10 minutes.
   */
  function schedulePeriodic(): void {
    cancelPeriodic = scheduler.setTimer(PERIODIC_CHECK_MS, () => {
      if (closed) return;
      const view = health.view();
      const proofAge = view.lastProof ? scheduler.now() - view.lastProof.at : Infinity;
      const stale = view.state !== 'live' || proofAge >= CALLBACK_HEALTH_DEFAULTS.liveForMs / 2;
      if (view.state !== 'off' && !view.selfTestRunning && stale) selfTest('periodic');
      schedulePeriodic();
    });
  }

  return {
    health,
    selfTester,
    route,
    check: (environment) => {
      if (environment === settings.get().environment) return selfTester.run('user');
      checkedEnvironment = environment;
      return otherTester.run('user');
    },
    receive: (body) => selfTester.receive(body) || otherTester.receive(body),
    selfTest,
    selfTestNewRoute: () => {
      const current = route();
      if (current.mode !== 'polling-only' && current.callbackUrl !== lastTestedUrl) {
        selfTest('route-changed');
      }
    },
    start: () => {
      // At start, when there is a route already (a tunnel tests itself once it is online).
      if (route().mode !== 'polling-only') selfTest('start');
      schedulePeriodic();
    },
    basicAuth,
    close: () => {
      closed = true;
      cancelPeriodic?.();
      selfTester.close();
      otherTester.close();
      health.close();
    },
  };
}
