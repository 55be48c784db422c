/**
 * The LAN listener under a busy network, for real: raw TCP and TLS sockets from 127.0.0.1 against
 * the real listener (a real core: embedded sandbox over HTTP, real SQLite file), while the hub's
 * own till sells through the browser shell's loopback listener. The caps and timeouts are the
 * production ones except where a test names a smaller one to finish in seconds.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult } from '#shared/bridge/contract';
import type { PairingLinkView, PairingResult } from '#shared/hub';
import type { SaleView } from '#shared/sales';
import { LAN_LIMITS } from '#main/hub/connection-caps';
import { hubRequest } from '#support/hub-client';
import { startHubWorld, type HubWorld } from '#support/hub-world';

let world: HubWorld;

beforeAll(async () => {
  world = await startHubWorld('hub-caps');
});

afterAll(async () => {
  await world?.close();
});

const lanView = () => world.lan().view();

function lanPort(): number {
  const { port, running } = lanView();
  if (!running || !port) throw new Error('the LAN listener is not running');
  return port;
}

/** A raw TCP connection to the LAN port that says nothing; `closed` turns true when it is cut. */
interface Held {
  readonly socket: Socket;
  closed: boolean;
}

async function holdConnections(count: number): Promise<Held[]> {
  const held = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Held>((resolve) => {
          const socket = connectTcp({ host: '127.0.0.1', port: lanPort() });
          const entry: Held = { socket, closed: false };
          socket.on('error', () => undefined);
          socket.once('close', () => {
            entry.closed = true;
          });
          socket.once('connect', () => resolve(entry));
          socket.once('error', () => resolve(entry));
        }),
    ),
  );
  // The server drops a refused one as soon as it accepts it: wait until the count settles.
  let open = -1;
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = held.filter((entry) => !entry.closed).length;
    if (now === open) break;
    open = now;
  }
  return held;
}

function release(held: readonly Held[]): void {
  for (const { socket } of held) socket.destroy();
}

/** A sale at the hub's own till, through the browser shell's loopback listener. */
async function sellAtHub(amount: string): Promise<{ sale: SaleView; ms: number }> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${world.shell.port}/api/call/createSale`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${world.shellToken}` },
    body: JSON.stringify({ amount }),
  });
  const body = (await response.json()) as BridgeResult<SaleView>;
  if (!body.ok) throw new Error(`${body.error.code}: ${body.error.message}`);
  return { sale: body.value, ms: performance.now() - started };
}

async function pairCounter(name: string): Promise<PairingResult> {
  const response = await fetch(`http://127.0.0.1:${world.shell.port}/api/call/createPairingLink`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${world.shellToken}` },
    body: JSON.stringify({ name }),
  });
  const link = ((await response.json()) as { value: PairingLinkView }).value;
  const code = /[#&]code=([A-Za-z0-9_-]+)/.exec(new URL(link.url).hash)?.[1] ?? '';
  const answer = await hubRequest(new URL('/api/pair', lanView().url ?? '').href, {
    fingerprint: lanView().fingerprint ?? '',
    body: { code },
  });
  return (answer.json as { value: PairingResult }).value;
}

function counterSession(token: string) {
  return hubRequest(new URL('/api/call/getSession', lanView().url ?? '').href, {
    fingerprint: lanView().fingerprint ?? '',
    headers: { authorization: `Bearer ${token}` },
    body: {},
  });
}

describe('the LAN listener under a flood', () => {
  it('keeps at most the per-address cap open from one address, while the hub keeps selling', async () => {
    await world.restartLan();
    const counter = await pairCounter('Front');
    expect((await counterSession(counter.token)).status).toBe(200);

    const before = await sellAtHub('1,000');
    const flood = await holdConnections(LAN_LIMITS.perAddress + 200);
    const open = flood.filter((held) => !held.closed).length;
    expect(open).toBe(LAN_LIMITS.perAddress);
    // The hub's own till sells during the flood: a real sale, a real account from the sandbox.
    const { sale, ms } = await sellAtHub('2,500');
    expect(sale.accountNumber).toMatch(/^\d{10}$/);
    expect(sale.state).toBe('awaiting_payment');
    console.info(
      `flood of ${flood.length} connections: ${open} held open, sale at the hub in ${ms.toFixed(0)} ms (${before.ms.toFixed(0)} ms before the flood)`,
    );
    // A counter at the flooding address is refused while it lasts...
    await expect(counterSession(counter.token)).rejects.toThrow();
    // ...and served again once the connections go.
    release(flood);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await counterSession(counter.token)).status).toBe(200);
  });

  it('keeps at most the total cap open from all addresses together', async () => {
    await world.restartLan({ perAddress: 1_000, total: 12 });
    const flood = await holdConnections(40);
    expect(flood.filter((held) => !held.closed)).toHaveLength(12);
    release(flood);
  });

  it('cuts a connection that never finishes its TLS handshake, or its headers', async () => {
    await world.restartLan({
      handshakeTimeoutMs: 800,
      headersTimeoutMs: 800,
      requestTimeoutMs: 1_500,
      timeoutCheckMs: 200,
    });
    const port = lanPort();
    // Silent: not one byte of TLS.
    const [silent] = await holdConnections(1);
    // Slow: the handshake done, then headers one trickle at a time, never finished.
    const slow = connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false });
    slow.on('error', () => undefined);
    await new Promise<void>((resolve) => slow.once('secureConnect', () => resolve()));
    let answer = '';
    slow.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const slowClosed = new Promise<number>((resolve) => {
      const started = performance.now();
      slow.once('close', () => resolve(performance.now() - started));
    });
    slow.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const trickle = setInterval(() => slow.write('X-Slow: 1\r\n'), 100);
    try {
      const slowMs = await Promise.race([
        slowClosed,
        new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 5_000)),
      ]);
      expect(slowMs).toBeLessThan(3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(silent?.closed).toBe(true);
      console.info(`a trickle of headers was cut after ${slowMs.toFixed(0)} ms`);
    } finally {
      clearInterval(trickle);
      slow.destroy();
    }
  });
});
