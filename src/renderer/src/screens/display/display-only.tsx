import { useState } from 'react';
import type { DisplayStateView } from '#shared/hub';
import { useBridgeEvent } from '../../bridge-context';
import { CustomerDisplayView } from './customer-display';
import { isShown } from './shown-sale';
import { useShownSale } from './use-display';

/**
 * The customer display opened with its own token (`#/display&display=…`): that token can call
 * no channel, so everything comes from its event stream. 'display-state' (on open, and when the
 * shop name or till id changes) says what to show; 'sale-changed' follows the sale from there.
 */
export function DisplayOnlyScreen() {
  const [state, setState] = useState<DisplayStateView | null>(null);
  const [sale, setSale] = useShownSale(state?.tillId ?? null);

  useBridgeEvent('display-state', (next) => {
    setState(next);
    const current = next.sale && isShown(next.sale) ? next.sale : null;
    // A stream that opens again during "Thank you" or "expired" lets it finish (not open).
    setSale((shown) => current ?? (shown && !isShown(shown) ? shown : null));
  });

  if (!state) {
    return (
      <main className="customer-display welcome">
        <p className="display-info" role="status">
          Connecting to the till…
        </p>
      </main>
    );
  }
  return <CustomerDisplayView shopName={state.shopName} sale={sale} />;
}
