import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { chooseSandbox, openSandboxLink, type SandboxLink } from './sandbox-link';
import {
  normaliseSandboxUrl,
  readStandaloneSandbox,
  StandaloneSandboxError,
} from './standalone-sandbox';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxOn(port = 0): Promise<SandboxProvider> {
  const sandbox = await startSandboxProvider({ port });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

/** A port nothing listens on (just freed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function failure(promise: Promise<unknown>): Promise<StandaloneSandboxError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof StandaloneSandboxError)) throw new Error(`no StandaloneSandboxError`);
  return error;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return null;
}

describe('readStandaloneSandbox', () => {
  it('reads the addresses and keys of a running sandbox from its control URL', async () => {
    const sandbox = await sandboxOn();
    expect(await readStandaloneSandbox(`${sandbox.controlUrl}/`)).toEqual({
      baseUrl: sandbox.baseUrl,
      payoutBaseUrl: sandbox.payoutBaseUrl,
      controlUrl: sandbox.controlUrl,
      secretKey: sandbox.secretKey,
      accessToken: sandbox.accessToken,
      payoutAccountId: sandbox.payoutAccountId,
    });
  });

  it('keeps the origin it was given (localhost, a forwarded port)', async () => {
    const sandbox = await sandboxOn();
    const read = await readStandaloneSandbox(`http://localhost:${sandbox.port}/control`);
    expect(read.baseUrl).toBe(`http://localhost:${sandbox.port}/api`);
    expect(read.payoutBaseUrl).toBe(`http://localhost:${sandbox.port}/payout`);
    expect(read.controlUrl).toBe(`http://localhost:${sandbox.port}/control`);
  });

  it('says clearly when nothing answers', async () => {
    const port = await deadPort();
    const error = await failure(readStandaloneSandbox(`http://127.0.0.1:${port}/control`));
    expect(error.code).toBe('SANDBOX_UNREACHABLE');
    expect(error.field).toBe('profiles.sandbox.sandboxUrl');
    expect(error.message).toContain(`http://127.0.0.1:${port}/control`);
    expect(error.message).toContain('nothing is listening');
    expect(error.message).toContain('npm run sandbox');
  });

  it('says clearly when something else answers', async () => {
    const sandbox = await sandboxOn();
    // The base URL instead of the control URL: /api/info is no route.
    const wrongPath = await failure(readStandaloneSandbox(sandbox.baseUrl));
    expect(wrongPath.code).toBe('SANDBOX_NOT_A_SANDBOX');
    expect(wrongPath.message).toMatch(/answered HTTP 404.*ends in \/control/);

    const html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>a router page</html>');
    });
    const port = await listen(html);
    cleanups.push(() => new Promise((resolve) => html.close(resolve)));
    const notJson = await failure(readStandaloneSandbox(`http://127.0.0.1:${port}/control`));
    expect(notJson.code).toBe('SANDBOX_NOT_A_SANDBOX');
    expect(notJson.message).toContain('other than JSON');
  });

  it('gives up after its timeout on a server that never answers', async () => {
    const silent = createServer(() => undefined);
    const port = await listen(silent);
    cleanups.push(async () => {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    });
    const error = await failure(
      readStandaloneSandbox(`http://127.0.0.1:${port}/control`, { timeoutMs: 200 }),
    );
    expect(error.code).toBe('SANDBOX_UNREACHABLE');
    expect(error.message).toContain('no answer in time');
  });

  it.each([
    'not a url',
    '127.0.0.1:4010/control',
    'ftp://127.0.0.1/control',
    'http://u:p@127.0.0.1:4010/control',
    'http://127.0.0.1:4010/control?x=1',
  ])('refuses %j before asking anyone', (url) => {
    const error = thrown(() => normaliseSandboxUrl(url));
    expect(error).toBeInstanceOf(StandaloneSandboxError);
    expect((error as StandaloneSandboxError).code).toBe('SANDBOX_URL_INVALID');
  });
});

describe('openSandboxLink', () => {
  it('starts the embedded sandbox when no address is set', async () => {
    const link = await openSandboxLink({ sandboxUrl: '', startEmbedded: () => sandboxOn() });
    expect(link.kind).toBe('embedded');
    const info = (await (await fetch(`${link.controlUrl}/info`)).json()) as {
      secret_key: string;
    };
    expect(link.connection().secretKey).toBe(info.secret_key);
  });

  it('never falls back to the embedded sandbox, and reads again once the standalone is up', async () => {
    const port = await deadPort();
    let clock = 0;
    const failures: string[] = [];
    let embeddedStarts = 0;
    const link = await openSandboxLink({
      sandboxUrl: `http://127.0.0.1:${port}/control`,
      startEmbedded: () => {
        embeddedStarts += 1;
        return sandboxOn();
      },
      now: () => clock,
      retryAfterMs: 1_000,
      onReadFailed: (error) => failures.push(error.code),
    });
    cleanups.push(() => link.close());
    expect(link.kind).toBe('standalone');
    expect(link.controlUrl).toBe(`http://127.0.0.1:${port}/control`);
    expect(thrown(() => link.connection())).toMatchObject({ code: 'SANDBOX_UNREACHABLE' });
    expect(failures).toEqual(['SANDBOX_UNREACHABLE']);

    const sandbox = await sandboxOn(port);
    // Too soon to ask again: the same error, no new read.
    expect(thrown(() => link.connection())).toMatchObject({ code: 'SANDBOX_UNREACHABLE' });
    clock = 1_000;
    expect(thrown(() => link.connection())).toMatchObject({ code: 'SANDBOX_UNREACHABLE' });
    await expect.poll(() => thrown(() => link.connection())).toBeNull();
    expect(link.connection().secretKey).toBe(sandbox.secretKey);
    expect(embeddedStarts).toBe(0);
  });
});

describe('a standalone restarted with new keys', () => {
  it('is read again in the background once the last read is old, keeping the old one meanwhile', async () => {
    const first = await startSandboxProvider({});
    const port = first.port;
    let clock = 0;
    const link = await openSandboxLink({
      sandboxUrl: first.controlUrl,
      startEmbedded: () => sandboxOn(),
      now: () => clock,
      refreshAfterMs: 30_000,
    });
    cleanups.push(() => link.close());
    expect(link.connection().secretKey).toBe(first.secretKey);
    await first.close();
    const restarted = await sandboxOn(port);
    expect(restarted.secretKey).not.toBe(first.secretKey);

    clock = 29_999;
    expect(link.connection().secretKey).toBe(first.secretKey);
    clock = 30_000;
    // This use still gets the old keys; the read it started brings the new ones.
    expect(link.connection().secretKey).toBe(first.secretKey);
    await expect.poll(() => link.connection().secretKey).toBe(restarted.secretKey);
  });
});

describe('chooseSandbox', () => {
  it('follows the address as settings change it, closing the old link after the new opens', async () => {
    const standalone = await sandboxOn();
    let address = '';
    const listeners = new Set<() => void>();
    const events: string[] = [];
    const open = async (sandboxUrl: string): Promise<SandboxLink> => {
      const link = await openSandboxLink({ sandboxUrl, startEmbedded: () => sandboxOn() });
      events.push(`open ${link.kind}`);
      return {
        ...link,
        connection: () => link.connection(),
        close: async () => {
          events.push(`close ${link.kind}`);
          await link.close();
        },
      };
    };
    const choice = await chooseSandbox({
      sandboxUrl: () => address,
      onSettingsChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      open,
      onSwitchFailed: (error) => events.push(`failed ${String(error)}`),
    });
    const change = async (next: string) => {
      address = next;
      for (const listener of listeners) listener();
      await choice.settled();
    };
    expect(choice.link().kind).toBe('embedded');

    await change(standalone.controlUrl);
    expect(choice.link().kind).toBe('standalone');
    expect(choice.link().connection().secretKey).toBe(standalone.secretKey);

    await change(standalone.controlUrl); // unchanged: nothing happens
    await change('');
    expect(choice.link().kind).toBe('embedded');
    await choice.close();
    expect(listeners.size).toBe(0);
    expect(events).toEqual([
      'open embedded',
      'open standalone',
      'close embedded',
      'open embedded',
      'close standalone',
      'close embedded',
    ]);
  });
});
