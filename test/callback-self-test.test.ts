import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredCallback } from '#main/webhook';
import {
  createCallbackSelfTester,
  createTunnelManager,
  decideCallbackRoute,
  selfTestBody,
  selfTestNonceOf,
  type CallbackRoute,
  type CallbackSelfTester,
  type TunnelConnectOptions,
} from '#main/tunnel';
import { generateCallbackToken, startWebhookListener, type WebhookListener } from '#main/webhook';
import { openSqliteTestInbox, type SqliteTestInbox } from '#support/sqlite-inbox';
import { createFakeNgrok, type FakeNgrok } from '#support/fake-ngrok';

const logger = pino({ level: 'silent' });
const token = generateCallbackToken();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startListener(): Promise<{
  listener: WebhookListener;
  inbox: SqliteTestInbox;
  handed: StoredCallback[];
  attach: (tester: CallbackSelfTester) => void;
}> {
  const inbox = openSqliteTestInbox(
    join(mkdtempSync(join(tmpdir(), 'till-selftest-')), 'cb.sqlite'),
  );
  const handed: StoredCallback[] = [];
  let tester: CallbackSelfTester | null = null;
  const listener = await startWebhookListener({
    tokens: () => [token],
    inbox,
    logger,
    onCallback: (stored) => handed.push(stored),
    selfTest: (body) => tester?.receive(body) ?? false,
  });
  cleanups.push(
    () => inbox.close(),
    () => listener.close(),
  );
  return {
    listener,
    inbox,
    handed,
    attach: (next) => {
      tester = next;
    },
  };
}

function localRoute(
  port: number,
  path = `/callbacks/${token}`,
): { readonly mode: 'local-sandbox'; readonly callbackUrl: string } {
  return { mode: 'local-sandbox', callbackUrl: `http://127.0.0.1:${port}${path}` };
}

