import { useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { formatNaira } from '#shared/money';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import { AccountNumber } from '../../components/account-number';
import { Countdown } from '../../components/countdown';
import { QrImage } from '../../components/qr-image';
import { accountDetailsText, formatTime, groupAccountNumber } from '../../format';
import { useServiceLost } from '../../server-time';
import type { SetSale } from './current-sale';
import { PaidLateChoices } from './paid-late';
import { PaidTwiceNotice } from './paid-twice-notice';
import { Receipt } from './receipt';
import { SaleStatus } from './sale-status';
import { useSaleActions, type SaleWork } from './use-sale';

/** What starts the next sale from a finished one: an amount to begin with ('' for none). */
export type StartNext = (typed: string) => void;

type SaleActions = ReturnType<typeof useSaleActions>;

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
  const actions = useSaleActions(sale, onSale);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const nextRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const lost = useServiceLost();
  const open = isOpenSaleState(sale.state);
  const disabled = actions.busy !== null || lost;
  useSaleKeys(open, confirmingCancel, setConfirmingCancel, onNext);
  useNextActionFocus(open ? cancelRef : nextRef, `${sale.state}:${String(confirmingCancel)}`);

  return (
    <section className={`sale-details state-${sale.state}`} aria-labelledby="sale-heading">
      <h2 id="sale-heading" className="visually-hidden">
        Sale #{sale.id}
      </h2>
      <SaleStatus sale={sale} />

      <PaidTwiceNotice saleId={sale.id} paidSessionId={sale.paidSessionId} />
      {sale.state === 'paid_late' && <PaidLateChoices sale={sale} onSale={onSale} />}

      <SaleFacts sale={sale} open={open} />
      <SaleMessages error={actions.error} notice={actions.notice} busy={actions.busy} />

      {confirmingCancel ? (
        <CancelQuestion
          sale={sale}
          lost={lost}
          onKeep={() => setConfirmingCancel(false)}
          onCancel={() => {
            setConfirmingCancel(false);
            void actions.cancel();
          }}
        />
      ) : (
        <SaleButtons
          sale={sale}
          actions={actions}
          disabled={disabled}
          nextRef={nextRef}
          cancelRef={cancelRef}
          onAskCancel={() => setConfirmingCancel(true)}
          onNext={onNext}
        />
      )}

      {actions.printer.receipt && (
        <div className="receipt-preview">
          <Receipt receipt={actions.printer.receipt} width={actions.printer.width} />
        </div>
      )}
      {actions.printer.portal}
    </section>
  );
}

/**
 * After every change of state (and when the cancel question closes) the focus goes to the next
 * action: the sale's Cancel while it runs, what comes next once it ends. A button still busy
 * with the change (disabled) takes the focus as soon as it is free again.
 */
function useNextActionFocus(target: RefObject<HTMLButtonElement | null>, moment: string): void {
  const due = useRef(true);
  useEffect(() => {
    due.current = true;
  }, [moment]);
  useEffect(() => {
    const button = target.current;
    if (!due.current || !button || button.disabled) return;
    due.current = false;
    button.focus();
  });
}

/**
 * Esc asks to cancel a running sale (and closes that question again); on a finished sale it
 * goes back to the amount field. On a finished sale, digits start the next amount.
 */
function useSaleKeys(
  open: boolean,
  confirmingCancel: boolean,
  setConfirmingCancel: (confirming: boolean) => void,
  onNext: StartNext,
): void {
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
}

/** The amount and where to pay it (with a QR code while the sale is open). */
function SaleFacts({ sale, open }: { readonly sale: SaleView; readonly open: boolean }) {
  return (
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
  );
}

function SaleMessages({
  error,
  notice,
  busy,
}: {
  readonly error: string | null;
  readonly notice: string | null;
  readonly busy: SaleWork | null;
}) {
  return (
    <>
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
    </>
  );
}

/**
 * The interface has no cancel: the number stays payable until it expires, and the question
 * says so, with the time. The safe choice has the focus: Esc then Enter keeps the sale.
 */
function CancelQuestion({
  sale,
  lost,
  onKeep,
  onCancel,
}: {
  readonly sale: SaleView;
  readonly lost: boolean;
  readonly onKeep: () => void;
  readonly onCancel: () => void;
}) {
  const keepWaitingRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keepWaitingRef.current?.focus();
  }, []);
  return (
    <div className="confirm" role="group" aria-label="Cancel this sale?">
      <p>Cancel this sale?</p>
      <p data-testid="cancel-still-payable">{stillPayableWords(sale)}</p>
      <button ref={keepWaitingRef} type="button" className="button primary" onClick={onKeep}>
        No, keep waiting
      </button>
      <button type="button" className="button danger" disabled={lost} onClick={onCancel}>
        Yes, cancel the sale
      </button>
    </div>
  );
}

/** What stays true after a cancel: the customer can still pay into the number until it expires. */
function stillPayableWords(sale: SaleView): string {
  const told = 'If money arrives after you cancel, the till will tell you.';
  if (sale.accountNumber === null) return told;
  const number = groupAccountNumber(sale.accountNumber);
  const until = sale.expiresAt === null ? '' : ` until ${formatTime(sale.expiresAt)}`;
  return `The customer can still pay into ${number}${until}. ${told}`;
}

function SaleButtons({
  sale,
  actions,
  disabled,
  nextRef,
  cancelRef,
  onAskCancel,
  onNext,
}: {
  readonly sale: SaleView;
  readonly actions: SaleActions;
  readonly disabled: boolean;
  readonly nextRef: RefObject<HTMLButtonElement | null>;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  readonly onAskCancel: () => void;
  readonly onNext: StartNext;
}) {
  const open = isOpenSaleState(sale.state);
  // A sale paid after it closed may still be handed over: its receipt prints too.
  const paid = sale.state === 'paid' || sale.state === 'paid_late';
  // An expired or cancelled sale is started again for the same amount in one press.
  const again = sale.state === 'expired' || sale.state === 'cancelled';
  // Money after the sale closed: the goods-or-refund choice above is the one to make first.
  const decisionOwed = sale.state === 'paid_late' && sale.lateResolution === null;
  return (
    <div className="actions">
      {open && (
        <button
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => void actions.check()}
        >
          Customer says they paid
        </button>
      )}
      {sale.state === 'failed_to_create' && sale.canRetry && (
        // A refusal that repeats until a setting is fixed offers no retry: the reason says what to fix.
        <button
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => void actions.retry()}
        >
          Try again
        </button>
      )}
      {open && (
        <button
          ref={cancelRef}
          type="button"
          className="button danger"
          disabled={disabled}
          onClick={onAskCancel}
        >
          Cancel
        </button>
      )}
      {again && (
        <button
          ref={nextRef}
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => void actions.again()}
        >
          {`New sale for ${formatNaira(sale.amountKobo)}`}
        </button>
      )}
      {!open && (
        <button
          ref={again ? undefined : nextRef}
          type="button"
          className={`button ${again || decisionOwed ? 'secondary' : 'primary'}`}
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
          disabled={disabled}
          onClick={() => void actions.printReceipt()}
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
  );
}
