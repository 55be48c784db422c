import { AddCounter } from './add-counter';
import { LanPanel } from './lan-panel';
import { PairedCounterList } from './paired-counter-list';
import { useHub } from './use-counters';

export { HUB_REFRESH_MS } from './use-counters';

/**
 * The hub's counters (the owner's, at the hub): the LAN listener counters reach it through,
 * one-time pairing links for new counters, and every counter paired so far.
 */
export function CountersScreen() {
  const { hub, error, apply } = useHub();

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
          <p className="muted">
            Its address and port are set in <a href="#/settings/hub">Settings → Shop hub</a>.
          </p>
          <AddCounter hub={hub} />
          <PairedCounterList counters={hub.counters} onHub={apply} />
        </>
      )}
    </section>
  );
}
