import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDbPath } from '#main/config/data-files';
import { createCore, type Core } from '#main/core/create-core';
import { displayTokenFor } from '#main/web/customer-display';
import { openShellTokenFile, SHELL_TOKEN_FILE } from '#main/web/shell-token';
import { startWebShell, type WebShell } from '#main/web/web-server';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { openSseStream } from '#support/sse-stream';
import { rawHttp } from '#support/raw-http';
import {
  callTill,
  sandboxTransfer,
  type SandboxLine,
  type TillCallResult,
  type WebShellLine,
} from '#support/web-till';

let core: Core;
let shell: WebShell;
let base: string;
let token: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-web-'));
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dataDir, 'outside.txt'), 'not for the web');
  core = await createCore({ dataDir, shell: 'browser', version: '1.2.3' });
  shell = await startWebShell({ core, rendererDir });
  base = `http://127.0.0.1:${shell.port}`;
  token = /#token=(.+)$/.exec(shell.url)?.[1] ?? '';
});

afterAll(async () => {
  await shell.close();
  await core.close();
});

function call(
  channel: string,
  body: unknown,
  auth = `Bearer ${token}`,
  headers: Record<string, string> = {},
) {
  return fetch(`${base}/api/call/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The status of a GET whose Host header and path can be anything (fetch normalises both). */
async function raw(path: string, host: string): Promise<number> {
  return (await rawHttp({ port: shell.port, path, headers: { host } })).status;
}

describe('browser shell server', () => {
  it('prints a URL on 127.0.0.1 with a 128-bit token in the fragment', () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{22}$/);
  });

  it('carries a channel call and returns the result object', async () => {
    const response = await call('getAppInfo', {});
    expect(await response.json()).toEqual({
      ok: true,
      value: { name: 'Transfer Till', version: '1.2.3', shell: 'browser', environment: 'sandbox' },
    });
  });

  it('refuses calls without the right token', async () => {
    expect((await call('getAppInfo', {}, 'Bearer wrong')).status).toBe(401);
    expect((await call('getAppInfo', {}, '')).status).toBe(401);
  });

  it('takes the token of a call from the Authorization header only; ?token= opens the stream', async () => {
    const byQuery = await fetch(`${base}/api/call/getAppInfo?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(byQuery.status).toBe(401);
    expect(await byQuery.json()).toMatchObject({ ok: false, error: { code: 'UNAUTHORISED' } });
    expect((await call('getAppInfo', {})).status).toBe(200);
    const controller = new AbortController();
    const stream = await fetch(`${base}/api/events?token=${token}`, { signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    controller.abort();
  });

  it('refuses cross-origin calls and foreign Host headers', async () => {
    expect(
      (await call('getAppInfo', {}, `Bearer ${token}`, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect(await raw('/', 'evil.example')).toBe(421);
    expect(await raw('/', `127.0.0.1:${shell.port}`)).toBe(200);
  });

  it('answers bad input with a clear error, not a crash', async () => {
    expect(await (await call('getAppInfo', '{not json')).json()).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await (await call('getAppInfo', { extra: 1 })).json()).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await (await call('nope', {})).json()).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL' },
    });
  });

  it('serves the renderer with its CSP and nothing outside it', async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${base}/assets/app.js`)).headers.get('content-type')).toContain(
      'javascript',
    );
    expect(await raw('/../outside.txt', `127.0.0.1:${shell.port}`)).toBe(404);
    expect(await raw('/%2e%2e/outside.txt', `127.0.0.1:${shell.port}`)).toBe(404);
  });

  it('streams core events over server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/api/events?token=${token}`, {
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the ": connected" comment
    core.events.emit({
      type: 'alert',
      payload: {
        id: 1,
        createdAt: 0,
        level: 'warning',
        kind: 'paid_late',
        saleId: 7,
        message: 'Late payment on sale 7',
        sessionId: null,
        acknowledgedAt: null,
        closedBy: null,
        action: null,
      },
    });
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('Late payment on sale 7');
    controller.abort();
    expect((await fetch(`${base}/api/events?token=bad`)).status).toBe(401);
  });
});

