import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createNgrokDriver, mapNgrokError, validateTunnelOptions } from './ngrok-driver';
import { TunnelError, type TunnelConnectOptions } from './types';

const AUTHTOKEN = '2bogusAuthtokenXYZ_0123456789abcdefghijkl';
const OPTIONS: TunnelConnectOptions = { localPort: 4567, authtoken: AUTHTOKEN };

describe('mapNgrokError', () => {
  it('recognises a refused authtoken and scrubs it from the detail', () => {
    const error = Object.assign(
      new Error(
        `failed to connect session: authentication failed: The authtoken you specified does not look like a proper ngrok authtoken.\nYour authtoken: ${AUTHTOKEN}\n\nerror_code: ERR_NGROK_105`,
      ),
      { errorCode: 'ERR_NGROK_105' },
    );
    const mapped = mapNgrokError(error, [AUTHTOKEN]);
    expect(mapped.code).toBe('BAD_AUTHTOKEN');
    expect(mapped.message).toBe(
      'The ngrok authtoken was refused — copy it again from your ngrok dashboard',
    );
    expect(mapped.detail).toContain('[redacted]');
    expect(mapped.detail).not.toContain(AUTHTOKEN);
  });

  it('recognises a refused domain, network failures and everything else', () => {
    expect(
      mapNgrokError(
        new Error('The domain shop.ngrok.app is not reserved. error_code: ERR_NGROK_7117'),
        [],
        'shop.ngrok.app',
      ),
    ).toMatchObject({
      code: 'DOMAIN_NOT_ALLOWED',
      message:
        'ngrok refused the domain shop.ngrok.app — check that it is reserved on this ngrok account',
    });
    expect(
      mapNgrokError(new Error('failed to connect session: failed to establish tcp connection'), [])
        .code,
    ).toBe('NO_NETWORK');
    expect(
      mapNgrokError(new Error('dns error: failed to lookup address information'), []).code,
    ).toBe('NO_NETWORK');
    expect(mapNgrokError(new Error('something odd. error_code: ERR_NGROK_9999'), [])).toMatchObject(
      {
        code: 'UNKNOWN',
        message: 'The ngrok tunnel could not start (ERR_NGROK_9999)',
      },
    );
  });
});

describe('validateTunnelOptions', () => {
  it('refuses settings ngrok would reject obscurely', () => {
    const cases: readonly [Partial<TunnelConnectOptions>, string][] = [
      [{ authtoken: '  ' }, 'BAD_AUTHTOKEN'],
      [{ localPort: 0 }, 'INVALID_SETTINGS'],
      [{ domain: 'https://shop.ngrok.app' }, 'INVALID_SETTINGS'],
      [{ allowCidrs: ['41.58.0.0/33'] }, 'INVALID_SETTINGS'],
      [{ allowCidrs: ['not-an-ip/8'] }, 'INVALID_SETTINGS'],
      [{ basicAuth: { username: 'a:b', password: 'long-enough' } }, 'INVALID_SETTINGS'],
      [{ basicAuth: { username: 'till', password: 'short' } }, 'INVALID_SETTINGS'],
    ];
    for (const [patch, code] of cases) {
      expect(() => validateTunnelOptions({ ...OPTIONS, ...patch })).toThrowError(
        expect.objectContaining({ code }) as Error,
      );
    }
    expect(() =>
      validateTunnelOptions({
        ...OPTIONS,
        domain: 'shop.ngrok.app',
        allowCidrs: ['41.58.0.0/16', '2001:db8::/32'],
        basicAuth: { username: 'till', password: 'long-enough' },
      }),
    ).not.toThrow();
  });
});

/** A local port with nothing listening: bind, note the port, close. */
async function closedLocalPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

// The real SDK, but its server address points at 127.0.0.1: nothing leaves this machine.
describe('ngrok driver on the real SDK (local addresses only)', () => {
  it('gives a clear error, not a hang, with a bad authtoken and no network', async () => {
    const port = await closedLocalPort();
    const driver = createNgrokDriver({ serverAddr: `127.0.0.1:${port}`, connectTimeoutMs: 15_000 });
    const started = Date.now();
    const error = await driver.connect(OPTIONS).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TunnelError);
    expect(error).toMatchObject({
      code: 'NO_NETWORK',
      message: 'Cannot reach ngrok — check the internet connection',
    });
    expect(
      JSON.stringify({ ...(error as TunnelError), message: (error as TunnelError).message }),
    ).not.toContain(AUTHTOKEN);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 25_000);

  it('gives up after its timeout when the server accepts and then says nothing', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const driver = createNgrokDriver({
        serverAddr: `127.0.0.1:${address.port}`,
        connectTimeoutMs: 800,
      });
      const started = Date.now();
      await expect(driver.connect(OPTIONS)).rejects.toMatchObject({ code: 'NO_NETWORK' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 10_000);

  it('reports a missing native SDK as a tunnel error', async () => {
    const driver = createNgrokDriver({
      loadSdk: () => Promise.reject(new Error('cannot find module')),
    });
    await expect(driver.connect(OPTIONS)).rejects.toMatchObject({
      code: 'UNKNOWN',
      message: 'The ngrok component is missing from this installation',
    });
  });
});
