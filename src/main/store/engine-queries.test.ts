import { describe, expect, it } from 'vitest';
import {
  COUNTER_ACCOUNT_BY_NUMBER,
  getCounterAccountByNumber,
  insertPendingAccount,
  markAccountActive,
} from './accounts-repo';
import {
  getLatestSaleByAccountNumber,
  insertSale,
  LATEST_SALE_BY_ACCOUNT_NUMBER,
} from './sales-repo';
import { createTestDb, explain } from './test-helpers';

function account(
  db: ReturnType<typeof createTestDb>['db'],
  purpose: 'sale' | 'counter',
  reference: string,
  accountNumber: string,
) {
  const row = insertPendingAccount(
    db,
    {
      type: purpose === 'sale' ? 'nonstatic' : 'static-flex',
      purpose,
      reference,
      amountKobo: purpose === 'sale' ? 1000 : null,
      expiryMinutes: purpose === 'sale' ? 15 : null,
      callbackUrl: null,
    },
    1,
  );
  return markAccountActive(
    db,
    row.id,
    {
      providerReference: `P-${reference}`,
      accountNumber,
      accountName: 'Shop',
      bank: 'Bank',
      expiresAt: null,
    },
    2,
  );
}

describe("the engine's lookups by account number (a callback may name only the number)", () => {
  it('finds the newest sale on a number, and a counter account, never the other purpose', () => {
    const { db } = createTestDb();
    for (const [reference, number] of [
      ['TT-1', '1000000001'],
      ['TT-2', '1000000002'],
      ['TT-3', '1000000001'],
    ] as const) {
      const row = account(db, 'sale', reference, number);
      insertSale(
        db,
        { accountId: row.id, amountKobo: 1000, note: null, cashier: null, tillId: null, reference },
        3,
        'test',
      );
    }
    const counter = account(db, 'counter', 'TT-C', '1000000009');
    expect(getLatestSaleByAccountNumber(db, '1000000001')?.reference).toBe('TT-3');
    expect(getLatestSaleByAccountNumber(db, '1000000009')).toBeUndefined();
    expect(getCounterAccountByNumber(db, '1000000009')?.id).toBe(counter.id);
    expect(getCounterAccountByNumber(db, '1000000001')).toBeUndefined();
  });

  it('reads through indexes (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const sale = explain(db, LATEST_SALE_BY_ACCOUNT_NUMBER, '1').join('\n');
    expect(sale).toMatch(/SEARCH virtual_accounts USING INDEX virtual_accounts_number/);
    expect(sale).toMatch(/SEARCH sales USING INDEX sqlite_autoindex_sales/);
    expect(sale).not.toMatch(/SCAN (sales|virtual_accounts)/);
    const counter = explain(db, COUNTER_ACCOUNT_BY_NUMBER, '1').join('\n');
    expect(counter).toMatch(/SEARCH virtual_accounts USING INDEX virtual_accounts_number/);
  });
});
