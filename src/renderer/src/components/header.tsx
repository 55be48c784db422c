import type { AppInfo, SessionView } from '#shared/bridge/contract';
import { ENVIRONMENT_NAMES } from '#shared/environments';
import { PROVIDER_UNREACHABLE_WORDS } from '#shared/provider-reach-words';
import type {
  CallbackHealthView,
  ProviderReachView,
  StatusView,
  TunnelStatusView,
} from '#shared/views';
import { hrefOf, navItemsFor, type Route } from '../routes';
import { DisplayLink } from './display-link';
import { isSignedOut } from '../session-context';
import { SessionBar } from './session-bar';

export interface CallbackStatus {
  readonly mode: StatusView['callback']['mode'];
  readonly live: boolean;
  readonly tunnel: TunnelStatusView;
}

/** What a cashier needs from the payment news: a quick "Paid", or a warning that it may lag. */
const MAY_BE_LATE = 'Payments may show late';

/**
 * The callbacks in a cashier's words, with a tone for their colour. "Payments show within
 * seconds" only when the health monitor has proof that callbacks arrive (a passed self-test or a
 * real callback, recently): a route that merely exists is not enough. Without it the till still
 * checks every open sale itself, so a payment shows, perhaps later. The technical state is on
 * Settings → Callbacks. A provider that cannot be reached comes first: then no payment news
 * comes by any road until it is back, and no "within seconds" claim may stand.
 */
export function describeCallbacks(
  callback: CallbackStatus,
  health: CallbackHealthView | null,
  reach: ProviderReachView | null = null,
): {
  readonly text: string;
  readonly tone: 'good' | 'warn' | 'bad';
} {
  if (reach?.state === 'unreachable') return { text: PROVIDER_UNREACHABLE_WORDS, tone: 'bad' };
  const { tunnel } = callback;
  // A tunnel on its way up or down says so first: it is what the shop can act on.
  if (tunnel.state === 'connecting') return { text: MAY_BE_LATE, tone: 'warn' };
  if (tunnel.state === 'error') return { text: MAY_BE_LATE, tone: 'bad' };
  switch (health?.state) {
    case 'live':
      return { text: 'Payments show within seconds', tone: 'good' };
    case 'not_reaching':
      return { text: MAY_BE_LATE, tone: 'bad' };
    case 'unproven':
      return {
        text: health.selfTestRunning ? 'Checking payment news…' : MAY_BE_LATE,
        tone: 'warn',
      };
    default:
      return { text: MAY_BE_LATE, tone: 'warn' };
  }
}

/** When callbacks do not reach the till: why, what to do, and that payments still show. */
export function CallbackHealthBanner({ health }: { readonly health: CallbackHealthView }) {
  return (
    <div className="callback-health-banner" role="alert" data-testid="callback-health-banner">
      <strong>Payment news is not reaching this till.</strong>
      <span>
        {' '}
        Payments still show: the till checks every open sale with the bank every{' '}
        {Math.round(health.checkEveryMs / 1000)} s.
      </span>
      {(health.cause || health.action) && (
        // For the owner or whoever sets the till up, one press away.
        <details className="banner-details">
          <summary>Details</summary>
          {health.cause && <span>Likely cause: {health.cause}</span>}
          {health.action && <span> What to do: {health.action}</span>}
        </details>
      )}
    </div>
  );
}

/** A tunnel event changes the tunnel; routes that need no tunnel keep their own liveness. */
export function applyTunnelEvent(
  callback: CallbackStatus,
  tunnel: TunnelStatusView,
): CallbackStatus {
  const needsTunnel = callback.mode === 'tunnel';
  return {
    ...callback,
    tunnel,
    live: needsTunnel ? tunnel.state === 'online' : callback.live,
  };
}

export function Header({
  info,
  callback,
  health,
  reach = null,
  openAlerts,
  route,
  session = null,
  lost = false,
}: {
  readonly info: AppInfo | null;
  readonly callback: CallbackStatus | null;
  readonly health: CallbackHealthView | null;
  /** Whether the provider can be reached; null until main answers (or from an old core). */
  readonly reach?: ProviderReachView | null;
  readonly openAlerts: number | null;
  readonly route: Route;
  /** Who is at this till; null until main answers (every screen is offered meanwhile). */
  readonly session?: SessionView | null;
  /** The till service is lost: no "live" claim stands (what it said last may be stale). */
  readonly lost?: boolean;
}) {
  const callbacks = lost
    ? ({ text: 'Till service lost', tone: 'bad' } as const)
    : callback
      ? describeCallbacks(callback, health, reach)
      : null;
  // A counter waiting for a sign-in offers no screens; a cashier is offered the cashier's ones.
  const navItems = isSignedOut(session)
    ? []
    : navItemsFor(session?.role === 'cashier' ? 'cashier' : 'owner', Boolean(session?.counter));
  return (
    <header className="app-header">
      <div className="header-row">
        <h1>Transfer Till</h1>
        {info && (
          <span
            className={`env-badge env-${info.environment}`}
            data-testid="environment-badge"
            aria-label={`Environment: ${ENVIRONMENT_NAMES[info.environment]}`}
          >
            {ENVIRONMENT_NAMES[info.environment]}
          </span>
        )}
        {callbacks && (
          <span className={`callback-status tone-${callbacks.tone}`} data-testid="callback-status">
            {callbacks.text}
          </span>
        )}
        {openAlerts !== null && (
          <a
            href={hrefOf('activity')}
            className={`alert-count ${openAlerts > 0 ? 'has-alerts' : ''}`}
            data-testid="alert-count"
          >
            {openAlerts === 1 ? '1 open alert' : `${openAlerts} open alerts`}
          </a>
        )}
        {session && <SessionBar session={session} />}
      </div>
      {/* Its "the till checks every open sale" does not hold while the provider is unreachable. */}
      {!lost && reach?.state !== 'unreachable' && health?.state === 'not_reaching' && (
        <CallbackHealthBanner health={health} />
      )}
      <nav className="app-nav" aria-label="Screens">
        <ul>
          {navItems.map((item) => (
            <li key={item.route}>
              <a href={hrefOf(item.route)} aria-current={route === item.route ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        {!isSignedOut(session) && !session?.counter && <DisplayLink />}
      </nav>
    </header>
  );
}
