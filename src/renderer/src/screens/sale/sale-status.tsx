import { formatNaira } from '#shared/money';
import { saleNumberOf } from '#shared/report-words';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import { SALE_STATE_WORDS } from '../../format';
import { paidLateWords } from './paid-late';

/** What the banner says after the state's own words: the amount received, or why it ended. */
function statusDetail(sale: SaleView): string | null {
  switch (sale.state) {
    case 'paid':
      // The amount again, where the eye lands: the cashier hands over the goods on this line.
      return `${formatNaira(sale.amountKobo)} received`;
    case 'wrong_amount':
    case 'failed_to_create':
      return sale.reason;
    default:
      return isOpenSaleState(sale.state) ? null : sale.reason;
  }
}

/** The sale's state, large, with its short number: the first thing the cashier reads. */
export function SaleStatus({ sale }: { readonly sale: SaleView }) {
  if (sale.state === 'paid_late') {
    // Amber and no tick: money after the sale closed asks for a decision, not a hand-over.
    return (
      <div className="sale-status status-paid_late" data-testid="sale-status" role="status">
        <span className="status-words">{paidLateWords(sale)}</span>
        <span className="status-sale-number">Sale {saleNumberOf(sale.id)}</span>
      </div>
    );
  }
  const paid = sale.state === 'paid';
  const detail = statusDetail(sale);
  return (
    <div className={`sale-status status-${sale.state}`} data-testid="sale-status" role="status">
      {paid && (
        <span className="tick" aria-hidden="true">
          ✓
        </span>
      )}
      <span className="status-words">{SALE_STATE_WORDS[sale.state]}</span>
      {paid && (
        <span className="status-amount" data-testid="paid-amount">
          {formatNaira(sale.amountKobo)}
        </span>
      )}
      <span className="status-sale-number">Sale {saleNumberOf(sale.id)}</span>
      {detail && !paid && <span className="status-reason">{detail}</span>}
      {paid && <span className="visually-hidden">{detail}</span>}
    </div>
  );
}
