import { describe, expect, it } from 'vitest';
import { createTestDb, explain, storeOutageAccount } from '#support/database';
import { raiseAlert } from './alerts-repo';
import { getInflowBySession, insertReportedInflow } from './inflows-repo';
import {
  alertWasRaised,
  linkInflowToSale,
  listOutageSalesDueBetween,
  OUTAGE_SALES_DUE_BETWEEN_SQL,
  OUTAGE_SALES_OF_RANGE_SQL,
  outageSalesOfRange,
} from './outage-matching-queries';
import { insertOutageSale, transitionSale } from './sales-repo';

const SESSION = '1'.repeat(30);

function world() {
  const { db } = createTestDb();
  const account = storeOutageAccount(db);
  const take = (reference: string, amountKobo: number, at: number) =>
    insertOutageSale(
      db,
      { accountId: account.id, amountKobo, note: null, cashier: null, tillId: 't', reference },
      at,
    );
  return { db, take };
}

describe('outage matching queries', () => {
  it('finds outage sales of one exact amount due taken in a window, any state', () => {
    const { db, take } = world();
    const a = take('O-1', 150_000, 1_000);
    const b = take('O-2', 150_000, 5_000);
    take('O-3', 150_000, 9_000);
    expect(a && transitionSale(db, a.id, { state: 'paid', cause: 't' }, 6_000)).toBeTruthy();
    expect(listOutageSalesDueBetween(db, 150_001, 0, 5_000).map((s) => s.reference)).toEqual([
      'O-1',
    ]);
    expect(listOutageSalesDueBetween(db, 150_002, 0, 5_000).map((s) => s.id)).toEqual([b?.id]);
    expect(listOutageSalesDueBetween(db, 150_002, 5_001, 9_999)).toEqual([]);
    expect(listOutageSalesDueBetween(db, 150_000, 0, 9_999)).toEqual([]);
    expect(explain(db, OUTAGE_SALES_DUE_BETWEEN_SQL, 0, 1, 150_001)).toEqual([
      'SEARCH sales USING INDEX sales_created (created_at>? AND created_at<?)',
    ]);
    expect(explain(db, OUTAGE_SALES_OF_RANGE_SQL, 0, 1, 10)[0]).toBe(
      'SEARCH s USING INDEX sales_created (created_at>? AND created_at<?)',
    );
    expect(outageSalesOfRange(db, { fromMs: 0, toMs: 10_000 }, 10)).toMatchObject([
      { saleId: a?.id, state: 'paid', paidCause: 't', amountDueKobo: 150_001 },
      { saleId: b?.id, state: 'unconfirmed', paidCause: null },
      { state: 'unconfirmed' },
    ]);
  });

  it('links a transfer to one sale only, and remembers a raised alert by its key', () => {
    const { db, take } = world();
    const a = take('O-1', 10_000, 1);
    const b = take('O-2', 10_000, 1);
    insertReportedInflow(
      db,
      {
        sessionId: SESSION,
        externalReference: 'TT-OUTAGE-1',
        amountKobo: 10_001,
        status: 'success',
        providerDate: null,
        occurredAt: 2,
      },
      'callback',
      2,
      2,
    );
    expect(linkInflowToSale(db, SESSION, a?.id ?? 0)).toBe(true);
    expect(linkInflowToSale(db, SESSION, b?.id ?? 0)).toBe(false);
    expect(getInflowBySession(db, SESSION)?.saleId).toBe(a?.id);
    expect(alertWasRaised(db, 'k')).toBe(false);
    raiseAlert(db, { level: 'warning', kind: 'needs_person', message: 'm', dedupeKey: 'k' }, 3);
    expect(alertWasRaised(db, 'k')).toBe(true);
  });
});