describe('event ids and Last-Event-ID replay', () => {
  const eventsUrl = () => `${base}/api/events`;
  const auth = () => ({ authorization: `Bearer ${token}` });
  const navigate = (route: 'sale' | 'activity') =>
    core.events.emit({ type: 'navigate', payload: { route } });

  it('sends each event with its id, after a ready frame that gives the current id', async () => {
    const stream = await openSseStream(eventsUrl(), auth());
    const ready = await stream.next();
    expect(ready).toMatchObject({ id: core.events.lastId(), event: 'ready' });
    const before = Date.now();
    expect(JSON.parse(ready.data)).toEqual({
      resync: false,
      replayed: 0,
      serverTime: expect.any(Number) as number,
    });
    // The till service's time, for the page's countdowns (this core runs on the real clock).
    expect(
      Math.abs((JSON.parse(ready.data) as { serverTime: number }).serverTime - before),
    ).toBeLessThan(5_000);
    navigate('activity');
    const frame = await stream.next();
    expect(frame.id).toBe(core.events.lastId());
    expect(frame.id).toMatch(new RegExp(`^${core.events.bootId}\\.\\d+$`));
    expect(JSON.parse(frame.data)).toEqual({ type: 'navigate', payload: { route: 'activity' } });
    stream.close();
  });

  it('replays what a page missed while it was away, then goes on live', async () => {
    const first = await openSseStream(eventsUrl(), auth());
    const ready = await first.next();
    navigate('sale');
    const seen = await first.next();
    first.close();
    // Missed while away: two events.
    navigate('activity');
    navigate('sale');
    const again = await openSseStream(eventsUrl(), { ...auth(), 'last-event-id': seen.id ?? '' });
    const replayed = [await again.next(), await again.next()];
    expect(replayed.map((frame) => JSON.parse(frame.data) as unknown)).toEqual([
      { type: 'navigate', payload: { route: 'activity' } },
      { type: 'navigate', payload: { route: 'sale' } },
    ]);
    expect(replayed[1]?.id).toBe(core.events.lastId());
    const againReady = await again.next();
    expect(againReady.event).toBe('ready');
    expect(JSON.parse(againReady.data)).toMatchObject({ resync: false, replayed: 2 });
    navigate('activity');
    expect((await again.next()).id).toBe(core.events.lastId());
    again.close();
    expect(ready.id).not.toBe(seen.id);
  });

  it('tells a page from another run (or too far behind) to re-read its state', async () => {
    for (const lastId of ['restarted1.4', `${core.events.bootId}.999999999`, 'nonsense']) {
      const stream = await openSseStream(eventsUrl(), { ...auth(), 'last-event-id': lastId });
      const ready = await stream.next();
      expect(ready, lastId).toMatchObject({ id: core.events.lastId(), event: 'ready' });
      expect(JSON.parse(ready.data), lastId).toMatchObject({ resync: true, replayed: 0 });
      stream.close();
    }
  });

  it('takes the last id as a query parameter too (for an EventSource made anew)', async () => {
    const stream = await openSseStream(
      `${eventsUrl()}?token=${token}&lastEventId=${encodeURIComponent(core.events.lastId())}`,
    );
    expect(JSON.parse((await stream.next()).data)).toMatchObject({ resync: false, replayed: 0 });
    stream.close();
  });
});

