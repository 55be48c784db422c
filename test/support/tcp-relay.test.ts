import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { startTcpRelay, type TcpRelay } from './tcp-relay';

let echo: Server | null = null;
let relay: TcpRelay | null = null;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await relay?.close();
  await new Promise<void>((resolve) => (echo ? echo.close(() => resolve()) : resolve()));
  relay = null;
  echo = null;
});

async function setUp(): Promise<TcpRelay> {
  echo = createServer((socket) => socket.pipe(socket));
  const port = await freePort();
  await new Promise<void>((resolve) => echo?.listen(port, '127.0.0.1', resolve));
  relay = await startTcpRelay({
    host: '127.0.0.2',
    port,
    targetHost: '127.0.0.1',
    targetPort: port,
  });
  return relay;
}

/** A client through the relay that collects what comes back and whether it closed. */
async function client(through: TcpRelay) {
  const socket = connect(through.port, through.host);
  sockets.push(socket);
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('close', () => (closed = true));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => received, closed: () => closed };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the TCP relay', () => {
  it('forwards, goes silent without closing, and hands on what it held when resumed', async () => {
    const through = await setUp();
    const one = await client(through);
    one.socket.write('before ');
    await expect.poll(one.received).toBe('before ');

    through.silence();
    one.socket.write('during ');
    const held = await client(through);
    held.socket.write('new ');
    await wait(300);
    expect([one.received(), held.received()]).toEqual(['before ', '']);
    expect([one.closed(), held.closed()]).toEqual([false, false]);

    through.resume();
    await expect.poll(one.received).toBe('before during ');
    await expect.poll(held.received).toBe('new ');
    expect(through.connections()).toBe(2);
  });
});
