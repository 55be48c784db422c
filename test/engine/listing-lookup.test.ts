import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { countProviderRequests } from '#support/engine-request-counter';
import {
  createListingLookup,
  LOOKUP_MAX_REQUESTS,
  LOOKUP_PAGE_LIMIT,
  newestEnd,
} from '#main/engine/listing-lookup';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * `older` transfers into a standing account, then the sale's wrong amount: the newest row.
 * `spacedMs`: the fake clock moves that far between transfers, so the listing's dates show its
 * order (0: every row in the same second).
 */
async function busyListing(older: number, spacedMs = 0) {
  const requests = countProviderRequests(() => h?.scheduler.now() ?? 0);
  const harness = (h = await createHarness({ live: true, clientFetch: requests.fetch }));
  await harness.control('/personality', { callbacks: 'never' });
  const counter = await harness.engine.createStandingAccount({ type: 'static-flex' });
  const old: string[] = [];
  for (let i = 0; i < older; i++) {
    const tx = await harness.transfer(counter.accountNumber ?? '', 10 + i);
    old.push(String(tx['session_id']));
    if (spacedMs > 0) await harness.scheduler.advance(spacedMs);
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

  for (const order of ['oldest_first', 'newest_first', 'shuffled'] as const) {
    const outcome = order === 'shuffled' ? 'stays within its budget' : 'the newest rows are read';
    it(`pages capped at 25 rows whatever limit asks (${order}): ${outcome}`, async () => {
      const { harness, requests, lookup, sale, wrong } = await busyListing(120, 1_000);
      await harness.control('/personality', { listing_order: order, page_cap: 25 });
      const found = await lookup.find(sale.reference, 10_000);
      if (order === 'shuffled') {
        // No order to follow: both ends, within the budget, and no more.
        expect(requests.listing.length).toBeLessThanOrEqual(LOOKUP_MAX_REQUESTS);
        return;
      }
      expect(found.kind === 'rows' && found.rows.map((r) => r.sessionId)).toEqual([wrong]);
      expect(requests.listing.length).toBeLessThanOrEqual(LOOKUP_MAX_REQUESTS);
      const asked = requests.listing.map((r) => [r.offset, r.limit]);
      expect(asked[0]).toEqual([0, LOOKUP_PAGE_LIMIT]);
      // Every later request asks for the page size the provider really gives and moves by it.
      expect(asked.slice(1)).toEqual(
        order === 'oldest_first'
          ? [
              [96, 25],
              [71, 25],
              [46, 25],
              [25, 21],
            ]
          : [
              [25, 25],
              [50, 25],
              [75, 25],
            ],
      );
    });
  }

  it('tells which end holds the newest rows from the first page dates', () => {
    const at = (...ms: number[]) => ms.map((dateMs) => ({ dateMs }));
    expect(newestEnd(at(1, 2, 2, 3))).toBe('back');
    expect(newestEnd(at(3, 2, 2, 1))).toBe('front');
    expect(newestEnd(at(1, 3, 2))).toBe('unknown');
    expect(newestEnd(at(5, 5, 5))).toBe('unknown');
    expect(newestEnd([])).toBe('unknown');
  });

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