describe('the token kept in the data directory, and rotated', () => {
  let dataDir: string;
  let ownCore: Core;
  let current: WebShell | null = null;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'till-web-token-'));
    const rendererDir = join(dataDir, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
    ownCore = await createCore({ dataDir, shell: 'browser', version: '1.2.3' });
  });

  afterAll(async () => {
    await current?.close();
    await ownCore.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(port = 0, onTokenRotated?: (url: string) => void): Promise<WebShell> {
    current = await startWebShell({
      core: ownCore,
      rendererDir: join(dataDir, 'renderer'),
      port,
      tokenStore: openShellTokenFile(dataDir),
      ...(onTokenRotated ? { onTokenRotated: (access) => onTokenRotated(access.url) } : {}),
    });
    return current;
  }

  const tokenIn = (url: string) => /#token=(.+)$/.exec(url)?.[1] ?? '';
  function callAt(shellUrl: string, channel: string, bearer = tokenIn(shellUrl)) {
    return fetch(new URL(`/api/call/${channel}`, shellUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: '{}',
    });
  }

  it('makes the token once, private to this user, and the same url works after a restart', async () => {
    const first = await start();
    const path = join(dataDir, SHELL_TOKEN_FILE);
    expect(readFileSync(path, 'utf8').trim()).toBe(tokenIn(first.url));
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    const { url, port } = first;
    await first.close();
    current = null;

    const second = await start(port);
    expect(second.url).toBe(url);
    expect((await callAt(url, 'getAppInfo')).status).toBe(200);
  });

  it('rotates from Settings: old pages are refused, the new url works and is kept', async () => {
    const rotated: string[] = [];
    await current?.close();
    const shellNow = await start(0, (url) => rotated.push(url));
    const oldUrl = shellNow.url;
    const oldToken = tokenIn(oldUrl);
    const oldStream = await openSseStream(`${new URL(oldUrl).origin}/api/events`, {
      authorization: `Bearer ${oldToken}`,
    });
    await oldStream.next();

    const response = await callAt(oldUrl, 'rotateShellToken');
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      ok: true;
      value: { url: string; displayUrl: string };
    };
    const newUrl = answer.value.url;
    expect(newUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{22}$/);
    expect(newUrl).not.toBe(oldUrl);
    // The display's token is derived from the shell token: it rotates with it.
    expect(answer.value.displayUrl).toBe(
      `${new URL(newUrl).origin}/#/display&display=${displayTokenFor(tokenIn(newUrl))}`,
    );
    expect(answer.value.displayUrl).not.toContain(displayTokenFor(oldToken));
    expect(shellNow.url).toBe(newUrl);
    expect(rotated).toEqual([newUrl]);

    // The old page: its stream ends, and neither calls nor a new stream are accepted.
    await oldStream.ended();
    expect((await callAt(oldUrl, 'getAppInfo')).status).toBe(401);
    const refused = await openSseStream(`${new URL(oldUrl).origin}/api/events`, {
      authorization: `Bearer ${oldToken}`,
    });
    expect(refused.status).toBe(401);
    expect((await callAt(newUrl, 'getAppInfo')).status).toBe(200);

    // Kept on disk (private), so the new url survives a restart; never written to the log.
    const path = join(dataDir, SHELL_TOKEN_FILE);
    expect(readFileSync(path, 'utf8').trim()).toBe(tokenIn(newUrl));
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    const log = readFileSync(ownCore.log.path, 'utf8');
    expect(log).toContain('browser shell token rotated');
    expect(log).not.toContain(oldToken);
    expect(log).not.toContain(tokenIn(newUrl));
  });

  it('is owner-only, and the desktop (no shell token) says it does not apply', async () => {
    const shellNow = current ?? (await start());
    expect(
      await (
        await fetch(new URL('/api/call/setOwnerPin', shellNow.url), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tokenIn(shellNow.url)}`,
          },
          body: JSON.stringify({ pin: '4321' }),
        })
      ).json(),
    ).toMatchObject({ ok: true });
    // A fresh page (no owner unlock) is a cashier now: refused.
    const refused = await callAt(shellNow.url, 'rotateShellToken');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await expect(
      Promise.resolve().then(() =>
        ownCore.handlers.rotateShellToken(
          {},
          {
            role: 'owner',
            name: null,
            sessionId: 'desktop-1',
            via: 'desktop',
          },
        ),
      ),
    ).rejects.toMatchObject({ code: 'NOT_AVAILABLE' });
  });

  it('replaces a token file that holds no token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-web-token-bad-'));
    try {
      writeFileSync(join(dir, SHELL_TOKEN_FILE), 'not a token\n', { mode: 0o644 });
      const store = openShellTokenFile(dir);
      expect(store.replacedAtStart).toBe('the saved token file did not hold a token');
      expect(store.current()).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(readFileSync(join(dir, SHELL_TOKEN_FILE), 'utf8').trim()).toBe(store.current());
      if (process.platform !== 'win32') {
        expect(statSync(join(dir, SHELL_TOKEN_FILE)).mode & 0o777).toBe(0o600);
      }
      expect(openShellTokenFile(dir).current()).toBe(store.current());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const root = resolve(import.meta.dirname, '..');

/** A port nothing listens on (just freed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Why a child exited before its first line (startJsonChild's rejection, with its stderr). */
async function startFailure(args: readonly string[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-web-bad-'));
  try {
    const child = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      args.concat(['--port', '0', '--data-dir', dataDir]),
      {
        cwd: root,
        timeoutMs: 60_000,
      },
    );
    await child.stop();
    return 'started';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('browser shell on a shared sandbox (--sandbox-url)', () => {
  let sandbox: JsonChild<SandboxLine>;
  let web: JsonChild<WebShellLine>;
  let webDataDir: string;

  const callWeb = (channel: string, input: unknown) => callTill(web.first.url, channel, input);
  const errorOf = (result: TillCallResult) => (result.ok ? null : result.error);

  async function setSandboxUrl(sandboxUrl: string): Promise<void> {
    const saved = await callWeb('updateSettings', {
      patch: { profiles: { sandbox: { sandboxUrl } } },
    });
    expect(saved.ok).toBe(true);
  }

  beforeAll(async () => {
    sandbox = await startJsonChild<SandboxLine>('src/main/sandbox/cli.ts', ['--port', '0'], {
      cwd: root,
    });
    webDataDir = mkdtempSync(join(tmpdir(), 'till-web-shared-'));
    web = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      ['--port', '0', '--data-dir', webDataDir, '--sandbox-url', sandbox.first.control_url],
      { cwd: root, timeoutMs: 120_000 },
    );
  }, 180_000);

  afterAll(async () => {
    await web?.stop();
    await sandbox?.stop();
    if (webDataDir) rmSync(webDataDir, { recursive: true, force: true });
  });

  it("prints the standalone sandbox's control_url and starts no embedded sandbox", async () => {
    expect(web.first.control_url).toBe(sandbox.first.control_url);
    expect(existsSync(sandboxDbPath(webDataDir))).toBe(false);
    // The flag is the SANDBOX profile's own field: Settings show it.
    expect(await callWeb('getSettings', {})).toMatchObject({
      ok: true,
      value: { settings: { profiles: { sandbox: { sandboxUrl: sandbox.first.control_url } } } },
    });
  });

  it('sells on the standalone sandbox and is paid by a transfer made there', async () => {
    const created = await callWeb('createSale', { amount: '1,250.50' });
    if (!created.ok) throw new Error(created.error.message);
    const sale = created.value as { id: number; accountNumber: string; reference: string };
    const accounts = (await (await fetch(`${sandbox.first.control_url}/accounts`)).json()) as {
      accounts: { account_number: string }[];
    };
    expect(accounts.accounts.map((account) => account.account_number)).toContain(
      sale.accountNumber,
    );
    await sandboxTransfer(sandbox.first.control_url, sale.accountNumber, 1250.5);
    await expect
      .poll(
        async () => {
          const result = await callWeb('getSale', { saleId: sale.id });
          return result.ok ? (result.value as { state: string }).state : result.error.code;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe('paid');
  });

  it('tests the connection in Settings, and says so clearly when the address is wrong', async () => {
    const good = await callWeb('testConnection', { environment: 'sandbox' });
    if (!good.ok) throw new Error(good.error.message);
    expect((good.value as { ok: boolean }[]).every((check) => check.ok)).toBe(true);

    const port = await deadPort();
    await setSandboxUrl(`http://127.0.0.1:${port}/control`);
    await expect
      .poll(async () => errorOf(await callWeb('testConnection', { environment: 'sandbox' })), {
        timeout: 10_000,
        interval: 100,
      })
      .toMatchObject({ code: 'SANDBOX_UNREACHABLE', field: 'profiles.sandbox.sandboxUrl' });
    const unreachable = errorOf(await callWeb('testConnection', { environment: 'sandbox' }));
    expect(unreachable?.message).toContain(
      `Cannot reach the shared sandbox at http://127.0.0.1:${port}/control`,
    );
    // Selling says the same; nothing falls back to an embedded sandbox.
    expect(errorOf(await callWeb('createSale', { amount: '100' }))).toMatchObject({
      code: 'SANDBOX_UNREACHABLE',
    });
    expect(existsSync(sandboxDbPath(webDataDir))).toBe(false);

    await setSandboxUrl(sandbox.first.control_url);
    await expect
      .poll(async () => (await callWeb('testConnection', { environment: 'sandbox' })).ok, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(true);
  }, 40_000);

  it('refuses to start on an address where no sandbox answers', async () => {
    const port = await deadPort();
    const unreachable = await startFailure(['--sandbox-url', `http://127.0.0.1:${port}/control`]);
    expect(unreachable).toContain('exited (1) before its first line');
    expect(unreachable).toContain(
      `Cannot reach the shared sandbox at http://127.0.0.1:${port}/control`,
    );

    const notASandbox = await startFailure([`--sandbox-url=${sandbox.first.base_url}`]);
    expect(notASandbox).toContain('is not a sandbox control API');

    expect(await startFailure(['--sandbox-url', 'sandbox.local'])).toContain('is not usable');
    expect(await startFailure(['--sandbox-url'])).toContain('--sandbox-url needs the control_url');
  }, 60_000);
});
