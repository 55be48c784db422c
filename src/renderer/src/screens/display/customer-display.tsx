import { formatNaira } from '#shared/money';
import { IF_MONEY_LEFT_YOUR_ACCOUNT } from '#shared/report-words';
import type { SaleView } from '#shared/sales';
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
import { useOpenSaleOnStart, useShownSale } from './use-display';
import './display-moments.css';

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
        <DisplayAccount
          sale={sale}
          accountNumber={sale.accountNumber}
          amountKobo={sale.amountKobo}
          expiresAt={sale.expiresAt}
        />
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
        <DisplayAccount
          sale={sale}
          accountNumber={sale.accountNumber}
          amountKobo={sale.amountDueKobo}
          expiresAt={null}
        />
      )}
    </main>
  );
}

/**
 * The account the customer pays into, beside the same details as a QR code for a banking app;
 * with the time left when the account expires (an outage sale's standing account does not).
 */
function DisplayAccount({
  sale,
  accountNumber,
  amountKobo,
  expiresAt,
}: {
  readonly sale: SaleView;
  readonly accountNumber: string;
  readonly amountKobo: number;
  readonly expiresAt: number | null;
}) {
  return (
    <div className="display-grid">
      <dl className="display-account">
        <dt>Account number</dt>
        <dd>
          <AccountNumber accountNumber={accountNumber} copyable={false} />
        </dd>
        <dt>Bank</dt>
        <dd className="bank-name" data-testid="bank-name">
          {sale.bank ?? '—'}
        </dd>
        <dt>Account name</dt>
        <dd className="display-account-name" data-testid="account-name">
          {sale.accountName ?? '—'}
        </dd>
        {expiresAt !== null && (
          <>
            <dt>Time left</dt>
            <dd>
              <Countdown expiresAt={expiresAt} createdAt={sale.createdAt} />
            </dd>
          </>
        )}
      </dl>
      <QrImage
        className="display-qr"
        text={accountDetailsText({
          bank: sale.bank,
          accountNumber,
          accountName: sale.accountName,
          amountKobo,
        })}
      />
    </div>
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
