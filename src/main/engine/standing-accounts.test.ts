/**
 * Sales a hub makes for its paired counters (real sandbox, real SQLite, fake clock): each carries
 * the counter's till id, and its reference the counter's prefix, through a retry too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceGenerator, parseReference } from '#main/provider/references';
import { getSale, listSaleEvents } from '#main/store/sales-repo';
import { createHarness, TEST_SETTINGS, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const COUNTER_TILL = 'till-frnt';

describe("a counter's sale at the hub", () => {
  it("records the counter's till id and carries its prefix; the hub's own sales keep the hub's", async () => {
    h = await createHarness({
      live: true,
      references: createReferenceGenerator({
        prefix: 'TILL1',
        clock: () => h?.scheduler.now() ?? 0,
      }),
    });
    const counterSale = await h.engine.createSale({ amountKobo: 150_000, tillId: COUNTER_TILL });
    const hubSale = await h.engine.createSale({ amountKobo: 20_000 });
    expect(counterSale).toMatchObject({ state: 'awaiting_payment', tillId: COUNTER_TILL });
    expect(parseReference(counterSale.reference)?.tillPrefix).toBe('TILLFRNT');
    expect(hubSale.tillId).toBe(TEST_SETTINGS.tillId);
    expect(parseReference(hubSale.reference)?.tillPrefix).toBe('TILL1');

    // Paid like any sale: the counter's till id stays on the row the report reads.
    await h.transfer(counterSale.accountNumber ?? '', 1500);
    await h.settle();
    expect(getSale(h.db, counterSale.id)).toMatchObject({ state: 'paid', tillId: COUNTER_TILL });
  });

  it("keeps the counter's prefix when a taken reference makes the hub create again", async () => {
    const real = createReferenceGenerator({ prefix: 'TILL1' });
    const taken = real.next('sale', COUNTER_TILL);
    let first = true;
    h = await createHarness({
      live: true,
      references: {
        runId: real.runId,
        next: (kind, tillId) => (first ? ((first = false), taken) : real.next(kind, tillId)),
      },
    });
    // Another till of the shop (an earlier run) used the reference already: the provider says 409.
    await h.client.createVirtualAccount({
      reference: taken,
      accountName: 'Other run',
      merchantId: 'M',
      type: 'nonstatic',
      amountKobo: 100,
      expiryMinutes: 5,
      callbackUrl: 'http://127.0.0.1:9/',
    });
    const sale = await h.engine.createSale({ amountKobo: 40_000, tillId: COUNTER_TILL });
    expect(sale.state).toBe('awaiting_payment');
    expect(sale.reference).not.toBe(taken);
    expect(parseReference(sale.reference)?.tillPrefix).toBe('TILLFRNT');
    expect(listSaleEvents(h.db, sale.id).map((event) => event.toState)).toEqual([
      'creating',
      'creating',
      'awaiting_payment',
    ]);
  });
});
