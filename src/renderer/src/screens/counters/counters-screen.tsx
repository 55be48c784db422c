import { useCallback, useEffect, useRef, useState } from 'react';
import type { HubView } from '#shared/hub';
import { useBridge } from '../../bridge-context';
import { cashierMessage } from '../../errors';
import { AddCounter } from './add-counter';
import { LanPanel } from './lan-panel';
import { PairedCounterList } from './paired-counter-list';

/** How often the list is read again while the screen is open (last contact, new pairings). */
export const HUB_REFRESH_MS = 5_000;

/**
 * The hub's counters (the owner's, at the hub): the LAN listener counters reach it through,
 * one-time pairing links for new counters, and every counter paired so far.
 */
export function CountersScreen() {
  const bridge = useBridge();
  const [hub, setHub] = useState<HubView | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped by every answer taken: a slow poll must not undo what the owner just changed.
  const version = useRef(0);

  const load = useCallback(async () => {
    const mine = ++version.current;
    const result = await bridge.getHub({});
    if (mine !== version.current) return;
    if (result.ok) {
      setHub(result.value);
      setError(null);
    } else setError(cashierMessage(result.error));
  }, [bridge]);

  const apply = useCallback((view: HubView) => {
    version.current += 1;
    setHub(view);
    setError(null);
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only after an await (a known false positive: facebook/react#34905).
    void load();
    const timer = setInterval(() => void load(), HUB_REFRESH_MS);
    return () => {
      clearInterval(timer);
      // Answers still on their way belong to a screen that is gone.
      version.current += 1;
    };
  }, [load]);

  return (
    <section className="screen counters" aria-labelledby="counters-heading">
      <h2 id="counters-heading">Counters</h2>
      <p className="muted">
        Other screens in the shop (a tablet, a phone, another PC) sell through this till: the keys,
        the tunnel and the sales stay here. Each counter gets its own till id and can only sell and
        see its own sales.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {hub === null ? (
        error === null && <p role="status">Loading counters…</p>
      ) : !hub.available ? (
        <p className="notice" role="note">
          This copy of Transfer Till cannot host counters: it runs no LAN listener. The desktop app
          and the browser shell (<code>npm run web</code>) can.
        </p>
      ) : (
        <>
          <LanPanel lan={hub.lan} onHub={apply} />
          <AddCounter hub={hub} />
          <PairedCounterList counters={hub.counters} onHub={apply} />
        </>
      )}
    </section>
  );
}
