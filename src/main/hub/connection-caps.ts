/**
 * What bounds the LAN listener under a busy or hostile network: how many connections one address
 * and all addresses together may hold open, how long a client may take over its TLS handshake,
 * its headers and its whole request, and how many addresses the wrong-pairing-code block list
 * remembers. Node's defaults bound none of the first two and give 60 s / 300 s / 120 s to the rest.
 */
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';

export interface LanLimits {
  /** Open connections from one address (a counter's browser uses about 6, plus its events). */
  readonly perAddress: number;
  /** Open connections from every address together. */
  readonly total: number;
  /** The TLS handshake must finish within this. */
  readonly handshakeTimeoutMs: number;
  /** server.headersTimeout: the request's headers must arrive within this. */
  readonly headersTimeoutMs: number;
  /** server.requestTimeout: the whole request (headers and body) must arrive within this. */
  readonly requestTimeoutMs: number;
  /** How often Node checks the two timeouts above (its default is every 30 s). */
  readonly timeoutCheckMs: number;
  /** Addresses the wrong-pairing-code block list keeps at most (the oldest go first). */
  readonly blockListMax: number;
}

export const LAN_LIMITS: LanLimits = Object.freeze({
  perAddress: 16,
  total: 128,
  handshakeTimeoutMs: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  timeoutCheckMs: 1_000,
  blockListMax: 1_024,
});

/** The options of https.createServer that carry the timeouts. */
export function serverTimeouts(limits: LanLimits) {
  return {
    handshakeTimeout: limits.handshakeTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.timeoutCheckMs,
  } as const;
}

/** "::ffff:192.168.1.7" and "192.168.1.7" are one address. */
export function addressKey(socket: Pick<Socket, 'remoteAddress'>): string {
  const address = socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export type ConnectionRefusal = 'per-address' | 'total';

export interface ConnectionCount {
  /** Counts a new connection, or says which cap it would break (then it is not counted). */
  admit(address: string): ConnectionRefusal | null;
  release(address: string): void;
  open(): number;
}

/** The counts behind the caps, one number per address with a connection open. */
export function createConnectionCount(limits: Pick<LanLimits, 'perAddress' | 'total'>) {
  const byAddress = new Map<string, number>();
  let total = 0;
  const count: ConnectionCount = {
    admit(address) {
      if (total >= limits.total) return 'total';
      const held = byAddress.get(address) ?? 0;
      if (held >= limits.perAddress) return 'per-address';
      byAddress.set(address, held + 1);
      total += 1;
      return null;
    },
    release(address) {
      const held = byAddress.get(address) ?? 0;
      if (held <= 0) return;
      if (held === 1) byAddress.delete(address);
      else byAddress.set(address, held - 1);
      total -= 1;
    },
    open: () => total,
  };
  return count;
}

export interface CappedConnections extends ConnectionCount {
  /** Ends every connection still open, TLS or not (so that closing the server never waits). */
  destroyAll(): void;
}

/**
 * Applies the caps to a server: a connection past a cap is dropped at once (before its TLS
 * handshake costs anything), and `onRefused` hears of it (the listener logs a summary).
 */
export function capConnections(
  server: HttpsServer,
  limits: LanLimits,
  onRefused: (address: string, why: ConnectionRefusal) => void,
): CappedConnections {
  const count = createConnectionCount(limits);
  const sockets = new Set<Socket>();
  // First in line, before the TLS layer wraps the socket: a refused one costs no handshake.
  server.prependListener('connection', (socket: Socket) => {
    const address = addressKey(socket);
    const refusal = count.admit(address);
    if (refusal !== null) {
      socket.destroy();
      onRefused(address, refusal);
      return;
    }
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      count.release(address);
    });
  });
  return {
    ...count,
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
