/**
 * The hub's LAN listener: the same channel table and renderer as the browser shell, over HTTPS
 * on the shop's network, for paired counters only. A counter's token (core.hub.resolveToken)
 * makes it a cashier of its own till; the hub's shell token and the display token are not
 * accepted here (owner work is done at the hub). POST /api/pair trades a one-time code for a
 * counter token.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createBridgeListener, type ListenerPolicy, type Principal } from './bridge-listener';
import { lanHostAllowed, lanOriginAllowed } from '#main/security/host-rules';
import { sendError } from './json-io';
import { createPairingRoute, isBusy } from './lan-pairing';
import type { Core } from '#main/core/create-core';
import type { CounterIdentity } from '#shared/hub';
import {
  capConnections,
  LAN_LIMITS,
  serverTimeouts,
  type ConnectionRefusal,
  type LanLimits,
} from '#main/hub/connection-caps';
import type { HubCertificate } from '#main/hub/hub-certificate';
import type { CounterTokenResolution, Hub } from '#main/hub/hub-types';
import { urlHost } from '#main/hub/lan-address';
import { AppError } from '#shared/errors';

export { WRONG_PAIRING_CODES_PER_MINUTE } from './lan-pairing';

export const COUNTER_REVOKED_MESSAGE =
  'This counter was removed by the owner. Ask for a new pairing link.';

export interface LanListenerOptions {
  readonly core: Core;
  readonly hub: Hub;
  readonly rendererDir: string;
  readonly certificate: HubCertificate;
  /** Where to listen (0.0.0.0: every address of this machine). */
  readonly host: string;
  /** 0: any free port (tests). */
  readonly port: number;
  /** The address counters are given in links (see lanAddressFor). */
  readonly address: string;
  /** Connection caps and timeouts (LAN_LIMITS unless a test needs them small). */
  readonly limits?: Partial<LanLimits>;
}

/** Refused connections are logged as a count at most once a minute: a flood must not fill the log. */
const REFUSAL_LOG_MS = 60_000;

export interface LanListener {
  readonly port: number;
  /** https://<address>:<port>/ */
  readonly url: string;
  /** Counters whose event stream is open now. */
  connectedCounterIds(): ReadonlySet<number>;
  close(): Promise<void>;
}

/** Why the listener cannot start, as the owner reads it; a code error for anything else. */
export class LanListenError extends AppError<
  'LAN_PORT_IN_USE' | 'LAN_ADDRESS_UNAVAILABLE' | 'LAN_PORT_FORBIDDEN' | 'LAN_LISTEN_FAILED'
> {
  constructor(
    code:
      'LAN_PORT_IN_USE' | 'LAN_ADDRESS_UNAVAILABLE' | 'LAN_PORT_FORBIDDEN' | 'LAN_LISTEN_FAILED',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.name = 'LanListenError';
  }
}

