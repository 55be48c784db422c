import type { AppInfo } from '../../../shared/bridge/contract';
import type { StatusView, TunnelStatusView } from '../../../shared/views';
import { hrefOf, NAV_ITEMS, type Route } from '../routes';

const ENVIRONMENT_LABEL: Readonly<Record<AppInfo['environment'], string>> = {
  sandbox: 'SANDBOX',
  staging: 'STAGING',
  production: 'LIVE',
};

export interface CallbackStatus {
  readonly mode: StatusView['callback']['mode'];
  readonly live: boolean;
  readonly tunnel: TunnelStatusView;
}

/** The callback route in a few words, with a tone for its colour. */
export function describeCallbacks(callback: CallbackStatus): {
  readonly text: string;
  readonly tone: 'good' | 'warn' | 'bad';
} {
  const { tunnel } = callback;
  if (tunnel.state === 'online' || callback.live) return { text: 'Callbacks live', tone: 'good' };
  if (tunnel.state === 'connecting') return { text: 'Tunnel connecting', tone: 'warn' };
  if (tunnel.state === 'error') {
    const retry =
      tunnel.retryInMs !== undefined
        ? ` (retrying in ${Math.ceil(tunnel.retryInMs / 1000)} s)`
        : '';
    return { text: `Tunnel error: ${tunnel.message}${retry}`, tone: 'bad' };
  }
  return { text: 'Polling only', tone: 'warn' };
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
  openAlerts,
  route,
}: {
  readonly info: AppInfo | null;
  readonly callback: CallbackStatus | null;
  readonly openAlerts: number | null;
  readonly route: Route;
}) {
  const callbacks = callback ? describeCallbacks(callback) : null;
  return (
    <header className="app-header">
      <div className="header-row">
        <h1>Transfer Till</h1>
        {info && (
          <span
            className={`env-badge env-${info.environment}`}
            data-testid="environment-badge"
            aria-label={`Environment: ${ENVIRONMENT_LABEL[info.environment]}`}
          >
            {ENVIRONMENT_LABEL[info.environment]}
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
      </div>
      <nav className="app-nav" aria-label="Screens">
        <ul>
          {NAV_ITEMS.map((item) => (
            <li key={item.route}>
              <a href={hrefOf(item.route)} aria-current={route === item.route ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
