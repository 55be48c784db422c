import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_BY_REFERENCE_SQL,
  COUNTER_ACCOUNT_BY_NUMBER,
  getStandingAccountByNumber,
  insertPendingAccount,
  markAccountActive,
} from './accounts-repo';
import { UNPROCESSED_CALLBACKS_SQL } from './callback-log-repo';
import { INFLOW_BY_SESSION_SQL } from './inflows-repo';
import {
  getLatestSaleByAccountNumber,
  insertSale,
  LATEST_SALE_BY_ACCOUNT_NUMBER,
  SALE_BY_REFERENCE_SQL,
  WATCHED_SALES_SQL,
} from './sales-repo';
import { createTestDb, explain } from '#support/database';

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
  it('finds the newest sale on a number, and a standing account, never the other purpose', () => {
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
    expect(getStandingAccountByNumber(db, '1000000009')?.id).toBe(counter.id);
    expect(getStandingAccountByNumber(db, '1000000001')).toBeUndefined();
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

describe("the engine's start-up and watch queries", () => {
  it('read only what is open, late-watched or asked for (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    // Start-up: the sales still watched, each half on its partial index; only those are sorted.
    const watched = explain(db, WATCHED_SALES_SQL, 0).join('\n');
    expect(watched).toMatch(/SEARCH sales USING (COVERING )?INDEX sales_open/);
    expect(watched).toMatch(
      /SEARCH sales USING (COVERING )?INDEX sales_late_watch \(expires_at>\?\)/,
    );
    expect(watched).not.toMatch(/SCAN sales/);
    // Start-up: the callbacks stored but never processed, on their partial index in id order.
    const unprocessed = explain(db, UNPROCESSED_CALLBACKS_SQL, 1000).join('\n');
    expect(unprocessed).toMatch(/USING (COVERING )?INDEX callback_log_unprocessed/);
    expect(unprocessed).not.toContain('TEMP B-TREE');
    // Every callback, check and listed row: a sale, an account and an inflow by their keys.
    const byKey: [string, RegExp][] = [
      [
        SALE_BY_REFERENCE_SQL,
        /^SEARCH sales USING INDEX sqlite_autoindex_sales_1 \(reference=\?\)$/,
      ],
      [
        ACCOUNT_BY_REFERENCE_SQL,
        /^SEARCH virtual_accounts USING INDEX sqlite_autoindex_virtual_accounts_1 \(reference=\?\)$/,
      ],
      [
        INFLOW_BY_SESSION_SQL,
        /^SEARCH inflows USING INDEX sqlite_autoindex_inflows_1 \(session_id=\?\)$/,
      ],
    ];
    for (const [sql, plan] of byKey) expect(explain(db, sql, 'x').join('\n'), sql).toMatch(plan);
  });
});
