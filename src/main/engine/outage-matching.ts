/**
 * Money into the till's outage account, matched to the outage sales taken while the provider
 * could not be reached. The till never guesses: a payment pays a sale only when exactly one
 * outage sale asked for that exact amount within the window, and that sale is still waiting.
 * Anything else (two sales it could be for, an amount no sale asked for, a second payment of an
 * amount a sale was already paid with) is a "Needs a person" alert naming the sales it could be
 * for; the owner assigns it (assignOutagePayment). Whichever report brings the payment first (a
 * callback, the listing sync), the decision is made once: a transfer linked to a sale is done.
 */
import { formatNaira } from '#shared/money';
import { NEEDS_PERSON, type OutageCandidate } from '#shared/sales';
import type { AccountRow } from '#main/store/accounts-repo';
import type { AlertRow } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { getInflowBySession, type InflowRow } from '#main/store/inflows-repo';
import {
  alertWasRaised,
  linkInflowToSale,
  listOutageSalesDueBetween,
} from '#main/store/outage-matching-queries';
import { getSale, listUnconfirmedSales, type SaleRow } from '#main/store/sales-repo';
import { changeSale, raiseEngineAlert, type EngineContext } from './engine-context';

/**
 * The outage's window: a payment is matched to an outage sale when the provider dates it from
 * 2 minutes before the sale was taken (the till's and the provider's clocks may differ a little)
 * to 12 hours after (a customer pays at the counter; a bank may credit hours late, and a long
 * outage is a trading day). Outside it an exact amount is still only a candidate for a person.
 */
export const OUTAGE_WINDOW = { beforeSaleMs: 2 * 60_000, afterSaleMs: 12 * 3_600_000 } as const;

/** The sale event cause of an outage sale paid by its one exact match. */
export const CONFIRMED_AFTER_OUTAGE = 'confirmed_after_outage';
/** The sale event cause of an outage sale an owner assigned a payment to. */
export const ASSIGNED_AFTER_OUTAGE = 'assigned_after_outage';

/** The dedupe key of a payment's "Needs a person" alert: one per transfer, ever. */
export function needsPersonKey(sessionId: string): string {
  return `${NEEDS_PERSON}:${sessionId}`;
}

/** A kobo tag is under ₦1: a payment within ₦1 of what a sale asked may be that sale's. */
const CANDIDATE_SPREAD_KOBO = 100;

export type OutageMatch = 'paid' | 'needs-person' | 'already-matched' | 'not-a-success';

/** The moment the provider dates a transfer (or, without a date, when the till first saw it). */
function transferTime(row: InflowRow): number {
  return row.occurredAt ?? row.firstSeenAt;
}

/**
 * Decides what a stored transfer into the outage account pays. Runs inside the caller's
 * publisher.atomically (with the transfer's own record), so the decision and the record are one.
 */
export function matchOutagePayment(ctx: EngineContext, row: InflowRow): OutageMatch {
  if (row.status !== 'success') return 'not-a-success';
  if (row.saleId !== null) return 'already-matched';
  // Once handed to a person it stays theirs: a sale taken since never takes it by itself.
  if (alertWasRaised(ctx.db, needsPersonKey(row.sessionId))) return 'needs-person';
  const at = transferTime(row);
  const exact = listOutageSalesDueBetween(
    ctx.db,
    row.amountKobo,
    at - OUTAGE_WINDOW.afterSaleMs,
    at + OUTAGE_WINDOW.beforeSaleMs,
  );
  const only = exact.length === 1 ? exact[0] : undefined;
  if (only?.state === 'unconfirmed' && payOutageSale(ctx, only, row, CONFIRMED_AFTER_OUTAGE, {})) {
    return 'paid';
  }
  raiseNeedsPerson(ctx, row, exact);
  return 'needs-person';
}

