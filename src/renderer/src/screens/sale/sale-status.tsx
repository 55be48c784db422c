import { formatNaira } from '#shared/money';
import { saleNumberOf } from '#shared/report-words';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import { SALE_STATE_WORDS } from '../../format';
import {
  GOODS_GIVEN_LABEL,
  PROCESSING_WORDS,
  refundOwedKobo,
  TIME_UP_WORDS,
  UNCONFIRMED_WORDS,
  type SaleMoment,
} from '../../sale-moment';
import { paidLateWords } from './paid-late';

/** A settled outage sale's line under "Paid": true whether it matched or a person assigned it. */
export const OUTAGE_PAID_WORDS = 'Outage sale: paid on the shop\u2019s standing account';

/** What the banner says after the state's own words: the amount received, or why it ended. */
function statusDetail(sale: SaleView): string | null {
  switch (sale.state) {
    case 'paid':
      // The amount again, where the eye lands: the cashier hands over the goods on this line.
      return sale.outagePolicy === null
        ? `${formatNaira(sale.amountKobo)} received`
        : OUTAGE_PAID_WORDS;
    case 'wrong_amount':
    case 'failed_to_create':
      return sale.reason;
    default:
      return isOpenSaleState(sale.state) ? null : sale.reason;
  }
}

/** The sale's state, large, with its short number: the first thing the cashier reads. */
export function SaleStatus({
  sale,
  moment,
}: {
  readonly sale: SaleView;
  readonly moment: SaleMoment;
}) {
  if (moment === 'refund_owed') {
    // Red, above everything: the one thing to do before the customer leaves.
    return (
      <div className="sale-status status-refund-owed" data-testid="sale-status" role="status">
        <span className="status-words">
          Refund {formatNaira(refundOwedKobo(sale))} to this customer
        </span>
        <span className="status-sale-number">Sale {saleNumberOf(sale.id)}</span>
        <span className="status-reason">
          Paid twice: {formatNaira(sale.amountKobo)} for the sale, then again.
        </span>
      </div>
    );
  }
  if (moment === 'processing' || moment === 'time_up') {
    // One state at a time: never "waiting" beside "Expired", never a number beside "processing".
    const processing = moment === 'processing';
    return (
      <div
        className={`sale-status ${processing ? 'status-confirming' : 'status-expired'}`}
        data-testid="sale-status"
        role="status"
      >
        <span className="status-words">{processing ? PROCESSING_WORDS : 'Expired'}</span>
        <span className="status-sale-number">Sale {saleNumberOf(sale.id)}</span>
        {!processing && <span className="status-reason">{TIME_UP_WORDS}</span>}
      </div>
    );
  }
  if (moment === 'unconfirmed') {
    // Amber, no tick: the money is not seen yet, and the policy's press is below.
    return (
      <div className="sale-status status-unconfirmed" data-testid="sale-status" role="status">
        <span className="status-words">{SALE_STATE_WORDS.unconfirmed}</span>
        <span className="status-sale-number">Sale {saleNumberOf(sale.id)}</span>
        <span className="status-reason">{UNCONFIRMED_WORDS}</span>
        <span className="status-reason" data-testid="outage-policy">
          {outagePolicyWords(sale)}
        </span>
      </div>
    );
  }
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
      {detail && (!paid || sale.outagePolicy !== null) && (
        <span className="status-reason">{detail}</span>
      )}
      {paid && sale.outagePolicy === null && <span className="visually-hidden">{detail}</span>}
    </div>
  );
}

/** What the shop's policy asks of the cashier on an outage sale, and what was recorded. */
export function outagePolicyWords(sale: Pick<SaleView, 'outagePolicy' | 'outageAction'>): string {
  if (sale.outageAction === 'goods_given') return `${GOODS_GIVEN_LABEL}: recorded.`;
  if (sale.outagePolicy === 'hand_over') {
    return `Shop rule: give the goods when the customer's screen shows the transfer, then press "${GOODS_GIVEN_LABEL}".`;
  }
  if (sale.outageAction === 'keep_waiting') return 'Waiting for confirmation: recorded.';
  return 'Shop rule: give the goods only once this payment is confirmed.';
}
