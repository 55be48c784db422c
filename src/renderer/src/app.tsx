import { useCallback, useEffect, useState } from 'react';
import type { AppInfo, WindowApi } from '../../shared/bridge/contract';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings-schema';
import type { CallbackHealthView, SettingsView } from '../../shared/views';
import { BridgeProvider, useBridge, useBridgeEvent } from './bridge-context';
import { applyTunnelEvent, Header, type CallbackStatus } from './components/header';
import { cashierMessage } from './errors';
import { hrefOf, useHashRoute, type Route } from './routes';
import { ActivityScreen } from './screens/activity/activity-screen';
import { BalanceScreen } from './screens/balance/balance-screen';
import { CustomerDisplay } from './screens/display/customer-display';
import { ReportScreen } from './screens/report/report-screen';
import { useCurrentSale } from './screens/sale/current-sale';
import { SaleScreen } from './screens/sale/sale-screen';
import { SettingsScreen } from './screens/settings/settings-screen';

export function App({ bridge }: { readonly bridge: WindowApi | null }) {
  if (!bridge) {
    return (
      <div className="app">
        <header className="app-header">
          <div className="header-row">
            <h1>Transfer Till</h1>
          </div>
        </header>
        <main>
          <p role="alert" className="error">
            Not connected to the till service. Open the address that `npm run web` printed.
          </p>
        </main>
      </div>
    );
  }
  return (
    <BridgeProvider bridge={bridge}>
      <Shell />
    </BridgeProvider>
  );
}

interface ShopIdentity {
  readonly shopName: string;
  readonly tillId: string;
}

function Shell() {
  const bridge = useBridge();
  const route = useHashRoute();
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shop, setShop] = useState<ShopIdentity | null>(null);
  const [callback, setCallback] = useState<CallbackStatus | null>(null);
  const [health, setHealth] = useState<CallbackHealthView | null>(null);
  const [openAlerts, setOpenAlerts] = useState<number | null>(null);
  const [sounds, setSounds] = useState<Settings['sounds']>(DEFAULT_SETTINGS.sounds);
  const [sale, setSale] = useCurrentSale(sounds);

  /** Re-reads the alert count (after an 'alert' event or an acknowledgement). */
  const refreshAlerts = useCallback(async () => {
    const result = await bridge.getStatus({});
    if (result.ok) setOpenAlerts(result.value.openAlerts);
  }, [bridge]);

  /** Reads what the header and footer show; again after settings change (environment, shop). */
  const refreshShell = useCallback(
    (isLive: () => boolean) => {
      void bridge.getAppInfo({}).then((result) => {
        if (!isLive()) return;
        if (result.ok) {
          setInfo(result.value);
          setError(null);
        } else setError(cashierMessage(result.error));
      });
      void bridge.getStatus({}).then((result) => {
        if (!isLive() || !result.ok) return;
        const status = result.value;
        setShop({ shopName: status.shopName, tillId: status.tillId });
        setCallback(status.callback);
        setHealth(status.callbackHealth);
        setOpenAlerts(status.openAlerts);
      });
    },
    [bridge],
  );

  useEffect(() => {
    let live = true;
    refreshShell(() => live);
    // Only the sounds are needed here; a failure leaves the defaults (chime on).
    void bridge.getSettings({}).then((result) => {
      if (live && result.ok) setSounds(result.value.settings.sounds);
    });
    return () => {
      live = false;
    };
  }, [bridge, refreshShell]);

  const onSettingsChanged = useCallback(
    (view: SettingsView) => {
      setSounds(view.settings.sounds);
      refreshShell(() => true);
    },
    [refreshShell],
  );

  useBridgeEvent('tunnel', (tunnel) => {
    setCallback((current) => (current ? applyTunnelEvent(current, tunnel) : current));
  });
  useBridgeEvent('callback-health', setHealth);
  useBridgeEvent('alert', () => void refreshAlerts());
  useBridgeEvent('navigate', ({ route: target }) => {
    window.location.hash = hrefOf(target);
  });

  if (route === 'display') {
    return (
      <div className="app display-app">
        <CustomerDisplay shopName={shop?.shopName ?? null} tillId={shop?.tillId ?? null} />
      </div>
    );
  }

  return (
    <div className="app">
      <Header
        info={info}
        callback={callback}
        health={health}
        openAlerts={openAlerts}
        route={route}
      />
      <main id="main">
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <Screen
          route={route}
          sale={sale}
          setSale={setSale}
          refreshAlerts={refreshAlerts}
          onSettingsChanged={onSettingsChanged}
        />
      </main>
      <footer className="app-footer no-print">
        {info && (
          <p data-testid="app-version">
            Version {info.version} · {info.shell === 'electron' ? 'desktop app' : 'browser shell'}
            {shop ? ` · ${shop.shopName} · till ${shop.tillId}` : ''}
          </p>
        )}
      </footer>
    </div>
  );
}

function Screen({
  route,
  sale,
  setSale,
  refreshAlerts,
  onSettingsChanged,
}: {
  readonly route: Exclude<Route, 'display'>;
  readonly sale: ReturnType<typeof useCurrentSale>[0];
  readonly setSale: ReturnType<typeof useCurrentSale>[1];
  readonly refreshAlerts: () => Promise<void>;
  readonly onSettingsChanged: (view: SettingsView) => void;
}) {
  switch (route) {
    case 'sale':
      return <SaleScreen sale={sale} onSale={setSale} />;
    case 'activity':
      return <ActivityScreen onAlertsChanged={refreshAlerts} />;
    case 'report':
      return <ReportScreen />;
    case 'balance':
      return <BalanceScreen />;
    case 'settings':
      return <SettingsScreen onSettingsChanged={onSettingsChanged} />;
  }
}
