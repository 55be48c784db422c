/**
 * The LAN listener's address and port as Settings → Shop hub saves them, over real HTTP and real
 * HTTPS on loopback addresses: a real core (embedded sandbox, real SQLite), the browser shell
 * beside it, and a LAN service started with no start flag, so that Settings decide where it
 * listens. A save moves the listener before the settings say so; a taken port or an address this
 * computer does not have is refused next to its field, the old address still serving.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HEADER, type BridgeResult, type SessionView } from '#shared/bridge/contract';
import type { HubView } from '#shared/hub';
import type { SettingsView } from '#shared/views';
import { createCore, type Core } from '#main/core/create-core';
import { startLanService, type LanService } from '#main/web/lan-service';
import { startWebShell, type WebShell } from '#main/web/web-server';
import { freePort } from '#support/free-port';
import { hubRequest } from '#support/hub-client';

let dataDir: string;
let rendererDir: string;
let core: Core;
let shell: WebShell;
let lan: LanService;
let shellToken: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'till-hub-lan-settings-'));
  rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
  core = await createCore({ dataDir, shell: 'browser', version: '1.2.3' });
  shell = await startWebShell({ core, rendererDir });
  shellToken = /#token=(.+)$/.exec(shell.url)?.[1] ?? '';
  core.settings.update({
    hub: { lanEnabled: true, lanHost: '127.0.0.1', lanPort: await freePort() },
  });
  // No host, no port: the desktop app's way, and the browser shell's without --lan-host/--lan-port.
  lan = await startLanService({ core, rendererDir, dataDir });
});

afterAll(async () => {
  await lan?.close();
  await shell?.close();
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A page of the till at the hub, keeping the session main gives it (as the HTTP bridge does). */
function page() {
  let session: string | null = null;
  return async function call<T>(channel: string, input: unknown = {}): Promise<BridgeResult<T>> {
    const response = await fetch(`http://127.0.0.1:${shell.port}/api/call/${channel}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${shellToken}`,
        ...(session ? { [SESSION_HEADER]: session } : {}),
      },
      body: JSON.stringify(input),
    });
    session = response.headers.get(SESSION_HEADER);
    return (await response.json()) as BridgeResult<T>;
  };
}
const owner = page();

function saveHub(hub: Record<string, unknown>, as = owner) {
  return as<SettingsView>('updateSettings', { patch: { hub } });
}

async function serves(url: string): Promise<boolean> {
  const fingerprint = lan.view().fingerprint ?? '';
  try {
    return (await hubRequest(url, { fingerprint })).status === 200;
  } catch {
    return false;
  }
}

async function occupy(): Promise<{ readonly port: number; close(): Promise<void> }> {
  const blocker: Server = createServer();
  await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
  return {
    port: (blocker.address() as { port: number }).port,
    close: () => new Promise((done) => blocker.close(() => done())),
  };
}

