import { describe, expect, it } from 'vitest';
import { createTestDb, storeOutageAccount } from '#support/database';
import { getOutageAccount } from './accounts-repo';
import { insertOutageSale, listUnconfirmedSales, listUnconfirmedSalesDue } from './sales-repo';

describe('outage sales in the store', () => {
  it('asks each open outage sale of one amount for its own kobo tag, and reuses a freed one', () => {
    const { db } = createTestDb();
    const account = storeOutageAccount(db);
    expect(getOutageAccount(db)?.id).toBe(account.id);
    const take = (reference: string, amountKobo = 150_000) =>
      insertOutageSale(
        db,
        { accountId: account.id, amountKobo, note: null, cashier: 'Ada', tillId: 't', reference },
        10,
      );
    const first = take('O-1');
    const second = take('O-2');
    const other = take('O-3', 200_000);
    expect([first?.amountDueKobo, second?.amountDueKobo, other?.amountDueKobo]).toEqual([
      150_001, 150_002, 200_001,
    ]);
    expect(first).toMatchObject({
      state: 'unconfirmed',
      amountKobo: 150_000,
      accountId: account.id,
    });
    expect(listUnconfirmedSalesDue(db, 150_002).map((sale) => sale.reference)).toEqual(['O-2']);
    db.prepare(`UPDATE sales SET state = 'paid' WHERE reference = 'O-1'`).run();
    expect(take('O-4')?.amountDueKobo).toBe(150_001);
    expect(listUnconfirmedSales(db).map((sale) => sale.reference)).toEqual(['O-2', 'O-3', 'O-4']);
  });

  it('refuses a 100th open sale of the same naira amount rather than repeat a tag', () => {
    const { db } = createTestDb();
    const account = storeOutageAccount(db);
    for (let i = 0; i < 99; i += 1) {
      const sale = insertOutageSale(
        db,
        {
          accountId: account.id,
          amountKobo: 50_000,
          note: null,
          cashier: null,
          tillId: null,
          reference: `O-${i}`,
        },
        10,
      );
      expect(sale?.amountDueKobo).toBe(50_000 + i + 1);
    }
    expect(
      insertOutageSale(
        db,
        {
          accountId: account.id,
          amountKobo: 50_000,
          note: null,
          cashier: null,
          tillId: null,
          reference: 'O-X',
        },
        10,
      ),
    ).toBeUndefined();
  });
});
