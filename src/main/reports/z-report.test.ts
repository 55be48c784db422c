import { describe, expect, it } from 'vitest';
import { OPEN_SALE_STATES, type SaleState } from '../../shared/sales';
import type { AmountTotal, ExceptionKind } from '../../shared/views';
import { createTestDb, explain } from '../store/test-helpers';
import { ReportError } from './report-range';
import {
  COUNTER_REFERENCES,
  generateShop,
  insertCompleteSyncRun,
  insertCounterAccounts,
  insertInflowRow,
  insertSaleWithHistory,
  nextSessionId,
  type ModelInflow,
  type ModelSale,
  type ShopModel,
} from './test-support';
import {
  BY_BUCKET_SQL,
  BY_TILL_SQL,
  COUNTER_SQL,
  HEADLINE_SQL,
  MISSING_SQL,
  OPEN_AT_CUTOFF_SQL,
  PAID_LATE_SQL,
  UNMATCHED_SQL,
  WRONG_AMOUNT_SQL,
  buildZReport,
  headlineTotals,
} from './z-report';

const LAGOS = 'Africa/Lagos';
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Lagos is UTC+1 all year: the independent arithmetic the report is checked against. */
function lagosDayStart(day: string, cutoffHour: number): number {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1, cutoffHour) - HOUR;
}

function sum(items: readonly { amountKobo: number }[]): AmountTotal {
  return { count: items.length, amountKobo: items.reduce((acc, item) => acc + item.amountKobo, 0) };
}

function stateAt(sale: ModelSale, at: number): SaleState | undefined {
  return sale.history.filter((step) => step.at < at).at(-1)?.state;
}

interface Expected {
  readonly success: AmountTotal;
  readonly failed: AmountTotal;
  readonly pending: AmountTotal;
  readonly counter: AmountTotal;
  readonly byHour: Map<number, AmountTotal>;
  readonly byTill: Map<string, AmountTotal>;
  readonly exceptions: Map<ExceptionKind, string[]>;
}

/** Everything the report should say, computed from the model with plain loops. */
function expectedFor(
  model: ShopModel,
  fromMs: number,
  toMs: number,
  now: number,
  coveredBefore: number,
): Expected {
  const inRange = (t: number | null): boolean => t !== null && t >= fromMs && t < toMs;
  const inflows = model.inflows.filter((i) => inRange(i.occurredAt));
  const of = (status: ModelInflow['status']) => inflows.filter((i) => i.status === status);
  const byHour = new Map<number, AmountTotal>();
  for (const inflow of of('success')) {
    const hour = new Date(inflow.occurredAt + HOUR).getUTCHours();
    const prev = byHour.get(hour) ?? { count: 0, amountKobo: 0 };
    byHour.set(hour, { count: prev.count + 1, amountKobo: prev.amountKobo + inflow.amountKobo });
  }
  const paidHere = model.sales.filter(
    (s) =>
      inRange(s.paidAt) &&
      (s.history.at(-1)?.state === 'paid' || s.history.at(-1)?.state === 'paid_late'),
  );
  const byTill = new Map<string, AmountTotal>();
  for (const sale of paidHere) {
    const key = `${sale.tillId}/${sale.cashier ?? ''}`;
    const prev = byTill.get(key) ?? { count: 0, amountKobo: 0 };
    byTill.set(key, { count: prev.count + 1, amountKobo: prev.amountKobo + sale.amountKobo });
  }
  const listedSessions = new Set(
    model.inflows.filter((i) => i.listed && i.status === 'success').map((i) => i.sessionId),
  );
  const cutoff = Math.min(now, toMs);
  const exceptions = new Map<ExceptionKind, string[]>([
    [
      'paid_late',
      paidHere.filter((s) => s.history.at(-1)?.state === 'paid_late').map((s) => `sale:${s.id}`),
    ],
    ['wrong_amount', of('failed').map((i) => `session:${i.sessionId}`)],
    [
      'unmatched_inflow',
      of('success')
        .filter((i) => i.saleId === null && !i.counter)
        .map((i) => `session:${i.sessionId}`),
    ],
    [
      'missing_from_provider',
      paidHere
        .filter(
          (s) => (s.paidAt ?? 0) < coveredBefore && !listedSessions.has(s.paidSessionId ?? ''),
        )
        .map((s) => `sale:${s.id}`),
    ],
    [
      'open_at_cutoff',
      model.sales
        .filter((s) => inRange(s.createdAt))
        .filter((s) => OPEN_SALE_STATES.includes(stateAt(s, cutoff) ?? 'paid'))
        .map((s) => `sale:${s.id}`),
    ],
  ]);
  return {
    success: sum(of('success')),
    failed: sum(of('failed')),
    pending: sum(of('pending')),
    counter: sum(of('success').filter((i) => i.counter)),
    byHour,
    byTill,
    exceptions,
  };
}

