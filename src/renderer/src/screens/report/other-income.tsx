import { formatNaira } from '#shared/money';
import { formatDateTime } from '#shared/report-words';
import type { ZReportView } from '#shared/views';

/** Transfers listed at most, the rest summed up. */
const SHOWN = 20;

/**
 * "Other income on this account" (Settings: the account also receives transfers from other
 * channels): money with no reference of this shop, counted apart from its sales.
 */
export function OtherIncome({ report }: { readonly report: ZReportView }) {
  const other = report.otherIncome;
  if (!other) return null;
  const rest = other.transfers.length - SHOWN;
  return (
    <section className="panel" aria-labelledby="other-income-heading" data-testid="other-income">
      <h3 id="other-income-heading">Other income on this account</h3>
      <p>
        Received: <span data-testid="other-income-count">{other.success.count}</span> (
        <span data-testid="other-income-amount">{formatNaira(other.success.amountKobo)}</span>)
        {other.failed.count > 0 &&
          ` · rejected by the provider: ${other.failed.count} (${formatNaira(other.failed.amountKobo)})`}
        . Not counted in the shop&apos;s sales, and not a case for a person.
      </p>
      {other.transfers.length > 0 && (
        <ul className="other-income-list">
          {other.transfers.slice(0, SHOWN).map((transfer) => (
            <li key={transfer.sessionId}>
              {formatDateTime(transfer.at, report.timeZone)} · {formatNaira(transfer.amountKobo)}
              {transfer.status === 'failed' && ' · rejected'} · reference{' '}
              {transfer.reference ?? 'none'} · session {transfer.sessionId}
            </li>
          ))}
          {rest > 0 && <li className="muted">and {rest} more (see the CSV)</li>}
        </ul>
      )}
    </section>
  );
}
