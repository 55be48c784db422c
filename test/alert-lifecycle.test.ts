/**
 * Alerts a cashier can act on, in a real core (real SQLite file, the sandbox over HTTP beside
 * it): the header's count is Activity's list for every viewer (owner, cashier, paired counter),
 * and an alert closes itself, with a record, when its sale is resolved.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityView, BridgeResult, Caller } from '#shared/bridge/contract';
import { DEFAULT_LAN_PORT } from '#shared/hub';
import type { AlertView, SaleView } from '#shared/sales';
import { paidLateKey, type StatusView } from '#shared/views';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { tillDbPath } from '#main/config/data-files';
import { createCore, type Core } from '#main/core/create-core';
import type { LanControl } from '#main/hub/hub-types';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore } from '#main/settings/settings-store';
import { getAlert, raiseAlert, type AlertRow } from '#main/store/alerts-repo';
import { openDatabase, type Db } from '#main/store/database';
import { waitFor } from '#support/provider-contract';
import { sandboxTransfer, setSandboxPersonality } from '#support/web-till';

let core: Core;
let sandbox: SandboxProvider;
let dataDir: string;
/** A second connection to the till's own SQLite file: alerts the engine raises only after minutes. */
let db: Db;

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
  await setSandboxPersonality(sandbox.controlUrl, {
    expired_payments: 'accept',
    repeat_payments: 'accept',
  });
  dataDir = mkdtempSync(join(tmpdir(), 'till-alert-lifecycle-'));
  const settings = openNodeSettings(dataDir, '0.0.0-test');
  createSettingsStore(settings.backend).update({
    profiles: { sandbox: { sandboxUrl: sandbox.controlUrl } },
  });
  core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test', settings });
  core.hub.attachLan(lan);
  db = openDatabase({ path: tillDbPath(dataDir, 'sandbox') });
});

afterAll(async () => {
  db?.close();
  await core?.close();
  await sandbox?.close();
});

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

type Call = (channel: string, input?: unknown) => Promise<BridgeResult<unknown>>;

const callerCall =
  (caller: Caller): Call =>
  (channel, input = {}) =>
    dispatch(core.handlers, channel, input, () => undefined, caller);

const asOwner = callerCall(IN_PROCESS_OWNER);
const cashier = (name: string): Call =>
  callerCall({ role: 'cashier', name, sessionId: `session-${name}`, via: 'browser' });
const asAda = cashier('Ada');
const asBola = cashier('Bola');

async function pairCounter(name: string): Promise<Call> {
  const link = ok<{ url: string }>(await asOwner('createPairingLink', { name }));
  const { counter } = core.hub.pair(/code=([^&]+)/.exec(link.url)?.[1] ?? '');
  return callerCall({ role: 'cashier', name: null, sessionId: name, via: 'counter', counter });
}

/** What a viewer's header counts and what its Activity lists. */
async function seenBy(call: Call): Promise<{ count: number; listed: number[] }> {
  const status = ok<StatusView>(await call('getStatus'));
  const activity = ok<ActivityView>(await call('getActivity'));
  return { count: status.openAlerts, listed: activity.alerts.map((alert) => alert.id) };
}

function stillChecking(saleId: number): AlertRow {
  const row = raiseAlert(
    db,
    {
      level: 'warning',
      kind: 'poll_cap',
      saleId,
      message: `Sale #${saleId}: no confirmation yet; ask the customer to show the transfer receipt.`,
      dedupeKey: `poll_cap:${saleId}`,
    },
    core.now(),
  );
  if (!row) throw new Error('the alert was not raised');
  return row;
}

async function pay(sale: SaleView, naira: number): Promise<void> {
  await sandboxTransfer(sandbox.controlUrl, sale.accountNumber ?? '', naira);
}

const saleState = (call: Call, saleId: number) => async () =>
  ok<SaleView>(await call('getSale', { saleId })).state;

