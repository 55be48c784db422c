/**
 * A TCP relay between a page and a server that can go silent: it stops forwarding bytes either
 * way while every socket stays open, as a link does when a cable is pulled or Wi-Fi drops (no
 * FIN, no RST: the connection just hears nothing). New connections made while it is silent are
 * accepted and held, as a SYN retried into a dead network would leave a browser waiting. On
 * `resume` the bytes held flow on and the held connections are put through. It relays bytes,
 * not HTTP: TLS passes through untouched.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  readonly host: string;
  readonly port: number;
  /** Stops forwarding (nothing closes). */
  silence(): void;
  /** Forwards again. */
  resume(): void;
  /** Connections open through the relay now (held ones included). */
  connections(): number;
  close(): Promise<void>;
}

export interface TcpRelayOptions {
  /** Where the relay listens, e.g. 127.0.0.2 and the server's own port (so that Host checks pass). */
  readonly host: string;
  readonly port: number;
  readonly targetHost: string;
  readonly targetPort: number;
}

interface Pair {
  readonly client: Socket;
  upstream: Socket | null;
}

export async function startTcpRelay(options: TcpRelayOptions): Promise<TcpRelay> {
  const pairs = new Set<Pair>();
  let silent = false;

  function drop(pair: Pair): void {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  }

  /** Bytes from one side to the other, paused while silent or while the other side is full. */
  function forward(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (to.write(chunk) || silent) return;
      from.pause();
      to.once('drain', () => {
        if (!silent) from.resume();
      });
    });
  }

  function putThrough(pair: Pair): void {
    const upstream = connect(options.targetPort, options.targetHost);
    pair.upstream = upstream;
    forward(pair.client, upstream);
    forward(upstream, pair.client);
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    pair.client.resume();
  }

  const server: Server = createServer((client) => {
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    if (silent) client.pause();
    else putThrough(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });

  return {
    host: options.host,
    port: options.port,
    silence() {
      silent = true;
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    resume() {
      silent = false;
      for (const pair of pairs) {
        if (pair.upstream === null) {
          putThrough(pair);
          continue;
        }
        pair.client.resume();
        pair.upstream.resume();
      }
    },
    connections: () => pairs.size,
    close() {
      for (const pair of pairs) drop(pair);
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
