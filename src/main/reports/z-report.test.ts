import { describe, expect, it } from 'vitest';
import { OPEN_SALE_STATES, type SaleState } from '../../shared/sales';
import type { AmountTotal, ExceptionKind } from '../../shared/views';
import { insertCallback } from '../store/callback-log-repo';
import { createTestDb, explain } from '../store/test-helpers';
import { recordUnreadableRows, resolveUnseenUnreadableRows } from '../store/unreadable-repo';
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
  REVERSED_SQL,
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
  const statusOf = new Map(model.inflows.map((i) => [i.sessionId, i.status]));
  const paidSessions = new Set(model.sales.map((s) => s.paidSessionId));
  const isReversed = (s: ModelSale): boolean =>
    s.paidSessionId !== null && (statusOf.get(s.paidSessionId) ?? 'success') !== 'success';
  const cutoff = Math.min(now, toMs);
  const exceptions = new Map<ExceptionKind, string[]>([
    [
      'paid_late',
      paidHere.filter((s) => s.history.at(-1)?.state === 'paid_late').map((s) => `sale:${s.id}`),
    ],
    [
      'wrong_amount',
      of('failed')
        .filter((i) => !paidSessions.has(i.sessionId))
        .map((i) => `session:${i.sessionId}`),
    ],
    ['reversed', paidHere.filter(isReversed).map((s) => `sale:${s.id}`)],
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
          (s) =>
            (s.paidAt ?? 0) < coveredBefore &&
            !listedSessions.has(s.paidSessionId ?? '') &&
            !isReversed(s),
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
        'reversed',
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
    // b's payment is stored as failed: a reversal (below), not a payment the listing lacks.
    expect(missing.map((e) => e.saleId)).toEqual([a.id]);
    expect(missing[0]?.message).toMatch(/does not show/);
    expect(missing.map((e) => e.saleId)).not.toContain(c.id);

    // The listing shows it failed while a newer status check still says success: missing.
    db.prepare(`UPDATE inflows SET status = 'success' WHERE session_id = ?`).run(listedFailed);
    const both = report();
    expect(both.map((e) => e.saleId)).toEqual([a.id, b.id]);
    expect(both[1]?.message).toMatch(/shows that payment as failed/);
    db.prepare(`UPDATE inflows SET status = 'failed' WHERE session_id = ?`).run(listedFailed);
    const all = buildZReport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      cutoffHour: 0,
      timeZone: LAGOS,
      now: day + DAY,
    }).exceptions;
    expect(all.filter((e) => e.kind === 'reversed').map((e) => e.saleId)).toEqual([b.id]);
    expect(all.filter((e) => e.kind === 'wrong_amount')).toEqual([]);
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

  it('shows a sale whose payment was reversed after it was marked paid, as an error to act on', () => {
    const { db } = createTestDb();
    const day = lagosDayStart('2026-11-22', 0);
    const sessionId = nextSessionId();
    const sale = insertSaleWithHistory(
      db,
      {
        amountKobo: 250000,
        tillId: 'till-1',
        cashier: 'Ada',
        reference: 'TT-R-1',
        createdAt: day + 9 * HOUR,
      },
      [
        { at: day + 9 * HOUR + 1000, state: 'awaiting_payment' },
        { at: day + 9 * HOUR + 60_000, state: 'paid', paidSessionId: sessionId },
      ],
    );
    const inflow = {
      sessionId,
      reference: 'TT-R-1',
      amountKobo: 250000,
      occurredAt: day + 9 * HOUR + 50_000,
      saleId: sale.id,
      listed: true,
    };
    insertInflowRow(db, { ...inflow, status: 'success' }, 0);
    const options = {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      cutoffHour: 0,
      timeZone: LAGOS,
      now: day + DAY,
    };
    expect(buildZReport(db, options).exceptions.filter((e) => e.kind === 'reversed')).toEqual([]);

    for (const status of ['failed', 'pending'] as const) {
      db.prepare(`UPDATE inflows SET status = ?, status_observed_at = ? WHERE session_id = ?`).run(
        status,
        day + 15 * HOUR,
        sessionId,
      );
      const [exception] = buildZReport(db, options).exceptions.filter((e) => e.kind === 'reversed');
      expect(exception).toMatchObject({ saleId: sale.id, sessionId, amountKobo: 250000 });
      expect(exception?.message).toContain(
        `now reports that payment as ${status} (since 2026-11-22 15:00`,
      );
      expect(exception?.action).toMatch(/Do not count this money/);
    }
  });

  it("lists the provider's rows it could not read (any day) and the day's unreadable callbacks", () => {
    const { db } = createTestDb();
    const day = lagosDayStart('2026-11-22', 0);
    const runId = insertCompleteSyncRun(db, day);
    recordUnreadableRows(
      db,
      [
        { position: 3, raw: '{"amount":1}', problem: 'session_id: missing' },
        { position: 8, raw: '{"amount":2}', problem: 'session_id: missing' },
        { position: 9, raw: '{"date":"x"}', problem: 'date: not a provider date' },
      ],
      runId,
      day + 2 * HOUR,
    );
    const callback = (at: number, parseStatus: string, contentType: string | null) =>
      insertCallback(db, {
        receivedAt: at,
        remoteAddress: '127.0.0.1',
        method: 'POST',
        contentType,
        headers: {},
        body: '<xml/>',
        parseStatus,
        hint: null,
      });
    callback(day + 3 * HOUR, 'malformed', 'application/xml; charset=utf-8');
    callback(day + 4 * HOUR, 'malformed', 'application/json');
    callback(day + 5 * HOUR, 'malformed', 'application/json');
    callback(day + 6 * HOUR, 'ok', 'application/json');
    callback(day + 30 * HOUR, 'malformed', 'text/plain'); // the next day

    const report = (d: string) =>
      buildZReport(db, {
        fromDay: d,
        toDay: d,
        cutoffHour: 0,
        timeZone: LAGOS,
        now: day + 3 * DAY,
      });
    const today = report('2026-11-22').exceptions;
    const rows = today.find((e) => e.kind === 'unreadable_rows');
    expect(rows).toMatchObject({
      saleId: null,
      sessionId: null,
      amountKobo: null,
      at: day + 2 * HOUR,
    });
    expect(rows?.message).toBe(
      "3 rows of the provider's transaction list could not be read (first seen 2026-11-22 02:00): session_id: missing (2 rows); date: not a provider date (1 row). They are kept: nothing is lost, but these figures may be missing them.",
    );
    expect(rows?.action).toMatch(/^Sync again later.*ask the provider/);
    const callbacks = today.find((e) => e.kind === 'unreadable_callbacks');
    expect(callbacks?.at).toBe(day + 3 * HOUR);
    expect(callbacks?.message).toBe(
      '4 payment notifications (callbacks) received in this period could not be read: JSON that could not be parsed (2); sent as application/xml, not JSON or a form (1); readable, but with no reference or session id in it (1). Each is kept as it was received.',
    );
    // The rows may belong to any day; the callbacks belong to the day they came.
    const next = report('2026-11-23').exceptions;
    expect(next.find((e) => e.kind === 'unreadable_rows')?.message).toMatch(/^3 rows/);
    expect(next.find((e) => e.kind === 'unreadable_callbacks')?.message).toMatch(
      /^1 payment notification \(callback\) .*sent as text\/plain/,
    );
    // Taken in by a later complete full sync: gone from every report.
    resolveUnseenUnreadableRows(db, insertCompleteSyncRun(db, day + DAY), day + DAY);
    expect(report('2026-11-22').exceptions.some((e) => e.kind === 'unreadable_rows')).toBe(false);
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
      [REVERSED_SQL, /^SEARCH s USING INDEX sales_paid/, [0, 1, 10]],
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
