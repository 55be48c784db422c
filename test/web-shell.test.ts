import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../src/main/core/create-core';
import { startWebShell, type WebShell } from '../src/main/web/web-server';
import { startJsonChild, type JsonChild } from './support/child-json';
import {
  callTill,
  sandboxTransfer,
  type SandboxLine,
  type TillCallResult,
  type WebShellLine,
} from './support/web-till';

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

/** A raw request, so that the Host header and path can be anything (fetch normalises both). */
function raw(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: shell.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
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
        acknowledgedAt: null,
      },
    });
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('Late payment on sale 7');
    controller.abort();
    expect((await fetch(`${base}/api/events?token=bad`)).status).toBe(401);
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
      args.concat(['--data-dir', dataDir]),
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
    expect(existsSync(join(webDataDir, 'sandbox-provider.sqlite'))).toBe(false);
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
    expect(existsSync(join(webDataDir, 'sandbox-provider.sqlite'))).toBe(false);

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
