import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { AppInfo, SessionView, WindowApi } from '#shared/bridge/contract';
import { DEFAULT_SETTINGS } from '#shared/schema-data';
import type { SettingsView } from '#shared/views';
import { connectionOf, type Connection } from './bridge';
import { useKeptSale } from './bridge/kept-sale';
import { useReconnected } from './bridge/use-connection';
import { BridgeProvider, useBridge, useBridgeEvent } from './bridge-context';
import { ClockNotice } from './components/clock-notice';
import { ConnectionBanner } from './components/connection-banner';
import { DiskFullBanner } from './components/disk-full-banner';
import { ErrorBoundary } from './components/error-boundary';
import { Header } from './components/header';
import { AtTheHub, BarePage, CounterRemovedGate } from './counter-pages';
import { OwnerUnlock } from './components/owner-unlock';
import { hrefOf, isOwnerRoute, useHashRoute, type Route } from './routes';
import { CustomerDisplay } from './screens/display/customer-display';
import { DisplayOnlyScreen } from './screens/display/display-only';
import { useCurrentSale } from './screens/sale/current-sale';
import { useSaleLeave, type SaleLeave } from './screens/sale/leave-sale';
import { SaleScreen } from './screens/sale/sale-screen';
import { SignInScreen } from './screens/sign-in/sign-in-screen';

/*
 * The sale screen comes with the page; the others are fetched when first opened, so that a
 * cheap phone at the counter parses only what it sells with (issue 21: load ≤ 2.5 s at 6× CPU).
 */
const ActivityScreen = lazy(() =>
  import('./screens/activity/activity-screen').then((m) => ({ default: m.ActivityScreen })),
);
const BalanceScreen = lazy(() =>
  import('./screens/balance/balance-screen').then((m) => ({ default: m.BalanceScreen })),
);
const CountersScreen = lazy(() =>
  import('./screens/counters/counters-screen').then((m) => ({ default: m.CountersScreen })),
);
const ReportScreen = lazy(() =>
  import('./screens/report/report-screen').then((m) => ({ default: m.ReportScreen })),
);
const FirstStartScreen = lazy(() =>
  import('./screens/first-start/first-start-screen').then((m) => ({
    default: m.FirstStartScreen,
  })),
);
const ShopNameAwaited = lazy(() =>
  import('./screens/first-start/first-start-screen').then((m) => ({
    default: m.ShopNameAwaited,
  })),
);
const SettingsScreen = lazy(() =>
  import('./screens/settings/settings-screen').then((m) => ({ default: m.SettingsScreen })),
);
import { isSignedOut, SessionBridgeProvider, useSession } from './session-context';
import { useServiceLost } from './server-time';
import { rendererErrorReporter, useSaleReread, useShellStatus } from './use-shell-status';

export function App({
  bridge,
  displayOnly = false,
}: {
  readonly bridge: WindowApi | null;
  /** The page holds a customer display's token: only the display, and no call at all. */
  readonly displayOnly?: boolean;
}) {
  if (!bridge) {
    return (
      <BarePage>
        <p role="alert" className="error">
          Not connected to the till service. Open the address that `npm run web` printed. On a
          counter, ask the owner for a pairing link.
        </p>
      </BarePage>
    );
  }
  if (displayOnly) return <DisplayOnlyApp bridge={bridge} />;
  return (
    <CounterRemovedGate connection={connectionOf(bridge)}>
      <SessionBridgeProvider bridge={bridge}>
        {/* The last guard: whatever fails outside a screen never leaves a blank page. */}
        <ErrorBoundary screen="app" onError={rendererErrorReporter(bridge)}>
          <Shell connection={connectionOf(bridge)} />
        </ErrorBoundary>
      </SessionBridgeProvider>
    </CounterRemovedGate>
  );
}

/**
 * The customer display with its own token: it can call nothing (not even to report an error),
 * so it needs no session; what to show comes from its event stream.
 */
function DisplayOnlyApp({ bridge }: { readonly bridge: WindowApi }) {
  return (
    <BridgeProvider bridge={bridge}>
      <div className="app display-app">
        <ConnectionBanner connection={connectionOf(bridge)} />
        <ErrorBoundary screen="display" onError={() => undefined}>
          <DisplayOnlyScreen />
        </ErrorBoundary>
      </div>
    </BridgeProvider>
  );
}

