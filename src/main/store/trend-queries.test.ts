import { describe, expect, it } from 'vitest';
import { registerAttributionSql } from '#main/reports/attribution-sql';
import { insertInflowRow, nextSessionId } from '#support/shop-history';
import { createTestDb, explain } from '#support/database';
import { TREND_SQL, trendBuckets } from './trend-queries';

const PARAMS = { tillPrefix: 'TILLA', fromMs: 0, toMs: 1 };

describe('the trend query', () => {
  it('reads one range of the successful inflows through their covering index (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    registerAttributionSql(db);
    const plan = explain(db, TREND_SQL, PARAMS);
    // Seven days of a busy shop are one range of the partial index, never the whole table.
    expect(plan[0]).toMatch(
      /^SEARCH i USING COVERING INDEX inflows_success_attribution \(occurred_at>\? AND occurred_at<\?\)/,
    );
    // Each row's local sale and standing account are found by key, not by a scan.
    expect(plan.join('\n')).not.toMatch(/SCAN (i|s2|a|inflows|sales|virtual_accounts)\b/);
  });

  it('sums successful inflows by 15-minute bucket and shop line, within [fromMs, toMs)', () => {
    const { db } = createTestDb();
    registerAttributionSql(db);
    const base = 1_800_000_000_000; // a multiple of 15 minutes
    const add = (reference: string, offsetMs: number, amountKobo: number, status = 'success') =>
      insertInflowRow(
        db,
        {
          sessionId: nextSessionId(),
          reference,
          amountKobo,
          status: status as 'success' | 'failed',
          occurredAt: base + offsetMs,
          saleId: null,
          listed: true,
        },
        base,
      );
    add('INV-1', 0, 100);
    add('INV-2', 899_999, 200); // same bucket
    add('INV-3', 900_000, 400); // the next bucket
    add('INV-4', 1000, 800, 'failed'); // not successful: left out
    add('INV-5', -1, 1600); // before the range
    add('INV-6', 1_800_000, 3200); // at toMs: after the range

    const rows = trendBuckets(db, { fromMs: base, toMs: base + 1_800_000 }, 'TILLA');
    const bucket = base / 900_000;
    expect([...rows].sort((a, b) => a.bucket - b.bucket)).toEqual([
      { bucket, line: 'not-ours', count: 2, amountKobo: 300 },
      { bucket: bucket + 1, line: 'not-ours', count: 1, amountKobo: 400 },
    ]);
    expect(trendBuckets(db, { fromMs: 0, toMs: 1 }, 'TILLA')).toEqual([]);
  });

  it('cannot run before the attribution rule is registered on the connection', () => {
    const { db } = createTestDb();
    expect(() => trendBuckets(db, { fromMs: 0, toMs: 1 }, 'TILLA')).toThrow(
      /no such function: tt_shop_line/,
    );
  });
});
