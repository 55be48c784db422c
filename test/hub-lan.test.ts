/**
 * The shop hub's LAN listener over real HTTPS on 127.0.0.1, with a real core (embedded sandbox,
 * real SQLite) and the browser shell beside it: the certificate, pinning, pairing, a counter's
 * scope, revocation, the customer display's token, and the start line of `npm run web -- --lan`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SESSION_HEADER,
  channelNames,
  type BridgeResult,
  type SessionView,
} from '#shared/bridge/contract';
import type { HubView, PairingLinkView, PairingResult } from '#shared/hub';
import type { SaleView } from '#shared/sales';
import { createCore, type Core } from '#main/core/create-core';
import { HUB_TLS_FILE } from '#main/hub/hub-certificate';
import type { Hub } from '#main/hub/hub-types';
import { startLanService, type LanService } from '#main/web/lan-service';
import { startWebShell, type WebShell } from '#main/web/web-server';
import { startJsonChild } from '#support/child-json';
import { freePort } from '#support/free-port';
import { hubRequest, openHubStream, PinMismatchError, type HubAnswer } from '#support/hub-client';
import { openSseStream } from '#support/sse-stream';

let dataDir: string;
let rendererDir: string;
let core: Core;
let shell: WebShell;
let lan: LanService;
let shellToken: string;

async function startLan(): Promise<LanService> {
  return startLanService({ core, rendererDir, dataDir, host: '127.0.0.1', port: 0, forceOn: true });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'till-hub-lan-'));
  rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
  core = await createCore({ dataDir, shell: 'browser', version: '1.2.3' });
  shell = await startWebShell({ core, rendererDir });
  shellToken = /#token=(.+)$/.exec(shell.url)?.[1] ?? '';
  lan = await startLan();
});

afterAll(async () => {
  await lan?.close();
  await shell?.close();
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A call at the hub itself (the loopback listener, the owner's shell token). */
async function owner<T>(channel: string, input: unknown = {}): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${shell.port}/api/call/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${shellToken}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as BridgeResult<T>;
  if (!body.ok) throw new Error(`${channel}: ${body.error.code} ${body.error.message}`);
  return body.value;
}

function lanUrl(): string {
  const url = lan.view().url;
  if (!url) throw new Error(`the LAN listener is not running: ${lan.view().problem ?? '?'}`);
  return url;
}

function fingerprint(): string {
  const found = lan.view().fingerprint;
  if (!found) throw new Error('no fingerprint: the LAN listener is off');
  return found;
}

