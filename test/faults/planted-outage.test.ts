/**
 * The campaign's outage invariants can fail: bugs planted into the outage matching (vi.mock of
 * its module, in-process tills) each make one hand-written outage run fail with the violation
 * that names them, and the same run passes without the plant.
 * - Nearest amount: a transfer no sale asked for exactly pays the waiting sale nearest to it.
 * - Unmatched swallowed: a transfer that pays no sale is dropped with no "Needs a person".
 * - Repeat linked: a second transfer of an amount already paid is linked to that sale too.
 * - Round amount closes: a round amount cancels the waiting sale it is near.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as OutageMatching from '#main/engine/outage-matching';
import { changeSale } from '#main/engine/engine-context';
import { getInflowBySession } from '#main/store/inflows-repo';
import { linkInflowToSale } from '#main/store/outage-matching-queries';
import { getSale, listUnconfirmedSalesDue } from '#main/store/sales-repo';
import { DEFAULT_PERSONALITY } from '#main/sandbox/personality';
import { runOnce } from './campaign';
import { runFailed, type RunReport } from './run-report';
import { SECOND, type Script } from './script';

const plant = vi.hoisted(() => ({
  nearestAmount: false,
  unmatchedSwallowed: false,
  repeatLinked: false,
  roundAmountCloses: false,
  /** The sale each amount paid (for the repeat plant), by amount. */
  paidByAmount: new Map<number, number>(),
}));

vi.mock('#main/engine/outage-matching', async (importOriginal) => {
  const original = await importOriginal<typeof OutageMatching>();
  // The callback and the listing reach the matching through matchOutagePayment, called from
  // standing-accounts.ts: the plant takes that entry point.
  const matchOutagePayment: typeof original.matchOutagePayment = (ctx, row) => {
    const fresh = row.status === 'success' && row.saleId === null;
    if (plant.nearestAmount && fresh) {
      const near = original.outageCandidatesOfPayment(ctx.db, row)[0];
      const sale = near ? getSale(ctx.db, near.saleId) : undefined;
      if (sale && original.payOutageSale(ctx, sale, row, original.CONFIRMED_AFTER_OUTAGE, {})) {
        return 'paid';
      }
    }
    if (plant.unmatchedSwallowed && fresh) {
      if (listUnconfirmedSalesDue(ctx.db, row.amountKobo).length !== 1) return 'needs-person';
    }
    const near = fresh ? original.outageCandidatesOfPayment(ctx.db, row) : [];
    const match = original.matchOutagePayment(ctx, row);
    if (plant.repeatLinked) {
      const paid = plant.paidByAmount.get(row.amountKobo);
      if (match === 'paid') {
        const saleId = getInflowBySession(ctx.db, row.sessionId)?.saleId;
        if (saleId !== null && saleId !== undefined) plant.paidByAmount.set(row.amountKobo, saleId);
      } else if (match === 'needs-person' && paid !== undefined) {
        linkInflowToSale(ctx.db, row.sessionId, paid);
      }
    }
    if (plant.roundAmountCloses && match === 'needs-person') {
      for (const candidate of near) {
        changeSale(ctx, candidate.saleId, { state: 'cancelled', cause: 'planted_round_amount' }, [
          'unconfirmed',
        ]);
      }
    }
    return match;
  };
  return { ...original, matchOutagePayment };
});

/**
 * The provider unreachable from 5 s to 65 s; three outage sales taken in it (₦1,500 paid twice
 * exactly, ₦2,500 paid with the round amount, ₦900 paid exactly), their transfers during and
 * after the outage. No other sale.
 */
const OUTAGE: Script = {
  personality: { ...DEFAULT_PERSONALITY },
  expiryMinutes: 2,
  fixedListenerPort: false,
  sales: [],
  outageSales: [
    { amountKobo: 150_000, behaviour: 'exact-twice' },
    { amountKobo: 250_000, behaviour: 'round' },
    { amountKobo: 90_000, behaviour: 'exact' },
  ],
  steps: [
    { at: 5 * SECOND, kind: 'outage', ms: 60 * SECOND },
    { at: 25 * SECOND, kind: 'outage-sale', sale: 0 },
    { at: 27 * SECOND, kind: 'outage-sale', sale: 1 },
    { at: 29 * SECOND, kind: 'outage-sale', sale: 2 },
    { at: 35 * SECOND, kind: 'outage-pay', sale: 0, round: false },
    { at: 45 * SECOND, kind: 'outage-pay', sale: 2, round: false },
    { at: 80 * SECOND, kind: 'outage-pay', sale: 1, round: true },
    { at: 95 * SECOND, kind: 'outage-pay', sale: 0, round: false },
  ],
  faultSeed: 35,
};

async function play(): Promise<RunReport> {
  return runOnce({ index: 0, seed: 35, sigkill: false, script: OUTAGE });
}

const kinds = (report: RunReport) => [...new Set(report.violations.map((v) => v.kind))];

async function withPlant(
  name: 'nearestAmount' | 'unmatchedSwallowed' | 'repeatLinked' | 'roundAmountCloses',
) {
  plant[name] = true;
  plant.paidByAmount.clear();
  try {
    return await play();
  } finally {
    plant[name] = false;
  }
}

describe('planted faults fail the outage invariants', () => {
  it('the outage run passes without a plant: two sales confirmed, two transfers to a person', async () => {
    const report = await play();
    expect(report.violations).toEqual([]);
    expect(runFailed(report)).toBe(false);
    expect(report.planned.outage_sales).toBe(3);
    expect(report.planned.outage_payments).toBe(4);
    expect(report.result.states).toEqual({ paid: 2, unconfirmed: 1 });
    expect(report.result.outage).toEqual({ sales: 3, confirmed: 2, toAPerson: 2 });
  }, 60_000);

  it('nearest amount: a round transfer pays the sale near it (outage_wrong_match)', async () => {
    expect(kinds(await withPlant('nearestAmount'))).toEqual(['outage_wrong_match']);
  }, 60_000);

  it('unmatched swallowed: no "Needs a person" (outage_payment_not_flagged)', async () => {
    expect(kinds(await withPlant('unmatchedSwallowed'))).toEqual(['outage_payment_not_flagged']);
  }, 60_000);

  it('repeat linked: a sale paid by two transfers (outage_double_pay)', async () => {
    expect(kinds(await withPlant('repeatLinked'))).toEqual(['outage_double_pay']);
  }, 60_000);

  it('round amount closes: an unconfirmed sale cancelled by the till (outage_sale_closed)', async () => {
    expect(kinds(await withPlant('roundAmountCloses'))).toEqual(['outage_sale_closed']);
  }, 60_000);
});
