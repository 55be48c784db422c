/**
 * Callbacks, as one capability: how the provider's payment news reaches this till, and how the
 * till knows that it does. Read this file first; each part stays in its layer:
 *
 * - the listener (adapter, webhook/webhook-listener.ts): answers the provider's POST, movable to a
 *   port saved in Settings (core/movable-listener.ts), wired in core/callback-listener.ts;
 * - the inbox (store/callback-inbox.ts): each callback stored before the 200, then the engine
 *   checks the sale with the provider (a callback is a hint, never the evidence);
 * - the tunnel (adapter, tunnel/tunnel-manager.ts over ngrok): the public address, kept as the
 *   settings want it and its events followed (core/tunnel-follow.ts);
 * - the route (tunnel/callback-url.ts): the address the provider is given, or polling only;
 * - the tokens (core/callback-tokens.ts): the secret in the callback path, rotatable;
 * - the self-test (tunnel/callback-self-test.ts): a callback sent to ourselves along the route;
 * - the health (domain, engine/callback-health.ts): whether callbacks are live now;
 * - the proof (domain, engine/callback-proof.ts): when self-tests run, and what they earn.
 */
import type { BridgeEvent } from '#shared/bridge/contract';
import type { Environment } from '#shared/settings-schema';
import type { CallbackHealthView, CallbackSelfTestView } from '#shared/views';
import type { CallbackHealthMonitor } from '#main/engine/callback-health';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { Redactor } from '#main/logging/redact';
import type { SecretBox } from '#main/secrets/secret-box';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import {
  createNgrokDriver,
  createTunnelManager,
  type CallbackRoute,
  type TunnelDriver,
  type TunnelStatus,
} from '#main/tunnel';
import { startCallbackListener } from './callback-listener';
import { createCallbackProof, type CallbackProof } from '#main/engine/callback-proof';
import { openCallbackTokens } from './callback-tokens';
import type { Runtime } from './runtime';
import { onTunnelEvent, tunnelFollower } from './tunnel-follow';

export interface CallbacksDeps {
  readonly dataDir: string;
  readonly box: SecretBox;
  readonly redactor: Redactor;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly emit: (event: BridgeEvent) => void;
  /** The ngrok SDK by default; tests pass a fake (the ngrok network is the true edge). */
  readonly tunnelDriver?: TunnelDriver;
  /** The runtime of the environment in use, or null while it switches. */
  readonly runtime: () => Runtime | null;
}

export interface Callbacks {
  /** The route as the settings, the listener and the tunnel make it now. */
  readonly route: () => CallbackRoute;
  readonly health: CallbackHealthMonitor;
  readonly tunnelStatus: () => TunnelStatus;
  /** The owner's self-test (or the one running), answered with the health after it. */
  test(): Promise<CallbackHealthView>;
  /** The self-test of one environment's route (the go-live flow's check). */
  check(environment: Environment): Promise<CallbackSelfTestView>;
  /** A new callback token; the old one keeps working for a grace period. */
  rotateToken(): void;
  /** Moves the listener to a saved port at once; throws ListenerPortError. */
  moveListener(port: number): Promise<boolean>;
  /** Brings the tunnel up (when the settings want it) and starts the self-tests: after the runtime. */
  start(): void;
  /** Saved settings: the tunnel follows, and a new route is proven. */
  settingsSaved(): void;
  /** A new environment is in use: the tunnel follows it, then its route is proven. */
  environmentSwitched(): Promise<void>;
  close(): Promise<void>;
}

export async function startCallbacks(deps: CallbacksDeps): Promise<Callbacks> {
  const { scheduler, logger, settings, secrets, runtime } = deps;
  const tokens = openCallbackTokens({
    dataDir: deps.dataDir,
    box: deps.box,
    redactor: deps.redactor,
    now: () => scheduler.now(),
  });
  const listener = await startCallbackListener({
    port: settings.get().callbacks.listenerPort,
    tokens,
    scheduler,
    logger,
    runtime,
    // Before the engine: the callback proves the route whatever the engine then finds.
    onStored: (stored) =>
      proof.health.callbackReceived({
        at: scheduler.now(),
        ...(stored.hint?.reference ? { reference: stored.hint.reference } : {}),
        ...(stored.hint?.sessionId ? { sessionId: stored.hint.sessionId } : {}),
      }),
    selfTest: (body) => proof.receive(body),
  });
  const tunnel = createTunnelManager({ driver: deps.tunnelDriver ?? createNgrokDriver(), logger });
  const proof: CallbackProof = createCallbackProof({
    scheduler,
    logger,
    settings,
    secrets,
    listener,
    tunnel,
    emit: deps.emit,
  });
  tunnel.subscribe((event) => onTunnelEvent({ scheduler, emit: deps.emit, proof, runtime }, event));
  const syncTunnel = tunnelFollower({
    settings,
    secrets,
    tunnel,
    listenerPort: () => listener.port,
    basicAuth: proof.basicAuth,
  });

  return {
    route: proof.route,
    health: proof.health,
    tunnelStatus: () => tunnel.status(),
    async test() {
      await proof.selfTester.run('user');
      return proof.health.view();
    },
    check: (environment) => proof.check(environment),
    rotateToken: () => tokens.rotate(),
    async moveListener(port) {
      const moved = await listener.moveTo(port);
      // Sales given the old address would wait for callbacks that cannot come: poll them.
      if (moved) runtime()?.engine.callbacksWentDown();
      return moved;
    },
    start() {
      void syncTunnel().catch((error: unknown) =>
        logger.error({ err: error }, 'tunnel start failed'),
      );
      proof.start();
    },
    settingsSaved() {
      // The tunnel first: a restarting tunnel says "connecting" at once and tests itself once
      // online, rather than being tested on its way down.
      void syncTunnel().catch((error: unknown) =>
        logger.error({ err: error }, 'tunnel update failed'),
      );
      proof.health.refresh();
      proof.selfTestNewRoute();
    },
    async environmentSwitched() {
      await syncTunnel();
      proof.health.refresh();
      proof.selfTestNewRoute();
    },
    async close() {
      proof.close();
      await tunnel.close();
      await listener.close();
    },
  };
}