describe('the open-alert count and the list are one read, per viewer', () => {
  it('owner, cashier and paired counter each count exactly the alerts they can open', async () => {
    const front = await pairCounter('Front counter');
    const adaSale = ok<SaleView>(await asAda('createSale', { amount: '1,000' }));
    const bolaSale = ok<SaleView>(await asBola('createSale', { amount: '2,000' }));
    const counterSale = ok<SaleView>(await front('createSale', { amount: '3,000' }));
    const ada = stillChecking(adaSale.id);
    const bola = stillChecking(bolaSale.id);
    const atCounter = stillChecking(counterSale.id);
    const shop = raiseAlert(
      db,
      { level: 'warning', kind: 'tunnel_url_changed', message: 'The address changed.' },
      core.now(),
    );

    const owner = await seenBy(asOwner);
    expect(owner.listed).toEqual(
      expect.arrayContaining([ada.id, bola.id, atCounter.id, shop?.id ?? 0]),
    );
    expect(owner.count).toBe(owner.listed.length);
    for (const [call, mine] of [
      [asAda, ada.id],
      [asBola, bola.id],
      [front, atCounter.id],
    ] as const) {
      // Before: the header counted every open alert of the shop (4) while Activity listed 1.
      expect(await seenBy(call)).toEqual({ count: 1, listed: [mine] });
    }
    // A signed-out page (a customer display, a counter waiting for sign-in) counts none.
    expect(await seenBy(cashier(''))).toMatchObject({ count: 0 });
    const signedOut = ok<StatusView>(
      await callerCall({ role: 'cashier', name: null, sessionId: 'out', via: 'browser' })(
        'getStatus',
      ),
    );
    expect(signedOut.openAlerts).toBe(0);
    for (const id of [ada.id, bola.id, atCounter.id]) {
      expect(ok(await asOwner('acknowledgeAlert', { alertId: id }))).toEqual({
        acknowledged: true,
      });
    }
  });
});

describe('alerts close themselves when their sale is resolved, with a record', () => {
  it('"ask for the transfer receipt" closes when the sale is paid', async () => {
    const sale = ok<SaleView>(await asAda('createSale', { amount: '1,250' }));
    const alert = stillChecking(sale.id);
    const listed = ok<ActivityView>(await asAda('getActivity')).alerts;
    expect(listed.find((a) => a.id === alert.id)).toMatchObject({
      action: 'check-payment',
      saleId: sale.id,
    });
    await pay(sale, 1250);
    await waitFor(
      async () => (await saleState(asAda, sale.id)()) === 'paid',
      'the sale paid',
      5000,
    );
    expect(getAlert(db, alert.id)).toMatchObject({ closedBy: 'sale paid' });
    expect(getAlert(db, alert.id)?.acknowledgedAt).toBeGreaterThan(0);
    expect(await seenBy(asAda)).toEqual({ count: 0, listed: [] });
  });

  it('"still checking" closes when the sale is cancelled, and not before', async () => {
    const sale = ok<SaleView>(await asAda('createSale', { amount: '600' }));
    const alert = stillChecking(sale.id);
    ok(await asAda('customerSaysPaid', { saleId: sale.id }));
    expect(getAlert(db, alert.id)?.acknowledgedAt).toBeNull();
    ok(await asAda('cancelSale', { saleId: sale.id }));
    expect(getAlert(db, alert.id)).toMatchObject({ closedBy: 'sale cancelled' });
  });

  it('a late payment closes once "Gave the goods" is recorded', async () => {
    const sale = ok<SaleView>(await asAda('createSale', { amount: '1,500' }));
    ok(await asAda('cancelSale', { saleId: sale.id }));
    await pay(sale, 1500);
    await waitFor(
      async () => (await saleState(asAda, sale.id)()) === 'paid_late',
      'the sale paid late',
      5000,
    );
    const late = await waitFor(
      async () =>
        ok<ActivityView>(await asAda('getActivity')).alerts.find(
          (a) => a.saleId === sale.id && a.kind === 'paid_late',
        ),
      'the paid-late alert',
    );
    expect(late.action).toBe('settle-on-sale');
    ok(await asOwner('resolveException', { key: paidLateKey(sale.id), action: 'goods_given' }));
    expect(getAlert(db, late.id)).toMatchObject({ closedBy: 'recorded: Goods given by owner' });
    expect((await seenBy(asAda)).listed).not.toContain(late.id);
  });

  it('a second payment closes once its refund is recorded, and acknowledging records who', async () => {
    const sale = ok<SaleView>(await asBola('createSale', { amount: '3,000' }));
    await pay(sale, 3000);
    await waitFor(async () => (await saleState(asBola, sale.id)()) === 'paid', 'paid', 5000);
    await pay(sale, 3000);
    const twice = await waitFor(
      async () =>
        ok<ActivityView>(await asBola('getActivity')).alerts.find(
          (a: AlertView) => a.saleId === sale.id && a.kind === 'paid_twice',
        ),
      'the paid-twice alert',
      5000,
    );
    expect(twice.action).toBe('settle-on-sale');
    ok(
      await asOwner('resolveException', {
        key: `paid_twice:session:${twice.sessionId ?? ''}`,
        action: 'refunded',
        bankReference: 'REF-123',
      }),
    );
    expect(getAlert(db, twice.id)).toMatchObject({
      closedBy: 'recorded: Refunded by transfer by owner',
    });

    const other = ok<SaleView>(await asBola('createSale', { amount: '700' }));
    const alert = stillChecking(other.id);
    ok(await asBola('acknowledgeAlert', { alertId: alert.id }));
    expect(getAlert(db, alert.id)).toMatchObject({ closedBy: 'acknowledged by Bola' });
  });
});
