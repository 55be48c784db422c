/**
 * Roles over real HTTP: a real core (embedded sandbox, real SQLite) behind the browser shell in
 * --dev-clock mode. Sessions ride in the x-till-session header; main refuses what the caller's
 * role cannot use, the dev endpoints included.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SESSION_HEADER,
  type ActivityView,
  type BridgeResult,
  type SessionView,
} from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { AdjustableScheduler } from '#main/clock/scheduler';
import { createCore, type Core } from '#main/core/create-core';
import { startWebShell, type WebShell } from '#main/web/web-server';

let core: Core;
let shell: WebShell;
let base: string;
let token: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-web-roles-'));
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
  const devClock = new AdjustableScheduler();
  core = await createCore({ dataDir, shell: 'browser', version: '1.2.3', scheduler: devClock });
  shell = await startWebShell({ core, rendererDir, devClock });
  base = `http://127.0.0.1:${shell.port}`;
  token = /#token=(.+)$/.exec(shell.url)?.[1] ?? '';
});

afterAll(async () => {
  await shell?.close();
  await core?.close();
});

interface Answer<T> {
  readonly status: number;
  readonly session: string;
  readonly body: BridgeResult<T>;
}

/** One page (a browser tab): it keeps the session id main gives it, as the HTTP bridge does. */
function page() {
  let session: string | null = null;
  /** A POST as this page sends it: the shell's token and the page's session, if it has one. */
  function post(path: string, body: unknown): Promise<Response> {
    return fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(session ? { [SESSION_HEADER]: session } : {}),
      },
      body: JSON.stringify(body),
    });
  }
  async function call<T = unknown>(channel: string, input: unknown = {}): Promise<Answer<T>> {
    const response = await post(`/api/call/${channel}`, input);
    session = response.headers.get(SESSION_HEADER);
    return {
      status: response.status,
      session: session ?? '',
      body: (await response.json()) as BridgeResult<T>,
    };
  }
  async function ok<T>(channel: string, input: unknown = {}): Promise<T> {
    const answer = await call<T>(channel, input);
    if (!answer.body.ok) {
      throw new Error(`${channel}: ${answer.body.error.code} ${answer.body.error.message}`);
    }
    return answer.body.value;
  }
  /** A --dev-clock endpoint, in this page's session: its HTTP status. */
  async function dev(endpoint: 'advance-clock' | 'store-limit', body: unknown): Promise<number> {
    const response = await post(`/api/dev/${endpoint}`, body);
    await response.body?.cancel();
    return response.status;
  }
  return { call, ok, dev, session: () => session };
}

const OWNER_PIN = '482913';
const owner = page();
const ade = page();
const bola = page();
let adeSale: SaleView;
let bolaSale: SaleView;

