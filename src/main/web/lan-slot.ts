/**
 * The LAN listener's one slot: the listener running now (if any), the hub's certificate and why
 * the listener is not running, with the three ways it changes: start, stop, and a move to a new
 * address that opens there before the old one closes. lan-service.ts decides when.
 */
import type { Core } from '#main/core/create-core';
import type { LanLimits } from '#main/hub/connection-caps';
import {
  HubCertificateError,
  openHubCertificate,
  type HubCertificate,
} from '#main/hub/hub-certificate';
import type { Hub, LanAddress } from '#main/hub/hub-types';
import { certificateNames, lanAddressFor, type NetworkInterfaces } from '#main/hub/lan-address';
import { LanListenError, startLanListener, type LanListener } from './lan-listener';

export interface LanSlotOptions {
  readonly core: Core;
  readonly hub: Hub;
  readonly rendererDir: string;
  readonly dataDir: string;
  readonly interfaces: () => NetworkInterfaces;
  readonly limits?: Partial<LanLimits>;
}

export interface Running {
  readonly listener: LanListener;
  /** The address asked for (its port may be 0: the listener's own is listener.port). */
  readonly wanted: LanAddress;
}

export interface LanSlot {
  running(): Running | null;
  certificate(): HubCertificate | null;
  /** Why it is not running although wanted (port taken, no certificate), in words; or null. */
  problem(): string | null;
  clearProblem(): void;
  /** Opens the listener at `address`; a failure becomes the problem, never a throw. */
  start(address: LanAddress): Promise<void>;
  stop(): Promise<void>;
  /**
   * Moves (or starts) the listener at `address`; throws LanListenError with the old listener
   * still (or again) running, or a HubCertificateError when there is no certificate.
   */
  move(address: LanAddress): Promise<void>;
}

export function createLanSlot(options: LanSlotOptions): LanSlot {
  const { core, hub, interfaces } = options;
  const logger = core.log.logger;
  let running: Running | null = null;
  let certificate: HubCertificate | null = null;
  let problem: string | null = null;

  async function certificateFor(host: string): Promise<HubCertificate> {
    certificate ??= await openHubCertificate({
      dataDir: options.dataDir,
      box: core.secretBox,
      logger,
      redactor: core.log.redactor,
      names: certificateNames(host, interfaces()),
    });
    return certificate;
  }

  /** A listener at `address`; throws LanListenError when it cannot open there. */
  async function open(address: LanAddress): Promise<Running> {
    const tls = await certificateFor(address.host);
    const listener = await startLanListener({
      core,
      hub,
      rendererDir: options.rendererDir,
      certificate: tls,
      host: address.host,
      port: address.port,
      address: lanAddressFor(address.host, interfaces()),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    logger.info({ url: listener.url, fingerprint: tls.fingerprint }, 'LAN listener started');
    return { listener, wanted: address };
  }

  async function stop(): Promise<void> {
    const current = running;
    running = null;
    if (!current) return;
    await current.listener.close();
    logger.info('LAN listener stopped');
  }

  /** The same port on another address of this computer may need the old listener closed first. */
  async function moveOnSamePort(address: LanAddress, old: Running): Promise<void> {
    await stop();
    try {
      running = await open(address);
    } catch (error) {
      running = await open(old.wanted);
      throw error;
    }
  }

  return {
    running: () => running,
    certificate: () => certificate,
    problem: () => problem,
    clearProblem: () => void (problem = null),
    stop,
    async start(address) {
      try {
        running = await open(address);
        problem = null;
      } catch (error) {
        if (error instanceof HubCertificateError) {
          problem = error.message;
          logger.error({ err: error }, 'LAN listener not started: no certificate');
          return;
        }
        if (!(error instanceof LanListenError)) throw error;
        problem = error.message;
        logger.warn(
          { code: error.code, port: address.port },
          `LAN listener not started: ${error.message}`,
        );
      }
    },
    async move(address) {
      const old = running;
      try {
        running = await open(address);
      } catch (error) {
        const taken = error instanceof LanListenError && error.code === 'LAN_PORT_IN_USE';
        if (!old || !taken || address.port !== old.listener.port) throw error;
        await moveOnSamePort(address, old);
        problem = null;
        return;
      }
      problem = null;
      if (old) {
        await old.listener.close();
        logger.info({ url: old.listener.url }, 'LAN listener moved');
      }
    },
  };
}
