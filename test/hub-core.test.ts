/**
 * The shop hub inside a real core (embedded sandbox over HTTP, real SQLite file, real webhook
 * listener): what a paired counter may do, see and hear. The counter's calls come in as the LAN
 * listener makes them (a 'counter' session request carrying the counter its token resolved to);
 * the listener itself is the shell's and is tested with it. The sandbox runs beside the core
 * (the SANDBOX profile's sandboxUrl), so that the test can also pay in as another system would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessOf,
  channelNames,
  type ActivityView,
  type BridgeEvent,
  type BridgeResult,
  type Caller,
} from '#shared/bridge/contract';
import { DEFAULT_LAN_PORT, type CounterIdentity, type HubView } from '#shared/hub';
import type { SaleView } from '#shared/sales';
import { referencePrefix } from '#shared/till-id';
import type { ReceiptView, StatusView, ZReportView } from '#shared/views';
import type { SessionRequest } from '#main/auth/sessions';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import type { LanControl } from '#main/hub/hub-types';
import { createProviderClient } from '#main/provider/client';
import { createReferenceGenerator } from '#main/provider/references';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore } from '#main/settings/settings-store';
import { waitFor } from '#support/provider-contract';
import { sandboxTransfer } from '#support/web-till';

let core: Core;
let sandbox: SandboxProvider;
const events: BridgeEvent[] = [];

/** The shell's LAN listener, as the core sees it: running, with no counter streaming. */
const lan: LanControl = {
  view: () => ({
    enabled: true,
    running: true,
    url: 'https://127.0.0.1:7443/',
    port: DEFAULT_LAN_PORT,
    fingerprint: 'AB:'.repeat(31) + 'AB',
    problem: null,
    addresses: [],
    setForThisRun: false,
  }),
  setEnabled: () => Promise.resolve(lan.view()),
  pairingUrl: (code) => `https://127.0.0.1:7443/#/pair&code=${code}&fp=${'AB'.repeat(32)}`,
  connectedCounterIds: () => new Set(),
  moveTo: () => Promise.resolve(null),
};

beforeAll(async () => {
  sandbox = await startSandboxProvider({ onError: () => undefined });
  const dataDir = mkdtempSync(join(tmpdir(), 'till-hub-core-'));
  const settings = openNodeSettings(dataDir, '0.0.0-test');
  createSettingsStore(settings.backend).update({
    profiles: { sandbox: { sandboxUrl: sandbox.controlUrl } },
  });
  core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test', settings });
  core.events.subscribe((event) => events.push(event));
  core.hub.attachLan(lan);
});

afterAll(async () => {
  await core?.close();
  await sandbox?.close();
});

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

const asOwner = (channel: string, input: unknown = {}) =>
  dispatch(core.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);

/** A counter's page: it pairs through a link, then calls with its session as the listener does. */
async function pairCounter(name: string) {
  const link = ok<{ url: string }>(await asOwner('createPairingLink', { name }));
  const code = /code=([^&]+)/.exec(link.url)?.[1] ?? '';
  const { token, counter } = core.hub.pair(code);
  let sessionId: string | null = null;
  const request = (): SessionRequest => {
    const resolved = core.hub.resolveToken(token);
    if (resolved.kind !== 'counter') throw new Error(`the token resolved to ${resolved.kind}`);
    return {
      sessionId,
      via: 'counter',
      boundTo: `counter:${counter.id}`,
      counter: resolved.counter,
    };
  };
  async function call(channel: string, input: unknown = {}): Promise<BridgeResult<unknown>> {
    const caller: Caller = core.auth.callerFor(request(), channel);
    sessionId = caller.sessionId;
    return dispatch(core.handlers, channel, input, () => undefined, caller);
  }
  /** Whether this counter's event stream would carry the event now. */
  const hears = (event: BridgeEvent) =>
    core.auth.eventVisibleTo(event, core.auth.viewerFor({ ...request(), sessionId }));
  return { token, counter, call, hears };
}

function saleEvents(saleId: number): BridgeEvent[] {
  return events.filter(
    (event) =>
      (event.type === 'sale-changed' && event.payload.id === saleId) ||
      ((event.type === 'inflow' || event.type === 'alert') && event.payload.saleId === saleId),
  );
}

