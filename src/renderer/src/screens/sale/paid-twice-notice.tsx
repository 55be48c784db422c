import { usePaidTwiceAlerts } from './use-sale';

/**
 * Its look kept here rather than in styles.css, which the screen redesign is rewriting: the
 * problem banner's red, loud enough to stop the cashier.
 */
const NOTICE_STYLE = {
  background: '#ffd6d6',
  color: 'var(--red)',
  border: '3px solid var(--red)',
  borderRadius: '0.5rem',
  padding: '0.6rem 1rem',
  margin: '0 0 1rem',
  fontWeight: 700,
  // 30-digit session ids must wrap on a phone counter.
  overflowWrap: 'anywhere',
} as const;

/**
 * The customer paid this sale twice: said on the sale's screen while it is open, loud, so that
 * the cashier refunds before the customer leaves. Read once from main's open alerts, then
 * followed through its alert events. An alert naming the transfer that now pays the sale is
 * gone: main moved the payment to it when the provider dated it first.
 */
export function PaidTwiceNotice({
  saleId,
  paidSessionId,
}: {
  readonly saleId: number;
  readonly paidSessionId: string | null;
}) {
  const alerts = usePaidTwiceAlerts(saleId).filter(
    (alert) => paidSessionId === null || alert.sessionId !== paidSessionId,
  );
  if (alerts.length === 0) return null;
  return (
    <div
      className="paid-twice-notice"
      role="alert"
      data-testid="paid-twice-notice"
      style={NOTICE_STYLE}
    >
      <strong>Customer paid twice</strong>
      {alerts.map((alert) => (
        <p key={alert.id}>{alert.message}</p>
      ))}
    </div>
  );
}
