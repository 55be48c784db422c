/**
 * The LAN listener as a shell runs it: started and stopped by the owner's choice (Settings'
 * hub.lanEnabled, or --lan for one run), attached to the core's hub as its LanControl. The
 * browser shell and the desktop app both call startLanService; a port that is taken becomes a
 * problem shown on the Counters screen, never a crash.
 */
import { networkInterfaces } from 'node:os';
import type { LanListenerView } from '#shared/hub';
import type { Core } from '#main/core/create-core';
import type { LanLimits } from '#main/hub/connection-caps';
import { HubError } from '#main/hub/hub-errors';
import {
  HubCertificateError,
  openHubCertificate,
  type HubCertificate,
} from '#main/hub/hub-certificate';
import type { Hub, LanControl } from '#main/hub/hub-types';
import { certificateNames, lanAddressFor, type NetworkInterfaces } from '#main/hub/lan-address';
import { LanListenError, startLanListener, type LanListener } from './lan-listener';

export interface LanServiceOptions {
  readonly core: Core;
  /** The built renderer, served to counters as the browser shell serves it. */
  readonly rendererDir: string;
  /** Where the certificate is kept (hub-tls.json). */
  readonly dataDir: string;
  /** Where to listen: every address (0.0.0.0) in a shop; tests pass 127.0.0.1. */
  readonly host: string;
  /** This run's port instead of Settings' hub.lanPort (0: any free port, for tests). */
  readonly port?: number;
  /** --lan: on for this run whatever Settings say (the saved choice stays as it is). */
  readonly forceOn?: boolean;
  /** The core's hub by default; a unit test may pass its own. */
  readonly hub?: Hub;
  /** The machine's network interfaces (os.networkInterfaces by default). */
  readonly interfaces?: () => NetworkInterfaces;
  /** Connection caps and timeouts (LAN_LIMITS by default; tests make them small). */
  readonly limits?: Partial<LanLimits>;
}

export interface LanService extends LanControl {
  close(): Promise<void>;
}

export async function startLanService(options: LanServiceOptions): Promise<LanService> {
  const { core } = options;
  const hub = options.hub ?? core.hub;
  const logger = core.log.logger;
  const interfaces: () => NetworkInterfaces = options.interfaces ?? networkInterfaces;
  let forced = options.forceOn === true;
  let running: { readonly listener: LanListener; readonly requestedPort: number } | null = null;
  let certificate: HubCertificate | null = null;
  let problem: string | null = null;
  let closed = false;

  const enabled = () => forced || core.settings.get().hub.lanEnabled;
  const wantedPort = () => options.port ?? core.settings.get().hub.lanPort;

  async function start(port: number): Promise<void> {
    try {
      certificate ??= await openHubCertificate({
        dataDir: options.dataDir,
        box: core.secretBox,
        logger,
        redactor: core.log.redactor,
        names: certificateNames(options.host, interfaces()),
      });
    } catch (error) {
      if (!(error instanceof HubCertificateError)) throw error;
      problem = error.message;
      logger.error({ err: error }, 'LAN listener not started: no certificate');
      return;
    }
    try {
      const listener = await startLanListener({
        core,
        hub,
        rendererDir: options.rendererDir,
        certificate,
        host: options.host,
        port,
        address: lanAddressFor(options.host, interfaces()),
        ...(options.limits ? { limits: options.limits } : {}),
      });
      running = { listener, requestedPort: port };
      problem = null;
      logger.info(
        { url: listener.url, fingerprint: certificate.fingerprint },
        'LAN listener started',
      );
    } catch (error) {
      if (!(error instanceof LanListenError)) throw error;
      problem = error.message;
      logger.warn({ code: error.code, port }, `LAN listener not started: ${error.message}`);
    }
  }

  async function stop(): Promise<void> {
    const current = running;
    running = null;
    if (!current) return;
    await current.listener.close();
    logger.info('LAN listener stopped');
  }

  /** Brings the listener in line with the choice (on/off, port); one change at a time. */
  async function reconcile(): Promise<void> {
    if (closed) return;
    const want = enabled();
    const port = wantedPort();
    if (running && (!want || running.requestedPort !== port)) await stop();
    if (!want) problem = null;
    else if (!running) await start(port);
  }
  let queue: Promise<void> = Promise.resolve();
  function apply(): Promise<void> {
    queue = queue.then(reconcile, reconcile);
    return queue;
  }

  const unsubscribe = core.settings.subscribe((next, previous) => {
    if (
      next.hub.lanEnabled === previous.hub.lanEnabled &&
      next.hub.lanPort === previous.hub.lanPort
    ) {
      return;
    }
    apply().catch((error: unknown) => logger.error({ err: error }, 'LAN listener change failed'));
  });

  function view(): LanListenerView {
    const fingerprint = running && certificate ? certificate.fingerprint : null;
    return {
      enabled: enabled(),
      running: running !== null,
      url: running?.listener.url ?? null,
      port: running?.listener.port ?? wantedPort(),
      fingerprint,
      problem,
    };
  }

  const service: LanService = {
    view,
    async setEnabled(on) {
      // Turning it off ends a --lan run's listener too; the owner's choice is what is kept.
      if (!on) forced = false;
      core.settings.update({ hub: { lanEnabled: on } });
      await apply();
      return view();
    },
    pairingUrl(code) {
      if (!running || !certificate) {
        throw new HubError(
          'HUB_LAN_OFF',
          'Turn on the LAN listener first: counters reach the hub through it.',
        );
      }
      return `${running.listener.url}#/pair&code=${encodeURIComponent(code)}&fp=${certificate.fingerprintHex}`;
    },
    connectedCounterIds: () => running?.listener.connectedCounterIds() ?? new Set<number>(),
    async close() {
      closed = true;
      unsubscribe();
      await queue.catch(() => undefined);
      await stop();
    },
  };
  hub.attachLan(service);
  await apply();
  return service;
}
