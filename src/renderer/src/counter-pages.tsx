import { useState, type ReactNode } from 'react';
import type { Connection } from './bridge';
import { COUNTER_REVOKED } from './bridge/counter-token';
import { useConnectionView } from './bridge/use-connection';
import { hrefOf } from './routes';

/** A page with no screens: the app's name and one message. */
export function BarePage({ children }: { readonly children: ReactNode }) {
  return (
    <div className="app">
      <header className="app-header">
        <div className="header-row">
          <h1>Transfer Till</h1>
        </div>
      </header>
      <main id="main">{children}</main>
    </div>
  );
}

/**
 * A counter the owner revoked: main refuses its token (COUNTER_REVOKED) on a call or the stream.
 * From then on the page says so and nothing else; nothing below it mounts to try again.
 */
export function CounterRemovedGate({
  connection,
  children,
}: {
  readonly connection: Connection | null;
  readonly children: ReactNode;
}) {
  const view = useConnectionView(connection);
  const refusedNow = view?.state === 'refused' && view.refusedWith === COUNTER_REVOKED;
  // Once refused, always refused: a later state of the connection does not bring the screens back.
  const [removed, setRemoved] = useState(false);
  if (refusedNow && !removed) setRemoved(true);
  if (!removed && !refusedNow) return <>{children}</>;
  return (
    <BarePage>
      <section
        className="screen panel counter-removed"
        role="alert"
        aria-labelledby="counter-removed-heading"
        data-testid="counter-removed"
      >
        <h2 id="counter-removed-heading">Counter removed</h2>
        <p>
          This counter was removed by the owner. It can no longer sell or see sales through the hub.
        </p>
        <p>
          To use this screen again, ask the owner for a new pairing link (Counters → Add counter, at
          the hub) and open it here.
        </p>
      </section>
    </BarePage>
  );
}

/** An owner screen opened on a counter: the owner's work is done at the hub, not here. */
export function AtTheHub({ screenName }: { readonly screenName: string }) {
  return (
    <section className="screen at-the-hub" aria-labelledby="at-the-hub-heading">
      <h2 id="at-the-hub-heading">This screen is at the hub</h2>
      <p data-testid="at-the-hub">
        {screenName} is opened on the hub, the till this counter is paired with. This counter sells
        and shows its own sales.
      </p>
      <p>
        <a href={hrefOf('sale')}>Back to the sale screen</a>
      </p>
    </section>
  );
}
