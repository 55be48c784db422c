/**
 * The hub under a curious cashier, over the real LAN listener (HTTPS on 127.0.0.1, pinned), with
 * a real core (embedded sandbox over HTTP, real SQLite file, real log file) and the browser shell
 * beside it: a counter's token cannot act on another till's sale (receipts included), cannot try
 * the owner PIN nor lock anyone out at the hub, and cannot write any secret into the hub's log.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HEADER, type BridgeResult, type SessionView } from '#shared/bridge/contract';
import type { PairingLinkView, PairingResult } from '#shared/hub';
import type { SaleView } from '#shared/sales';
import { OWNER_PIN_AT_HUB_MESSAGE } from '#main/auth/roles';
import { hubRequest, type HubAnswer } from '#support/hub-client';
import { startHubWorld, type HubWorld } from '#support/hub-world';

let world: HubWorld;
/** The hub's own page keeps its session, as the browser shell's page does. */
let hubSession: string | null = null;

beforeAll(async () => {
  world = await startHubWorld('hub-guards');
});

afterAll(async () => {
  await world?.close();
});

/** A call from the hub's own page (the loopback listener, the shell token, its session). */
async function atHub(channel: string, input: unknown = {}) {
  const response = await fetch(`http://127.0.0.1:${world.shell.port}/api/call/${channel}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${world.shellToken}`,
      ...(hubSession ? { [SESSION_HEADER]: hubSession } : {}),
    },
    body: JSON.stringify(input),
  });
  hubSession = response.headers.get(SESSION_HEADER);
  return { status: response.status, body: (await response.json()) as BridgeResult<unknown> };
}

async function owner<T>(channel: string, input: unknown = {}): Promise<T> {
  const { body } = await atHub(channel, input);
  if (!body.ok) throw new Error(`${channel}: ${body.error.code} ${body.error.message}`);
  return body.value as T;
}

function lanUrl(): string {
  const url = world.lan().view().url;
  if (!url)
    throw new Error(`the LAN listener is not running: ${world.lan().view().problem ?? '?'}`);
  return url;
}

const fingerprint = () => world.lan().view().fingerprint ?? '';