/**
 * Pays an outage sale with a transfer and links the transfer to it, in one transaction; false
 * when the sale is no longer waiting or the transfer already paid a sale. (One connection runs
 * each transaction to its end: what is read here still holds at the write.)
 */
export function payOutageSale(
  ctx: EngineContext,
  sale: SaleRow,
  row: InflowRow,
  cause: string,
  detail: Readonly<Record<string, string>>,
): boolean {
  return ctx.publisher.atomically(() => {
    if (getSale(ctx.db, sale.id)?.state !== 'unconfirmed') return false;
    if (!linkInflowToSale(ctx.db, row.sessionId, sale.id)) return false;
    const now = ctx.scheduler.now();
    const paid = changeSale(
      ctx,
      sale.id,
      {
        state: 'paid',
        cause,
        reason: null,
        fields: { paidSessionId: row.sessionId, paidAt: now },
        detail: {
          sessionId: row.sessionId,
          providerDate: row.providerDate,
          delayMs: now - sale.createdAt,
          ...detail,
        },
      },
      ['unconfirmed'],
    );
    return paid !== undefined;
  });
}

function raiseNeedsPerson(ctx: EngineContext, row: InflowRow, exact: readonly SaleRow[]): void {
  const candidates = outageCandidatesOfPayment(ctx.db, row);
  const named = candidates.map((c) => `#${c.saleId} (asked ${formatNaira(c.amountDueKobo)})`);
  const paidAlready = exact.filter((sale) => sale.state !== 'unconfirmed');
  const why =
    exact.length === 0
      ? 'no outage sale asked for exactly this amount'
      : paidAlready.length > 0
        ? `sale${paidAlready.length > 1 ? 's' : ''} ${paidAlready.map((s) => `#${s.id}`).join(', ')} asked for this amount and ${paidAlready.length > 1 ? 'are' : 'is'} already settled`
        : `${exact.length} outage sales asked for exactly this amount`;
  raiseEngineAlert(ctx, {
    level: 'warning',
    kind: NEEDS_PERSON,
    saleId: null,
    sessionId: row.sessionId,
    message: `${formatNaira(row.amountKobo)} arrived in the shop's standing account after the outage, but ${why}, so the till did not give it to any sale. ${named.length > 0 ? `It could be for sale ${named.join(' or ')}.` : 'No waiting outage sale is close to this amount.'} Ask the customer for the transfer receipt, then assign it to the right sale.`,
    dedupeKey: needsPersonKey(row.sessionId),
  });
}

/**
 * The outage sales still waiting that a payment could be for: those that asked within ₦1 of
 * it, nearest in time first. Read when the alert is shown, so a sale paid since drops out.
 */
export function outageCandidatesOfPayment(db: Db, row: InflowRow): OutageCandidate[] {
  const at = transferTime(row);
  return listUnconfirmedSales(db)
    .filter(
      (sale) =>
        sale.amountDueKobo !== null &&
        Math.abs(sale.amountDueKobo - row.amountKobo) < CANDIDATE_SPREAD_KOBO,
    )
    .sort((a, b) => Math.abs(a.createdAt - at) - Math.abs(b.createdAt - at) || a.id - b.id)
    .map((sale) => ({
      saleId: sale.id,
      amountKobo: sale.amountKobo,
      amountDueKobo: sale.amountDueKobo ?? sale.amountKobo,
      createdAt: sale.createdAt,
      cashier: sale.cashier,
    }));
}

/** The candidates an alert shows: only a "Needs a person" alert about a transfer has them. */
export function alertCandidates(db: Db, alert: AlertRow): readonly OutageCandidate[] | undefined {
  if (alert.kind !== NEEDS_PERSON || alert.sessionId === null) return undefined;
  const row = getInflowBySession(db, alert.sessionId);
  return row ? outageCandidatesOfPayment(db, row) : [];
}

/** Whether an account is the one outage sales are taken on. */
export function isOutageAccount(account: AccountRow | undefined): account is AccountRow {
  return account?.purpose === 'outage';
}
