import { describe, expect, it } from 'vitest';
import { createTestDb } from '#support/database';
import { createProviderReach } from '#main/provider/provider-reach';
import { insertOutageSale } from '#main/store/sales-repo';
import { syncWhenBackOnline } from './back-online';
import type { TransactionSync } from './sync';

/** A sync that only counts the runs asked of it (what is under test is when one is asked). */
function countingSync() {
  const runs: string[] = [];
  const sync = {
    run: (request: { trigger: string }) => {
      runs.push(request.trigger);
      return new Promise(() => undefined);
    },
  } as unknown as TransactionSync;
  return { runs, sync };
}

describe('syncWhenBackOnline', () => {
  it('asks the listing for a sync when the provider answers again and outage sales wait', () => {
    const { db } = createTestDb();
    const reach = createProviderReach(() => 0);
    const { runs, sync } = countingSync();
    syncWhenBackOnline(reach, db, sync);

    reach.note('unreachable');
    reach.note('answered');
    expect(runs).toEqual([]); // nothing waits: no run

    const account = Number(
      db
        .prepare(
          `INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
           VALUES ('static-flex', 'outage', 'O-ACC', 'active', 1, 1)`,
        )
        .run().lastInsertRowid,
    );
    insertOutageSale(
      db,
      {
        accountId: account,
        amountKobo: 150_000,
        note: null,
        cashier: null,
        tillId: null,
        reference: 'O-1',
      },
      2,
    );
    reach.note('unreachable');
    expect(runs).toEqual([]);
    reach.note('answered');
    expect(runs).toEqual(['back-online']);
  });
});
