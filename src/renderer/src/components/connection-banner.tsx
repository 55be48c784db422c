import { useEffect, useState } from 'react';
import type { Connection } from '../bridge';
import { useConnectionView } from '../bridge/use-connection';

/** How long "connected again" stays up. */
export const BACK_NOTICE_MS = 5_000;

/**
 * Says when this page has lost the till service (the browser shell stopped, the network
 * dropped), that it keeps trying, and when it is back; or that its access was replaced. The
 * desktop app has no connection to lose, and shows nothing.
 */
export function ConnectionBanner({ connection }: { readonly connection: Connection | null }) {
  const view = useConnectionView(connection);
  const recoveries = view?.recoveries ?? 0;
  // The count only grows: each recovery shows the notice until its own time is up.
  const [spentRecovery, setSpentRecovery] = useState(0);
  const showBack = recoveries !== 0 && recoveries !== spentRecovery;

  useEffect(() => {
    if (recoveries === 0) return;
    const timer = setTimeout(() => setSpentRecovery(recoveries), BACK_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [recoveries]);

  if (!view) return null;
  if (view.state === 'offline') {
    return (
      <div
        className="alert-banner connection-banner connection-offline"
        role="alert"
        data-testid="connection-banner"
        data-state="offline"
      >
        <strong>Lost the connection to the till service.</strong> Payments will show here when it is
        back; nothing is lost. Reconnecting…
      </div>
    );
  }
  if (view.state === 'refused') {
    return (
      <div
        className="alert-banner connection-banner connection-refused"
        role="alert"
        data-testid="connection-banner"
        data-state="refused"
      >
        <strong>This page&apos;s access was replaced.</strong> The owner made a new access token.
        Open the new address that the till service printed (or that Settings showed when the token
        was rotated). On a counter, ask the owner for a new pairing link.
      </div>
    );
  }
  if (view.state === 'online' && showBack) {
    return (
      <div
        className="notice connection-banner connection-back"
        role="status"
        data-testid="connection-banner"
        data-state="back"
      >
        Connected to the till service again.
      </div>
    );
  }
  return null;
}
