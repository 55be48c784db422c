import { describe, expect, it } from 'vitest';
import { registerAttributionSql } from '#main/reports/attribution-sql';
import { createTestDb, explain } from '#support/database';
import {
  BY_BUCKET_SQL,
  BY_TILL_SQL,
  HEADLINE_SQL,
  OPEN_AT_CUTOFF_SQL,
  OTHER_INCOME_SQL,
  PAID_TWICE_SQL,
  PAID_SALE_CHECKS_SQL,
  SHOP_LINES_SQL,
  STANDING_ABOVE_LIMIT_SQL,
  UNMATCHED_SQL,
  WRONG_AMOUNT_SQL,
  headlineRows,
  shopLineRows,
} from './z-report-queries';

const NAMED = { tillPrefix: 'TILLA', fromMs: 0, toMs: 1, limit: 10 };

describe('the Z-report queries', () => {
  it('read their figures through indexes (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    registerAttributionSql(db);
    const headline = explain(db, HEADLINE_SQL, 0, 1).join('\n');
    expect(headline).toMatch(
      /SEARCH inflows USING COVERING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
    );
    expect(explain(db, BY_BUCKET_SQL, 0, 1).join('\n')).toMatch(
      /COVERING INDEX inflows_success_attribution/,
    );
    expect(explain(db, BY_TILL_SQL, 0, 1).join('\n')).toContain('sales_paid');
    // The shop view: one range of the day's successful inflows (never the table: migration 004),
    // then each row's local sale and standing account by key.
    const lines = explain(db, SHOP_LINES_SQL, { tillPrefix: 'TILLA', fromMs: 0, toMs: 1 });
    expect(lines[0]).toMatch(
      /^SEARCH i USING COVERING INDEX inflows_success_attribution \(occurred_at>\? AND occurred_at<\?\)/,
    );
    expect(lines.join('\n')).not.toMatch(/SCAN (i|s2|a)\b/);
    // Exceptions: each starts from a bounded range of the day, never from a whole table.
    const starts: [string, RegExp, unknown[]][] = [
      [
        UNMATCHED_SQL,
        /^SEARCH i USING INDEX inflows_success_attribution \(occurred_at>\? AND occurred_at<\?\)/,
        [NAMED],
      ],
      [
        WRONG_AMOUNT_SQL,
        /^SEARCH i USING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
        [{ ...NAMED, skipKind: 'other-till' }],
      ],
      [
        OTHER_INCOME_SQL,
        /^SEARCH i USING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
        [NAMED],
      ],
      [
        PAID_TWICE_SQL,
        /^SEARCH i USING INDEX inflows_success_attribution \(occurred_at>\? AND occurred_at<\?\)/,
        [{ fromMs: 0, toMs: 1, limit: 10 }],
      ],
      [
        STANDING_ABOVE_LIMIT_SQL,
        /^SEARCH i USING INDEX inflows_success_attribution \(occurred_at>\? AND occurred_at<\?\)/,
        [{ fromMs: 0, toMs: 1, aboveKobo: 0, limit: 10 }],
      ],
      [PAID_SALE_CHECKS_SQL, /^SEARCH s USING INDEX sales_paid/, [0, 1, 1]],
      [OPEN_AT_CUTOFF_SQL, /^SEARCH s USING INDEX sales_created/, [1, 1, 0, 1, 10]],
    ];
    for (const [sql, start, params] of starts) {
      const plan = explain(db, sql, ...params);
      expect(plan[0], sql).toMatch(start);
      expect(plan.join('\n'), sql).not.toMatch(/SCAN|TEMP B-TREE FOR ORDER BY/);
    }
    // Works on an empty table too.
    expect(headlineRows(db, { fromMs: 0, toMs: 1 })).toEqual([]);
    expect(shopLineRows(db, { fromMs: 0, toMs: 1 }, 'TILLA')).toEqual([]);
  });

  it('cannot run the attribution queries before the rule is registered on the connection', () => {
    const { db } = createTestDb();
    expect(() => shopLineRows(db, { fromMs: 0, toMs: 1 }, 'TILLA')).toThrow(
      /no such function: tt_shop_line/,
    );
  });
});