function listenError(error: unknown, host: string, port: number): LanListenError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new LanListenError(
      'LAN_PORT_IN_USE',
      `Port ${port} is in use by another program. Choose another LAN port in Settings → Shop hub, or close that program.`,
      { cause: error },
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new LanListenError(
      'LAN_ADDRESS_UNAVAILABLE',
      `This computer has no address ${host}. Check the network connection, or choose another LAN address in Settings → Shop hub.`,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new LanListenError(
      'LAN_PORT_FORBIDDEN',
      `This computer does not allow listening on port ${port}. Choose a LAN port from 1024 up in Settings → Shop hub.`,
      { cause: error },
    );
  }
  return new LanListenError(
    'LAN_LISTEN_FAILED',
    `The LAN listener could not start: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

/** Refused connections as a count in the log, at most once a minute. */
function refusalLogger(
  core: Core,
  limits: LanLimits,
): (address: string, why: ConnectionRefusal) => void {
  let refusedSince = 0;
  let lastRefusalLog = Number.NEGATIVE_INFINITY;
  return (address, why) => {
    refusedSince += 1;
    const at = Date.now();
    if (at - lastRefusalLog < REFUSAL_LOG_MS) return;
    core.log.logger.warn(
      { from: address, cap: why, refused: refusedSince, limits },
      'LAN connections refused: over the connection cap',
    );
    lastRefusalLog = at;
    refusedSince = 0;
  };
}

function counterTag(id: number): string {
  return `counter:${id}`;
}

export async function startLanListener(options: LanListenerOptions): Promise<LanListener> {
  const { core, hub } = options;
  const limits: LanLimits = { ...LAN_LIMITS, ...options.limits };
  let port = options.port;
  const pair = createPairingRoute({
    hub,
    logger: core.log.logger,
    blockListMax: limits.blockListMax,
  });

  function counterPrincipal(counter: CounterIdentity): Principal {
    const tag = counterTag(counter.id);
    return {
      kind: 'caller',
      tag,
      // Sessions of a counter are bound to it: another counter's token cannot use them.
      sessionFor: (sessionId) => ({ sessionId, via: 'counter', boundTo: tag, counter }),
      handlers: core.handlers,
    };
  }

  const policy: ListenerPolicy = {
    base: () => `https://${urlHost(options.address)}:${port}`,
    hostAllowed: (host) => lanHostAllowed(host, port),
    originAllowed: (origin, host) => lanOriginAllowed(origin, host),
    authenticate(token) {
      let resolved: CounterTokenResolution;
      try {
        resolved = token === null ? { kind: 'unknown' } : hub.resolveToken(token);
      } catch (error) {
        // The hub is switching environments for a moment: busy, not "you are not paired".
        if (!isBusy(error)) throw error;
        return { status: 503, code: 'BUSY', message: error.message };
      }
      if (resolved.kind === 'revoked') {
        return { status: 401, code: 'COUNTER_REVOKED', message: COUNTER_REVOKED_MESSAGE };
      }
      if (resolved.kind === 'unknown') {
        return { status: 401, code: 'UNAUTHORISED', message: 'Missing or wrong token.' };
      }
      hub.touch(resolved.counter.id);
      return counterPrincipal(resolved.counter);
    },
    async openRoute(request, response, url) {
      if (url.pathname !== '/api/pair') return false;
      if (request.method !== 'POST') {
        sendError(response, 405, 'METHOD_NOT_ALLOWED', 'POST the pairing code.', { allow: 'POST' });
        return true;
      }
      await pair(request, response);
      return true;
    },
  };
  const listener = createBridgeListener({
    core,
    rendererDir: options.rendererDir,
    policy,
    name: 'LAN listener',
  });
  // A revoked counter's open streams end at once (its next request is refused).
  const stopWatchingRevocations = hub.onRevoked((counterId) => {
    listener.streams.end((tag) => tag === counterTag(counterId));
  });

  const server: Server = createServer(
    {
      cert: options.certificate.certPem,
      key: options.certificate.keyPem,
      minVersion: 'TLSv1.2',
      ...serverTimeouts(limits),
    },
    (request, response) => listener.handle(request, response),
  );
  const connections = capConnections(server, limits, refusalLogger(core, limits));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    stopWatchingRevocations();
    listener.close();
    throw listenError(error, options.host, options.port);
  }
  // Later errors (a client's broken handshake is not one: that is 'tlsClientError') are logged.
  server.on('error', (error) => core.log.logger.error({ err: error }, 'LAN listener failed'));
  port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `https://${urlHost(options.address)}:${port}/`,
    connectedCounterIds() {
      const ids = new Set<number>();
      for (const tag of listener.streams.tags()) {
        const match = /^counter:(\d+)$/.exec(tag);
        if (match) ids.add(Number(match[1]));
      }
      return ids;
    },
    async close() {
      stopWatchingRevocations();
      listener.close();
      server.closeAllConnections();
      connections.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
