import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../src/main/core/create-core';
import { startWebShell, type WebShell } from '../src/main/web/web-server';

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
