import { describe, expect, it } from 'vitest';
import { createTestDb, explain } from '#support/database';
import { insertPendingAccount } from './accounts-repo';
import {
  ACCOUNTS_BY_REFERENCE_SQL,
  INSERT_LISTED_INFLOW_SQL,
  KNOWN_INFLOWS_SQL,
  SALES_BY_REFERENCE_SQL,
  UPDATE_LISTED_INFLOW_SQL,
  findAccountsByReferences,
  findKnownInflows,
  findSalesByReferences,
  insertListedInflow,
  updateListedInflow,
} from './listing-page-repo';
import { getInflowBySession } from './inflows-repo';
import { insertSale } from './sales-repo';

const SESSION = '100004251122090500000000000001';

describe("a listing page's statements", () => {
  it('find what a page names, insert a listed row and update it without touching its amount', () => {
    const { db } = createTestDb();
    insertSale(
      db,
      { amountKobo: 1000, note: null, cashier: null, tillId: null, reference: 'TT-1' },
      1,
      'test',
    );
    insertPendingAccount(
      db,
      {
        type: 'static-flex',
        purpose: 'counter',
        reference: 'TT-C',
        amountKobo: null,
        expiryMinutes: null,
        callbackUrl: null,
      },
      1,
    );
    expect(findSalesByReferences(db, ['TT-1', 'TT-C']).map((sale) => sale.reference)).toEqual([
      'TT-1',
    ]);
    expect(findAccountsByReferences(db, ['TT-1', 'TT-C']).map((a) => a.reference)).toEqual([
      'TT-C',
    ]);
    expect(findKnownInflows(db, [SESSION])).toEqual([]);

    const id = insertListedInflow(
      db,
      {
        sessionId: SESSION,
        externalReference: 'TT-1',
        amountKobo: 1000,
        status: 'pending',
        providerDate: '2026-11-22 09:05:00',
        occurredAt: 5,
        saleId: 1,
        accountId: null,
        observedAt: 4,
      },
      10,
    );
    expect(findKnownInflows(db, [SESSION, 'other'])).toEqual([
      {
        id,
        sessionId: SESSION,
        status: 'pending',
        statusObservedAt: 4,
        amountKobo: 1000,
        listedAt: 10,
        listedStatus: 'pending',
      },
    ]);
    updateListedInflow(
      db,
      {
        id,
        status: 'success',
        statusObservedAt: 12,
        listedStatus: 'success',
        externalReference: 'TT-other',
        providerDate: '2026-11-22 09:06:00',
        occurredAt: 6,
        saleId: null,
        accountId: null,
      },
      20,
    );
    expect(getInflowBySession(db, SESSION)).toMatchObject({
      status: 'success',
      statusObservedAt: 12,
      amountKobo: 1000,
      // What the row had is kept; the listing fills in only what was missing.
      externalReference: 'TT-1',
      occurredAt: 5,
      saleId: 1,
      source: 'listing',
      lastSource: 'listing',
      updatedAt: 20,
    });
  });

  it('look every row up by a unique key (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const json = JSON.stringify(['a', 'b']);
    const lookups: [string, RegExp][] = [
      [
        KNOWN_INFLOWS_SQL,
        /^SEARCH inflows USING INDEX sqlite_autoindex_inflows_1 \(session_id=\?\)/,
      ],
      [
        SALES_BY_REFERENCE_SQL,
        /^SEARCH sales USING INDEX sqlite_autoindex_sales_1 \(reference=\?\)/,
      ],
      [
        ACCOUNTS_BY_REFERENCE_SQL,
        /^SEARCH virtual_accounts USING (COVERING )?INDEX sqlite_autoindex_virtual_accounts_1 \(reference=\?\)/,
      ],
    ];
    for (const [sql, start] of lookups) {
      const plan = explain(db, sql, json);
      expect(plan[0], sql).toMatch(start);
      // Only the page's own JSON array is scanned, never a table.
      expect(
        plan.filter((line) => line.startsWith('SCAN')),
        sql,
      ).toEqual(['SCAN json_each VIRTUAL TABLE INDEX 1:']);
    }
    const update = explain(db, UPDATE_LISTED_INFLOW_SQL, ...Array.from({ length: 11 }, () => 1));
    expect(update.join('\n')).toMatch(/^SEARCH inflows USING INTEGER PRIMARY KEY/);
    // An insert has no plan of its own; it compiles against the current schema.
    expect(() => db.prepare(INSERT_LISTED_INFLOW_SQL)).not.toThrow();
  });
});
