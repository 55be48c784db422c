import type { BridgeEvent } from '#shared/bridge/contract';
import type { Scheduler } from '#main/clock/scheduler';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import { raiseTillAlert } from '#main/engine/till-alerts';
import type { TunnelEvent, TunnelManager } from '#main/tunnel';
import type { CallbackProof } from '#main/engine/callback-proof';
import type { Runtime } from './runtime';

export interface TunnelEventDeps {
  readonly scheduler: Scheduler;
  readonly emit: (event: BridgeEvent) => void;
  readonly proof: Pick<CallbackProof, 'health' | 'selfTest'>;
  readonly runtime: () => Runtime | null;
}

/**
 * What a tunnel event means for the till: its status reaches the pages and the health; a tunnel
 * down (or at a new address) has the engine poll the open sales; online again, it tests itself.
 */
export function onTunnelEvent(deps: TunnelEventDeps, event: TunnelEvent): void {
  const { emit, proof } = deps;
  const runtime = deps.runtime();
  if (event.type === 'status') {
    emit({ type: 'tunnel', payload: event.status });
    proof.health.refresh();
    if (event.status.state !== 'online') runtime?.engine.callbacksWentDown();
    // Online again (or for the first time): prove the new session end to end.
    else proof.selfTest('tunnel-online');
    return;
  }
  // Sales created with the old URL will never get their callbacks: poll them.
  runtime?.engine.callbacksWentDown();
  if (!runtime) return;
  const alert = raiseTillAlert(
    runtime.db,
    {
      level: 'warning',
      kind: 'tunnel_url_changed',
      message: `The public callback address changed (${event.previousUrl} → ${event.url}). Open sales are now checked by polling. A reserved ngrok domain keeps the address fixed.`,
    },
    deps.scheduler.now(),
  );
  if (alert) emit({ type: 'alert', payload: alert });
}

export interface TunnelSyncDeps {
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly tunnel: TunnelManager;
  readonly listenerPort: () => number;
  readonly basicAuth: CallbackProof['basicAuth'];
}

/**
 * The tunnel as the settings want it: on (STAGING or LIVE, ngrok mode, an authtoken saved) or
 * off. Answers the function that brings it there.
 */
export function tunnelFollower(deps: TunnelSyncDeps): () => Promise<void> {
  const { settings, secrets, tunnel } = deps;
  /** The options the tunnel last started with (secrets included, held in memory only). */
  let tunnelKey: string | null = null;
  return async () => {
    const current = settings.get();
    const authtoken = secrets.get('global', 'ngrokAuthtoken');
    const wanted =
      current.environment !== 'sandbox' && current.callbacks.mode === 'ngrok' && authtoken !== null;
    if (!wanted) {
      tunnelKey = null;
      await tunnel.stop();
      return;
    }
    const options = {
      localPort: deps.listenerPort(),
      authtoken,
      ...(current.callbacks.ngrokDomain ? { domain: current.callbacks.ngrokDomain } : {}),
      ...(current.callbacks.ngrokAllowCidrs.length > 0
        ? { allowCidrs: current.callbacks.ngrokAllowCidrs }
        : {}),
      ...deps.basicAuth(current.callbacks.ngrokBasicAuthUser),
    };
    // A save that changed nothing the tunnel uses (the shop's name, say) leaves it connected:
    // a restart could change its public address under the open sales.
    const key = JSON.stringify(options);
    if (key === tunnelKey && tunnel.status().state !== 'off') return;
    tunnelKey = key;
    await tunnel.start(options);
  };
}
