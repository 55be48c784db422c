/**
 * What the Activity screen reads on every refresh, at the hub's own screen and at every paired
 * counter: the recent sales (all of them, or one till's), inflows and open alerts, the counter
 * accounts, and the counter's token on every request.
 */
import { describe, expect, it } from 'vitest';
import { createTestDb, explain } from '#support/database';
import { COUNTER_ACCOUNTS_SQL } from './accounts-repo';
import {
  CASHIER_OPEN_ALERTS_SQL,
  OPEN_ALERTS_OF_SALE_SQL,
  OPEN_ALERTS_SQL,
  TILL_OPEN_ALERTS_SQL,
} from './alerts-repo';
import { RECENT_INFLOWS_SQL } from './inflows-repo';
import { TOKEN_LOOKUP_SQL } from './paired-counters-repo';
import { SALES_CREATED_BETWEEN_SQL } from './sales-repo';
import { TILL_SALE_IDS_SQL } from './till-sales-queries';

describe('the activity queries', () => {
  it("read a sale's open alerts (every sale view) from the open alerts' index", () => {
    const { db } = createTestDb();
    expect(explain(db, OPEN_ALERTS_OF_SALE_SQL, 1).join('\n')).toMatch(/USING INDEX alerts_open/);
  });

  it('read the recent sales of a range and a counter by its token through indexes (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const sales = explain(db, SALES_CREATED_BETWEEN_SQL, 0, 1, 500).join('\n');
    expect(sales).toMatch(
      /^SEARCH sales USING INDEX sales_created \(created_at>\? AND created_at<\?\)$/,
    );
    const tillSales = explain(db, TILL_SALE_IDS_SQL, 'TILLA', 0, 1, 500).join('\n');
    expect(tillSales).toMatch(
      /^SEARCH sales USING COVERING INDEX sales_till_created \(till_id=\? AND created_at>\? AND created_at<\?\)$/,
    );
    expect(explain(db, TOKEN_LOOKUP_SQL, 'ab').join('\n')).toMatch(
      /SEARCH paired_counters USING INDEX paired_counters_token/,
    );
  });

  it("read the day's inflows, the open alerts and the standing accounts through indexes (EXPLAIN QUERY PLAN)", () => {
    const { db } = createTestDb();
    // Without migration 008 each of these walked its whole table (SCAN inflows, SCAN alerts,
    // SCAN virtual_accounts): on a ten-year shop, millions of rows on every Activity refresh.
    expect(explain(db, RECENT_INFLOWS_SQL, 0, 200).join('\n')).toMatch(
      /^SEARCH inflows USING INDEX inflows_first_seen \(first_seen_at>\?\)\nUSE TEMP B-TREE FOR ORDER BY$/,
    );
    expect(explain(db, OPEN_ALERTS_SQL)).toEqual(['SCAN alerts USING INDEX alerts_open_id']);
    // A cashier's and a counter's open alerts (the header's count and Activity's list): the few
    // open alerts first, each sale by its key, never a walk through a till's years of sales.
    for (const sql of [CASHIER_OPEN_ALERTS_SQL, TILL_OPEN_ALERTS_SQL]) {
      expect(explain(db, sql, 'x')).toEqual([
        'SCAN a USING INDEX alerts_open_id',
        'SEARCH s USING INTEGER PRIMARY KEY (rowid=?)',
      ]);
    }
    expect(explain(db, COUNTER_ACCOUNTS_SQL)).toEqual([
      'SCAN virtual_accounts USING INDEX virtual_accounts_counter_active',
    ]);
  });
});
