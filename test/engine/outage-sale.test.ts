/**
 * Selling through an outage, against the real sandbox over HTTP: the till's standing account
 * for outages is made while the provider answers; when a sale cannot be created for lack of
 * connection (the client pointed at a closed port), a sale is taken on that account,
 * `unconfirmed`, asking for its amount plus a kobo tag, with no countdown and no checks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getOutageAccount } from '#main/store/accounts-repo';
import { listSaleEvents } from '#main/store/sales-repo';
import { outageSaleAllowed } from '#main/engine/outage-sales';
import { UNREACHABLE_EVIDENCE_MS } from '#main/engine/reach-evidence';
import { createHarness, type Harness, type HarnessOptions } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The link to the provider: down sends every request to a port nobody listens on. */
const link = { down: false };
const switchableFetch: typeof fetch = (input, init) => {
  if (!link.down) return fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  url.host = '127.0.0.1:9';
  return fetch(url, init);
};

async function till(options: HarnessOptions = {}): Promise<Harness> {
  link.down = false;
  h = await createHarness({ clientFetch: switchableFetch, ...options });
  return h;
}

describe('the standing account for outages', () => {
  it('is made once while online, a static-flex account kept in the store', async () => {
    const harness = await till();
    const first = await harness.engine.ensureOutageAccount();
    expect(first.made).toBe(true);
    expect(first.account).toMatchObject({ type: 'static-flex', purpose: 'outage' });
    expect(first.account.accountNumber).toMatch(/^\d{10}$/);
    const again = await harness.engine.ensureOutageAccount();
    expect(again).toMatchObject({ made: false, account: { id: first.account.id } });
    const { accounts } = (await harness.control('/accounts')) as {
      accounts: { account_number: string; type: string }[];
    };
    expect(accounts.filter((a) => a.account_number === first.account.accountNumber)).toEqual([
      expect.objectContaining({ type: 'static-flex' }),
    ]);
  });

  it('is not made while the provider cannot be reached, and nothing is kept', async () => {
    const harness = await till();
    link.down = true;
    await expect(harness.engine.ensureOutageAccount()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(getOutageAccount(harness.db)).toBeUndefined();
  });
});

describe('an outage sale', () => {
  it('is offered only after a create failed for lack of connection, and asks for an exact amount', async () => {
    const harness = await till();
    const { account } = await harness.engine.ensureOutageAccount();
    // The provider answers: refused (the owner has not allowed it by choice).
    expect(() => harness.engine.createOutageSale({ amountKobo: 150_000 })).toThrow(
      expect.objectContaining({ code: 'OUTAGE_SALE_NOT_ALLOWED' }),
    );

    link.down = true;
    const failed = await harness.engine.createSale({ amountKobo: 150_000 });
    expect(failed).toMatchObject({ state: 'failed_to_create', canRetry: true, offlineCause: true });

    const sale = harness.engine.createOutageSale({ amountKobo: 150_000, cashier: 'Ada' });
    expect(sale).toMatchObject({
      state: 'unconfirmed',
      amountKobo: 150_000,
      amountDueKobo: 150_001,
      accountNumber: account.accountNumber,
      bank: account.bank,
      accountName: account.accountName,
      expiresAt: null,
      outagePolicy: 'wait',
      outageAction: null,
      offlineCause: false,
    });
    const second = harness.engine.createOutageSale({ amountKobo: 150_000 });
    expect(second.amountDueKobo).toBe(150_002);
    // Never checked with the provider, never expired: no watch, and time changes nothing.
    expect(harness.engine.pollingCount()).toBe(0);
    await harness.advance(60 * 60_000);
    expect(harness.engine.getSale(sale.id).state).toBe('unconfirmed');
    expect(harness.saleEvents.at(-1)).toMatchObject({ id: second.id, state: 'unconfirmed' });
  });

  it('is refused once the evidence is old or the provider answered again', async () => {
    const harness = await till();
    await harness.engine.ensureOutageAccount();
    link.down = true;
    await harness.engine.createSale({ amountKobo: 50_000 });
    await harness.advance(UNREACHABLE_EVIDENCE_MS);
    expect(() => harness.engine.createOutageSale({ amountKobo: 50_000 })).toThrow(
      expect.objectContaining({ code: 'OUTAGE_SALE_NOT_ALLOWED' }),
    );
    await harness.engine.createSale({ amountKobo: 50_000 });
    expect(harness.engine.createOutageSale({ amountKobo: 50_000 }).state).toBe('unconfirmed');
    link.down = false;
    expect((await harness.engine.createSale({ amountKobo: 50_000 })).state).toBe(
      'awaiting_payment',
    );
    expect(() => harness.engine.createOutageSale({ amountKobo: 50_000 })).toThrow(
      expect.objectContaining({ code: 'OUTAGE_SALE_NOT_ALLOWED' }),
    );
  });

  it('a refusal from the provider is not a lack of connection', async () => {
    const harness = await till({ settings: { merchantId: '' } });
    const failed = await harness.engine.createSale({ amountKobo: 50_000 });
    expect(failed).toMatchObject({ state: 'failed_to_create', offlineCause: false });
  });

  it('is refused without the standing account, whatever the connection', async () => {
    const harness = await till({ settings: { outage: { policy: 'wait', allowByChoice: true } } });
    link.down = true;
    await harness.engine.createSale({ amountKobo: 50_000 });
    expect(() => harness.engine.createOutageSale({ amountKobo: 50_000 })).toThrow(
      expect.objectContaining({ code: 'OUTAGE_ACCOUNT_MISSING' }),
    );
  });

  it("is allowed by the owner's choice while the provider answers", async () => {
    const harness = await till({ settings: { outage: { policy: 'wait', allowByChoice: true } } });
    await harness.engine.ensureOutageAccount();
    expect(harness.engine.createOutageSale({ amountKobo: 70_000 }).amountDueKobo).toBe(70_001);
  });

  it("an injected reach answer decides, not the till's own evidence", async () => {
    let unreachable = true;
    const harness = await till({ providerUnreachable: () => unreachable });
    await harness.engine.ensureOutageAccount();
    // No create failed here: only the injected answer says the provider cannot be reached.
    expect(harness.engine.createOutageSale({ amountKobo: 30_000 }).state).toBe('unconfirmed');
    unreachable = false;
    expect(() => harness.engine.createOutageSale({ amountKobo: 30_000 })).toThrow(
      expect.objectContaining({ code: 'OUTAGE_SALE_NOT_ALLOWED' }),
    );
  });

  it('the one rule: the account first, then the reach or the owner', () => {
    const facts = { hasAccount: true, providerUnreachable: false, allowByChoice: false };
    expect(outageSaleAllowed(facts)).toBe('OUTAGE_SALE_NOT_ALLOWED');
    expect(outageSaleAllowed({ ...facts, providerUnreachable: true })).toBeNull();
    expect(outageSaleAllowed({ ...facts, allowByChoice: true })).toBeNull();
    expect(
      outageSaleAllowed({ hasAccount: false, providerUnreachable: true, allowByChoice: true }),
    ).toBe('OUTAGE_ACCOUNT_MISSING');
  });
});

describe('what the cashier did, recorded', () => {
  it('"Goods given" under the hand-over policy, "Keep waiting" under either; refused under wait', async () => {
    const policy = { policy: 'hand_over' as 'hand_over' | 'wait', allowByChoice: true };
    const harness = await till({ settings: { outage: policy } });
    await harness.engine.ensureOutageAccount();
    const sale = harness.engine.createOutageSale({ amountKobo: 20_000 });
    expect(sale.outagePolicy).toBe('hand_over');
    const waited = harness.engine.recordOutageAction(sale.id, 'keep_waiting', 'Ada');
    expect(waited).toMatchObject({ state: 'unconfirmed', outageAction: 'keep_waiting' });
    const given = harness.engine.recordOutageAction(sale.id, 'goods_given', 'Ada');
    expect(given).toMatchObject({ state: 'unconfirmed', outageAction: 'goods_given' });
    expect(listSaleEvents(harness.db, sale.id).map((event) => [event.cause, event.detail])).toEqual(
      [
        ['outage_sale', null],
        ['outage-keep-waiting', '{"by":"Ada"}'],
        ['outage-goods-given', '{"by":"Ada"}'],
      ],
    );
    expect(harness.saleEvents.at(-1)).toMatchObject({ outageAction: 'goods_given' });
  });

  it('refuses "Goods given" while the policy is to wait, and any record on another sale', async () => {
    const harness = await till({ settings: { outage: { policy: 'wait', allowByChoice: true } } });
    await harness.engine.ensureOutageAccount();
    const sale = harness.engine.createOutageSale({ amountKobo: 20_000 });
    expect(() => harness.engine.recordOutageAction(sale.id, 'goods_given', 'Ada')).toThrow(
      expect.objectContaining({ code: 'OUTAGE_HAND_OVER_OFF' }),
    );
    expect(harness.engine.getSale(sale.id).outageAction).toBeNull();
    const normal = await harness.engine.createSale({ amountKobo: 20_000 });
    expect(() => harness.engine.recordOutageAction(normal.id, 'keep_waiting', null)).toThrow(
      expect.objectContaining({ code: 'SALE_NOT_OPEN' }),
    );
    expect(normal).toMatchObject({ outagePolicy: null, outageAction: null, amountDueKobo: 20_000 });
  });
});
