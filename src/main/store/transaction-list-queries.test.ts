import { describe, expect, it } from 'vitest';
import { createTestDb, explain } from '#support/database';
import {
  transactionCountSql,
  transactionPageSql,
  transactionWhere,
  type TransactionFilter,
} from './transaction-list-queries';

describe('the transaction list queries', () => {
  it('page through a range on a date index without sorting it (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const range = { fromMs: 0, toMs: 1 };
    const filters: TransactionFilter[] = [
      { ...range, terms: null },
      { ...range, status: 'success', terms: null },
      { ...range, status: 'failed', terms: null },
      { ...range, terms: { reference: 'TT-12', sessionPrefix: null, amountKobo: null } },
      { ...range, terms: { reference: '1500.50', sessionPrefix: null, amountKobo: 150050 } },
      {
        ...range,
        status: 'pending',
        terms: { reference: '100', sessionPrefix: '100', amountKobo: 10000 },
      },
    ];
    for (const filter of filters) {
      const { where, params } = transactionWhere(filter);
      const label = JSON.stringify(filter);
      const page = explain(db, transactionPageSql(where), ...params, 100, 0).join('\n');
      // inflows_day, or for successful ones only the smaller index of them (migration 004).
      expect(page, label).toMatch(
        filter.status === 'success'
          ? /^SEARCH inflows USING (COVERING )?INDEX inflows_success_attribution \(occurred_at>\? AND occurred_at<\?\)/
          : /^SEARCH inflows USING (COVERING )?INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
      );
      // At most the ties of one instant are sorted, never the whole range.
      expect(page, label).not.toContain('TEMP B-TREE FOR ORDER BY');
      const count = explain(db, transactionCountSql(where), ...params).join('\n');
      expect(count, label).toMatch(/SEARCH inflows USING (COVERING )?INDEX/);
      expect(count, label).not.toContain('SCAN');
    }
  });

  it('writes one placeholder per parameter, the search terms as prefixes', () => {
    const { where, params } = transactionWhere({
      fromMs: 1,
      toMs: 2,
      status: 'success',
      terms: { reference: '25', sessionPrefix: '25', amountKobo: 2500 },
    });
    expect(where.split('?').length - 1).toBe(params.length);
    expect(params).toEqual([1, 2, 'success', '25', '25\u{10FFFF}', '25', '25\u{10FFFF}', 2500]);
  });
});
