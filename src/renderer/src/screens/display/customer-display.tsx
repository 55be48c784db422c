import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { formatNaira } from '#shared/money';
import { IF_MONEY_LEFT_YOUR_ACCOUNT } from '#shared/report-words';
import type { SaleState, SaleView } from '#shared/sales';
import { useBridgeEvent } from '../../bridge-context';
import { AccountNumber } from '../../components/account-number';
import { Countdown } from '../../components/countdown';
import { QrImage } from '../../components/qr-image';
import { accountDetailsText } from '../../format';
import {
  PAID_TWICE_DISPLAY_WORDS,
  PROCESSING_DISPLAY_WORDS,
  saleMoment,
  UNCONFIRMED_DISPLAY_WORDS,
} from '../../sale-moment';
import { ExactAmount } from '../../components/exact-amount';
import { useServerNow } from '../../server-time';
import { useOpenSaleOnStart } from './use-display';
import './display-moments.css';

/** States the customer is shown a sale to pay in. */
const PAYING: readonly SaleState[] = ['creating', 'awaiting_payment', 'confirming', 'wrong_amount'];
/** States that end the shown sale: said for a few seconds, then "Welcome" returns. */
const ENDING: readonly SaleState[] = ['paid', 'paid_late', 'expired', 'cancelled'];
/** How long "Paid, thank you" or "This account has expired" stays before the welcome screen. */
export const THANK_YOU_MS = 8_000;
/**
 * How long "Payment received: please see the cashier" stays (unless a new sale takes over or
 * the shop records what it did): the customer may be walking back to the counter.
 */
export const SEE_CASHIER_MS = 60_000;

/**
 * Money the shop must decide about, nothing recorded yet (after the sale closed, or a second
 * payment to refund): the customer is sent to the cashier.
 */
function seeCashier(sale: SaleView): boolean {
  return (
    (sale.state === 'paid_late' && sale.lateResolution === null) || sale.refundsOwed.length > 0
  );
}

/**
 * How long an outage sale stays on the display after its last change, unless a new sale takes
 * over: the customer sends the exact amount in that time; the till has the sale after it.
 */
export const OUTAGE_SHOWN_MS = 5 * 60_000;

export function isShown(sale: SaleView): boolean {
  return PAYING.includes(sale.state) || sale.state === 'unconfirmed';
}

/** The newest sale worth showing, from a list (e.g. today's sales at start-up). */
export function pickCurrentSale(sales: readonly SaleView[]): SaleView | null {
  let best: SaleView | null = null;
  for (const sale of sales) {
    // An old "Thank you", "expired" or outage sale is not news.
    if (!PAYING.includes(sale.state)) continue;
    if (!best || sale.createdAt > best.createdAt) best = sale;
  }
  return best;
}

/**
 * The sale the customer sees, following 'sale-changed' of this till: a newer open sale takes
 * over; the shown one ending (paid, expired, cancelled) is said for THANK_YOU_MS, then "Welcome".
 * `tillId` null: every sale is this till's (one till).
 */
export function useShownSale(
  tillId: string | null,
): readonly [SaleView | null, Dispatch<SetStateAction<SaleView | null>>] {
  const [sale, setSale] = useState<SaleView | null>(null);

  useBridgeEvent('sale-changed', (changed) => {
    if (tillId && changed.tillId && changed.tillId !== tillId) return;
    setSale((current) => {
      if (isShown(changed)) {
        if (!current || current.id === changed.id || changed.createdAt >= current.createdAt) {
          return changed;
        }
        return current;
      }
      // Only the sale on screen is said to end: another's end is not this customer's news.
      if (current?.id === changed.id) {
        const dealtWith = resolvedLate(changed) || refundNoted(current, changed);
        return ENDING.includes(changed.state) && !dealtWith ? changed : null;
      }
      // Money for a closed sale is: its customer may be back at the counter. It never covers
      // a newer sale the customer is paying.
      if (seeCashier(changed) && (!current || !isShown(current))) return changed;
      return current;
    });
  });

  useEffect(() => {
    if (!sale) return;
    const outage = sale.state === 'unconfirmed';
    if (!outage && !ENDING.includes(sale.state)) return;
    const shownFor = outage ? OUTAGE_SHOWN_MS : seeCashier(sale) ? SEE_CASHIER_MS : THANK_YOU_MS;
    const timer = setTimeout(() => setSale(null), shownFor);
    return () => clearTimeout(timer);
  }, [sale]);

  return [sale, setSale];
}

/** A refund the cashier noted ends "please see the cashier" (not a fresh "thank you"). */
function refundNoted(shown: SaleView, changed: SaleView): boolean {
  return shown.refundsOwed.length > 0 && changed.refundsOwed.length === 0;
}

/** A late payment the shop has dealt with is no longer the customer's news. */
function resolvedLate(sale: SaleView): boolean {
  return sale.state === 'paid_late' && sale.lateResolution !== null;
}

/** The customer-facing second screen: big and simple, following this till's current sale. */
export function CustomerDisplay({
  shopName,
  tillId,
}: {
  readonly shopName: string | null;
  readonly tillId: string | null;
}) {
  const [sale, setSale] = useShownSale(tillId);

  useOpenSaleOnStart(tillId, setSale);

  return <CustomerDisplayView shopName={shopName} sale={sale} />;
}

/**
 * What the customer sees: "Welcome", the sale to pay, "Paid, thank you", "Payment received:
 * please see the cashier" (money after the sale closed) or why it ended.
 */
