import { useCallback, useEffect, useState } from 'react';
import type { AppInfo, WindowApi } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import type { CallbackHealthView, ProviderReachView } from '#shared/views';
import { useBridgeEvent } from './bridge-context';
import { applyTunnelEvent, type CallbackStatus } from './components/header';
import type { RendererErrorReport } from './components/error-boundary';
import { failureOf, useBridgeCall } from './hooks/use-bridge-call';

export interface ShopIdentity {
  readonly shopName: string;
  readonly tillId: string;
}

export interface ShellStatus {
  readonly info: AppInfo | null;
  readonly error: string | null;
  readonly shop: ShopIdentity | null;
  readonly callback: CallbackStatus | null;
  readonly health: CallbackHealthView | null;
  /** Whether the provider can be reached from the till; null until main answers. */
  readonly reach: ProviderReachView | null;
  readonly openAlerts: number | null;
  /** Main asks the shop's name before the first sale (a fresh till): the first-start screen. */
  readonly askShopName: boolean;
  /** Reads what the header and footer show; `isLive` false drops answers that come too late. */
  readonly refreshShell: (isLive: () => boolean) => void;
  /** Re-reads the alert count (after an 'alert' event or an acknowledgement). */
  readonly refreshAlerts: () => Promise<void>;
}

/**
 * What the header and footer show around every screen: the app, the shop and till, how the
 * provider reaches this till, and the open alerts. Read when the shell opens, again after
 * settings change or main comes back, and followed through main's events in between.
 */
export function useShellStatus(bridge: WindowApi): ShellStatus {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shop, setShop] = useState<ShopIdentity | null>(null);
  const [callback, setCallback] = useState<CallbackStatus | null>(null);
  const [health, setHealth] = useState<CallbackHealthView | null>(null);
  const [reach, setReach] = useState<ProviderReachView | null>(null);
  const [openAlerts, setOpenAlerts] = useState<number | null>(null);
  const [askShopName, setAskShopName] = useState(false);

  const refreshAlerts = useCallback(async () => {
    const result = await bridge.getStatus({});
    if (result.ok) setOpenAlerts(result.value.openAlerts);
  }, [bridge]);

  const refreshShell = useCallback(
    (isLive: () => boolean) => {
      void bridge.getAppInfo({}).then((result) => {
        if (!isLive()) return;
        if (result.ok) {
          setInfo(result.value);
          setError(null);
        } else setError(failureOf(result.error).words);
      });
      void bridge.getStatus({}).then((result) => {
        if (!isLive() || !result.ok) return;
        const status = result.value;
        setShop({ shopName: status.shopName, tillId: status.tillId });
        setCallback(status.callback);
        setHealth(status.callbackHealth);
        setReach(status.providerReach ?? null);
        setOpenAlerts(status.openAlerts);
        setAskShopName(status.askShopName === true);
      });
    },
    [bridge],
  );

  useEffect(() => {
    let live = true;
    refreshShell(() => live);
    return () => {
      live = false;
    };
  }, [refreshShell]);

  useBridgeEvent('tunnel', (tunnel) => {
    setCallback((current) => (current ? applyTunnelEvent(current, tunnel) : current));
  });
  useBridgeEvent('callback-health', setHealth);
  useBridgeEvent('provider-reach', setReach);
  useBridgeEvent('alert', () => void refreshAlerts());

  return {
    info,
    error,
    shop,
    callback,
    health,
    reach,
    openAlerts,
    askShopName,
    refreshShell,
    refreshAlerts,
  };
}

/** Where an error boundary sends what broke: main logs it (the page cannot write a file). */
export function rendererErrorReporter(bridge: WindowApi): (report: RendererErrorReport) => void {
  return (report) => void bridge.reportRendererError(report);
}

/** Reads a sale again as main has it now (after main came back), and hands it on. */
export function useSaleReread(onSale: (sale: SaleView) => void): (saleId: number) => void {
  const { run } = useBridgeCall<SaleView>();
  return (saleId) => {
    void run((bridge) => bridge.getSale({ saleId })).then((answer) => {
      if (answer?.ok) onSale(answer.value);
    });
  };
}
