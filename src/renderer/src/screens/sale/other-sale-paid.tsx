import { formatNaira } from '#shared/money';
import type { SaleView } from '#shared/sales';
import type { SetSale } from './current-sale';
import { useOtherSalePaid, type OtherSalePaid } from './use-other-sale-paid';
import './other-sale-paid.css';

/** The banner's sentence: the money, the sale it is for, and what it probably means. */
export function otherSalePaidWords(arrival: Pick<OtherSalePaid, 'amountKobo' | 'sale'>): string {
  return `${formatNaira(arrival.amountKobo)} just arrived for sale #${arrival.sale.id}: same customer? Cancel this one`;
}

/**
 * On the open sale, where the cashier looks: money just arrived for another sale of this till
 * (paid after it expired or was cancelled, paid twice, or an earlier sale paid), so the customer
 * asked to pay again may already have paid. One press cancels this sale and shows the paid one;
 * "Different customer" puts the banner away; "Open sale #N" asks before it leaves this sale.
 */
export function OtherSalePaidBanner({
  sale,
  onSale,
  onOpen,
}: {
  readonly sale: SaleView;
  readonly onSale: SetSale;
  /** Shows another sale the till's one way: asked first, since this sale is open. */
  readonly onOpen: (sale: SaleView) => void;
}) {
  const other = useOtherSalePaid(sale, onSale);
  const arrival = other.arrival;
  if (!arrival) return null;
  return (
    <section
      className="other-sale-paid"
      data-testid="other-sale-paid"
      role="alert"
      aria-label="Money for another sale"
    >
      <p className="other-sale-paid-words">{otherSalePaidWords(arrival)}</p>
      <div className="other-sale-paid-actions">
        <button
          type="button"
          className="button danger cancel-this"
          disabled={other.busy}
          onClick={() => void other.cancelThis()}
        >
          Cancel this sale
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={other.busy}
          onClick={() => other.differentCustomer()}
        >
          Different customer
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={other.busy}
          onClick={() => onOpen(arrival.sale)}
        >
          {`Open sale #${arrival.sale.id}`}
        </button>
      </div>
      {other.error && (
        <p className="error" role="alert">
          {other.error}
        </p>
      )}
    </section>
  );
}
