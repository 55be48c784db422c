import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLastSync } from '#shared/report-words';
import { getSyncRunOrThrow } from '#main/store/sync-runs-repo';
import {
  createSyncUnderTest,
  startSyncWorld,
  storedMatchesLedger,
  type SyncWorld,
} from '#support/sync-world';

let world: SyncWorld;

beforeAll(async () => {
  world = await startSyncWorld();
  await world.transfers(230);
}, 60_000);
afterAll(async () => {
  await world.close();
});

describe('a listing whose pages are capped below the limit asked (page_cap)', () => {
  it('is read whole, page by page as the provider gives them, and the run says the real size', async () => {
    await world.control('/personality', { page_cap: 30 });
    const t = createSyncUnderTest(world, { pageLimit: 100 });
    const run = await t.sync.run({ mode: 'full', trigger: 'user' });
    const ledger = await world.ledger();
    expect(run).toMatchObject({
      status: 'complete',
      collected: ledger.length,
      inserted: ledger.length,
      pageLimit: 100,
      providerPageSize: 30,
    });
    expect(storedMatchesLedger(t.db, ledger)).toEqual([]);
    // Each page was asked for once, at offsets 30 apart: the read-ahead guessed by the real
    // page size, not by the limit.
    const pages = Math.ceil(ledger.length / 30);
    expect([...t.requested].sort((a, b) => a - b)).toEqual(
      Array.from({ length: pages }, (_, i) => i * 30),
    );
    expect(getSyncRunOrThrow(t.db, run.id).providerPageSize).toBe(30);
    expect(describeLastSync(run, 'Africa/Lagos')).toContain(
      "The bank's list gives 30 rows a page (100 asked)",
    );
  });

  it('says nothing of page size when the provider honours the limit', async () => {
    await world.control('/personality', { page_cap: 0 });
    const t = createSyncUnderTest(world, { pageLimit: 100 });
    const run = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(run).toMatchObject({ status: 'complete', providerPageSize: null, pageLimit: 100 });
    expect(describeLastSync(run, 'Africa/Lagos')).not.toContain('rows a page');
  });
});
