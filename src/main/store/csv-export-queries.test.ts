import { describe, expect, it } from 'vitest';
import { createTestDb, explain } from '#support/database';
import { CSV_SQL, iterateCsvInflows } from './csv-export-queries';

describe('the CSV export query', () => {
  it('walks one range of inflows_day in its order, every lookup by key (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const plan = explain(db, CSV_SQL, 0, 1);
    expect(plan[0]).toMatch(
      /^SEARCH i USING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
    );
    expect(plan.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
    expect([...iterateCsvInflows(db, { fromMs: 0, toMs: 1 })]).toEqual([]);
  });
});
