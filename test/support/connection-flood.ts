/**
 * Many TLS connections from one address to the hub's LAN listener, each pinned and then held
 * idle, as a misbehaving phone would hold them: how many the listener admits and keeps open. The
 * listener drops a connection over its per-address cap before the handshake, so a refused one
 * ends in a reset, never in a secure connection.
 */
import type { TLSSocket } from 'node:tls';
import { PinMismatchError, pinnedSocket } from './hub-client';

export interface HeldConnections {
  /** Connections that finished their handshake. */
  readonly secured: number;
  /** Connections ended before their handshake (refused). */
  readonly refused: number;
  /** Of the secured ones, those still open now. */
  open(): number;
  /** Ends every one and waits until each has closed. */
  close(): Promise<void>;
}

/** Opens `count` connections from `localAddress` at once and holds every one that is let in. */
export async function holdConnections(
  url: URL,
  fingerprint: string,
  localAddress: string,
  count: number,
): Promise<HeldConnections> {
  const closed = new Set<TLSSocket>();
  const attempts = await Promise.allSettled(
    Array.from({ length: count }, () =>
      pinnedSocket(url, fingerprint, localAddress).then((socket) => {
        // Attached before any later event: an error with no listener would end the process.
        socket.on('error', () => undefined);
        socket.once('close', () => closed.add(socket));
        return socket;
      }),
    ),
  );
  const sockets: TLSSocket[] = [];
  let refused = 0;
  for (const attempt of attempts) {
    if (attempt.status === 'fulfilled') sockets.push(attempt.value);
    else if (attempt.reason instanceof PinMismatchError) throw attempt.reason;
    else refused += 1;
  }
  return {
    secured: sockets.length,
    refused,
    open: () => sockets.filter((socket) => !socket.destroyed && !closed.has(socket)).length,
    async close() {
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (closed.has(socket)) return resolve();
              socket.once('close', () => resolve());
              socket.destroy();
            }),
        ),
      );
    },
  };
}
