import { useId } from 'react';
import { saleNumberOf } from '#shared/report-words';
import { formatNaira } from '#shared/money';
import {
  NEEDS_PERSON,
  type AlertAction,
  type AlertView,
  type OutageCandidate,
} from '#shared/sales';
import { formatTime } from '../../format';

/** The words of the press that resolves an alert (main says which applies: AlertView.action). */
function actionWords(action: AlertAction, kind: string): string {
  if (action === 'check-payment') return 'Check payment now';
  return kind === 'paid_twice' ? 'Refund the customer' : 'Give goods or refund';
}

/**
 * "Needs attention": the open alerts main lets this viewer see (the header counts the same
 * list). Each names its sale as a button that opens it, and offers the press that resolves it
 * where there is one, before Acknowledge.
 */
export function AlertsPanel({
  alerts,
  error,
  onAcknowledge,
  onCheckPayment,
  onOpenSale,
  onAssign,
}: {
  readonly alerts: readonly AlertView[];
  readonly error: string | null;
  readonly onAcknowledge: (alert: AlertView) => void;
  readonly onCheckPayment: (saleId: number) => void;
  readonly onOpenSale: (saleId: number) => void;
  /** The owner gives a "Needs a person" payment to one of its candidate sales. */
  readonly onAssign: (alert: AlertView, saleId: number) => void;
}) {
  const openAlerts = alerts.filter((alert) => alert.acknowledgedAt === null);
  return (
    <section aria-labelledby="alerts-heading" className="panel">
      <h3 id="alerts-heading">Needs attention ({openAlerts.length})</h3>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {openAlerts.length === 0 ? (
        <p className="muted">Nothing needs attention.</p>
      ) : (
        <ul className="alert-list" data-testid="alert-list">
          {openAlerts.map((alert) => (
            <AlertItem
              key={alert.id}
              alert={alert}
              onAcknowledge={() => onAcknowledge(alert)}
              onCheckPayment={onCheckPayment}
              onOpenSale={onOpenSale}
              onAssign={(saleId) => onAssign(alert, saleId)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function AlertItem({
  alert,
  onAcknowledge,
  onCheckPayment,
  onOpenSale,
  onAssign,
}: {
  readonly alert: AlertView;
  readonly onAcknowledge: () => void;
  readonly onCheckPayment: (saleId: number) => void;
  readonly onOpenSale: (saleId: number) => void;
  readonly onAssign: (saleId: number) => void;
}) {
  const messageId = useId();
  const { saleId, action } = alert;
  const needsPerson = alert.kind === NEEDS_PERSON;
  return (
    <li className={`alert-item level-${alert.level}`} data-testid="alert-item">
      <span className="alert-time">{formatTime(alert.createdAt)}</span>
      <span id={messageId} className="alert-message">
        {needsPerson && <strong className="alert-kind">Needs a person. </strong>}
        {alert.message}
      </span>
      {needsPerson && alert.candidates && alert.candidates.length > 0 && (
        <CandidateSales candidates={alert.candidates} describedBy={messageId} onAssign={onAssign} />
      )}
      <span className="alert-actions">
        {saleId !== null && (
          <button
            type="button"
            className="button link alert-sale"
            aria-label={`Open sale ${saleNumberOf(saleId)}`}
            onClick={() => onOpenSale(saleId)}
          >
            Sale {saleNumberOf(saleId)}
          </button>
        )}
        {saleId !== null && action !== null && (
          <button
            type="button"
            className="button primary"
            aria-describedby={messageId}
            onClick={() => (action === 'check-payment' ? onCheckPayment : onOpenSale)(saleId)}
          >
            {actionWords(action, alert.kind)}
          </button>
        )}
        <button
          type="button"
          className="button secondary"
          aria-describedby={messageId}
          onClick={onAcknowledge}
        >
          Acknowledge
        </button>
      </span>
    </li>
  );
}

/** The outage sales a payment could be for: one press gives it to the one the owner chose. */
function CandidateSales({
  candidates,
  describedBy,
  onAssign,
}: {
  readonly candidates: readonly OutageCandidate[];
  readonly describedBy: string;
  readonly onAssign: (saleId: number) => void;
}) {
  return (
    <ul className="alert-candidates" aria-label="Sales this payment could be for">
      {candidates.map((candidate) => (
        <li key={candidate.saleId} data-testid="alert-candidate">
          <button
            type="button"
            className="button primary"
            aria-describedby={describedBy}
            onClick={() => onAssign(candidate.saleId)}
          >
            Give to sale {saleNumberOf(candidate.saleId)}
          </button>{' '}
          <span className="muted">
            asked {formatNaira(candidate.amountDueKobo)} at {formatTime(candidate.createdAt)}
            {candidate.cashier ? ` by ${candidate.cashier}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
