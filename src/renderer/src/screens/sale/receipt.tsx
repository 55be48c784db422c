import { saleNumberOf } from '#shared/report-words';
import type { ReceiptView } from '#shared/views';
import { formatNaira } from '#shared/money';
import { formatDateTime, groupAccountNumber, SALE_STATE_WORDS } from '../../format';
import { SALE_STATES, type SaleState } from '#shared/sales';

export type PaperWidth = '58' | '80';

function stateWords(state: string): string {
  const known = SALE_STATES.find((candidate): candidate is SaleState => candidate === state);
  return known ? SALE_STATE_WORDS[known] : state;
}

/** The receipt itself: the same markup for the on-screen preview and the printed slip. */
export function Receipt({
  receipt,
  width,
}: {
  readonly receipt: ReceiptView;
  readonly width: PaperWidth;
}) {
  const at = receipt.paidAt ?? receipt.createdAt;
  return (
    <article className={`receipt receipt-${width}`} aria-label="Receipt">
      <h3 className="receipt-shop">{receipt.shopName}</h3>
      {/* The number a cashier reads aloud and Reprint asks for; the reference is below. */}
      <p className="receipt-sale-number">Sale {saleNumberOf(receipt.saleId)}</p>
      <p className="receipt-amount">{formatNaira(receipt.amountKobo)}</p>
      <p className="receipt-state">{stateWords(receipt.state)}</p>
      <dl>
        <dt>Paid to</dt>
        <dd>{receipt.accountNumber ? groupAccountNumber(receipt.accountNumber) : '—'}</dd>
        <dt>Bank</dt>
        <dd>{receipt.bank ?? '—'}</dd>
        {receipt.accountName && (
          <>
            <dt>Name</dt>
            <dd>{receipt.accountName}</dd>
          </>
        )}
        <dt>Reference</dt>
        <dd className="mono">{receipt.reference}</dd>
        <dt>Session ID</dt>
        <dd className="mono">{receipt.sessionId ?? '—'}</dd>
        <dt>Date</dt>
        <dd>{formatDateTime(at, receipt.timeZone)}</dd>
        <dt>Till</dt>
        <dd>
          {receipt.tillId ?? '—'}
          {receipt.cashier ? ` · ${receipt.cashier}` : ''}
        </dd>
      </dl>
      <p className="receipt-footer">Sale #{receipt.saleId} · Thank you</p>
    </article>
  );
}