describe('a paired counter at a real hub', () => {
  let front: Awaited<ReturnType<typeof pairCounter>>;
  let back: Awaited<ReturnType<typeof pairCounter>>;
  let frontSale: SaleView;
  let hubSale: SaleView;

  beforeAll(async () => {
    front = await pairCounter('Front counter');
    back = await pairCounter('Back counter');
    hubSale = ok<SaleView>(await asOwner('createSale', { amount: '200' }));
  });

  it('cannot call any owner channel, whatever the channel', async () => {
    const ownerChannels = channelNames.filter((name) => accessOf(name) === 'owner');
    expect(ownerChannels).toEqual(
      expect.arrayContaining(['getHub', 'revokeCounter', 'getSettings']),
    );
    for (const name of ownerChannels) {
      expect(await front.call(name, {}), name).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    }
  });

  it('sells without a cashier sign-in: the sale carries its till id and its prefix', async () => {
    const session = ok<{ counter: CounterIdentity | null; role: string }>(
      await front.call('getSession'),
    );
    expect(session).toMatchObject({ role: 'cashier', counter: front.counter });
    frontSale = ok<SaleView>(await front.call('createSale', { amount: '1,500', cashier: 'Ade' }));
    expect(frontSale).toMatchObject({
      state: 'awaiting_payment',
      tillId: front.counter.tillId,
      // Nobody signed in at the counter: no cashier is recorded, whatever the page sent.
      cashier: null,
    });
    expect(frontSale.reference.startsWith(`${referencePrefix(front.counter.tillId)}-`)).toBe(true);
    const status = ok<StatusView>(await front.call('getStatus'));
    expect(status.tillId).toBe(front.counter.tillId);
    expect(ok<StatusView>(await asOwner('getStatus')).tillId).not.toBe(front.counter.tillId);
  });

  it("acts on its own till's sales only", async () => {
    expect(ok<SaleView>(await front.call('getSale', { saleId: frontSale.id })).id).toBe(
      frontSale.id,
    );
    for (const channel of [
      'getSale',
      'cancelSale',
      'customerSaysPaid',
      'retrySale',
      'getReceipt',
      'printReceipt',
    ] as const) {
      expect(await front.call(channel, { saleId: hubSale.id }), channel).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'This sale belongs to another till of the shop.' },
      });
      expect(await back.call(channel, { saleId: frontSale.id }), channel).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
      // A sale that does not exist is not found, for a counter as for the owner.
      for (const call of [front.call, asOwner]) {
        expect(await call(channel, { saleId: 999_999 }), channel).toMatchObject({
          ok: false,
          error: { code: 'SALE_NOT_FOUND', message: 'Sale 999999 does not exist.' },
        });
      }
    }
    // Even a caller built by hand that claims owner is a cashier when it comes from a counter.
    const claimingOwner: Caller = {
      role: 'owner',
      name: null,
      sessionId: 'by-hand',
      via: 'counter',
      counter: front.counter,
    };
    expect(
      await dispatch(
        core.handlers,
        'getSale',
        { saleId: hubSale.id },
        () => undefined,
        claimingOwner,
      ),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const activity = ok<ActivityView>(await front.call('getActivity'));
    expect(activity.sales.map((sale) => sale.id)).toEqual([frontSale.id]);
    expect(ok<ActivityView>(await back.call('getActivity')).sales).toEqual([]);
    const receipt = ok<ReceiptView>(await front.call('getReceipt', { saleId: frontSale.id }));
    expect(receipt.tillId).toBe(front.counter.tillId);
  });

  it("hears its own sale paid, and nothing of the hub's or the other counter's sales", async () => {
    const controlUrl = core.sandboxControlUrl() ?? '';
    await sandboxTransfer(controlUrl, frontSale.accountNumber ?? '', 1500);
    await sandboxTransfer(controlUrl, hubSale.accountNumber ?? '', 200);
    await waitFor(
      () =>
        [frontSale.id, hubSale.id].every((id) =>
          events.some(
            (event) =>
              event.type === 'sale-changed' &&
              event.payload.id === id &&
              event.payload.state === 'paid',
          ),
        ),
      'both sales paid',
      10_000,
    );
    await core.idle();
    const own = saleEvents(frontSale.id);
    expect(own.map((event) => event.type)).toEqual(
      expect.arrayContaining(['sale-changed', 'inflow']),
    );
    for (const event of own) {
      expect(front.hears(event), event.type).toBe(true);
      expect(back.hears(event), event.type).toBe(false);
    }
    const hubs = saleEvents(hubSale.id);
    expect(hubs.length).toBeGreaterThan(0);
    for (const event of hubs) expect(front.hears(event), event.type).toBe(false);
    expect(front.hears({ type: 'navigate', payload: { route: 'settings' } })).toBe(false);
  });

  it("counts a counter's paid sale on its own line of the hub's report, not as the hub's", async () => {
    const report = ok<ZReportView>(await asOwner('getZReport', {}));
    const line = report.shop.otherTills.find(
      (till) => till.tillPrefix === referencePrefix(front.counter.tillId),
    );
    expect(line).toMatchObject({ counterName: 'Front counter', count: 1, amountKobo: 150_000 });
    expect(report.shop.thisTill).toEqual({ count: 1, amountKobo: 20_000 });
    expect(report.shop.shopTotal).toEqual({ count: 2, amountKobo: 170_000 });
    expect(report.byTill).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tillId: front.counter.tillId, count: 1, amountKobo: 150_000 }),
      ]),
    );
  });

  it("names the counter's till in the hub's Z-report", async () => {
    // Money the counter's till made that this database does not hold (a restored backup, say):
    // the merchant-wide listing brings it in, and the shop view counts it by its prefix.
    const outside = createProviderClient({
      baseUrl: sandbox.baseUrl,
      payoutBaseUrl: sandbox.payoutBaseUrl,
      secretKey: sandbox.secretKey,
      accessToken: sandbox.accessToken,
    });
    const account = await outside.createVirtualAccount({
      reference: createReferenceGenerator().next('sale', front.counter.tillId),
      accountName: 'Mama Put Store',
      merchantId: 'SANDBOX-MERCHANT',
      type: 'nonstatic',
      amountKobo: 70_000,
      expiryMinutes: 15,
      callbackUrl: 'http://127.0.0.1:9/',
    });
    await sandboxTransfer(sandbox.controlUrl, account.accountNumber, 700);
    const before = events.length;
    ok(await asOwner('syncTransactions', { mode: 'full' }));
    await waitFor(
      () => events.slice(before).some((event) => event.type === 'sync-finished'),
      'the sync',
      10_000,
    );

    const report = ok<ZReportView>(await asOwner('getZReport', {}));
    const line = report.shop.otherTills.find(
      (till) => till.tillPrefix === referencePrefix(front.counter.tillId),
    );
    expect(line).toMatchObject({ counterName: 'Front counter' });
    expect(line?.amountKobo).toBeGreaterThanOrEqual(70_000);
    // No other line carries a counter's name (the back counter took no money).
    expect(report.shop.otherTills.filter((till) => till.counterName !== undefined)).toHaveLength(1);
  });

  it("keeps the hub's own till id off a live counter's prefix", async () => {
    const clash = front.counter.tillId.toUpperCase();
    expect(await asOwner('updateSettings', { patch: { shop: { tillId: clash } } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_SETTINGS', field: 'shop.tillId' },
    });
    expect(ok<StatusView>(await asOwner('getStatus')).tillId).not.toBe(clash);
  });

  it('is refused at once when revoked, and its stream hears nothing more', async () => {
    const paid = saleEvents(frontSale.id)[0];
    if (!paid) throw new Error("no event of the counter's sale");
    const viewer = core.auth.viewerFor({
      sessionId: null,
      via: 'counter',
      boundTo: `counter:${front.counter.id}`,
      counter: front.counter,
    });
    expect(core.auth.eventVisibleTo(paid, viewer)).toBe(true);
    const hub = ok<HubView>(await asOwner('revokeCounter', { counterId: front.counter.id }));
    expect(
      hub.counters.find((counter) => counter.id === front.counter.id)?.revokedAt,
    ).not.toBeNull();
    expect(core.hub.resolveToken(front.token)).toEqual({
      kind: 'revoked',
      counterId: front.counter.id,
    });
    // A stream opened before the revocation: the shell ends it, and until then it hears nothing.
    expect(core.auth.eventVisibleTo(paid, viewer)).toBe(false);
    expect(core.hub.resolveToken(back.token)).toMatchObject({ kind: 'counter' });
  });
});
