import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { formatNaira } from '#shared/money';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import type { BridgeResult } from '#shared/bridge/contract';
import { useBridge } from '../../bridge-context';
import { AccountNumber } from '../../components/account-number';
import { Countdown } from '../../components/countdown';
import { QrImage } from '../../components/qr-image';
import { cashierMessage } from '../../errors';
import { accountDetailsText } from '../../format';
import { useServiceLost } from '../../server-time';
import type { SetSale } from './current-sale';
import { PaidTwiceNotice } from './paid-twice-notice';
import { Receipt, usePrintReceipt } from './receipt';
import { SaleStatus } from './sale-status';

type Busy = 'check' | 'cancel' | 'retry' | 'receipt' | 'again' | null;

/** What starts the next sale from a finished one: an amount to begin with ('' for none). */
export type StartNext = (typed: string) => void;

export function SaleDetails({
  sale,
  onSale,
  onNext,
}: {
  readonly sale: SaleView;
  readonly onSale: SetSale;
  /** Back to the amount field, with what the cashier already typed there. */
  readonly onNext: StartNext;
}) {
  const bridge = useBridge();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const printer = usePrintReceipt();
  const keepWaitingRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const lost = useServiceLost();
  const open = isOpenSaleState(sale.state);
  const paid = sale.state === 'paid' || sale.state === 'paid_late';
  // An expired or cancelled sale is started again for the same amount in one press.
  const again = sale.state === 'expired' || sale.state === 'cancelled';

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
  // goes back to the amount field. On a finished sale, digits start the next amount.
  const onKey = useEffectEvent((event: KeyboardEvent): void => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      if (confirmingCancel) setConfirmingCancel(false);
      else if (open) setConfirmingCancel(true);
      else onNext('');
      return;
    }
    const inField = event.target instanceof HTMLInputElement;
    if (!open && !inField && /^[0-9.]$/.test(event.key)) {
      event.preventDefault();
      onNext(event.key);
    }
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => onKey(event);
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // The safe choice has the focus: Esc then Enter keeps the sale.
  useEffect(() => {
    if (confirmingCancel) keepWaitingRef.current?.focus();
  }, [confirmingCancel]);
  // A sale that ends puts the focus on what comes next.
  useEffect(() => {
    if (!open) nextRef.current?.focus();
  }, [open]);

  const needsService = busy !== null || lost;
  const newSaleFor = `New sale for ${formatNaira(sale.amountKobo)}`;

  return (
    <section className={`sale-details state-${sale.state}`} aria-labelledby="sale-heading">
      <h2 id="sale-heading" className="visually-hidden">
        Sale #{sale.id}
      </h2>
      <SaleStatus sale={sale} />

      <PaidTwiceNotice saleId={sale.id} />

      <div className="sale-grid">
        <dl className="account-details">
          <div className="detail detail-amount">
            <dt>{open ? 'Amount due' : 'Amount'}</dt>
            <dd className="amount-due" data-testid="amount-due">
              {formatNaira(sale.amountKobo)}
            </dd>
          </div>
          {sale.accountNumber && (
            <>
              <div className="detail detail-number">
                <dt>Account number</dt>
                <dd>
                  <AccountNumber accountNumber={sale.accountNumber} closed={!open} />
                </dd>
              </div>
              <div className="detail detail-bank">
                <dt>Bank</dt>
                <dd className="bank-name" data-testid="bank-name">
                  {sale.bank ?? '—'}
                </dd>
              </div>
              <div className="detail detail-name">
                <dt>Account name</dt>
                <dd className="account-name" data-testid="account-name">
                  {sale.accountName ?? '—'}
                </dd>
              </div>
            </>
          )}
          {open && sale.expiresAt !== null && (
            <div className="detail detail-countdown">
              <dt>Time left</dt>
              <dd>
                <Countdown expiresAt={sale.expiresAt} createdAt={sale.createdAt} />
              </dd>
            </div>
          )}
          {sale.note && (
            <div className="detail detail-note">
              <dt>Note</dt>
              <dd>{sale.note}</dd>
            </div>
          )}
        </dl>
        {sale.accountNumber && open && (
          <QrImage
            className="sale-qr"
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
            ref={keepWaitingRef}
            type="button"
            className="button primary"
            onClick={() => setConfirmingCancel(false)}
          >
            No, keep waiting
          </button>
          <button
            type="button"
            className="button danger"
            disabled={lost}
            onClick={() => void cancel()}
          >
            Yes, cancel the sale
          </button>
        </div>
      ) : (
        <div className="actions">
          {open && (
            <button
              type="button"
              className="button primary"
              disabled={needsService}
              onClick={() => void check()}
            >
              Customer says they paid
            </button>
          )}
          {sale.state === 'failed_to_create' && (
            <button
              type="button"
              className="button primary"
              disabled={needsService}
              onClick={() => void run('retry', () => bridge.retrySale({ saleId: sale.id }))}
            >
              Try again
            </button>
          )}
          {open && (
            <button
              type="button"
              className="button danger"
              disabled={needsService}
              onClick={() => setConfirmingCancel(true)}
            >
              Cancel
            </button>
          )}
          {again && (
            <button
              ref={nextRef}
              type="button"
              className="button primary"
              disabled={needsService}
              onClick={() =>
                void run('again', () =>
                  bridge.createSale({
                    amount: (sale.amountKobo / 100).toFixed(2),
                    ...(sale.note ? { note: sale.note } : {}),
                  }),
                )
              }
            >
              {newSaleFor}
            </button>
          )}
          {!open && (
            <button
              ref={again ? undefined : nextRef}
              type="button"
              className={`button ${again ? 'secondary' : 'primary'}`}
              onClick={() => onNext('')}
            >
              New sale
            </button>
          )}
          {paid && (
            // The paper width and the printer are saved in Settings ("Receipt printing").
            <button
              type="button"
              className="button secondary"
              disabled={needsService}
              onClick={() => void printReceipt()}
            >
              Print receipt
            </button>
          )}
          {open && (
            <button type="button" className="button secondary" onClick={() => onNext('')}>
              New sale
            </button>
          )}
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
