import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { ReceiptView } from '../../../../shared/views';
import { formatNaira } from '../../../../shared/money';
import { formatDateTime, groupAccountNumber, SALE_STATE_WORDS } from '../../format';
import { SALE_STATES, type SaleState } from '../../../../shared/sales';

export type PaperWidth = '58' | '80';
const WIDTH_KEY = 'till.receiptWidth';

export function loadPaperWidth(): PaperWidth {
  try {
    return window.localStorage.getItem(WIDTH_KEY) === '58' ? '58' : '80';
  } catch {
    return '80';
  }
}
export function savePaperWidth(width: PaperWidth): void {
  try {
    window.localStorage.setItem(WIDTH_KEY, width);
  } catch {
    // A locked-down profile without storage just forgets the choice.
  }
}

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

/**
 * Prints only the receipt: a copy is portalled next to #root, and while the body carries
 * 'printing-receipt' the print CSS hides everything else.
 */
export function usePrintReceipt(): {
  readonly print: () => void;
  readonly portal: (receipt: ReceiptView | null, width: PaperWidth) => ReactNode;
} {
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!pending) return;
    document.body.classList.add('printing-receipt');
    const done = () => {
      document.body.classList.remove('printing-receipt');
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    setPending(false);
    window.print();
    return undefined;
  }, [pending]);

  return {
    print: () => setPending(true),
    portal: (receipt, width) =>
      receipt
        ? createPortal(
            <div className="print-only receipt-sheet" aria-hidden="true">
              <Receipt receipt={receipt} width={width} />
            </div>,
            document.body,
          )
        : null,
  };
}