describe('Settings → Shop hub: the LAN address and port', () => {
  it('listens where Settings say when no start flag names the address or the port', async () => {
    const { lanPort } = core.settings.get().hub;
    expect(lan.view()).toMatchObject({
      running: true,
      url: `https://127.0.0.1:${lanPort}/`,
      setForThisRun: false,
    });
    expect(await serves(`https://127.0.0.1:${lanPort}/`)).toBe(true);
  });

  it('moves the listener to a saved port; the old port closes', async () => {
    const before = core.settings.get().hub.lanPort;
    const next = await freePort();
    const answer = await saveHub({ lanHost: '127.0.0.1', lanPort: next });
    expect(answer).toMatchObject({ ok: true, value: { settings: { hub: { lanPort: next } } } });
    expect(lan.view()).toMatchObject({ running: true, url: `https://127.0.0.1:${next}/` });
    expect(await serves(`https://127.0.0.1:${next}/`)).toBe(true);
    expect(await serves(`https://127.0.0.1:${before}/`)).toBe(false);
  });

  it('moves to another address of this computer on the same port', async () => {
    const { lanPort } = core.settings.get().hub;
    expect(await saveHub({ lanHost: '127.0.0.2', lanPort })).toMatchObject({ ok: true });
    expect(lan.view().url).toBe(`https://127.0.0.2:${lanPort}/`);
    expect(await serves(`https://127.0.0.2:${lanPort}/`)).toBe(true);
    expect(await serves(`https://127.0.0.1:${lanPort}/`)).toBe(false);
    expect(await saveHub({ lanHost: '127.0.0.1', lanPort })).toMatchObject({ ok: true });
    expect(await serves(`https://127.0.0.1:${lanPort}/`)).toBe(true);
  });

  it('refuses a port another program holds, next to the field; the old port keeps serving', async () => {
    const before = core.settings.get().hub;
    const blocker = await occupy();
    try {
      const answer = await saveHub({ lanHost: '127.0.0.1', lanPort: blocker.port });
      expect(answer).toEqual({
        ok: false,
        error: {
          code: 'INVALID_SETTINGS',
          field: 'hub.lanPort',
          message: `LAN port: Port ${blocker.port} is in use by another program: choose another port, or close that program. Counters still reach this till on port ${before.lanPort}.`,
        },
      });
    } finally {
      await blocker.close();
    }
    expect(core.settings.get().hub).toEqual(before);
    expect(lan.view()).toMatchObject({ running: true, problem: null });
    expect(await serves(`https://127.0.0.1:${before.lanPort}/`)).toBe(true);
  });

  it('refuses what is not an IP address, and an address this computer does not have', async () => {
    const before = core.settings.get().hub;
    const named = await saveHub({ lanHost: 'shop-pc.local', lanPort: before.lanPort });
    expect(named).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_SETTINGS',
        field: 'hub.lanHost',
        message:
          'LAN address: Enter an address of this computer like 192.168.1.20, or choose "All addresses of this computer"',
      },
    });
    // TEST-NET-1 (RFC 5737): an address no computer here has.
    const elsewhere = await saveHub({ lanHost: '192.0.2.1', lanPort: before.lanPort });
    expect(elsewhere).toMatchObject({
      ok: false,
      error: { code: 'INVALID_SETTINGS', field: 'hub.lanHost' },
    });
    expect(!elsewhere.ok && elsewhere.error.message).toContain(
      'This computer has no address 192.0.2.1 now',
    );
    expect(core.settings.get().hub).toEqual(before);
    expect(await serves(`https://127.0.0.1:${before.lanPort}/`)).toBe(true);
  });

  it('keeps a saved address while the listener is off, and opens there when it is turned on', async () => {
    expect(await owner<HubView>('setLanListener', { enabled: false })).toMatchObject({
      ok: true,
      value: { lan: { running: false } },
    });
    const next = await freePort();
    expect(await saveHub({ lanHost: '127.0.0.1', lanPort: next })).toMatchObject({ ok: true });
    const on = await owner<HubView>('setLanListener', { enabled: true });
    expect(on).toMatchObject({
      ok: true,
      value: { lan: { running: true, url: `https://127.0.0.1:${next}/` } },
    });
  });

  it('refuses a cashier: only the owner changes where the hub listens', async () => {
    await owner('updateSettings', { patch: { shop: { cashiers: ['Ade'] } } });
    expect(await owner<SessionView>('setOwnerPin', { pin: '482913' })).toMatchObject({ ok: true });
    const ade = page();
    expect(await ade<SessionView>('signIn', { name: 'Ade' })).toMatchObject({
      ok: true,
      value: { role: 'cashier', name: 'Ade' },
    });
    const before = core.settings.get().hub;
    const answer = await saveHub({ lanHost: '127.0.0.1', lanPort: await freePort() }, ade);
    expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(core.settings.get().hub).toEqual(before);
    expect(lan.view().url).toBe(`https://127.0.0.1:${before.lanPort}/`);
  });
});

describe('a start flag for the run', () => {
  it('wins over Settings for this run; a saved port is kept for the next start', async () => {
    const flagged = await freePort();
    await lan.close();
    lan = await startLanService({ core, rendererDir, dataDir, host: '127.0.0.1', port: flagged });
    expect(lan.view()).toMatchObject({
      running: true,
      url: `https://127.0.0.1:${flagged}/`,
      setForThisRun: true,
    });
    const saved = await freePort();
    const session = page();
    await session('unlockOwner', { pin: '482913' });
    expect(await saveHub({ lanHost: '127.0.0.1', lanPort: saved }, session)).toMatchObject({
      ok: true,
    });
    expect(core.settings.get().hub.lanPort).toBe(saved);
    expect(lan.view().url).toBe(`https://127.0.0.1:${flagged}/`);
  });
});
