import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { formatNaira } from '#shared/money';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import type { BridgeResult } from '#shared/bridge/contract';
import { useBridge } from '../../bridge-context';
import { AccountNumber } from '../../components/account-number';
import { Countdown } from '../../components/countdown';
import { QrImage } from '../../components/qr-image';
import { cashierMessage } from '../../errors';
import { accountDetailsText, SALE_STATE_WORDS } from '../../format';
import type { SetSale } from './current-sale';
import { PaidTwiceNotice } from './paid-twice-notice';
import { Receipt, usePrintReceipt } from './receipt';

type Busy = 'check' | 'cancel' | 'retry' | 'receipt' | null;

/** How payment news reaches the till while this sale waits; in every case the till checks too. */
const CALLBACK_BANNER: Readonly<
  Record<SaleView['callbackMode'], { readonly className: string; readonly words: string }>
> = {
  live: { className: 'banner-live', words: 'Payment alerts are live' },
  unproven: {
    className: 'banner-polling',
    words: 'Payment alerts not proven yet: the till also checks with the bank by itself',
  },
  not_reaching: {
    className: 'banner-problem',
    words: 'Payment alerts are not reaching this till: checking with the bank every few seconds',
  },
  off: {
    className: 'banner-polling',
    words: 'No callback link: checking with the bank every few seconds',
  },
};

export function SaleDetails({
  sale,
  onSale,
}: {
  readonly sale: SaleView;
  readonly onSale: SetSale;
}) {
  const bridge = useBridge();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const printer = usePrintReceipt();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const open = isOpenSaleState(sale.state);
  const printable = sale.state === 'paid' || sale.state === 'paid_late';

  async function run(kind: Exclude<Busy, null>, call: () => Promise<BridgeResult<SaleView>>) {
    setBusy(kind);
    setError(null);
    setNotice(null);
    const result = await call();
    setBusy(null);
    if (!result.ok) {
      setError(cashierMessage(result.error));
      return null;
    }
    onSale(result.value);
    return result.value;
  }

  async function check(): Promise<void> {
    const checked = await run('check', () => bridge.checkSale({ saleId: sale.id }));
    // Only when the check found nothing new: a check that just found a wrong amount has its
    // answer in the status box, and "not reported yet" would contradict it.
    if (
      checked &&
      isOpenSaleState(checked.state) &&
      checked.state !== 'confirming' &&
      checked.state === sale.state
    ) {
      setNotice('The bank has not reported this transfer yet. We keep checking.');
    }
  }

  async function cancel(): Promise<void> {
    setConfirmingCancel(false);
    await run('cancel', () => bridge.cancelSale({ saleId: sale.id }));
  }

  async function printReceipt(): Promise<void> {
    setBusy('receipt');
    setError(null);
    setNotice(null);
    const outcome = await printer.print(sale.id);
    setBusy(null);
    setError(outcome.error);
    setNotice(outcome.notice);
  }

  // Esc asks to cancel a running sale (and closes that question again); on a finished sale it
  // goes back to the amount field.
  const onEscape = useEffectEvent((): void => {
    if (confirmingCancel) setConfirmingCancel(false);
    else if (open) setConfirmingCancel(true);
    else onSale(null);
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      onEscape();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  useEffect(() => {
    if (confirmingCancel) confirmRef.current?.focus();
  }, [confirmingCancel]);

  const statusWords = SALE_STATE_WORDS[sale.state];
  const paid = sale.state === 'paid' || sale.state === 'paid_late';

  return (
    <section className={`sale-details state-${sale.state}`} aria-labelledby="sale-heading">
      <h2 id="sale-heading" className="visually-hidden">
        Sale {sale.reference}
      </h2>

      {open && (
        <p className={`callback-banner ${CALLBACK_BANNER[sale.callbackMode].className}`}>
          {CALLBACK_BANNER[sale.callbackMode].words}
        </p>
      )}

      <PaidTwiceNotice saleId={sale.id} />

      <div className={`sale-status status-${sale.state}`} data-testid="sale-status" role="status">
        {paid && (
          <span className="tick" aria-hidden="true">
            ✓
          </span>
        )}
        <span className="status-words">{statusWords}</span>
        {sale.reason &&
          (sale.state === 'wrong_amount' || sale.state === 'failed_to_create' || !open) && (
            <span className="status-reason">{sale.reason}</span>
          )}
      </div>

      <div className="sale-grid">
        <dl className="account-details">
          <dt>Amount due</dt>
          <dd className="amount-due" data-testid="amount-due">
            {formatNaira(sale.amountKobo)}
          </dd>
          {sale.accountNumber && (
            <>
              <dt>Account number</dt>
              <dd>
                <AccountNumber accountNumber={sale.accountNumber} />
              </dd>
              <dt>Bank</dt>
              <dd className="bank-name" data-testid="bank-name">
                {sale.bank ?? '—'}
              </dd>
              <dt>Account name</dt>
              <dd className="account-name">{sale.accountName ?? '—'}</dd>
            </>
          )}
          {open && sale.expiresAt !== null && (
            <>
              <dt>Time left</dt>
              <dd>
                <Countdown expiresAt={sale.expiresAt} />
              </dd>
            </>
          )}
          {sale.note && (
            <>
              <dt>Note</dt>
              <dd>{sale.note}</dd>
            </>
          )}
        </dl>
        {sale.accountNumber && open && (
          <QrImage
            text={accountDetailsText({
              bank: sale.bank,
              accountNumber: sale.accountNumber,
              accountName: sale.accountName,
              amountKobo: sale.amountKobo,
            })}
          />
        )}
      </div>

      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {busy && (
        <p className="progress-text" role="status">
          {busy === 'check' ? 'Checking with the bank…' : 'Please wait…'}
        </p>
      )}

      {confirmingCancel ? (
        <div className="confirm" role="group" aria-label="Cancel this sale?">
          <p>Cancel this sale? A transfer that arrives later will be flagged for the manager.</p>
          <button
            ref={confirmRef}
            type="button"
            className="button danger"
            onClick={() => void cancel()}
          >
            Yes, cancel the sale
          </button>
          <button
            type="button"
            className="button secondary"
            onClick={() => setConfirmingCancel(false)}
          >
            No, keep waiting
          </button>
        </div>
      ) : (
        <div className="actions">
          {open && (
            <button
              type="button"
              className="button primary"
              disabled={busy !== null}
              onClick={() => void check()}
            >
              Customer says they paid
            </button>
          )}
          {sale.state === 'failed_to_create' && (
            <button
              type="button"
              className="button primary"
              disabled={busy !== null}
              onClick={() => void run('retry', () => bridge.retrySale({ saleId: sale.id }))}
            >
              Try again
            </button>
          )}
          {open && (
            <button
              type="button"
              className="button danger"
              disabled={busy !== null}
              onClick={() => setConfirmingCancel(true)}
            >
              Cancel
            </button>
          )}
          {printable && (
            // The paper width and the printer are saved in Settings ("Receipt printing").
            <button
              type="button"
              className="button secondary"
              disabled={busy !== null}
              onClick={() => void printReceipt()}
            >
              Print receipt
            </button>
          )}
          <button type="button" className="button secondary" onClick={() => onSale(null)}>
            New sale
          </button>
        </div>
      )}

      {printer.receipt && (
        <div className="receipt-preview">
          <Receipt receipt={printer.receipt} width={printer.width} />
        </div>
      )}
      {printer.portal}
    </section>
  );
}
