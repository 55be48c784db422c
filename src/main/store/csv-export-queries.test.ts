import { describe, expect, it } from 'vitest';
import { createTestDb, explain } from '#support/database';
import { generateShop } from '#support/shop-history';
import { CSV_ROW, CSV_SQL, csvInflowPages } from './csv-export-queries';
import { LOCAL_COUNTER, LOCAL_SALE } from './z-report-queries';

describe('the CSV export query', () => {
  it('walks one range of inflows_day in its order, every lookup by key (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const plan = explain(db, CSV_SQL, 0, 1);
    expect(plan[0]).toMatch(
      /^SEARCH i USING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
    );
    expect(plan.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
    expect([...csvInflowPages(db, { fromMs: 0, toMs: 1 })].flat()).toEqual([]);
  });
});

describe('the CSV export query on a generated shop', () => {
  it('finds the same local sales and standing accounts as the report rule asked on every row', () => {
    const { db } = createTestDb();
    const endMs = Date.UTC(2026, 10, 22);
    const startMs = endMs - 40 * 86_400_000;
    generateShop(db, { seed: 2604, startMs, endMs, events: 1_200 });
    // Every sale with its own account, as the engine makes them, and its inflows on it.
    db.exec(`
      INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
        SELECT 'nonstatic', 'sale', reference, 'active', created_at, created_at FROM sales;
      UPDATE sales SET account_id =
        (SELECT id FROM virtual_accounts v WHERE v.reference = sales.reference);
      UPDATE inflows SET account_id =
        (SELECT account_id FROM sales WHERE sales.id = inflows.sale_id) WHERE sale_id IS NOT NULL;
    `);
    // A paired counter's sale, and an inflow of a standing account linked to nothing.
    db.prepare(
      `INSERT INTO paired_counters (id, name, till_id, token_sha256, paired_at)
       VALUES (1, 'Front', 'till-b', ?, 0)`,
    ).run('a'.repeat(64));
    db.prepare(`UPDATE sales SET paired_counter_id = 1 WHERE id IN (3, 7, 11, 15)`).run();
    // A sale's inflow that carries a standing account's reference: the counter rule must be asked.
    const odd = db
      .prepare(
        `UPDATE inflows SET external_reference = 'CTR-FLEX-1', account_id =
           (SELECT account_id FROM sales WHERE sales.id = inflows.sale_id)
         WHERE id = (SELECT MIN(id) FROM inflows WHERE sale_id IS NOT NULL)`,
      )
      .run();
    expect(odd.changes).toBe(1);
    const oracle = db
      .prepare(
        `SELECT i.session_id AS sessionId, ${LOCAL_SALE} AS localSale,
           ${LOCAL_COUNTER} AS localCounter
         FROM inflows i WHERE i.occurred_at >= ? AND i.occurred_at < ?
         ORDER BY i.occurred_at, i.status, i.amount_kobo, i.id`,
      )
      .all(startMs, endMs);
    const rows = [...csvInflowPages(db, { fromMs: startMs, toMs: endMs })].flat().map((row) => ({
      sessionId: row[CSV_ROW.sessionId],
      localSale: row[CSV_ROW.localSale],
      localCounter: row[CSV_ROW.localCounter],
    }));
    expect(rows.length).toBeGreaterThan(1_000);
    expect(rows.some((row) => row.localCounter === 1)).toBe(true);
    expect(rows.some((row) => row.localSale === 0)).toBe(true);
    expect(rows).toEqual(oracle);
  });
});
