/**
 * The report's line for every outage sale of its range: confirmed after the outage (with the
 * delay), assigned by a person (who), or its money not seen yet (follow up). Lines of the
 * report's exceptions, so the screen, the CSV and the PDF list them as they list the rest.
 */
import { formatNaira } from '#shared/money';
import { countOf } from '#shared/plural';
import type { ExceptionFinding } from '#shared/views';
import { ASSIGNED_AFTER_OUTAGE } from '#main/engine/outage-matching';
import type { Db } from '#main/store/database';
import { outageSalesOfRange, type OutageSaleOutcomeRow } from '#main/store/outage-matching-queries';
import { localClock } from './report-range';

/** A delay as people say it: "42 minutes", "2 hours 5 minutes". */
export function delayWords(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return countOf(minutes, 'minute');
  return rest === 0
    ? countOf(hours, 'hour')
    : `${countOf(hours, 'hour')} ${countOf(rest, 'minute')}`;
}

function assignedBy(row: OutageSaleOutcomeRow): string {
  try {
    const detail = JSON.parse(row.paidDetail ?? '{}') as { assignedBy?: unknown };
    return typeof detail.assignedBy === 'string' ? detail.assignedBy : 'a person';
  } catch {
    return 'a person';
  }
}

function lineOf(row: OutageSaleOutcomeRow, zone: string): ExceptionFinding {
  const sale = `Sale #${row.saleId} for ${formatNaira(row.amountKobo)} (the customer was asked to send exactly ${formatNaira(row.amountDueKobo)}), taken during the outage at ${localClock(row.createdAt, zone)},`;
  const common = {
    saleId: row.saleId,
    sessionId: row.paidSessionId,
    amountKobo: row.amountDueKobo,
    at: row.createdAt,
  };
  if (row.paidAt === null || row.paidCause === null) {
    return {
      ...common,
      kind: 'outage_not_seen',
      message: `${sale} has no payment seen for it yet.`,
      action:
        'Look under "Needs a person" for a payment that could be this sale\'s, and press "Sync". If nothing comes, ask the customer for the transfer receipt and check with the provider. Then press "Record what was done" here and note what you did.',
    };
  }
  const when = `at ${localClock(row.paidAt, zone)} (${delayWords(row.paidAt - row.createdAt)} later)`;
  if (row.paidCause === ASSIGNED_AFTER_OUTAGE) {
    return {
      ...common,
      kind: 'outage_assigned',
      message: `${sale} was given its payment by ${assignedBy(row)} ${when}, by transfer ${row.paidSessionId ?? 'unknown'}.`,
      action:
        'Nothing to do: a person chose this payment for the sale. If the customer disputes it, give the provider the session id.',
    };
  }
  return {
    ...common,
    kind: 'outage_confirmed',
    message: `${sale} was confirmed after the outage ${when}: transfer ${row.paidSessionId ?? 'unknown'} was for exactly that amount.`,
    action: 'Nothing to do: the money arrived.',
  };
}

/** Every outage sale taken in the range, as a report line. */
export function outageSaleLines(
  db: Db,
  range: { readonly fromMs: number; readonly toMs: number },
  zone: string,
  limit: number,
): ExceptionFinding[] {
  return outageSalesOfRange(db, range, limit).map((row) => lineOf(row, zone));
}
