import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { countProviderRequests } from '../support/engine-request-counter';
import { createListingLookup, LOOKUP_PAGE_LIMIT } from '#main/engine/listing-lookup';
import { createHarness, type Harness } from '../support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `older` transfers into a counter account, then the sale's wrong amount: the newest row. */
async function busyListing(older: number) {
  const requests = countProviderRequests(() => h?.scheduler.now() ?? 0);
  const harness = (h = await createHarness({ live: true, clientFetch: requests.fetch }));
  await harness.control('/personality', { callbacks: 'never' });
  const counter = await harness.engine.createCounterAccount({ type: 'static-flex' });
  const old: string[] = [];
  for (let i = 0; i < older; i++) {
    const tx = await harness.transfer(counter.accountNumber ?? '', 10 + i);
    old.push(String(tx['session_id']));
  }
  const sale = await harness.engine.createSale({ amountKobo: 100_000 });
  const wrong = await harness.transfer(sale.accountNumber ?? '', 900);
  const lookup = createListingLookup({
    client: () => harness.client,
    now: () => harness.scheduler.now(),
    logger: pino({ level: 'silent' }),
  });
  return { harness, requests, lookup, counter, sale, wrong: String(wrong['session_id']), old };
}

describe('the bounded listing lookup', () => {
  for (const order of ['oldest_first', 'newest_first'] as const) {
    it(`finds the newest rows in two pages at most (${order}), never the whole history`, async () => {
      const { harness, requests, lookup, sale, wrong, old, counter } = await busyListing(250);
      await harness.control('/personality', { listing_order: order });
      const found = await lookup.find(sale.reference, 10_000);
      expect(found).toMatchObject({ kind: 'rows' });
      expect(found.kind === 'rows' && found.rows.map((r) => [r.sessionId, r.status])).toEqual([
        [wrong, 'failed'],
      ]);
      expect(requests.listing.map((r) => [r.offset, r.limit])).toEqual([
        [0, LOOKUP_PAGE_LIMIT],
        [251 - LOOKUP_PAGE_LIMIT, LOOKUP_PAGE_LIMIT],
      ]);
      // A row in the middle of the history is out of reach, by design.
      const middle = await lookup.find(counter.reference, 10_000);
      const seen = middle.kind === 'rows' ? middle.rows.map((r) => r.sessionId) : [];
      expect(seen).toHaveLength(2 * LOOKUP_PAGE_LIMIT - 1);
      expect(old.filter((id) => !seen.includes(id))).toHaveLength(old.length - seen.length);
    });
  }

  it('one read serves every sale for 10 s; a failed read is not kept', async () => {
    const { harness, requests, lookup, sale } = await busyListing(3);
    await lookup.find(sale.reference, 10_000);
    await lookup.find('TT-OTHER', 10_000);
    await Promise.all([lookup.find('TT-A', 10_000), lookup.find('TT-B', 10_000)]);
    expect(requests.listing).toHaveLength(1); // 4 rows: one page
    await harness.advance(10_001);
    await lookup.find(sale.reference, 10_000);
    expect(requests.listing).toHaveLength(2);
    await lookup.find(sale.reference, 0); // a press wants a read from now
    expect(requests.listing).toHaveLength(2);
    await harness.advance(1);
    await lookup.find(sale.reference, 0);
    expect(requests.listing).toHaveLength(3);

    await harness.control('/faults', { error_rate: 1 });
    await harness.advance(10_001);
    expect(await lookup.find(sale.reference, 10_000)).toEqual({ kind: 'error' });
    await harness.control('/faults', { error_rate: 0 });
    expect(await lookup.find(sale.reference, 10_000)).toMatchObject({ kind: 'rows' });
  });
});
