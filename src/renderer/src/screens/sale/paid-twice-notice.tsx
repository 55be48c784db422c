import { useEffect, useRef } from 'react';
import type { SaleView } from '#shared/sales';
import type { SetSale } from './current-sale';
import { useRefundNoted } from './use-sale';
import './paid-twice.css';

/**
 * Under the red "Refund ₦X to this customer": what the transfers were (one press away, for
 * whoever checks the bank statement) and the one press that notes the refund. The focus waits
 * on "Refund noted", so the keystroke meant for the next sale cannot clear it; the next sale
 * starts only once it is pressed (main records it on the paid-twice alert).
 */
export function PaidTwiceNotice({
  sale,
  onSale,
}: {
  readonly sale: SaleView;
  readonly onSale: SetSale;
}) {
  const noted = useRefundNoted(sale, onSale);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const owed = sale.refundsOwed.length > 0;
  useEffect(() => {
    if (owed) buttonRef.current?.focus();
  }, [owed]);
  if (!owed) return null;
  return (
    <div className="paid-twice-notice" role="alert" data-testid="paid-twice-notice">
      <div className="actions">
        <button
          ref={buttonRef}
          type="button"
          className="button danger"
          disabled={noted.busy}
          onClick={() => void noted.note()}
        >
          Refund noted
        </button>
      </div>
      {noted.error && (
        <p className="error" role="alert">
          {noted.error}
        </p>
      )}
      <details className="paid-twice-details">
        <summary>Details</summary>
        {sale.refundsOwed.map((refund) => (
          <p key={refund.alertId}>{refund.details}</p>
        ))}
      </details>
    </div>
  );
}