/** The pairing link's code and fp. */
function linkParts(link: string): { readonly code: string; readonly fp: string } {
  const hash = new URL(link).hash;
  return {
    code: /[#&]code=([A-Za-z0-9_-]+)/.exec(hash)?.[1] ?? '',
    fp: /[#&]fp=([0-9a-f]+)/.exec(hash)?.[1] ?? '',
  };
}

function pair(code: string): Promise<HubAnswer> {
  return hubRequest(new URL('/api/pair', lanUrl()).href, {
    fingerprint: fingerprint(),
    body: { code },
  });
}

async function pairNew(name: string): Promise<PairingResult> {
  const link = await owner<PairingLinkView>('createPairingLink', { name });
  const answer = await pair(linkParts(link.url).code);
  expect(answer.status).toBe(200);
  return (answer.json as { ok: true; value: PairingResult }).value;
}

/** A counter's call over the LAN listener (its token; its session id once it has one). */
function counterCall(token: string, channel: string, input: unknown = {}, session?: string) {
  return hubRequest(new URL(`/api/call/${channel}`, lanUrl()).href, {
    fingerprint: fingerprint(),
    headers: {
      authorization: `Bearer ${token}`,
      ...(session ? { [SESSION_HEADER]: session } : {}),
    },
    body: input,
  });
}

function errorCode(answer: HubAnswer): string | null {
  const body = answer.json as BridgeResult<unknown> | undefined;
  return body && !body.ok ? body.error.code : null;
}

describe("the LAN listener's certificate", () => {
  it('is made once, pinned by its fingerprint, and the same after a restart of the listener', async () => {
    const first = fingerprint();
    expect(first).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    await lan.close();
    lan = await startLan();
    expect(fingerprint()).toBe(first);
    // The private key is on disk only encrypted by the core's secret box.
    const onDisk = readFileSync(join(dataDir, HUB_TLS_FILE), 'utf8');
    expect(onDisk).toContain('BEGIN CERTIFICATE');
    expect(onDisk).not.toContain('PRIVATE KEY');
  });

  it('serves the renderer to a client that pins it, with the same security headers', async () => {
    const page = await hubRequest(lanUrl(), { fingerprint: fingerprint() });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Transfer Till');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('is refused by a client that pinned another certificate, before any request is sent', async () => {
    const other = `${'AB:'.repeat(31)}AB`;
    await expect(hubRequest(lanUrl(), { fingerprint: other })).rejects.toBeInstanceOf(
      PinMismatchError,
    );
  });
});

describe('pairing a counter', () => {
  let front: PairingResult;

  it('gives a link with the code and the fingerprint, which pairs once', async () => {
    const link = await owner<PairingLinkView>('createPairingLink', { name: 'Front' });
    expect(link.url.startsWith(`${lanUrl()}#/pair&code=`)).toBe(true);
    const { code, fp } = linkParts(link.url);
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(fp).toBe(fingerprint().replaceAll(':', '').toLowerCase());
    expect(link.fingerprint).toBe(fingerprint());

    const answer = await pair(code);
    expect(answer.status).toBe(200);
    front = (answer.json as { ok: true; value: PairingResult }).value;
    expect(front.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(front.counter).toMatchObject({ name: 'Front' });
    expect(front.counter.tillId).toMatch(/^till-/);

    const again = await pair(code);
    expect(again.status).toBe(410);
    expect(errorCode(again)).toBe('PAIRING_USED');
    const unknown = await pair('A'.repeat(22));
    expect(unknown.status).toBe(400);
    expect(errorCode(unknown)).toBe('PAIRING_UNKNOWN');
    expect((await pair('')).status).toBe(400);
    const garbled = await hubRequest(new URL('/api/pair', lanUrl()).href, {
      fingerprint: fingerprint(),
      body: '{"code": ',
    });
    expect(garbled.status).toBe(400);
    expect(errorCode(garbled)).toBe('INVALID_INPUT');
  });

  it("the counter's token works: a cashier of its own till, without a cashier sign-in", async () => {
    const answer = await counterCall(front.token, 'getSession');
    expect(answer.status).toBe(200);
    const session = (answer.json as { ok: true; value: SessionView }).value;
    expect(session).toMatchObject({ role: 'cashier', counter: front.counter });
    const sale = await counterCall(front.token, 'createSale', { amount: '1,500' });
    expect(sale.status).toBe(200);
    expect((sale.json as { ok: true; value: SaleView }).value.tillId).toBe(front.counter.tillId);
    // The hub sees its last contact.
    const hub = await owner<HubView>('getHub');
    expect(hub.counters.find((c) => c.id === front.counter.id)?.lastContactAt).not.toBeNull();
  });

  it('cannot reach owner channels', async () => {
    for (const channel of [
      'getSettings',
      'getHub',
      'createPairingLink',
      'revokeCounter',
      'getZReport',
    ]) {
      const answer = await counterCall(front.token, channel, {});
      expect(answer.status, channel).toBe(403);
      expect(errorCode(answer), channel).toBe('FORBIDDEN');
    }
  });

  it('refuses the hub shell token, the display token and a made-up token on the LAN', async () => {
    const displayToken = /display=([A-Za-z0-9_-]+)/.exec(shell.displayUrl)?.[1] ?? '';
    for (const token of [shellToken, displayToken, 'made-up-token-000000000']) {
      const answer = await counterCall(token, 'getAppInfo');
      expect(answer.status).toBe(401);
      expect(errorCode(answer)).toBe('UNAUTHORISED');
    }
    const noToken = await hubRequest(new URL('/api/events', lanUrl()).href, {
      fingerprint: fingerprint(),
    });
    expect(noToken.status).toBe(401);
  });

  it("takes a counter's token on a call from the Authorization header only, not ?token=", async () => {
    const byQuery = await hubRequest(
      new URL(`/api/call/getSession?token=${front.token}`, lanUrl()).href,
      { fingerprint: fingerprint(), body: {} },
    );
    expect(byQuery.status).toBe(401);
    expect(errorCode(byQuery)).toBe('UNAUTHORISED');
    expect((await counterCall(front.token, 'getSession')).status).toBe(200);
  });

  it('answers only IP-literal Host headers with its port, and same-origin pages', async () => {
    const port = new URL(lanUrl()).port;
    for (const host of ['evil.example', `evil.example:${port}`, 'shop-hub.local', `127.0.0.1:1`]) {
      const answer = await hubRequest(lanUrl(), { fingerprint: fingerprint(), headers: { host } });
      expect(answer.status, host).toBe(421);
    }
    const ok = await hubRequest(lanUrl(), {
      fingerprint: fingerprint(),
      headers: { host: `localhost:${port}` },
    });
    expect(ok.status).toBe(200);
    const crossOrigin = await counterCall(front.token, 'getAppInfo');
    expect(crossOrigin.status).toBe(200);
    const evil = await hubRequest(new URL('/api/call/getAppInfo', lanUrl()).href, {
      fingerprint: fingerprint(),
      headers: { authorization: `Bearer ${front.token}`, origin: 'https://evil.example' },
      body: {},
    });
    expect(evil.status).toBe(403);
    const plainHttp = await hubRequest(new URL('/api/call/getAppInfo', lanUrl()).href, {
      fingerprint: fingerprint(),
      headers: { authorization: `Bearer ${front.token}`, origin: `http://127.0.0.1:${port}` },
      body: {},
    });
    expect(plainHttp.status).toBe(403);
  });

  it('shows as connected while its stream is open; revoking ends the stream and refuses it at once', async () => {
    const stream = await openHubStream(new URL('/api/events', lanUrl()).href, {
      fingerprint: fingerprint(),
      headers: { authorization: `Bearer ${front.token}` },
    });
    expect(stream.status).toBe(200);
    expect((await stream.next()).event).toBe('ready');
    expect(lan.connectedCounterIds().has(front.counter.id)).toBe(true);
    const before = await owner<HubView>('getHub');
    expect(before.counters.find((c) => c.id === front.counter.id)?.connected).toBe(true);

    await owner<HubView>('revokeCounter', { counterId: front.counter.id });
    await stream.ended();
    const refused = await counterCall(front.token, 'getAppInfo');
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({
      ok: false,
      error: {
        code: 'COUNTER_REVOKED',
        message: 'This counter was removed by the owner. Ask for a new pairing link.',
      },
    });
    const again = await hubRequest(new URL('/api/events', lanUrl()).href, {
      fingerprint: fingerprint(),
      headers: { authorization: `Bearer ${front.token}` },
    });
    expect(again.status).toBe(401);
    expect(errorCode(again)).toBe('COUNTER_REVOKED');
    expect(lan.connectedCounterIds().has(front.counter.id)).toBe(false);
  });

  it("hears its own till's sales on its stream, not the hub's", async () => {
    const back = await pairNew('Back');
    const stream = await openHubStream(new URL('/api/events', lanUrl()).href, {
      fingerprint: fingerprint(),
      headers: { authorization: `Bearer ${back.token}` },
    });
    expect((await stream.next()).event).toBe('ready');
    const hubSale = await owner<SaleView>('createSale', { amount: '700' });
    const own = await counterCall(back.token, 'createSale', { amount: '900' });
    const ownSale = (own.json as { ok: true; value: SaleView }).value;
    const frame = await stream.next();
    const event = JSON.parse(frame.data) as { type: string; payload: SaleView };
    expect(event.type).toBe('sale-changed');
    expect(event.payload.id).toBe(ownSale.id);
    expect(event.payload.id).not.toBe(hubSale.id);
    stream.close();
  });
});

describe("the customer display's token", () => {
  const displayToken = () => /display=([A-Za-z0-9_-]+)/.exec(shell.displayUrl)?.[1] ?? '';

  it('is in display_url, not the shell token', () => {
    expect(shell.displayUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/#\/display&display=[A-Za-z0-9_-]{22}$/,
    );
    expect(displayToken()).not.toBe(shellToken);
  });

  it('calls no channel at all: every one answers 403 DISPLAY_ONLY', async () => {
    for (const channel of channelNames) {
      const response = await fetch(`http://127.0.0.1:${shell.port}/api/call/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${displayToken()}` },
        body: '{}',
      });
      expect(response.status, channel).toBe(403);
      expect(await response.json(), channel).toMatchObject({
        ok: false,
        error: { code: 'DISPLAY_ONLY' },
      });
    }
  });

  it("gets display-state first, then only sale changes of the hub's own till", async () => {
    const settings = await owner<{ settings: { shop: { name: string; tillId: string } } }>(
      'getSettings',
    );
    const open = await owner<SaleView>('createSale', { amount: '2,500' });
    const stream = await openSseStream(`http://127.0.0.1:${shell.port}/api/events`, {
      authorization: `Bearer ${displayToken()}`,
    });
    const first = await stream.next();
    expect(first.id).toBeNull();
    const state = JSON.parse(first.data) as {
      type: string;
      payload: { shopName: string; tillId: string; sale: SaleView | null };
    };
    expect(state.type).toBe('display-state');
    expect(state.payload.shopName).toBe(settings.settings.shop.name);
    expect(state.payload.tillId).toBe(settings.settings.shop.tillId);
    expect(state.payload.sale?.id).toBe(open.id);
    expect((await stream.next()).event).toBe('ready');

    // Neither another till's sale, nor navigation or alerts, reach the display.
    const counter = await pairNew('Side');
    await counterCall(counter.token, 'createSale', { amount: '300' });
    core.events.emit({ type: 'navigate', payload: { route: 'settings' } });
    await owner('cancelSale', { saleId: open.id });
    const next = JSON.parse((await stream.next()).data) as { type: string; payload: SaleView };
    expect(next.type).toBe('sale-changed');
    expect(next.payload).toMatchObject({ id: open.id, state: 'cancelled' });

    // A new shop name reaches the display at once.
    await owner('updateSettings', { patch: { shop: { name: 'Mama Put Stores' } } });
    const renamed = JSON.parse((await stream.next()).data) as {
      type: string;
      payload: { shopName: string };
    };
    expect(renamed).toMatchObject({
      type: 'display-state',
      payload: { shopName: 'Mama Put Stores' },
    });
    stream.close();
  });
});

describe('turning the LAN listener on and off', () => {
  it('keeps the choice in Settings, and a port that is taken is a problem in words, not a crash', async () => {
    const off = await owner<HubView>('setLanListener', { enabled: false });
    expect(off.lan).toMatchObject({ enabled: false, running: false, url: null, fingerprint: null });
    expect(core.settings.get().hub.lanEnabled).toBe(false);
    const on = await owner<HubView>('setLanListener', { enabled: true });
    expect(on.lan).toMatchObject({ enabled: true, running: true, problem: null });
    expect(core.settings.get().hub.lanEnabled).toBe(true);

    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const taken = (blocker.address() as { port: number }).port;
    const spare = await startLanService({
      core,
      rendererDir,
      dataDir,
      host: '127.0.0.1',
      port: taken,
      hub: fakeHub(),
    });
    try {
      expect(spare.view()).toMatchObject({ enabled: true, running: false, port: taken, url: null });
      expect(spare.view().problem).toBe(
        `Port ${taken} is in use by another program. Choose another LAN port in Settings → Shop hub, or close that program.`,
      );
      expect(() => spare.pairingUrl('x')).toThrow(expect.objectContaining({ code: 'HUB_LAN_OFF' }));
    } finally {
      await spare.close();
      await new Promise((done) => blocker.close(done));
    }
  });

  it("follows Settings' LAN port when no port is given for the run", async () => {
    const [first, second] = [await freePort(), await freePort()];
    await owner('updateSettings', { patch: { hub: { lanPort: first } } });
    const own = await startLanService({
      core,
      rendererDir,
      dataDir,
      host: '127.0.0.1',
      forceOn: true,
      hub: fakeHub(),
    });
    try {
      expect(own.view()).toMatchObject({
        running: true,
        port: first,
        url: `https://127.0.0.1:${first}/`,
      });
      await owner('updateSettings', { patch: { hub: { lanPort: second } } });
      await expect
        .poll(() => own.view().url, { timeout: 5_000 })
        .toBe(`https://127.0.0.1:${second}/`);
      const page = await hubRequest(`https://127.0.0.1:${second}/`, { fingerprint: fingerprint() });
      expect(page.status).toBe(200);
      await expect(
        hubRequest(`https://127.0.0.1:${first}/`, { fingerprint: fingerprint() }),
      ).rejects.toThrow();
    } finally {
      await own.close();
    }
  });

  it('refuses a flood of wrong pairing codes from one address', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++)
      codes.push((await pair(`wrong-code-${String(i).padStart(12, '0')}`)).status);
    expect(codes.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });
});

