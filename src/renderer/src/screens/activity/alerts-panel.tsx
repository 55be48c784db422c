import { useId } from 'react';
import { saleNumberOf } from '#shared/report-words';
import type { AlertAction, AlertView } from '#shared/sales';
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
}: {
  readonly alerts: readonly AlertView[];
  readonly error: string | null;
  readonly onAcknowledge: (alert: AlertView) => void;
  readonly onCheckPayment: (saleId: number) => void;
  readonly onOpenSale: (saleId: number) => void;
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
}: {
  readonly alert: AlertView;
  readonly onAcknowledge: () => void;
  readonly onCheckPayment: (saleId: number) => void;
  readonly onOpenSale: (saleId: number) => void;
}) {
  const messageId = useId();
  const { saleId, action } = alert;
  return (
    <li className={`alert-item level-${alert.level}`} data-testid="alert-item">
      <span className="alert-time">{formatTime(alert.createdAt)}</span>
      <span id={messageId} className="alert-message">
        {alert.message}
      </span>
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