function tester(
  route: () => CallbackRoute,
  options: {
    readonly basicAuth?: { readonly username: string; readonly password: string };
    readonly timeoutMs?: number;
  } = {},
): CallbackSelfTester {
  return createCallbackSelfTester({
    route,
    basicAuth: () => options.basicAuth ?? null,
    now: () => Date.now(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

/** A server that answers every request with a fixed status and headers (not the till). */
async function stubServer(
  answer: (respond: (status: number, headers?: Record<string, string>) => void) => void,
): Promise<number> {
  const server: Server = createServer((_request, response) => {
    answer((status, headers = {}) => response.writeHead(status, headers).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

describe('the self-test body', () => {
  it('is recognised only in its exact shape', () => {
    const nonce = 'n'.repeat(32);
    expect(selfTestNonceOf(selfTestBody(nonce))).toBe(nonce);
    expect(selfTestNonceOf(JSON.stringify({ transfer_till_self_test: nonce, amount: 5 }))).toBe(
      null,
    );
    expect(selfTestNonceOf(JSON.stringify({ transfer_till_self_test: 'short' }))).toBe(null);
    expect(selfTestNonceOf('{"reference":"TT-1","session_id":"1"}')).toBe(null);
    expect(selfTestNonceOf('transfer_till_self_test=x')).toBe(null);
  });
});

describe('the callback self-test against the real listener', () => {
  it('passes when the nonce comes back, and the listener neither stores nor hands it on', async () => {
    const { listener, inbox, handed, attach } = await startListener();
    const selfTest = tester(() => localRoute(listener.port));
    attach(selfTest);
    const result = await selfTest.run('user');
    expect(result).toMatchObject({ passed: true, code: 'PASSED', trigger: 'user' });
    expect(result.detail).toContain(`http://127.0.0.1:${listener.port}`);
    expect(result.detail).not.toContain(token);
    expect(inbox.count()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(handed).toHaveLength(0);
    expect(selfTest.running()).toBe(false);
  });

  it('a replayed or forged self-test body is not a self-test: it is kept as any callback', async () => {
    const { listener, inbox, attach } = await startListener();
    const selfTest = tester(() => localRoute(listener.port));
    attach(selfTest);
    const answer = await fetch(localRoute(listener.port).callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: selfTestBody('f'.repeat(32)),
    });
    expect(answer.status).toBe(200);
    expect(inbox.count()).toBe(1);
  });

  it('runs one test at a time: a second request joins the one in flight', async () => {
    const { listener, attach } = await startListener();
    const selfTest = tester(() => localRoute(listener.port));
    attach(selfTest);
    const [first, second] = await Promise.all([selfTest.run('start'), selfTest.run('user')]);
    expect(second).toBe(first);
  });

  it('says WRONG_PATH when the address reaches a server but not the callback path', async () => {
    const { listener, attach } = await startListener();
    const selfTest = tester(() => localRoute(listener.port, '/callbacks/not-the-token-at-all-xx'));
    attach(selfTest);
    const result = await selfTest.run('user');
    expect(result).toMatchObject({ passed: false, code: 'WRONG_PATH' });
    expect(result.detail).toContain('404');
  });

  it('says REFUSED when nothing listens at the address', async () => {
    const { listener, attach } = await startListener();
    const port = listener.port;
    await listener.close();
    const selfTest = tester(() => localRoute(port));
    attach(selfTest);
    expect(await selfTest.run('user')).toMatchObject({ passed: false, code: 'REFUSED' });
  });

  it('says TIMEOUT when the address never answers', async () => {
    const port = await stubServer(() => undefined);
    const result = await tester(() => localRoute(port), { timeoutMs: 200 }).run('user');
    expect(result).toMatchObject({ passed: false, code: 'TIMEOUT' });
    expect(result.durationMs).toBeGreaterThanOrEqual(150);
  });

  it('says NOT_THIS_TILL when another server answers 200 in the till’s place', async () => {
    const port = await stubServer((respond) => respond(200));
    expect(await tester(() => localRoute(port)).run('user')).toMatchObject({
      code: 'NOT_THIS_TILL',
    });
  });

  it('says NO_ROUTE with the reason when there is no callback route', async () => {
    const result = await tester(() => ({
      mode: 'polling-only',
      reason: 'No tunnel or public address is set up',
    })).run('start');
    expect(result).toMatchObject({
      passed: false,
      code: 'NO_ROUTE',
      detail: 'No tunnel or public address is set up',
    });
  });
});

describe('the callback self-test through a tunnel (fake ngrok edge, real HTTP)', () => {
  async function throughTunnel(
    settings: Partial<TunnelConnectOptions>,
    ngrok: FakeNgrok = createFakeNgrok(),
  ) {
    const { listener, attach, inbox } = await startListener();
    const manager = createTunnelManager({ driver: ngrok.driver, logger });
    cleanups.push(
      () => ngrok.close(),
      () => manager.close(),
    );
    await manager.start({ localPort: listener.port, authtoken: 'tok', ...settings });
    const route = () =>
      decideCallbackRoute({
        sandbox: false,
        listener: { port: listener.port, path: listener.callbackPath() },
        configuredMode: 'ngrok',
        publicBaseUrl: '',
        tunnel: manager.status(),
      });
    return { listener, attach, inbox, route, ngrok };
  }

  it('sends the basic-auth user and password and passes', async () => {
    const basicAuth = { username: 'shopfront', password: 'edge-pass-8841' };
    const t = await throughTunnel({ basicAuth });
    expect(t.route().mode).toBe('tunnel');
    const selfTest = tester(t.route, { basicAuth });
    t.attach(selfTest);
    expect(await selfTest.run('tunnel-online')).toMatchObject({ passed: true, code: 'PASSED' });
    expect(t.ngrok.requests.at(-1)?.authorization).toMatch(/^Basic /);
    expect(t.inbox.count()).toBe(0);
  });

  it('says BASIC_AUTH_REJECTED when the edge refuses the credentials, or when the till has none', async () => {
    const t = await throughTunnel({
      basicAuth: { username: 'shopfront', password: 'edge-pass-8841' },
    });
    const wrong = tester(t.route, {
      basicAuth: { username: 'shopfront', password: 'old-password' },
    });
    t.attach(wrong);
    const refused = await wrong.run('user');
    expect(refused).toMatchObject({ passed: false, code: 'BASIC_AUTH_REJECTED' });
    expect(refused.detail).toContain('refused the basic-auth user and password');
    expect(refused.detail).not.toContain('old-password');
    const none = tester(t.route);
    t.attach(none);
    expect((await none.run('user')).detail).toContain('this till has none');
  });

  it('says ALLOW_LIST_REFUSED when the allow list keeps the till’s own address out', async () => {
    const t = await throughTunnel({ allowCidrs: ['102.89.0.0/16'] });
    const selfTest = tester(t.route);
    t.attach(selfTest);
    const result = await selfTest.run('user');
    expect(result).toMatchObject({ passed: false, code: 'ALLOW_LIST_REFUSED' });
    expect(result.detail).toContain('ERR_NGROK_3205');
  });

  it('passes when the allow list holds the shop’s own address', async () => {
    const t = await throughTunnel(
      { allowCidrs: ['102.89.0.0/16', '203.0.113.0/24'] },
      createFakeNgrok({ clientAddress: '203.0.113.7' }),
    );
    const selfTest = tester(t.route);
    t.attach(selfTest);
    expect((await selfTest.run('user')).code).toBe('PASSED');
  });

  it('says TUNNEL_OFFLINE on ngrok’s offline page, LISTENER_UNREACHABLE when the agent cannot reach the till', async () => {
    const t = await throughTunnel({});
    const selfTest = tester(t.route);
    t.attach(selfTest);
    t.ngrok.setOffline(true);
    expect((await selfTest.run('user')).code).toBe('TUNNEL_OFFLINE');
    t.ngrok.setOffline(false);
    await t.listener.close();
    const result = await selfTest.run('user');
    expect(result).toMatchObject({ code: 'LISTENER_UNREACHABLE' });
    expect(result.detail).toContain('502');
  });
});