/** Screens showing live data mount afresh when main restarted (what they missed is lost). */
const REMOUNT_ON_RESYNC: ReadonlySet<Route> = new Set([
  'activity',
  'report',
  'balance',
  'counters',
  'display',
]);

const OWNER_SCREEN_NAMES: Readonly<Partial<Record<Route, string>>> = {
  report: 'The end-of-day report',
  balance: 'The balance',
  settings: 'Settings',
  counters: 'Counters',
};

/** An owner screen opened by a cashier: main would refuse its data, so ask for the owner PIN. */
function OwnerGate({ route }: { readonly route: Route }) {
  return (
    <section className="screen owner-gate" aria-labelledby="owner-gate-heading">
      <h2 id="owner-gate-heading">For the owner</h2>
      <OwnerUnlock
        intro={`${OWNER_SCREEN_NAMES[route] ?? 'This screen'} is for the owner. Enter the owner PIN to open it.`}
        autoFocus
      />
    </section>
  );
}

/** Until the owner sets a PIN, anyone at the till can open the owner's screens: say so. */
function NoPinNotice() {
  return (
    <p className="notice no-pin-notice" role="note" data-testid="no-owner-pin-notice">
      Anyone at this till can open Settings, Balance and the report. Set an owner PIN in{' '}
      <a href={`${hrefOf('settings')}/roles`}>Settings → Cashiers and PINs</a> to keep them for the
      owner.
    </p>
  );
}

function Shell({ connection }: { readonly connection: Connection | null }) {
  const bridge = useBridge();
  const route = useHashRoute();
  const { session, error: sessionError, refresh: refreshSession } = useSession();
  // Every counter chimes, so the sounds come with the session (Settings are the owner's).
  const [sale, setSale] = useCurrentSale(session?.sounds ?? DEFAULT_SETTINGS.sounds);
  const leave = useSaleLeave(sale, setSale);

  // Someone else at the counter: the sale on screen was the last person's.
  const person = session?.name ?? null;
  useEffect(() => {
    setSale(null);
  }, [person, setSale]);

  const {
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
  } = useShellStatus(bridge);
  const firstStart = useFirstStart(askShopName, refreshShell);
  const lost = useServiceLost();

  // The open sale lives in main: a reload shows it again, as main has it now.
  useKeptSale(bridge, sale, setSale, session !== null);
  const reread = useSaleReread(setSale);
  /** Bumped when main restarted: the screens that show live data read it again. */
  const [resyncs, setResyncs] = useState(0);
  useReconnected(connection, ({ resync }) => {
    refreshShell(() => true);
    void refreshSession();
    if (sale) reread(sale.id);
    if (resync) setResyncs((count) => count + 1);
  });
  const reportError = useMemo(() => rendererErrorReporter(bridge), [bridge]);
  const screenKey = `${route}:${REMOUNT_ON_RESYNC.has(route) ? resyncs : 0}`;

  const onSettingsChanged = useCallback(
    (_view: SettingsView) => {
      // The sounds and the cashier list reach this page through its session.
      void refreshSession();
      refreshShell(() => true);
    },
    [refreshShell, refreshSession],
  );

  useBridgeEvent('navigate', ({ route: target }) => {
    window.location.hash = hrefOf(target);
  });

  if (route === 'display') {
    return (
      <div className="app display-app">
        <ConnectionBanner connection={connection} />
        <ErrorBoundary key={screenKey} screen={route} onError={reportError}>
          <CustomerDisplay shopName={shop?.shopName ?? null} tillId={shop?.tillId ?? null} />
        </ErrorBoundary>
      </div>
    );
  }

  return (
    <div className="app">
      <Header
        info={info}
        callback={callback}
        health={health}
        reach={reach}
        openAlerts={openAlerts}
        route={route}
        session={session}
        lost={lost}
      />
      <ConnectionBanner connection={connection} />
      <DiskFullBanner />
      <main id="main">
        <ClockNotice />
        {(error ?? sessionError) && (
          <p role="alert" className="error">
            {error ?? sessionError}
          </p>
        )}
        {session === null && sessionError === null && isOwnerRoute(route) ? (
          // Not before main says who this is: an owner screen is not shown to a cashier even briefly.
          <p role="status">Connecting to the till…</p>
        ) : session && isSignedOut(session) ? (
          <SignInScreen session={session} />
        ) : session?.counter && isOwnerRoute(route) ? (
          <AtTheHub screenName={OWNER_SCREEN_NAMES[route] ?? 'This screen'} />
        ) : session?.role === 'cashier' && isOwnerRoute(route) ? (
          <OwnerGate route={route} />
        ) : (
          <>
            {session && !session.ownerPinSet && isOwnerRoute(route) && <NoPinNotice />}
            <ErrorBoundary key={screenKey} screen={route} onError={reportError}>
              <Suspense fallback={<p role="status">Opening…</p>}>
                {(route === 'sale' || route === 'pair') && firstStart.shown ? (
                  <FirstStart session={session} {...firstStart} />
                ) : (
                  <Screen
                    route={route}
                    sale={sale}
                    setSale={setSale}
                    leave={leave}
                    refreshAlerts={refreshAlerts}
                    onSettingsChanged={onSettingsChanged}
                  />
                )}
              </Suspense>
            </ErrorBoundary>
          </>
        )}
      </main>
      <ShellFooter info={info} shop={shop} />
    </div>
  );
}

