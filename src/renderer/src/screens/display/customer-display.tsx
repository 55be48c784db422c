import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { formatNaira } from '#shared/money';
import type { SaleState, SaleView } from '#shared/sales';
import { useBridge, useBridgeEvent } from '../../bridge-context';
import { AccountNumber } from '../../components/account-number';
import { Countdown } from '../../components/countdown';
import { QrImage } from '../../components/qr-image';
import { accountDetailsText } from '../../format';

/** States the customer is shown; any other state of the shown sale brings back "Welcome". */
const SHOWN: readonly SaleState[] = [
  'creating',
  'awaiting_payment',
  'confirming',
  'wrong_amount',
  'paid',
];
/** How long "Thank you" stays before the welcome screen returns. */
export const THANK_YOU_MS = 30_000;

export function isShown(sale: SaleView): boolean {
  return SHOWN.includes(sale.state);
}

/** The newest sale worth showing, from a list (e.g. today's sales at start-up). */
export function pickCurrentSale(sales: readonly SaleView[]): SaleView | null {
  let best: SaleView | null = null;
  for (const sale of sales) {
    if (sale.state === 'paid' || !isShown(sale)) continue; // an old "Thank you" is not news
    if (!best || sale.createdAt > best.createdAt) best = sale;
  }
  return best;
}

/**
 * The sale the customer sees, following 'sale-changed' of this till: a newer shown sale takes
 * over, the shown one leaving the shown states brings back "Welcome", and "Thank you" stays
 * THANK_YOU_MS. `tillId` null: every sale is this till's (one till).
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
      return current?.id === changed.id ? null : current;
    });
  });

  useEffect(() => {
    if (sale?.state !== 'paid') return;
    const timer = setTimeout(() => setSale(null), THANK_YOU_MS);
    return () => clearTimeout(timer);
  }, [sale]);

  return [sale, setSale];
}

/** The customer-facing second screen: big and simple, following this till's current sale. */
export function CustomerDisplay({
  shopName,
  tillId,
}: {
  readonly shopName: string | null;
  readonly tillId: string | null;
}) {
  const bridge = useBridge();
  const [sale, setSale] = useShownSale(tillId);

  useEffect(() => {
    let live = true;
    void bridge.getActivity({}).then((result) => {
      if (!live || !result.ok) return;
      const mine = result.value.sales.filter((s) => !tillId || !s.tillId || s.tillId === tillId);
      const picked = pickCurrentSale(mine);
      setSale((current) => current ?? picked);
    });
    return () => {
      live = false;
    };
  }, [bridge, tillId, setSale]);

  return <CustomerDisplayView shopName={shopName} sale={sale} />;
}

/** What the customer sees: "Welcome", the sale to pay, or "Thank you". */
export function CustomerDisplayView({
  shopName,
  sale,
}: {
  readonly shopName: string | null;
  readonly sale: SaleView | null;
}) {
  if (!sale) {
    return (
      <main className="customer-display welcome">
        <h2 className="display-shop">{shopName ?? 'Transfer Till'}</h2>
        <p className="display-welcome">Welcome</p>
      </main>
    );
  }

  if (sale.state === 'paid') {
    return (
      <main className="customer-display thank-you">
        <p className="display-tick" aria-hidden="true">
          ✓
        </p>
        <h2 className="display-thanks">Thank you</h2>
        <p className="display-amount">{formatNaira(sale.amountKobo)} received</p>
      </main>
    );
  }

  return (
    <main className="customer-display paying">
      <h2 className="visually-hidden">Pay by bank transfer</h2>
      <p className="display-label">Amount to transfer</p>
      <p className="display-amount" data-testid="amount-due">
        {formatNaira(sale.amountKobo)}
      </p>
      {sale.state === 'wrong_amount' && (
        <p className="display-warning" role="status">
          The amount did not match and was sent back. Please transfer exactly{' '}
          {formatNaira(sale.amountKobo)}.
        </p>
      )}
      {sale.state === 'confirming' && (
        <p className="display-info" role="status">
          Your bank is processing the transfer…
        </p>
      )}
      {sale.accountNumber ? (
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
            <dd>{sale.accountName ?? '—'}</dd>
            {sale.expiresAt !== null && (
              <>
                <dt>Time left</dt>
                <dd>
                  <Countdown expiresAt={sale.expiresAt} />
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
