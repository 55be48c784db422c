/**
 * The LAN listener as a shell runs it: started and stopped by the owner's choice (Settings'
 * hub.lanEnabled, or --lan for one run), attached to the core's hub as its LanControl. The
 * browser shell and the desktop app both call startLanService; a port that is taken becomes a
 * problem shown on the Counters screen and Settings → Shop hub, never a crash. Where it listens
 * is Settings' hub.lanHost and hub.lanPort unless a start flag says otherwise for the run; a new
 * address saved there opens before the old one closes (moveTo), or the save is refused.
 */
import { networkInterfaces } from 'node:os';
import type { LanListenerView } from '#shared/hub';
import type { Core } from '#main/core/create-core';
import type { LanLimits } from '#main/hub/connection-caps';
import { HubError } from '#main/hub/hub-errors';
import { HubCertificateError } from '#main/hub/hub-certificate';
import type { Hub, LanAddress, LanControl, LanMoveRefusal } from '#main/hub/hub-types';
import { lanIpv4Addresses, type NetworkInterfaces } from '#main/hub/lan-address';
import { LanListenError } from './lan-listener';
import { createLanSlot, type Running } from './lan-slot';

export interface LanServiceOptions {
  readonly core: Core;
  /** The built renderer, served to counters as the browser shell serves it. */
  readonly rendererDir: string;
  /** Where the certificate is kept (hub-tls.json). */
  readonly dataDir: string;
  /** This run's address instead of Settings' hub.lanHost (--lan-host; tests pass 127.0.0.1). */
  readonly host?: string;
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

/** A refusal to move, in the words of the Shop hub page (next to its field). */
function moveRefusal(error: LanListenError, to: LanAddress, from: Running | null): LanMoveRefusal {
  const still = from ? ` Counters still reach this till on port ${from.listener.port}.` : '';
  switch (error.code) {
    case 'LAN_PORT_IN_USE':
      return {
        field: 'hub.lanPort',
        message: `Port ${to.port} is in use by another program: choose another port, or close that program.${still}`,
      };
    case 'LAN_ADDRESS_UNAVAILABLE':
      return {
        field: 'hub.lanHost',
        message: `This computer has no address ${to.host} now: choose one it has, or "All addresses of this computer".${still}`,
      };
    case 'LAN_PORT_FORBIDDEN':
      return {
        field: 'hub.lanPort',
        message: `This computer does not allow listening on port ${to.port}: choose a port from 1024 up.${still}`,
      };
    case 'LAN_LISTEN_FAILED':
      return { field: 'hub.lanPort', message: `${error.message}.${still}` };
  }
}

function sameAddress(a: LanAddress, b: LanAddress): boolean {
  return a.host === b.host && a.port === b.port;
}

/** Runs work one at a time, in the order asked; a failure does not stop the next. */
function serialQueue(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<void> = Promise.resolve();
  return (work) => {
    const done = tail.then(work, work);
    tail = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  };
}

export async function startLanService(options: LanServiceOptions): Promise<LanService> {
  const { core } = options;
  const hub = options.hub ?? core.hub;
  const logger = core.log.logger;
  const interfaces: () => NetworkInterfaces = options.interfaces ?? networkInterfaces;
  const slot = createLanSlot({
    core,
    hub,
    rendererDir: options.rendererDir,
    dataDir: options.dataDir,
    interfaces,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  let forced = options.forceOn === true;
  let closed = false;

  const enabled = () => forced || core.settings.get().hub.lanEnabled;
  /** The address for this run: a start flag, else the one saved (or about to be). */
  const addressFor = (saved: { readonly lanHost: string; readonly lanPort: number }) => ({
    host: options.host ?? saved.lanHost,
    port: options.port ?? saved.lanPort,
  });
  const wanted = () => addressFor(core.settings.get().hub);

  /** Brings the listener in line with the choice (on/off, address); one change at a time. */
  async function reconcile(): Promise<void> {
    if (closed) return;
    const want = enabled();
    const address = wanted();
    const running = slot.running();
    if (running && (!want || !sameAddress(running.wanted, address))) await slot.stop();
    if (!want) slot.clearProblem();
    else if (!slot.running()) await slot.start(address);
  }
  const queued = serialQueue();
  const apply = () => queued(reconcile);

  async function moveTo(next: LanAddress): Promise<LanMoveRefusal | null> {
    // Off: the saved address applies when it is turned on.
    if (closed || !enabled()) return null;
    const address = addressFor({ lanHost: next.host, lanPort: next.port });
    const from = slot.running();
    // Unchanged, or set for this run by a start flag: nothing moves.
    if (from && sameAddress(from.wanted, address)) return null;
    try {
      await slot.move(address);
      return null;
    } catch (error) {
      if (error instanceof HubCertificateError)
        return { field: 'hub.lanPort', message: error.message };
      if (!(error instanceof LanListenError)) throw error;
      logger.warn({ code: error.code, address }, `LAN listener not moved: ${error.message}`);
      return moveRefusal(error, address, from);
    }
  }

  const unsubscribe = core.settings.subscribe((next, previous) => {
    const { lanEnabled, lanPort, lanHost } = next.hub;
    const before = previous.hub;
    if (
      lanEnabled === before.lanEnabled &&
      lanPort === before.lanPort &&
      lanHost === before.lanHost
    ) {
      return;
    }
    apply().catch((error: unknown) => logger.error({ err: error }, 'LAN listener change failed'));
  });

  function view(): LanListenerView {
    const running = slot.running();
    const certificate = slot.certificate();
    return {
      enabled: enabled(),
      running: running !== null,
      url: running?.listener.url ?? null,
      port: running?.listener.port ?? wanted().port,
      fingerprint: running && certificate ? certificate.fingerprint : null,
      problem: slot.problem(),
      addresses: lanIpv4Addresses(interfaces()),
      setForThisRun: options.host !== undefined || options.port !== undefined,
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
      const running = slot.running();
      const certificate = slot.certificate();
      if (!running || !certificate) {
        throw new HubError(
          'HUB_LAN_OFF',
          'Turn on the LAN listener first: counters reach the hub through it.',
        );
      }
      return `${running.listener.url}#/pair&code=${encodeURIComponent(code)}&fp=${certificate.fingerprintHex}`;
    },
    moveTo: (address) => queued(() => moveTo(address)),
    connectedCounterIds: () => slot.running()?.listener.connectedCounterIds() ?? new Set<number>(),
    async close() {
      closed = true;
      unsubscribe();
      await queued(() => Promise.resolve()).catch(() => undefined);
      await slot.stop();
    },
  };
  hub.attachLan(service);
  await apply();
  return service;
}