/** The version, the shell, the shop's name and this till's id, at the foot of every screen. */
function ShellFooter({
  info,
  shop,
}: {
  readonly info: AppInfo | null;
  readonly shop: { readonly shopName: string; readonly tillId: string } | null;
}) {
  return (
    <footer className="app-footer no-print">
      {info && (
        <p data-testid="app-version">
          Version {info.version} · {info.shell === 'electron' ? 'desktop app' : 'browser shell'}
          {shop && (
            <>
              {` · ${shop.shopName} · `}
              <span data-testid="till-id">{shop.tillId}</span>
            </>
          )}
        </p>
      )}
    </footer>
  );
}

/**
 * Whether the sale screen gives way to the first start: while main asks the shop's name, and
 * after, until the owner has chosen how to start (the second step).
 */
function useFirstStart(askShopName: boolean, refreshShell: (isLive: () => boolean) => void) {
  const [choosing, setChoosing] = useState(false);
  return {
    shown: askShopName || choosing,
    onNamed: () => {
      setChoosing(true);
      refreshShell(() => true);
    },
    onDone: () => setChoosing(false),
  };
}

/**
 * A fresh till's first screen (main asks the shop's name before the first sale): the owner
 * answers it; a cashier or a paired counter is told who does.
 */
function FirstStart({
  session,
  onNamed,
  onDone,
}: {
  readonly session: SessionView | null;
  readonly onNamed: () => void;
  readonly onDone: () => void;
}) {
  return session?.role === 'owner' && !session.counter ? (
    <FirstStartScreen onNamed={onNamed} onDone={onDone} />
  ) : (
    <ShopNameAwaited atCounter={Boolean(session?.counter)} />
  );
}

function Screen({
  route,
  sale,
  setSale,
  leave,
  refreshAlerts,
  onSettingsChanged,
}: {
  readonly route: Exclude<Route, 'display'>;
  readonly sale: ReturnType<typeof useCurrentSale>[0];
  readonly setSale: ReturnType<typeof useCurrentSale>[1];
  readonly leave: SaleLeave;
  readonly refreshAlerts: () => Promise<void>;
  readonly onSettingsChanged: (view: SettingsView) => void;
}) {
  switch (route) {
    // The pairing page is shown before the app (root.tsx); once paired, the sale screen.
    case 'pair':
    case 'sale':
      return <SaleScreen sale={sale} onSale={setSale} leave={leave} />;
    case 'activity':
      return (
        <ActivityScreen
          onAlertsChanged={refreshAlerts}
          onOpenSale={(opened) => {
            // From an open sale this asks first, on the sale screen.
            leave.request(opened);
            window.location.hash = hrefOf('sale');
          }}
        />
      );
    case 'report':
      return <ReportScreen />;
    case 'balance':
      return <BalanceScreen />;
    case 'settings':
      return <SettingsScreen onSettingsChanged={onSettingsChanged} />;
    case 'counters':
      return <CountersScreen />;
  }
}