async function pairNew(name: string): Promise<PairingResult> {
  const link = await owner<PairingLinkView>('createPairingLink', { name });
  const code = /[#&]code=([A-Za-z0-9_-]+)/.exec(new URL(link.url).hash)?.[1] ?? '';
  const answer = await hubRequest(new URL('/api/pair', lanUrl()).href, {
    fingerprint: fingerprint(),
    body: { code },
  });
  expect(answer.status).toBe(200);
  return (answer.json as { ok: true; value: PairingResult }).value;
}

function counterCall(token: string, channel: string, input: unknown = {}): Promise<HubAnswer> {
  return hubRequest(new URL(`/api/call/${channel}`, lanUrl()).href, {
    fingerprint: fingerprint(),
    headers: { authorization: `Bearer ${token}` },
    body: input,
  });
}

function errorOf(answer: HubAnswer): { code: string; message: string } | null {
  const body = answer.json as BridgeResult<unknown> | undefined;
  return body && !body.ok ? body.error : null;
}

/** Every line of the hub's log files (main.log and any rotated one). */
function logText(): string {
  const dir = join(world.dataDir, 'logs');
  return readdirSync(dir)
    .filter((name) => name.startsWith('main.log'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}

describe('the hub under a curious cashier', () => {
  let front: PairingResult;
  let back: PairingResult;
  let frontSale: SaleView;
  let backSale: SaleView;

  beforeAll(async () => {
    front = await pairNew('Front');
    back = await pairNew('Back');
    frontSale = (
      (await counterCall(front.token, 'createSale', { amount: '1,200' })).json as {
        value: SaleView;
      }
    ).value;
    backSale = (
      (await counterCall(back.token, 'createSale', { amount: '800' })).json as { value: SaleView }
    ).value;
    expect(frontSale.tillId).toBe(front.counter.tillId);
  });

  it("cannot print, read or act on another till's sale, and a missing sale is not found", async () => {
    for (const channel of [
      'printReceipt',
      'getReceipt',
      'getSale',
      'customerSaysPaid',
      'cancelSale',
    ]) {
      const other = await counterCall(front.token, channel, { saleId: backSale.id });
      expect(other.status, channel).toBe(403);
      expect(errorOf(other), channel).toEqual({
        code: 'FORBIDDEN',
        message: 'This sale belongs to another till of the shop.',
      });
      const missing = await counterCall(front.token, channel, { saleId: 987_654 });
      expect(errorOf(missing), channel).toEqual({
        code: 'SALE_NOT_FOUND',
        message: 'Sale 987654 does not exist.',
      });
    }
    // Its own sale's receipt prints (with the page's dialog: a counter is not the desktop app).
    const own = await counterCall(front.token, 'printReceipt', { saleId: frontSale.id });
    expect(own.status).toBe(200);
    expect(own.json).toEqual({ ok: true, value: { mode: 'dialog', reason: 'not-desktop' } });
    // The owner at the hub is refused nothing but a missing sale.
    expect((await atHub('printReceipt', { saleId: backSale.id })).body.ok).toBe(true);
    expect((await atHub('printReceipt', { saleId: 987_654 })).body).toMatchObject({
      ok: false,
      error: { code: 'SALE_NOT_FOUND' },
    });
  });

  it('cannot write a counter token, pairing code, callback path token or display token into the log', async () => {
    const unused = await owner<PairingLinkView>('createPairingLink', { name: 'Door' });
    const pairingCode = /[#&]code=([A-Za-z0-9_-]+)/.exec(new URL(unused.url).hash)?.[1] ?? '';
    const displayToken = /[#&]display=([^&]+)/.exec(world.shell.displayUrl)?.[1] ?? '';
    // The callback path token, as the sandbox provider was given it for the sale's account.
    const { accounts } = (await (
      await fetch(`${world.core.sandboxControlUrl() ?? ''}/accounts`)
    ).json()) as { accounts: { callback_url: string | null }[] };
    const callbackUrl = accounts.map((account) => account.callback_url ?? '').find(Boolean) ?? '';
    const callbackToken = new URL(callbackUrl).pathname.split('/').filter(Boolean).at(-1) ?? '';
    const secrets = {
      frontToken: front.token,
      backToken: back.token,
      pairingCode,
      callbackToken,
      displayToken,
      shellToken: world.shellToken,
    };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    }
    expect(callbackUrl).toContain(`/${callbackToken}`);
    const all = Object.values(secrets).join(' ');
    const marker = `render-error-${Date.now()}`;
    const report = {
      screen: 'sale',
      message: `${marker} message ${all}`,
      stack: `Error: ${all}\n    at Sale (${lanUrl()}assets/index.js?token=${front.token}:1:2)`,
      componentStack: `in Sale (token ${back.token}, code ${pairingCode})`,
    };
    // From a counter over the LAN, and from the hub's own page on the loopback listener.
    const fromCounter = await counterCall(front.token, 'reportRendererError', report);
    expect(fromCounter.json).toEqual({ ok: true, value: { logged: true } });
    expect((await atHub('reportRendererError', report)).body).toEqual({
      ok: true,
      value: { logged: true },
    });

    const text = logText();
    const reported = text.split('\n').filter((line) => line.includes(marker));
    expect(reported).toHaveLength(2);
    for (const line of reported) expect(line).toContain('[redacted]');
    for (const [name, value] of Object.entries(secrets)) {
      expect(text.includes(value), `${name} is in the log`).toBe(false);
    }
  });

  it('cannot try the owner PIN from a counter, nor lock the owner out at the hub', async () => {
    const ownerPin = '482913';
    await owner<SessionView>('setOwnerPin', { pin: ownerPin });
    await owner<SessionView>('lock');
    const answers: HubAnswer[] = [];
    for (const pin of ['000000', '111111', '222222', '333333', '444444', '555555', ownerPin]) {
      answers.push(await counterCall(front.token, 'unlockOwner', { pin }));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(errorOf(answer)).toEqual({ code: 'FORBIDDEN', message: OWNER_PIN_AT_HUB_MESSAGE });
    }
    // At the hub, the first right PIN unlocks: nothing a counter sent counted.
    const unlocked = await atHub('unlockOwner', { pin: ownerPin });
    expect(unlocked.body).toMatchObject({ ok: true, value: { role: 'owner' } });
  });
});