export function CustomerDisplayView({
  shopName,
  sale,
}: {
  readonly shopName: string | null;
  readonly sale: SaleView | null;
}) {
  const now = useServerNow();
  if (!sale) return <Welcome shopName={shopName} />;

  const moment = saleMoment(sale, now);
  if (moment === 'refund_owed') {
    // Never "Paid, thank you" while the shop owes the customer money back.
    return (
      <main className="customer-display refund-owed" data-testid="display-see-cashier">
        <h1 className="display-ended-words">{PAID_TWICE_DISPLAY_WORDS}</h1>
      </main>
    );
  }

  if (sale.state === 'paid_late') {
    // Never "Paid, thank you" and never a number: the cashier decides goods or refund.
    return (
      <main className="customer-display see-cashier" data-testid="display-see-cashier">
        <h1 className="display-ended-words">Payment received: please see the cashier</h1>
      </main>
    );
  }

  if (sale.state === 'paid') {
    return (
      <main className="customer-display thank-you" data-testid="display-paid">
        <p className="display-tick" aria-hidden="true">
          ✓
        </p>
        <h1 className="display-thanks">Paid, thank you</h1>
        <p className="display-amount" data-testid="paid-amount">
          {formatNaira(sale.amountKobo)}
        </p>
      </main>
    );
  }

  // Time up by the service's clock is expired here too, while main makes its last check.
  if (sale.state === 'expired' || sale.state === 'cancelled' || moment === 'time_up') {
    return (
      <main className="customer-display ended" data-testid="display-ended">
        <h1 className="display-ended-words">
          {sale.state !== 'cancelled'
            ? 'This account has expired: ask the cashier'
            : 'This sale was cancelled: ask the cashier'}
        </h1>
        {/* A cancelled sale's till has moved on (or may): the customer keeps no number from it. */}
        {sale.accountNumber && sale.state !== 'cancelled' && (
          <AccountNumber accountNumber={sale.accountNumber} closed />
        )}
      </main>
    );
  }

  if (moment === 'unconfirmed') return <OutageSaleView sale={sale} />;
  return (
    <main className="customer-display paying">
      <h1 className="visually-hidden">Pay by bank transfer</h1>
      <div className="display-top">
        <p className="display-label">Amount to transfer</p>
        <p className="display-amount" data-testid="amount-due">
          {formatNaira(sale.amountKobo)}
        </p>
      </div>
      {sale.state === 'wrong_amount' && (
        <p className="display-warning" role="status">
          {/* Said to the customer: the till's reason is written for the cashier. */}
          That transfer was not the amount due, so it was not accepted. Please transfer exactly{' '}
          {formatNaira(sale.amountKobo)}. {IF_MONEY_LEFT_YOUR_ACCOUNT}
        </p>
      )}
      {moment === 'processing' ? (
        // No number and no QR: the money is on its way, nobody is to send it again.
        <p className="display-processing" role="status" data-testid="display-processing">
          {PROCESSING_DISPLAY_WORDS}
        </p>
      ) : sale.accountNumber ? (
        <div className="display-grid">
          <dl className="display-account">
            <dt>Account number</dt>
            <dd>
              <AccountNumber accountNumber={sale.accountNumber} copyable={false} />
            </dd>
            <dt>Bank</dt>
            <dd className="bank-name" data-testid="bank-name">
              {sale.bank ?? '—'}
            </dd>
            <dt>Account name</dt>
            <dd className="display-account-name" data-testid="account-name">
              {sale.accountName ?? '—'}
            </dd>
            {sale.expiresAt !== null && (
              <>
                <dt>Time left</dt>
                <dd>
                  <Countdown expiresAt={sale.expiresAt} createdAt={sale.createdAt} />
                </dd>
              </>
            )}
          </dl>
          <QrImage
            className="display-qr"
            text={accountDetailsText({
              bank: sale.bank,
              accountNumber: sale.accountNumber,
              accountName: sale.accountName,
              amountKobo: sale.amountKobo,
            })}
          />
        </div>
      ) : (
        <p className="display-info">One moment…</p>
      )}
    </main>
  );
}

/** An outage sale: the exact amount (kobo included) and the shop's standing account, no countdown. */
function OutageSaleView({ sale }: { readonly sale: SaleView }) {
  return (
    <main className="customer-display paying outage" data-testid="display-outage">
      <h1 className="visually-hidden">Pay by bank transfer</h1>
      <div className="display-top">
        <p className="display-label">Send exactly</p>
        <p className="display-amount">
          <ExactAmount kobo={sale.amountDueKobo} className="display-exact" />
        </p>
      </div>
      <p className="display-info display-outage-words">{UNCONFIRMED_DISPLAY_WORDS}</p>
      {sale.accountNumber && (
        <div className="display-grid">
          <dl className="display-account">
            <dt>Account number</dt>
            <dd>
              <AccountNumber accountNumber={sale.accountNumber} copyable={false} />
            </dd>
            <dt>Bank</dt>
            <dd className="bank-name" data-testid="bank-name">
              {sale.bank ?? '—'}
            </dd>
            <dt>Account name</dt>
            <dd className="display-account-name" data-testid="account-name">
              {sale.accountName ?? '—'}
            </dd>
          </dl>
          <QrImage
            className="display-qr"
            text={accountDetailsText({
              bank: sale.bank,
              accountNumber: sale.accountNumber,
              accountName: sale.accountName,
              amountKobo: sale.amountDueKobo,
            })}
          />
        </div>
      )}
    </main>
  );
}

/** No sale on this till: the shop's name and a welcome. */
function Welcome({ shopName }: { readonly shopName: string | null }) {
  return (
    <main className="customer-display welcome">
      <h1 className="display-shop">{shopName ?? 'Transfer Till'}</h1>
      <p className="display-welcome">Welcome</p>
      <p className="display-info">Pay by bank transfer: your account number shows here.</p>
    </main>
  );
}