describe('roles through the browser shell', () => {
  it('with no owner PIN every page is owner, and each answer names its session', async () => {
    const first = await owner.call<SessionView>('getSession');
    expect(first.status).toBe(200);
    expect(first.session).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.body).toMatchObject({ ok: true, value: { role: 'owner', ownerPinSet: false } });
    expect((await owner.call('getSettings')).status).toBe(200);
    // No PIN: the dev endpoints answer every page, a fresh one too.
    expect(await page().dev('advance-clock', { ms: 0 })).toBe(200);
    expect(await page().dev('store-limit', { limited: false })).toBe(200);
  });

  it('the owner adds cashiers and sets a PIN; a fresh page is then signed out', async () => {
    await owner.ok('updateSettings', { patch: { shop: { cashiers: ['Ade', 'Bola'] } } });
    const view = await owner.ok<SessionView>('setOwnerPin', { pin: OWNER_PIN });
    expect(view).toMatchObject({ role: 'owner', ownerPinSet: true });
    expect(view.ownerUntil).toBeGreaterThan(Date.now());
    expect(JSON.stringify(view)).not.toContain(OWNER_PIN);

    const stranger = page();
    expect(await stranger.ok<SessionView>('getSession')).toMatchObject({
      role: 'cashier',
      name: null,
      cashiers: [
        { name: 'Ade', pinSet: false },
        { name: 'Bola', pinSet: false },
      ],
    });
    expect((await stranger.call('getAppInfo')).status).toBe(200);
    const sale = await stranger.call('createSale', { amount: '100' });
    expect(sale.status).toBe(403);
    expect(sale.body).toMatchObject({ ok: false, error: { code: 'SIGNED_OUT' } });
    const settings = await stranger.call('getSettings');
    expect(settings.status).toBe(403);
    expect(settings.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('with an owner PIN only an owner session may move the dev clock or fill the disk', async () => {
    const before = core.now();
    const signedOut = page();
    expect(await signedOut.dev('advance-clock', { ms: 60_000 })).toBe(403);
    expect(await signedOut.dev('store-limit', { limited: true })).toBe(403);
    const cashier = page();
    await cashier.ok('signIn', { name: 'Bola' });
    expect(await cashier.dev('advance-clock', { ms: 60_000 })).toBe(403);
    expect(await cashier.dev('store-limit', { limited: true })).toBe(403);
    // Nothing moved, nothing filled.
    expect(core.now() - before).toBeLessThan(60_000);
    expect((await owner.call('getStatus')).body).toMatchObject({
      ok: true,
      value: { storeSpace: { full: false } },
    });
    expect(await owner.dev('store-limit', { limited: false })).toBe(200);
    expect(await owner.dev('advance-clock', { ms: 1_000 })).toBe(200);
  });

  it('a cashier session sells under its own name and cannot reach owner channels', async () => {
    expect(await ade.ok<SessionView>('signIn', { name: 'ade' })).toMatchObject({
      role: 'cashier',
      name: 'Ade',
    });
    // The input's cashier field cannot put the sale under another name.
    adeSale = await ade.ok<SaleView>('createSale', { amount: '1,500', cashier: 'Bola' });
    expect(adeSale).toMatchObject({ cashier: 'Ade', state: 'awaiting_payment' });

    const refused: [string, unknown][] = [
      ['getSettings', {}],
      ['getBalance', {}],
      ['exportCsv', {}],
      ['getZReport', {}],
      ['listTransactions', {}],
      ['syncTransactions', {}],
      ['checkPayout', { amount: '100' }],
      ['updateSettings', { patch: { shop: { name: 'Mine now' } } }],
      ['getSecrets', { environment: 'staging' }],
      ['setSecret', { scope: 'staging', name: 'secretKey', value: 'sk_live_stolen_key_0001' }],
      ['createStandingAccount', { type: 'static-flex' }],
      ['setOwnerPin', { pin: '0000', currentPin: OWNER_PIN }],
      ['setCashierPin', { name: 'Ade', pin: '1111' }],
      ['resolveException', { key: 'x', action: 'goods_given' }],
    ];
    for (const [channel, input] of refused) {
      const answer = await ade.call(channel, input);
      expect(answer.status, channel).toBe(403);
      expect(answer.body, channel).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    // Nothing changed behind the refusals.
    const settings = await owner.ok<{ settings: { shop: { name: string } } }>('getSettings');
    expect(settings.settings.shop.name).not.toBe('Mine now');
  });

  it("cashiers see only their own sales, and cannot touch each other's", async () => {
    await bola.ok('signIn', { name: 'Bola' });
    bolaSale = await bola.ok<SaleView>('createSale', { amount: '2000' });
    const bolaActivity = await bola.ok<ActivityView>('getActivity');
    expect(bolaActivity.sales.map((s) => s.id)).toEqual([bolaSale.id]);
    expect(bolaActivity.standingAccounts).toEqual([]);

    for (const channel of [
      'getSale',
      'cancelSale',
      'customerSaysPaid',
      'retrySale',
      'getReceipt',
    ]) {
      const answer = await bola.call(channel, { saleId: adeSale.id });
      expect(answer.status, channel).toBe(403);
      expect(answer.body, channel).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(await ade.ok<SaleView>('getSale', { saleId: adeSale.id })).toMatchObject({
      id: adeSale.id,
      state: 'awaiting_payment',
    });

    const ownerActivity = await owner.ok<ActivityView>('getActivity');
    expect(ownerActivity.sales.map((s) => s.id).sort()).toEqual([adeSale.id, bolaSale.id].sort());
  });

  it("a cashier's event stream carries their own sales, not another cashier's", async () => {
    const controller = new AbortController();
    const response = await fetch(
      `${base}/api/events?token=${token}&session=${ade.session() ?? ''}`,
      { signal: controller.signal },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // ": connected"
    await bola.ok('cancelSale', { saleId: bolaSale.id });
    await ade.ok('cancelSale', { saleId: adeSale.id });
    let text = '';
    while (!text.includes(`"id":${adeSale.id},`)) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('"cashier":"Ade"');
    expect(text).not.toContain('"cashier":"Bola"');
  });

  it('owner unlock from a cashier page: the same page becomes owner until Lock', async () => {
    const unlocked = await ade.ok<SessionView>('unlockOwner', { pin: OWNER_PIN });
    expect(unlocked).toMatchObject({ role: 'owner', name: 'Ade' });
    expect((await ade.call('getSettings')).status).toBe(200);
    expect(await ade.ok<SessionView>('lock')).toMatchObject({ role: 'cashier', name: 'Ade' });
    expect((await ade.call('getSettings')).status).toBe(403);
  });

  it('a made-up or foreign session id gets a fresh signed-out session', async () => {
    const forged = await fetch(`${base}/api/call/getSession`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        [SESSION_HEADER]: 'made-up-session-id',
      },
      body: '{}',
    });
    expect(forged.headers.get(SESSION_HEADER)).not.toBe('made-up-session-id');
    expect(await forged.json()).toMatchObject({ ok: true, value: { role: 'cashier', name: null } });
    // Without the shell token nothing is reachable, session or not.
    const noToken = await fetch(`${base}/api/call/getSession`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SESSION_HEADER]: ade.session() ?? '' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);
  });

  it('refuses a wrong owner PIN and locks PIN entry after five', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await ade.call('unlockOwner', { pin: '000000' });
      codes.push(answer.body.ok ? 'OK' : answer.body.error.code);
    }
    expect(codes).toEqual(['WRONG_PIN', 'WRONG_PIN', 'WRONG_PIN', 'WRONG_PIN', 'LOCKED_OUT']);
    const right = await ade.call('unlockOwner', { pin: OWNER_PIN });
    expect(right.body).toMatchObject({ ok: false, error: { code: 'LOCKED_OUT' } });
    expect((await ade.call('getSettings')).status).toBe(403);
  });

  it('moving the dev clock two hours does not lift the lock-out: it counts in real time', async () => {
    expect((await ade.call('unlockOwner', { pin: '000000' })).body).toMatchObject({
      ok: false,
      error: { code: 'LOCKED_OUT' },
    });
    expect(await owner.dev('advance-clock', { ms: 2 * 60 * 60_000 })).toBe(200);
    const right = await ade.call('unlockOwner', { pin: OWNER_PIN });
    expect(right.body).toMatchObject({
      ok: false,
      error: { code: 'LOCKED_OUT', message: expect.stringContaining('1 minute') as unknown },
    });
  });
});
