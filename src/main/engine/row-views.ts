import { alertAction } from './alert-closing';
import { alertCandidates } from './outage-matching';
import type { AlertView, InflowView, OutageCandidate } from '#shared/sales';
import type { StandingAccountView } from '#shared/views';
import type { AccountRow } from '#main/store/accounts-repo';
import type { AlertRow } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import type { InflowRow } from '#main/store/inflows-repo';

export function inflowView(row: InflowRow): InflowView {
  return {
    sessionId: row.sessionId,
    externalReference: row.externalReference,
    amountKobo: row.amountKobo,
    status: row.status,
    occurredAt: row.occurredAt,
    source: row.source,
    saleId: row.saleId,
    firstSeenAt: row.firstSeenAt,
  };
}

/** An alert as pages show it; `candidates` only on a "Needs a person" outage payment. */
export function alertView(row: AlertRow, candidates?: readonly OutageCandidate[]): AlertView {
  return {
    id: row.id,
    createdAt: row.createdAt,
    level: row.level,
    kind: row.kind,
    saleId: row.saleId,
    sessionId: row.sessionId,
    message: row.message,
    acknowledgedAt: row.acknowledgedAt,
    closedBy: row.closedBy,
    action: row.acknowledgedAt === null ? alertAction(row) : null,
    ...(candidates === undefined ? {} : { candidates }),
  };
}

/** An alert as the owner's pages show it: a "Needs a person" payment with the sales it may be. */
export function ownerAlertView(db: Db, row: AlertRow): AlertView {
  return alertView(row, alertCandidates(db, row));
}

export function standingAccountView(row: AccountRow): StandingAccountView {
  return {
    id: row.id,
    type: row.type === 'static' ? 'static' : 'static-flex',
    reference: row.reference,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    bank: row.bank,
    amountKobo: row.amountKobo,
    createdAt: row.createdAt,
  };
}
