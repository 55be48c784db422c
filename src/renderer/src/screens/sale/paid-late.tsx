import { useId, useState, type FormEvent } from 'react';
import { formatNaira } from '#shared/money';
import { describeResolution } from '#shared/report-words';
import type { SaleView } from '#shared/sales';
import { LAGOS } from '../../format';
import { useSession } from '../../session-context';
import type { SetSale } from './current-sale';
import { usePaidLateResolution } from './use-paid-late';
import './paid-late.css';

/**
 * What the cashier reads on a sale paid after it closed: the money, what happened before it
 * (the till knows which), and what to do. The interface has no cancel: a cancelled account
 * stays payable until it expires, so this is a moment the counter meets.
 */
export function paidLateWords(sale: Pick<SaleView, 'amountKobo' | 'paidAfter'>): string {
  const amount = formatNaira(sale.amountKobo);
  switch (sale.paidAfter) {
    case 'cancelled':
      return `${amount} arrived after you cancelled: give the goods or refund`;
    case 'expired':
      return `${amount} arrived after the sale expired: is the customer still here? Give the goods or refund`;
    default:
      return `${amount} arrived after the sale could not start: give the goods or refund`;
  }
}

/**
 * Under the amber banner: the two things a shop does about the money, recorded as the report's
 * resolution of the same case. The owner records them (main refuses anyone else, as on the
 * report); a cashier is told who does. Once recorded, what was done, by whom and when.
 */
export function PaidLateChoices({
  sale,
  onSale,
}: {
  readonly sale: SaleView;
  readonly onSale: SetSale;
}) {
  const { session } = useSession();
  const mayRecord = session?.role === 'owner' && !session.counter;
  const resolution = sale.lateResolution;
  if (resolution) {
    return (
      <p className="paid-late-done" data-testid="paid-late-done" role="status">
        <strong>Done:</strong> {describeResolution(resolution, LAGOS)}
      </p>
    );
  }
  if (!mayRecord) {
    return (
      <p className="paid-late-who" data-testid="paid-late-choices">
        An owner records what was done on the report.
      </p>
    );
  }
  return <OwnerChoices sale={sale} onSale={onSale} />;
}

function OwnerChoices({ sale, onSale }: { readonly sale: SaleView; readonly onSale: SetSale }) {
  const id = useId();
  const late = usePaidLateResolution(sale, onSale);
  const [askingReference, setAskingReference] = useState(false);
  const [reference, setReference] = useState('');

  function saveRefund(event: FormEvent): void {
    event.preventDefault();
    if (!late.busy) void late.refunded(reference);
  }

  const errorId = `${id}-error`;
  const invalid = late.errorField === 'bankReference' ? true : undefined;
  return (
    <div className="paid-late-choices" data-testid="paid-late-choices">
      {askingReference ? (
        <form className="paid-late-refund" onSubmit={saveRefund} noValidate>
          <label className="field">
            <span>Bank reference of the refund transfer</span>
            <input
              type="text"
              maxLength={100}
              value={reference}
              aria-invalid={invalid}
              aria-describedby={invalid ? errorId : undefined}
              onChange={(event) => setReference(event.target.value)}
            />
          </label>
          <div className="actions">
            <button type="submit" className="button primary" disabled={late.busy}>
              Save refund
            </button>
            <button
              type="button"
              className="button secondary"
              disabled={late.busy}
              onClick={() => {
                setAskingReference(false);
                late.clearError();
              }}
            >
              Back
            </button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <button
            type="button"
            className="button primary"
            disabled={late.busy}
            onClick={() => void late.gaveGoods()}
          >
            Gave the goods
          </button>
          <button
            type="button"
            className="button primary"
            disabled={late.busy}
            onClick={() => setAskingReference(true)}
          >
            Refunded
          </button>
        </div>
      )}
      {late.error && (
        <p id={errorId} className="error" role="alert">
          {late.error}
        </p>
      )}
    </div>
  );
}