/** A hub that knows no counter: for a second LAN service that must not touch the core's. */
function fakeHub(): Hub {
  return {
    attachLan: () => undefined,
    view: () => {
      throw new Error('not used');
    },
    createPairingLink: () => {
      throw new Error('not used');
    },
    pair: () => {
      throw new Error('not used');
    },
    resolveToken: () => ({ kind: 'unknown' }),
    touch: () => undefined,
    update: () => undefined,
    revoke: () => undefined,
    onRevoked: () => () => undefined,
    setLanEnabled: () => Promise.resolve(),
    moveLan: () => Promise.resolve(null),
    current: () => null,
  };
}

describe('npm run web -- --lan', () => {
  it('prints lan_url and a pairing_url that pairs, listening on loopback only', async () => {
    const childDir = mkdtempSync(join(tmpdir(), 'till-hub-web-'));
    const child = await startJsonChild<{ url: string; lan_url?: string; pairing_url?: string }>(
      'scripts/web.ts',
      [
        '--port',
        '0',
        '--data-dir',
        childDir,
        '--lan',
        '--lan-host',
        '127.0.0.1',
        '--lan-port',
        '0',
      ],
      { cwd: resolve(import.meta.dirname, '..'), timeoutMs: 120_000 },
    );
    try {
      const { lan_url: childLan, pairing_url: link } = child.first;
      expect(childLan).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
      expect(link?.startsWith(`${childLan ?? ''}#/pair&code=`)).toBe(true);
      const { code, fp } = linkParts(link ?? '');
      expect(fp).toMatch(/^[0-9a-f]{64}$/);
      const paired = await hubRequest(new URL('/api/pair', childLan).href, {
        fingerprint: fp,
        body: { code },
      });
      expect(paired.status).toBe(200);
      const result = (paired.json as { ok: true; value: PairingResult }).value;
      expect(result.counter.name).toBe('Counter 1');
      const session = await hubRequest(new URL('/api/call/getSession', childLan).href, {
        fingerprint: fp,
        headers: { authorization: `Bearer ${result.token}` },
        body: {},
      });
      expect(session.status).toBe(200);
      // The saved choice is unchanged by --lan.
      const settings = JSON.parse(readFileSync(join(childDir, 'settings.json'), 'utf8')) as {
        hub?: { lanEnabled: boolean };
      };
      expect(settings.hub?.lanEnabled ?? false).toBe(false);
    } finally {
      await child.stop();
      rmSync(childDir, { recursive: true, force: true });
    }
  }, 150_000);
});
