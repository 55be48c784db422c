import { useEffect, useState } from 'react';
import type { StoreSpaceView } from '#shared/views';
import { useBridge, useBridgeEvent } from '../bridge-context';

/**
 * Says that the till's disk is full while it is: new sales are refused, open sales are still
 * checked, and payments found meanwhile show once they are stored. Read when the page opens,
 * then followed through main's 'store-space' events.
 */
export function DiskFullBanner() {
  const bridge = useBridge();
  const [space, setSpace] = useState<StoreSpaceView | null>(null);

  useEffect(() => {
    let live = true;
    void bridge.getStatus({}).then((result) => {
      if (live && result.ok) setSpace(result.value.storeSpace ?? null);
    });
    return () => {
      live = false;
    };
  }, [bridge]);
  useBridgeEvent('store-space', setSpace);

  if (!space?.full) return null;
  return (
    <div className="notice disk-full-banner" role="alert" data-testid="disk-full-banner">
      <strong>The till&apos;s disk is full: free some space.</strong> New sales cannot start. Open
      sales are still being checked; a payment shows as paid once it is saved.
    </div>
  );
}
