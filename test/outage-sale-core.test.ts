/**
 * Selling through an outage in main, on a real core (real SQLite, the embedded sandbox): the
 * first start online makes the till's standing account for outages, "Check everything" says it
 * is ready, the owner's outage settings are the owner's alone, and `createOutageSale` is the
 * cashier's as `createSale` is (a paired counter's too: dispatch.test.ts), refused while the provider answers unless
 * the owner allows it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeResult, Caller } from '#shared/bridge/contract';
import type { GoLiveCheckView } from '#shared/go-live';
import type { SaleView } from '#shared/sales';
import type { StandingAccountView } from '#shared/views';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';

const cashier: Caller = { role: 'cashier', name: 'Ade', sessionId: 's-ade', via: 'browser' };
const counter: Caller = {
  role: 'cashier',
  name: null,
  sessionId: 's-counter',
  via: 'counter',
  counter: { id: 1, name: 'Front counter', tillId: 'till-frnt' },
};

const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start() {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-outage-core-'));
  dirs.push(dataDir);
  const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test' });
  cores.push(core);
  const call = (channel: string, input: unknown = {}, caller: Caller = IN_PROCESS_OWNER) =>
    dispatch(core.handlers, channel, input, () => undefined, caller);
  return { core, call };
}

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function outageAccount(call: Awaited<ReturnType<typeof start>>['call']) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const account = ok<StandingAccountView | null>(await call('getOutageAccount'));
    if (account) return account;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the standing account for outages was never made');
}

describe('selling through an outage (main)', () => {
  it('the first start online makes the standing account; Check everything says it is ready', async () => {
    const { call } = await start();
    const account = await outageAccount(call);
    expect(account).toMatchObject({ type: 'static-flex' });
    expect(account.accountNumber).toMatch(/^\d{10}$/);
    const check = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'sandbox' }));
    const line = check.lines.find((candidate) => candidate.check === 'outage-account');
    expect(line).toMatchObject({ ok: true, title: 'Standing account for outages' });
    expect(line?.message).toContain(`Ready: ${account.accountNumber} at ${account.bank ?? ''}`);
    // Still the one account: the check found it, it did not make another.
    expect(ok<StandingAccountView>(await call('getOutageAccount')).id).toBe(account.id);
    expect(await call('getOutageAccount', {}, cashier)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });

  it("the outage settings are the owner's; the cashier's outage sale follows the owner's choice", async () => {
    const { call } = await start();
    const account = await outageAccount(call);
    // The provider answers and the owner has not allowed it: refused, in words.
    expect(await call('createOutageSale', { amount: '1500' }, cashier)).toMatchObject({
      ok: false,
      error: { code: 'OUTAGE_SALE_NOT_ALLOWED' },
    });
    const patch = { outage: { allowByChoice: true, policy: 'hand_over' } };
    for (const caller of [cashier, counter]) {
      expect(await call('updateSettings', { patch }, caller)).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    }
    expect(await call('updateSettings', { patch: { outage: { policy: 'later' } } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_SETTINGS', field: 'outage.policy' },
    });
    ok(await call('updateSettings', { patch }));

    const sale = ok<SaleView>(await call('createOutageSale', { amount: '1,500' }, cashier));
    expect(sale).toMatchObject({
      state: 'unconfirmed',
      amountKobo: 150_000,
      amountDueKobo: 150_001,
      accountNumber: account.accountNumber,
      expiresAt: null,
      cashier: 'Ade',
      outagePolicy: 'hand_over',
    });
    const owners = ok<SaleView>(await call('createOutageSale', { amount: '1500' }));
    expect(owners).toMatchObject({ amountDueKobo: 150_002, cashier: null });
    expect(
      ok<SaleView>(
        await call('recordOutageAction', { saleId: sale.id, action: 'goods_given' }, cashier),
      ),
    ).toMatchObject({ state: 'unconfirmed', outageAction: 'goods_given' });
    // Another person's outage sale is not the cashier's to record on.
    expect(
      await call('recordOutageAction', { saleId: owners.id, action: 'goods_given' }, cashier),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await call('createOutageSale', { amount: 'abc' }, cashier)).toMatchObject({
      ok: false,
    });
  });
});
