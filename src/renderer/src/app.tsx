import { useEffect, useState } from 'react';
import type { AppInfo, WindowApi } from '../../shared/bridge/contract';

const ENVIRONMENT_LABEL: Readonly<Record<AppInfo['environment'], string>> = {
  sandbox: 'SANDBOX',
  staging: 'STAGING',
  production: 'LIVE',
};

export function App({ bridge }: { readonly bridge: WindowApi | null }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(
    bridge
      ? null
      : 'Not connected to the till service. Open the address that `npm run web` printed.',
  );

  useEffect(() => {
    if (!bridge) return;
    let live = true;
    void bridge.getAppInfo({}).then((result) => {
      if (!live) return;
      if (result.ok) setInfo(result.value);
      else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [bridge]);

  return (
    <div className="app">
      <header className="app-header">
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
      </header>
      <main>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {info && (
          <p data-testid="app-version">
            Version {info.version} · {info.shell === 'electron' ? 'desktop app' : 'browser shell'}
          </p>
        )}
      </main>
    </div>
  );
}