describe('Z-report', () => {
  it('matches totals computed independently on a generated data set, for days and a range', () => {
    const { db } = createTestDb();
    const start = lagosDayStart('2026-11-21', 0) - 6 * HOUR;
    const end = lagosDayStart('2026-11-24', 0) + 6 * HOUR;
    const model = generateShop(db, { seed: 7, startMs: start, endMs: end, events: 900 });
    const syncStart = lagosDayStart('2026-11-23', 0) + 12 * HOUR;
    insertCompleteSyncRun(db, syncStart);
    const now = lagosDayStart('2026-11-23', 0) + 15 * HOUR;

    const cases = [
      { fromDay: '2026-11-21', toDay: '2026-11-21', cutoffHour: 0 },
      { fromDay: '2026-11-22', toDay: '2026-11-22', cutoffHour: 4 },
      { fromDay: '2026-11-23', toDay: '2026-11-23', cutoffHour: 0 },
      { fromDay: '2026-11-21', toDay: '2026-11-23', cutoffHour: 6 },
    ];
    let exceptionsSeen = 0;
    for (const c of cases) {
      const report = buildZReport(db, { ...c, timeZone: LAGOS, now });
      const fromMs = lagosDayStart(c.fromDay, c.cutoffHour);
      const toMs = lagosDayStart(c.toDay, c.cutoffHour) + DAY;
      expect([report.fromMs, report.toMs]).toEqual([fromMs, toMs]);
      const expected = expectedFor(model, fromMs, toMs, now, syncStart - 5 * 60_000);

      expect(report.success).toEqual(expected.success);
      expect(report.failed).toEqual(expected.failed);
      expect(report.pending).toEqual(expected.pending);
      expect(report.counter).toEqual(expected.counter);
      expect(report.success.count).toBeGreaterThan(10);

      expect(report.byHour.map((h) => h.hour)).toEqual(
        Array.from({ length: 24 }, (_, i) => (i + c.cutoffHour) % 24),
      );
      for (const hour of report.byHour) {
        expect({ hour: hour.hour, count: hour.count, amountKobo: hour.amountKobo }).toEqual({
          hour: hour.hour,
          ...(expected.byHour.get(hour.hour) ?? { count: 0, amountKobo: 0 }),
        });
      }
      expect(
        new Map(
          report.byTill.map((t) => [
            `${t.tillId}/${t.cashier ?? ''}`,
            { count: t.count, amountKobo: t.amountKobo },
          ]),
        ),
      ).toEqual(expected.byTill);

      for (const [kind, keys] of expected.exceptions) {
        const got = report.exceptions
          .filter((e) => e.kind === kind)
          .map((e) =>
            e.saleId !== null && kind !== 'wrong_amount'
              ? `sale:${e.saleId}`
              : `session:${e.sessionId}`,
          );
        expect(got.sort(), kind).toEqual([...keys].sort());
        exceptionsSeen += keys.length;
      }
      for (const exception of report.exceptions) {
        expect(exception.message.length).toBeGreaterThan(20);
        expect(exception.action.length).toBeGreaterThan(20);
      }
    }
    // Every kind actually occurs in the generated history (otherwise the check above is empty).
    const all = buildZReport(db, {
      fromDay: '2026-11-21',
      toDay: '2026-11-23',
      cutoffHour: 0,
      timeZone: LAGOS,
      now,
    });
    expect(new Set(all.exceptions.map((e) => e.kind))).toEqual(
      new Set([
        'paid_late',
        'wrong_amount',
        'unmatched_inflow',
        'missing_from_provider',
        'open_at_cutoff',
      ]),
    );
    expect(exceptionsSeen).toBeGreaterThan(50);
  });

  it('puts 23:59:59 and 00:00:00 Lagos (22:59:59 and 23:00:00 UTC) on the right side of the cut-off', () => {
    const { db } = createTestDb();
    const at = (iso: string) => Date.parse(iso);
    const rows = [
      { sessionId: nextSessionId(), occurredAt: at('2026-11-22T22:59:59Z'), amountKobo: 100 }, // 23:59:59 on the 22nd
      { sessionId: nextSessionId(), occurredAt: at('2026-11-22T23:00:00Z'), amountKobo: 200 }, // 00:00:00 on the 23rd
      { sessionId: nextSessionId(), occurredAt: at('2026-11-23T02:59:59Z'), amountKobo: 400 }, // 03:59:59 on the 23rd
      { sessionId: nextSessionId(), occurredAt: at('2026-11-23T03:00:00Z'), amountKobo: 800 }, // 04:00:00 on the 23rd
      { sessionId: nextSessionId(), occurredAt: at('2026-11-21T23:00:00Z'), amountKobo: 1600 }, // 00:00 on the 22nd
    ];
    for (const row of rows) {
      insertInflowRow(
        db,
        { ...row, reference: 'X', status: 'success', saleId: null, listed: true },
        0,
      );
    }
    const report = (day: string, cutoffHour: number) =>
      buildZReport(db, { fromDay: day, toDay: day, cutoffHour, timeZone: LAGOS, now: 0 }).success;

    expect(report('2026-11-22', 0)).toEqual({ count: 2, amountKobo: 1700 });
    expect(report('2026-11-23', 0)).toEqual({ count: 3, amountKobo: 1400 });
    // With the day starting at 04:00, midnight and 03:59:59 still belong to the 22nd.
    expect(report('2026-11-22', 4)).toEqual({ count: 3, amountKobo: 700 });
    expect(report('2026-11-23', 4)).toEqual({ count: 1, amountKobo: 800 });
    expect(report('2026-11-21', 4)).toEqual({ count: 1, amountKobo: 1600 });

    const hours = buildZReport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      cutoffHour: 4,
      timeZone: LAGOS,
      now: 0,
    }).byHour;
    expect(hours.find((h) => h.hour === 23)).toEqual({ hour: 23, count: 1, amountKobo: 100 });
    expect(hours.find((h) => h.hour === 0)).toEqual({ hour: 0, count: 1, amountKobo: 200 });
    expect(hours.find((h) => h.hour === 3)).toEqual({ hour: 3, count: 1, amountKobo: 400 });
    expect(hours[0]?.hour).toBe(4);
    expect(hours[23]?.hour).toBe(3);
  });

  it('judges paid sales against the listing only when a complete sync covers them', () => {
    const { db } = createTestDb();
    const day = lagosDayStart('2026-11-22', 0);
    const unlisted = nextSessionId();
    const listedFailed = nextSessionId();
    const late = nextSessionId();
    const sale = (n: number, sessionId: string, paidAt: number) =>
      insertSaleWithHistory(
        db,
        {
          amountKobo: 150000,
          tillId: 'till-1',
          cashier: 'Ada',
          reference: `TT-M-${n}`,
          createdAt: paidAt - 60_000,
        },
        [
          { at: paidAt - 50_000, state: 'awaiting_payment' },
          { at: paidAt, state: 'paid', paidSessionId: sessionId },
        ],
      );
    const a = sale(1, unlisted, day + 9 * HOUR);
    insertInflowRow(
      db,
      {
        sessionId: unlisted,
        reference: 'TT-M-1',
        amountKobo: 150000,
        status: 'success',
        occurredAt: day + 9 * HOUR,
        saleId: a.id,
        listed: false,
      },
      0,
    );
    const b = sale(2, listedFailed, day + 10 * HOUR);
    insertInflowRow(
      db,
      {
        sessionId: listedFailed,
        reference: 'TT-M-2',
        amountKobo: 150000,
        status: 'failed',
        occurredAt: day + 10 * HOUR,
        saleId: b.id,
        listed: true,
      },
      0,
    );
    const c = sale(3, late, day + 20 * HOUR); // after the sync below started: not judged
    const report = () =>
      buildZReport(db, {
        fromDay: '2026-11-22',
        toDay: '2026-11-22',
        cutoffHour: 0,
        timeZone: LAGOS,
        now: day + DAY,
      }).exceptions.filter((e) => e.kind === 'missing_from_provider');

    expect(report()).toEqual([]); // no complete sync yet: nothing can be judged
    insertCompleteSyncRun(db, day + 12 * HOUR);
    const missing = report();
    expect(missing.map((e) => e.saleId)).toEqual([a.id, b.id]);
    expect(missing[0]?.message).toMatch(/does not show/);
    expect(missing[1]?.message).toMatch(/shows that payment as failed/);
    expect(missing.map((e) => e.saleId)).not.toContain(c.id);
  });

  it('counts counter accounts by account id or by reference, and the last sync as it is', () => {
    const { db } = createTestDb();
    const [first] = insertCounterAccounts(db, 0);
    const day = lagosDayStart('2026-11-22', 0);
    insertInflowRow(
      db,
      {
        sessionId: nextSessionId(),
        reference: 'renamed',
        amountKobo: 5000,
        status: 'success',
        occurredAt: day + HOUR,
        saleId: null,
        listed: true,
        accountId: first ?? null,
      },
      0,
    );
    insertInflowRow(
      db,
      {
        sessionId: nextSessionId(),
        reference: COUNTER_REFERENCES[1],
        amountKobo: 7000,
        status: 'success',
        occurredAt: day + 2 * HOUR,
        saleId: null,
        listed: true,
      },
      0,
    );
    const options = {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      cutoffHour: 0,
      timeZone: LAGOS,
      now: day + DAY,
    };
    expect(buildZReport(db, options).lastSync).toBeNull();
    const report = buildZReport(db, options);
    expect(report.counter).toEqual({ count: 2, amountKobo: 12000 });
    expect(report.exceptions.filter((e) => e.kind === 'unmatched_inflow')).toEqual([]);
    insertCompleteSyncRun(db, day + 3 * HOUR, 2);
    expect(buildZReport(db, options).lastSync).toMatchObject({
      status: 'complete',
      startedAt: day + 3 * HOUR,
    });
  });

  it('refuses a range that ends before it starts', () => {
    const { db } = createTestDb();
    expect(() =>
      buildZReport(db, {
        fromDay: '2026-11-23',
        toDay: '2026-11-22',
        cutoffHour: 0,
        timeZone: LAGOS,
        now: 0,
      }),
    ).toThrow(ReportError);
  });

  it('reads its figures through indexes (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    const headline = explain(db, HEADLINE_SQL, 0, 1).join('\n');
    expect(headline).toMatch(
      /SEARCH inflows USING COVERING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
    );
    expect(explain(db, BY_BUCKET_SQL, 0, 1).join('\n')).toMatch(/COVERING INDEX inflows_day/);
    expect(explain(db, BY_TILL_SQL, 0, 1).join('\n')).toContain('sales_paid');
    expect(explain(db, COUNTER_SQL, 0, 1).join('\n')).toMatch(/SEARCH i USING INDEX inflows_day/);
    // Exceptions: each starts from a bounded range of the day, never from a whole table.
    const starts: [string, RegExp, unknown[]][] = [
      [
        UNMATCHED_SQL,
        /^SEARCH i USING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
        [0, 1, 10],
      ],
      [
        WRONG_AMOUNT_SQL,
        /^SEARCH i USING INDEX inflows_day \(occurred_at>\? AND occurred_at<\?\)/,
        [0, 1, 10],
      ],
      [PAID_LATE_SQL, /^SEARCH sales USING INDEX sales_paid/, [0, 1, 10]],
      [MISSING_SQL, /^SEARCH s USING INDEX sales_paid/, [0, 1, 1, 10]],
      [OPEN_AT_CUTOFF_SQL, /^SEARCH s USING INDEX sales_created/, [1, 0, 1, 10]],
    ];
    for (const [sql, start, params] of starts) {
      const plan = explain(db, sql, ...params);
      expect(plan[0], sql).toMatch(start);
      expect(plan.join('\n'), sql).not.toMatch(/SCAN|TEMP B-TREE FOR ORDER BY/);
    }
    // Works on an empty table too.
    expect(headlineTotals(db, 0, 1)).toEqual({
      success: { count: 0, amountKobo: 0 },
      failed: { count: 0, amountKobo: 0 },
      pending: { count: 0, amountKobo: 0 },
    });
  });
});
