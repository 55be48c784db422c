import { useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { formatNaira } from '#shared/money';
import { isOpenSaleState, type OutageAction, type SaleView } from '#shared/sales';
import { AccountNumber } from '../../components/account-number';
import { ExactAmount } from '../../components/exact-amount';
import { Countdown } from '../../components/countdown';
import { QrImage } from '../../components/qr-image';
import { accountDetailsText, formatTime, groupAccountNumber } from '../../format';
import { useServerNow, useServiceLost } from '../../server-time';
import {
  GOODS_GIVEN_LABEL,
  KEEP_WAITING_LABEL,
  saleMoment,
  TAKE_ON_STANDING_LABEL,
  type SaleMoment,
} from '../../sale-moment';
import type { SetSale } from './current-sale';
import type { LeaveAsked, SaleLeave } from './leave-sale';
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
  leave,
}: {
  readonly sale: SaleView;
  readonly onSale: SetSale;
  /** Back to the amount field, with what the cashier already typed there. */
  readonly onNext: StartNext;
  /** The till's one way off an open sale (asks first). */
  readonly leave: SaleLeave;
}) {
  const actions = useSaleActions(sale, onSale);
  const [cancelAsked, setCancelAsked] = useState(false);
  const question: Question | null = leave.asked ? 'leave' : cancelAsked ? 'cancel' : null;
  const setQuestion = (next: Question | null): void => {
    // Closes either question; "leave" itself is asked through `leave.request`.
    if (next === null) leave.keep();
    setCancelAsked(next === 'cancel');
  };
  const nextRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const lost = useServiceLost();
  const open = isOpenSaleState(sale.state);
  const moment = saleMoment(sale, useServerNow());
  // A refund owed holds the next sale until it is noted: no key starts one.
  useSaleKeys(open, moment === 'refund_owed', question, setQuestion, onNext);
  useNextActionFocus(open ? cancelRef : nextRef, `${sale.state}:${String(question)}`);

  return (
    <section className={`sale-details state-${sale.state}`} aria-labelledby="sale-heading">
      <h2 id="sale-heading" className="visually-hidden">
        Sale #{sale.id}
      </h2>
      <SaleStatus sale={sale} moment={moment} />

      <PaidTwiceNotice sale={sale} onSale={onSale} />
      {sale.state === 'paid_late' && <PaidLateChoices sale={sale} onSale={onSale} />}

      <SaleFacts sale={sale} open={open} moment={moment} />
      <SaleMessages error={actions.error} notice={actions.notice} busy={actions.busy} />

      {question ? (
        <CancelQuestion
          key={question}
          sale={sale}
          leaving={leave.asked}
          lost={lost}
          onKeep={() => setQuestion(null)}
          onCancel={() => {
            const leaving = leave.asked;
            setQuestion(null);
            void actions.cancel().then((cancelled) => {
              // Leaving goes on only once the sale is really cancelled (the display follows it).
              if (!cancelled || !leaving) return;
              if (leaving.to) onSale(leaving.to);
              else onNext('');
            });
          }}
        />
      ) : (
        <SaleButtons
          sale={sale}
          actions={actions}
          disabled={actions.busy !== null || lost}
          refundOwed={moment === 'refund_owed'}
          nextRef={nextRef}
          cancelRef={cancelRef}
          onAsk={() => setQuestion('cancel')}
          onLeave={() => leave.request(null)}
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
 * What an open sale asks before it goes: 'cancel' (its Cancel) or 'leave' (the till would show
 * another sale or the amount field: the customer could still pay into a sale it no longer shows).
 */
type Question = 'cancel' | 'leave';

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
 * goes back to the amount field. On a finished sale, digits start the next amount. While a
 * refund is owed, neither does anything: only "Refund noted" ends that.
 */
function useSaleKeys(
  open: boolean,
  refundOwed: boolean,
  question: Question | null,
  setQuestion: (question: Question | null) => void,
  onNext: StartNext,
): void {
  const onKey = useEffectEvent((event: KeyboardEvent): void => {
    if (event.ctrlKey || event.metaKey || event.altKey || refundOwed) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      if (question) setQuestion(null);
      else if (open) setQuestion('cancel');
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

/**
 * The amount and where to pay it: the number with its QR, Copy and time left only while it may
 * be paid into; struck once it may not; not shown at all while the customer's bank processes a
 * transfer into it (nobody is to pay again).
 */
function SaleFacts({
  sale,
  open,
  moment,
}: {
  readonly sale: SaleView;
  readonly open: boolean;
  readonly moment: SaleMoment;
}) {
  // An outage sale's standing account takes money at any time: its number stays payable.
  const outage = moment === 'unconfirmed';
  const payable = moment === 'payable' || outage;
  // A settled outage sale's number is the shop's standing account, open to the next outage
  // sale: it is neither this sale's to strike nor to offer again, so it is left out.
  const outageSale = sale.outagePolicy !== null;
  const showAccount =
    sale.accountNumber !== null && moment !== 'processing' && (!outageSale || outage);
  return (
    <div className="sale-grid">
      <dl className="account-details">
        {outage ? (
          <div className="detail detail-amount detail-exact">
            <dt>Send exactly</dt>
            <dd>
              <ExactAmount kobo={sale.amountDueKobo} className="amount-due" />
            </dd>
          </div>
        ) : (
          <div className="detail detail-amount">
            <dt>{open ? 'Amount due' : 'Amount'}</dt>
            <dd className="amount-due" data-testid="amount-due">
              {formatNaira(sale.amountKobo)}
            </dd>
          </div>
        )}
        {outageSale && !outage && (
          <div className="detail detail-asked">
            <dt>Asked to send</dt>
            <dd data-testid="asked-to-send">{formatNaira(sale.amountDueKobo)}</dd>
          </div>
        )}
        {showAccount && sale.accountNumber && (
          <>
            <div className="detail detail-number">
              <dt>Account number</dt>
              <dd>
                <AccountNumber accountNumber={sale.accountNumber} closed={!payable} />
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
        {payable && sale.expiresAt !== null && (
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
      {sale.accountNumber && payable && (
        <QrImage
          className="sale-qr"
          text={accountDetailsText({
            bank: sale.bank,
            accountNumber: sale.accountNumber,
            accountName: sale.accountName,
            amountKobo: sale.amountDueKobo,
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
 * says so, with the time. The safe choice has the focus: Esc then Enter keeps the sale. Asked
 * for "New sale" too ('leaving'): the till never drops a sale the customer can still pay into.
 */
function CancelQuestion({
  sale,
  leaving,
  lost,
  onKeep,
  onCancel,
}: {
  readonly sale: SaleView;
  /** Asked because the till would leave the sale (null: its own Cancel). */
  readonly leaving: LeaveAsked | null;
  readonly lost: boolean;
  readonly onKeep: () => void;
  readonly onCancel: () => void;
}) {
  const keepWaitingRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keepWaitingRef.current?.focus();
  }, []);
  const goTo = leaving ? leaveWords(leaving) : null;
  const question = leaving ? leaveQuestion(leaving) : 'Cancel this sale?';
  const asked = leaving
    ? `This sale is still open: the customer can still pay into it. ${question}`
    : question;
  return (
    <div className="confirm" role="group" aria-label={question}>
      <p>{asked}</p>
      <p data-testid="cancel-still-payable">
        {/* Leaving already said the customer can still pay: one line less on a small till. */}
        {leaving ? MONEY_AFTER_CANCEL_WORDS : stillPayableWords(sale)}
      </p>
      <button ref={keepWaitingRef} type="button" className="button primary" onClick={onKeep}>
        {leaving ? 'Keep waiting' : 'No, keep waiting'}
      </button>
      <button type="button" className="button danger" disabled={lost} onClick={onCancel}>
        {goTo ?? 'Yes, cancel the sale'}
      </button>
    </div>
  );
}

/** The question leaving asks (the group's name, and the end of what it says). */
function leaveQuestion(leaving: LeaveAsked): string {
  return leaving.to
    ? `Cancel it and open sale #${leaving.to.id}?`
    : 'Cancel it and start a new sale?';
}

/** What leaving does, said on the button that does it. */
function leaveWords(leaving: LeaveAsked): string {
  return leaving.to
    ? `Cancel it and open sale #${leaving.to.id}`
    : 'Cancel it and start a new sale';
}

/** What stays true after a cancel: the customer can still pay into the number until it expires. */
const MONEY_AFTER_CANCEL_WORDS = 'If money arrives after you cancel, the till will tell you.';

function stillPayableWords(sale: SaleView): string {
  const told = MONEY_AFTER_CANCEL_WORDS;
  if (sale.accountNumber === null) return told;
  const number = groupAccountNumber(sale.accountNumber);
  const until = sale.expiresAt === null ? '' : ` until ${formatTime(sale.expiresAt)}`;
  return `The customer can still pay into ${number}${until}. ${told}`;
}

function SaleButtons({
  sale,
  actions,
  disabled,
  refundOwed,
  nextRef,
  cancelRef,
  onAsk,
  onLeave,
  onNext,
}: {
  readonly sale: SaleView;
  readonly actions: SaleActions;
  readonly disabled: boolean;
  /** The customer paid twice and nobody noted the refund: no next sale yet. */
  readonly refundOwed: boolean;
  readonly nextRef: RefObject<HTMLButtonElement | null>;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  readonly onAsk: () => void;
  readonly onLeave: () => void;
  readonly onNext: StartNext;
}) {
  const open = isOpenSaleState(sale.state);
  // A sale paid after it closed may still be handed over: its receipt prints too.
  const paid = sale.state === 'paid' || sale.state === 'paid_late';
  // An expired or cancelled sale is started again for the same amount in one press.
  const again = sale.state === 'expired' || sale.state === 'cancelled';
  // Money after the sale closed: the goods-or-refund choice above is the one to make first.
  const decisionOwed = sale.state === 'paid_late' && sale.lateResolution === null;
  const offline = sale.state === 'failed_to_create' && sale.canRetry && sale.offlineCause;
  const policyAction = outagePress(sale);
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
        <RetryButtons actions={actions} disabled={disabled} offline={offline} nextRef={nextRef} />
      )}
      {policyAction && (
        <button
          ref={nextRef}
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => void actions.record(policyAction)}
        >
          {policyAction === 'goods_given' ? GOODS_GIVEN_LABEL : KEEP_WAITING_LABEL}
        </button>
      )}
      {open && (
        <button
          ref={cancelRef}
          type="button"
          className="button danger"
          disabled={disabled}
          onClick={onAsk}
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
          ref={again || offline || policyAction ? undefined : nextRef}
          type="button"
          className={`button ${again || decisionOwed || refundOwed || offline || policyAction ? 'secondary' : 'primary'}`}
          disabled={refundOwed}
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
        <button type="button" className="button secondary" onClick={onLeave}>
          New sale
        </button>
      )}
    </div>
  );
}

/** The press the shop's policy asks for on an unconfirmed sale, until it is recorded. */
function outagePress(sale: SaleView): OutageAction | null {
  if (sale.state !== 'unconfirmed') return null;
  if (sale.outagePolicy === 'hand_over') {
    return sale.outageAction === 'goods_given' ? null : 'goods_given';
  }
  return sale.outageAction === null ? 'keep_waiting' : null;
}

/**
 * A sale that could not start and may: with no answer from the provider, the shop's standing
 * account first (one press), then Try again. A refusal that repeats until a setting is fixed
 * offers neither: the reason says what to fix.
 */
function RetryButtons({
  actions,
  disabled,
  offline,
  nextRef,
}: {
  readonly actions: SaleActions;
  readonly disabled: boolean;
  readonly offline: boolean;
  readonly nextRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <>
      {offline && (
        <button
          ref={nextRef}
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => void actions.outage()}
        >
          {TAKE_ON_STANDING_LABEL}
        </button>
      )}
      <button
        type="button"
        className={`button ${offline ? 'secondary' : 'primary'}`}
        disabled={disabled}
        onClick={() => void actions.retry()}
      >
        Try again
      </button>
    </>
  );
}
