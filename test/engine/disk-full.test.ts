/**
 * A full disk on the engine's write path: a real SQLite file limited with PRAGMA max_page_count,
 * the sandbox provider over real HTTP (its callbacks too), a fake clock only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listInflowsForReference } from '#main/store/inflows-repo';
import { getSale } from '#main/store/sales-repo';
import { liftStoreGrowthLimit, limitStoreGrowth } from '#main/store/store-space';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECOND = 1_000;

function space(harness: Harness) {
  if (!harness.storeSpace) throw new Error('the harness was made without a store space');
  return harness.storeSpace;
}

async function accountsIssued(harness: Harness): Promise<number> {
  return ((await harness.control('/accounts')) as unknown[]).length;
}

describe('a full disk loses nothing', () => {
  it('refuses new sales, keeps watching, shows paid only once stored, resumes when space returns', async () => {
    const harness = (h = await createHarness({ live: true, storeSpace: true }));
    const sale = await harness.engine.createSale({ amountKobo: 250_000 });
    expect(sale.state).toBe('awaiting_payment');

    limitStoreGrowth(harness.db);
    expect(space(harness).probe()).toBe(false);
    expect(space(harness).isFull()).toBe(true);

    // A new sale is refused before the provider is asked for an account.
    const issued = await accountsIssued(harness);
    await expect(harness.engine.createSale({ amountKobo: 10_000 })).rejects.toMatchObject({
      code: 'DISK_FULL',
      message: expect.stringContaining("The till's disk is full: free some space") as unknown,
    });
    expect(await accountsIssued(harness)).toBe(issued);

    // The customer pays; the callback comes and the checks run, but nothing can be stored.
    await harness.transfer(sale.accountNumber ?? '', 2_500);
    await harness.advance(20 * SECOND);
    expect(harness.callbacks.length).toBeGreaterThan(0);
    expect(getSale(harness.db, sale.id)?.state).toBe('awaiting_payment');
    expect(listInflowsForReference(harness.db, sale.reference)).toEqual([]);
    expect(harness.saleEvents.filter((view) => view.state === 'paid')).toEqual([]);
    // Still watched: the next checks retry the write.
    expect(harness.engine.pollingCount()).toBe(1);
    await harness.advance(60 * SECOND);
    expect(harness.engine.pollingCount()).toBe(1);
    expect(harness.saleEvents.filter((view) => view.state === 'paid')).toEqual([]);

    // Space returns: the next check stores the payment, and only then is it published.
    liftStoreGrowthLimit(harness.db);
    await harness.advance(20 * SECOND);
    const stored = getSale(harness.db, sale.id);
    expect(stored?.state).toBe('paid');
    expect(space(harness).isFull()).toBe(false);
    const paidEvents = harness.saleEvents.filter((view) => view.state === 'paid');
    expect(paidEvents.map((view) => view.id)).toEqual([sale.id]);
    expect(
      listInflowsForReference(harness.db, sale.reference).map((row) => row.amountKobo),
    ).toEqual([250_000]);

    // New sales start again.
    const next = await harness.engine.createSale({ amountKobo: 10_000 });
    expect(next.state).toBe('awaiting_payment');
  });
});
