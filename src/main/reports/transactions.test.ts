import { describe, expect, it } from 'vitest';
import type { InflowView } from '#shared/sales';
import type { Db } from '#main/store/database';
import { createTestDb, explain } from '#support/database';
import { ReportError } from './report-range';
import { createSeededRandom } from '#main/sandbox/seeded-random';
import { insertInflowRow, nextSessionId } from '#support/shop-history';
import { LIST_ORDER } from '#main/store/transaction-list-queries';
import { listTransactions, parseSearch, transactionFilter } from './transactions';

const DAY_START = Date.UTC(2026, 10, 21, 23); // 2026-11-22 00:00 Lagos
const DAY_END = DAY_START + 86_400_000;
const STATUSES = ['success', 'success', 'success', 'failed', 'pending'] as const;

interface Seeded {
  readonly sessionId: string;
  readonly reference: string;
  readonly amountKobo: number;
  readonly status: (typeof STATUSES)[number];
  readonly occurredAt: number;
}

function seed(db: Db, count: number): Seeded[] {
  const random = createSeededRandom(11).next;
  const rows: Seeded[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const row: Seeded = {
        sessionId: nextSessionId(),
        reference: `TT-${Math.floor(random() * 5000)}`,
        amountKobo: i % 97 === 0 ? 150050 : 100 * (1 + Math.floor(random() * 20000)),
        status: STATUSES[Math.floor(random() * STATUSES.length)] ?? 'success',
        // A few rows outside the day on both sides.
        occurredAt: DAY_START - 3_600_000 + Math.floor(random() * (86_400_000 + 7_200_000)),
      };
      insertInflowRow(db, { ...row, saleId: null, listed: true }, 0);
      rows.push(row);
    }
  })();
  return rows;
}

function inDay(rows: readonly Seeded[]): Seeded[] {
  return rows.filter((r) => r.occurredAt >= DAY_START && r.occurredAt < DAY_END);
}

describe('listTransactions', () => {
  const { db } = createTestDb();
  const rows = seed(db, 20_000);
  const day = inDay(rows);
  const query = { fromMs: DAY_START, toMs: DAY_END, offset: 0, limit: 100 };

  it('pages through a day newest first, every row exactly once', () => {
    const first = listTransactions(db, query);
    expect(first.total).toBe(day.length);
    expect(first.rows).toHaveLength(100);
    const seen: InflowView[] = [];
    for (let offset = 0; offset < first.total; offset += 500) {
      seen.push(...listTransactions(db, { ...query, offset, limit: 500 }).rows);
    }
    expect(seen).toHaveLength(day.length);
    expect(new Set(seen.map((r) => r.sessionId)).size).toBe(day.length);
    const times = seen.map((r) => r.occurredAt ?? 0);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.rows[0]).toMatchObject({
      source: 'listing',
      saleId: null,
      externalReference: expect.stringMatching(/^TT-/) as unknown,
    });
  });

  it('filters by status', () => {
    for (const status of ['success', 'failed', 'pending'] as const) {
      const result = listTransactions(db, { ...query, status });
      expect(result.total).toBe(day.filter((r) => r.status === status).length);
      expect(result.rows.every((r) => r.status === status)).toBe(true);
    }
    expect(listTransactions(db, { ...query, status: 'unknown' }).total).toBe(0);
  });

  it('searches by reference prefix, session_id and amount in Naira', () => {
    const byPrefix = listTransactions(db, { ...query, search: 'TT-12', limit: 500 });
    expect(byPrefix.total).toBe(day.filter((r) => r.reference.startsWith('TT-12')).length);
    expect(byPrefix.total).toBeGreaterThan(0);

    const target = day[1234] ?? day[0];
    const bySession = listTransactions(db, { ...query, search: target?.sessionId ?? '' });
    expect(bySession.rows.map((r) => r.sessionId)).toEqual([target?.sessionId]);

    for (const text of ['₦1,500.50', '1500.50', 'NGN 1,500.5']) {
      const byAmount = listTransactions(db, { ...query, search: text, limit: 500 });
      expect(byAmount.total, text).toBe(day.filter((r) => r.amountKobo === 150050).length);
      expect(byAmount.rows.every((r) => r.amountKobo === 150050)).toBe(true);
    }

    // Digits may be an amount, a reference prefix or the start of a session id.
    const digits = listTransactions(db, { ...query, search: '250', limit: 500 });
    expect(digits.total).toBe(
      day.filter(
        (r) =>
          r.amountKobo === 25000 || r.reference.startsWith('250') || r.sessionId.startsWith('250'),
      ).length,
    );
    expect(listTransactions(db, { ...query, search: '   ' }).total).toBe(day.length);
  });

  it('reads a day through a date index without sorting the range (EXPLAIN QUERY PLAN)', () => {
    const variants = [
      {},
      { status: 'success' as const },
      { search: 'TT-12' },
      { search: '1500.50' },
      { status: 'failed' as const, search: '100004' },
    ];
    for (const variant of variants) {
      const { where, params } = transactionFilter({ fromMs: 0, toMs: 1, ...variant });
      const plan = explain(
        db,
        `SELECT session_id FROM inflows WHERE ${where} ${LIST_ORDER} LIMIT 100 OFFSET 0`,
        ...params,
      ).join('\n');
      // inflows_day, or for successful ones only the smaller index of them (migration 004).
      expect(plan, JSON.stringify(variant)).toMatch(
        variant.status === 'success'
          ? /SEARCH inflows USING (COVERING )?INDEX inflows_success_attribution/
          : /SEARCH inflows USING (COVERING )?INDEX inflows_day/,
      );
      // At most ties of one instant are sorted ("FOR LAST n TERMS"), never the whole range.
      expect(plan, JSON.stringify(variant)).not.toContain('TEMP B-TREE FOR ORDER BY');
      // The total may seek whichever index fits best, but never scans the table.
      const count = explain(db, `SELECT COUNT(*) FROM inflows WHERE ${where}`, ...params).join(
        '\n',
      );
      expect(count, JSON.stringify(variant)).toMatch(/SEARCH inflows USING (COVERING )?INDEX/);
      expect(count, JSON.stringify(variant)).not.toContain('SCAN');
    }
    const started = performance.now();
    listTransactions(db, { ...query, offset: 10_000, limit: 100 });
    listTransactions(db, { ...query, search: '1500.50' });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('reads the search text', () => {
    expect(parseSearch('₦1,500.50')).toEqual({
      reference: '₦1,500.50',
      sessionPrefix: null,
      amountKobo: 150050,
    });
    expect(parseSearch('TT-9')).toEqual({
      reference: 'TT-9',
      sessionPrefix: null,
      amountKobo: null,
    });
    expect(parseSearch('1.234')).toMatchObject({ amountKobo: null });
    expect(parseSearch('')).toBeNull();
  });

  it('refuses a bad page', () => {
    expect(() => listTransactions(db, { ...query, limit: 0 })).toThrow(ReportError);
    expect(() => listTransactions(db, { ...query, limit: 501 })).toThrow(ReportError);
    expect(() => listTransactions(db, { ...query, offset: -1 })).toThrow(ReportError);
  });
});
