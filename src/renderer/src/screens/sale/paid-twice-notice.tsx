import { useEffect, useState } from 'react';
import type { AlertView } from '#shared/sales';
import { useBridge, useBridgeEvent } from '../../bridge-context';

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

/** Main's alert kind for a payment beyond the one that paid a sale (engine/extra-payments.ts). */
const PAID_TWICE = 'paid_twice';

function isPaidTwiceOf(saleId: number, alert: AlertView): boolean {
  return alert.kind === PAID_TWICE && alert.saleId === saleId;
}

/**
 * The customer paid this sale twice: said on the sale's screen while it is open, loud, so that
 * the cashier refunds before the customer leaves. Read once from main's open alerts, then
 * followed through its alert events.
 */
export function PaidTwiceNotice({ saleId }: { readonly saleId: number }) {
  const bridge = useBridge();
  const [alerts, setAlerts] = useState<readonly AlertView[]>([]);

  useEffect(() => {
    let live = true;
    void bridge.getActivity({}).then((result) => {
      if (!live || !result.ok) return;
      const found = result.value.alerts.filter((alert) => isPaidTwiceOf(saleId, alert));
      setAlerts((shown) => [...shown, ...found.filter((a) => !shown.some((s) => s.id === a.id))]);
    });
    return () => {
      live = false;
    };
  }, [bridge, saleId]);

  useBridgeEvent('alert', (alert) => {
    if (!isPaidTwiceOf(saleId, alert)) return;
    setAlerts((shown) => (shown.some((s) => s.id === alert.id) ? shown : [...shown, alert]));
  });

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
