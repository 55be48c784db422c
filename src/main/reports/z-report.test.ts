import { describe, expect, it } from 'vitest';
import { OPEN_SALE_STATES, type SaleState } from '#shared/sales';
import type { AmountTotal, ExceptionKind } from '#shared/views';
import { insertCallback } from '#main/store/callback-log-repo';
import { createTestDb } from '#support/database';
import { recordUnreadableRows, resolveUnseenUnreadableRows } from '#main/store/unreadable-repo';
import { referencePrefix } from '#shared/till-id';
import { createReferenceGenerator } from '#main/provider/references';
import { ReportError } from './report-range';
import {
  COUNTER_REFERENCES,
  generateShop,
  insertCompleteSyncRun,
  insertStandingAccounts,
  insertInflowRow,
  insertSaleWithHistory,
  nextSessionId,
  type ModelInflow,
  type ModelSale,
  type ShopModel,
} from '#support/shop-history';
import { buildReportExceptions } from './report-exceptions';
import { buildZReport } from './z-report';

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
  /** The generated history has one till's sales and references in no format of this app. */
  readonly thisTill: AmountTotal;
  readonly notOurs: AmountTotal;
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
    thisTill: sum(of('success').filter((i) => i.saleId !== null)),
    notOurs: sum(of('success').filter((i) => i.saleId === null && !i.counter)),
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
      expect(report.shop).toEqual({
        tillId: 'till-1',
        tillPrefix: 'TILL1',
        thisTill: expected.thisTill,
        otherTills: [],
        standingAccounts: expected.counter,
        shopTotal: {
          count: expected.thisTill.count + expected.counter.count,
          amountKobo: expected.thisTill.amountKobo + expected.counter.amountKobo,
        },
        notOurs: expected.notOurs,
      });
      expect(report.shop.shopTotal.count + report.shop.notOurs.count).toBe(report.success.count);
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
      // The exceptions alone (what the CSV export asks for) are the report's, to the field.
      expect(buildReportExceptions(db, { ...c, timeZone: LAGOS, now })).toEqual(report.exceptions);
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

  it('counts standing accounts by account id or by reference, and the last sync as it is', () => {
    const { db } = createTestDb();
    const [first] = insertStandingAccounts(db, 0);
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
        `since 2026-11-22 15:00 the provider reports that payment as ${status}:`,
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
      '4 payment notifications (callbacks) received in this period could not be read: JSON that could not be parsed (2); sent as application/xml, not JSON or a form (1); in a shape this till does not recognise (no reference or session id in it) (1). Each is kept as it was received.',
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
});

