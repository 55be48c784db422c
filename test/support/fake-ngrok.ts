import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TunnelConnectOptions, TunnelDriver, TunnelError, TunnelSession } from '#main/tunnel';

export interface FakeNgrok {
  readonly driver: TunnelDriver;
  readonly connects: readonly TunnelConnectOptions[];
  /** Every request the edge saw: the allow list and basic auth are judged on these. */
  readonly requests: readonly { readonly path: string; readonly authorization: string | null }[];
  /** The public URL of the newest session, or null. */
  url(): string | null;
  /** The edge answers as ngrok does for a tunnel whose agent is gone (ERR_NGROK_3200). */
  setOffline(offline: boolean): void;
  /** Loses the current session as a network drop would (the tunnel manager reconnects). */
  drop(): void;
  close(): Promise<void>;
}

/**
 * The ngrok network is the true edge of the system, so tests fake the tunnel driver, but with
 * real HTTP: each session is a local proxy in front of the listener that enforces what ngrok's
 * edge enforces (basic auth, the IP allow list, "endpoint offline" pages) and forwards the rest,
 * with the caller's address in X-Forwarded-For. `clientAddress` is the shop's own public
 * address as the edge would see it.
 */
export function createFakeNgrok(options: { readonly clientAddress?: string } = {}): FakeNgrok {
  const clientAddress = options.clientAddress ?? '203.0.113.7';
  const connects: TunnelConnectOptions[] = [];
  const requests: { path: string; authorization: string | null }[] = [];
  const servers = new Set<Server>();
  let offline = false;
  let current: { url: string; lose: (error?: TunnelError) => void } | null = null;

  function judge(incoming: IncomingMessage, settings: TunnelConnectOptions) {
    const cidrs = settings.allowCidrs ?? [];
    if (cidrs.length > 0 && !cidrs.some((cidr) => inCidr(clientAddress, cidr))) {
      return { status: 403, headers: { 'ngrok-error-code': 'ERR_NGROK_3205' } };
    }
    const auth = settings.basicAuth;
    if (auth) {
      const expected = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
      if (incoming.headers.authorization !== expected) {
        return { status: 401, headers: { 'www-authenticate': 'Basic realm="ngrok"' } };
      }
    }
    return null;
  }

  async function open(settings: TunnelConnectOptions): Promise<TunnelSession> {
    const server = createServer((incoming, outgoing) => {
      requests.push({
        path: incoming.url ?? '',
        authorization: incoming.headers.authorization ?? null,
      });
      if (offline) {
        outgoing.writeHead(404, { 'ngrok-error-code': 'ERR_NGROK_3200' }).end('offline');
        return;
      }
      const refused = judge(incoming, settings);
      if (refused) {
        outgoing.writeHead(refused.status, refused.headers).end();
        return;
      }
      const forward = request(
        {
          host: '127.0.0.1',
          port: settings.localPort,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, 'x-forwarded-for': clientAddress },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on('error', () => {
        if (!outgoing.headersSent) {
          outgoing.writeHead(502, { 'ngrok-error-code': 'ERR_NGROK_8012' }).end();
        }
      });
      incoming.pipe(forward);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.add(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let onClosed: ((error?: TunnelError) => void) | null = null;
    const shut = () =>
      new Promise<void>((resolve) => {
        servers.delete(server);
        server.closeAllConnections();
        server.close(() => resolve());
      });
    current = {
      url,
      lose: (error) => {
        void shut().then(() => onClosed?.(error));
      },
    };
    return {
      url,
      close: shut,
      onClosed: (listener) => {
        onClosed = listener;
      },
    };
  }

  return {
    driver: {
      connect(settings) {
        connects.push(settings);
        return open(settings);
      },
    },
    connects,
    requests,
    url: () => current?.url ?? null,
    setOffline(value) {
      offline = value;
    },
    drop() {
      current?.lose();
    },
    async close() {
      await Promise.all(
        [...servers].map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
      servers.clear();
    },
  };
}

/** IPv4 only: enough for the addresses these tests use. */
function inCidr(address: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const toNumber = (ip: string) => ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const prefix = Number(bits);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (toNumber(address) & mask) >>> 0 === (toNumber(base) & mask) >>> 0;
}