describe('Z-report of a shop with several tills', () => {
  const day = lagosDayStart('2026-11-22', 0);
  const clock = () => day + 9 * HOUR;
  const options = { fromDay: '2026-11-22', toDay: '2026-11-22', cutoffHour: 0, timeZone: LAGOS };
  type Listed = {
    sessionId: string;
    reference: string;
    amountKobo: number;
    status: 'success' | 'failed';
  };

  /** One till's database: its own sales and standing account, then the merchant-wide listing. */
  function tillDb(
    tillId: string,
    own: readonly Listed[],
    counterReference: string,
    listing: readonly Listed[],
  ) {
    const { db } = createTestDb();
    const ownSessions = new Set(own.map((row) => row.sessionId));
    db.prepare(
      `INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
       VALUES ('static-flex', 'counter', ?, 'active', 0, 0)`,
    ).run(counterReference);
    let minute = 0;
    const saleOf = new Map<string, number>();
    for (const row of own) {
      minute += 1;
      const at = day + 9 * HOUR + minute * 60_000;
      const paid = row.status === 'success';
      const sale = insertSaleWithHistory(
        db,
        {
          amountKobo: row.amountKobo,
          tillId,
          cashier: 'Ada',
          reference: row.reference,
          createdAt: at,
        },
        [
          { at: at + 1000, state: 'awaiting_payment' },
          paid
            ? { at: at + 30_000, state: 'paid', paidSessionId: row.sessionId }
            : { at: at + 30_000, state: 'wrong_amount' },
        ],
      );
      saleOf.set(row.sessionId, sale.id);
    }
    listing.forEach((row, index) => {
      insertInflowRow(
        db,
        {
          ...row,
          occurredAt: day + 10 * HOUR + index * 60_000,
          saleId: ownSessions.has(row.sessionId) ? (saleOf.get(row.sessionId) ?? null) : null,
          listed: true,
        },
        day + DAY,
      );
    });
    return db;
  }

  it("attributes each till's payments in one listing to the till that made them", () => {
    const a = createReferenceGenerator({ prefix: referencePrefix('till-a7k2'), clock });
    const b = createReferenceGenerator({ prefix: referencePrefix('till-b9q3'), clock });
    const c = createReferenceGenerator({ prefix: referencePrefix('till-c4x8'), clock });
    const row = (reference: string, naira: number, status: Listed['status'] = 'success') => ({
      sessionId: nextSessionId(),
      reference,
      amountKobo: naira * 100,
      status,
    });
    const aSales = [row(a.next(), 1500), row(a.next(), 2500), row(a.next(), 999, 'failed')];
    const bSales = [row(b.next(), 4000), row(b.next(), 6000), row(b.next(), 100, 'failed')];
    const cSale = row(c.next(), 700);
    const aCounter = a.next('counter');
    const bCounter = b.next('counter');
    const counterPayments = [row(aCounter, 300), row(bCounter, 200)];
    const foreign = [row('INV-2026-77', 5000), row('INV-2026-78', 50, 'failed')];
    const listing = [...aSales, ...bSales, cSale, ...counterPayments, ...foreign];

    const tillA = tillDb('till-a7k2', aSales, aCounter, listing);
    const tillB = tillDb('till-b9q3', bSales, bCounter, listing);
    const reportA = buildZReport(tillA, { ...options, tillId: 'till-a7k2', now: day + DAY });
    const reportB = buildZReport(tillB, { ...options, tillId: 'till-b9q3', now: day + DAY });

    const naira = (n: number, count = 1) => ({ count, amountKobo: n * 100 });
    expect(reportA.shop).toEqual({
      tillId: 'till-a7k2',
      tillPrefix: 'TILLA7K2',
      thisTill: naira(4000, 2),
      otherTills: [
        { tillPrefix: 'TILLB9Q3', ...naira(10_000, 2) },
        { tillPrefix: 'TILLC4X8', ...naira(700) },
      ],
      standingAccounts: naira(500, 2),
      shopTotal: naira(15_200, 7),
      notOurs: naira(5000),
    });
    expect(reportB.shop).toMatchObject({
      thisTill: naira(10_000, 2),
      otherTills: [
        { tillPrefix: 'TILLA7K2', ...naira(4000, 2) },
        { tillPrefix: 'TILLC4X8', ...naira(700) },
      ],
      standingAccounts: naira(500, 2),
      shopTotal: naira(15_200, 7),
    });
    // Both tills see the same merchant account: the same shop, the same money nobody made.
    expect(reportA.success).toEqual(reportB.success);
    expect(reportA.shop.shopTotal.amountKobo + reportA.shop.notOurs.amountKobo).toBe(
      reportA.success.amountKobo,
    );

    // Exceptions: only this till's cases and money no till of the shop made.
    const sessions = (report: typeof reportA, kind: string) =>
      report.exceptions.filter((e) => e.kind === kind).map((e) => e.sessionId);
    expect(sessions(reportA, 'unmatched_inflow')).toEqual([foreign[0]?.sessionId]);
    expect(sessions(reportA, 'wrong_amount')).toEqual([
      aSales[2]?.sessionId,
      foreign[1]?.sessionId,
    ]);
    expect(sessions(reportB, 'wrong_amount')).toEqual([
      bSales[2]?.sessionId,
      foreign[1]?.sessionId,
    ]);
    const othersOfA = new Set([...bSales, cSale, counterPayments[1]].map((r) => r?.sessionId));
    for (const exception of reportA.exceptions) {
      expect(othersOfA.has(exception.sessionId ?? ''), exception.message).toBe(false);
    }
    expect(reportA.exceptions.find((e) => e.kind === 'unmatched_inflow')?.message).toMatch(
      /no till of this shop made that reference/,
    );
  });

  it("keeps a sale made under an older till id as this till's, and a renamed prefix counts at once", () => {
    const old = createReferenceGenerator({ prefix: 'till1', clock }); // as builds before 0.2 wrote it
    const renamed = createReferenceGenerator({ prefix: referencePrefix('front'), clock });
    const oldSale = {
      sessionId: nextSessionId(),
      reference: old.next(),
      amountKobo: 1000,
      status: 'success' as const,
    };
    const newSale = {
      sessionId: nextSessionId(),
      reference: renamed.next(),
      amountKobo: 2000,
      status: 'success' as const,
    };
    const db = tillDb('till-1', [oldSale, newSale], 'CTR-LEGACY', [oldSale, newSale]);
    const report = buildZReport(db, { ...options, tillId: 'front', now: day + DAY });
    expect(report.shop.thisTill).toEqual({ count: 2, amountKobo: 3000 });
    expect(report.shop.otherTills).toEqual([]);
    expect(report.exceptions.filter((e) => e.kind === 'unmatched_inflow')).toEqual([]);
  });
});
