import { useCallback, useEffect, useState } from 'react';
import { ENVIRONMENTS } from '../../../../shared/settings-schema';
import type {
  CallbackHealthView,
  SecretStatusView,
  SecretsView,
  SettingsView,
} from '../../../../shared/views';
import { useBridge, useBridgeEvent } from '../../bridge-context';
import { applyTunnelEvent, type CallbackStatus } from '../../components/header';
import { cashierMessage } from '../../errors';
import { CallbacksSection } from './callbacks-section';
import { DesktopSection } from './desktop-section';
import { EnvironmentSection } from './environment-section';
import { PrintingSection } from './printing-section';
import { ProfileSection } from './profile-section';
import { RolesSection } from './roles-section';
import { SecretBoxNotice, type KeyedEnvironment } from './secrets';
import { ShellAccessSection } from './shell-access-section';
import { ShopSection } from './shop-section';
import { UpkeepSection } from './upkeep-section';
import { VoiceSection } from './voice-section';

const KEYED: readonly KeyedEnvironment[] = ['staging', 'production'];

type SecretKey =
  | `${KeyedEnvironment}.${'secretKey' | 'accessToken'}`
  | 'global.ngrokAuthtoken'
  | 'global.ngrokBasicAuthPassword';
type SecretStatuses = Readonly<Partial<Record<SecretKey, SecretStatusView>>>;

/**
 * The manager's screen: environment, provider profiles and their keys, callbacks, the shop and
 * the till. Each part saves on its own; secrets go in and only their status comes back.
 */
export function SettingsScreen({
  onSettingsChanged,
}: {
  /** Settings were saved: the shell re-reads what it shows (environment badge, sounds). */
  readonly onSettingsChanged?: (view: SettingsView) => void;
}) {
  const bridge = useBridge();
  const [view, setView] = useState<SettingsView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [statuses, setStatuses] = useState<SecretStatuses>({});
  const [box, setBox] = useState<SecretsView['box'] | null>(null);
  const [secretsError, setSecretsError] = useState<string | null>(null);
  const [callback, setCallback] = useState<CallbackStatus | null>(null);
  const [health, setHealth] = useState<CallbackHealthView | null>(null);

  const readView = useCallback(async () => {
    const result = await bridge.getSettings({});
    if (result.ok) {
      setView(result.value);
      setLoadError(null);
    } else {
      setLoadError(cashierMessage(result.error));
    }
  }, [bridge]);

  useEffect(() => {
    let live = true;
    void bridge.getSettings({}).then((result) => {
      if (!live) return;
      if (result.ok) setView(result.value);
      else setLoadError(cashierMessage(result.error));
    });
    void bridge.getStatus({}).then((result) => {
      if (!live || !result.ok) return;
      setCallback(result.value.callback);
      setHealth(result.value.callbackHealth);
    });
    for (const environment of KEYED) {
      void bridge.getSecrets({ environment }).then((result) => {
        if (!live) return;
        if (!result.ok) {
          setSecretsError(cashierMessage(result.error));
          return;
        }
        const { secrets } = result.value;
        setBox(result.value.box);
        setStatuses((current) => ({
          ...current,
          [`${environment}.secretKey`]: secrets.secretKey,
          [`${environment}.accessToken`]: secrets.accessToken,
          'global.ngrokAuthtoken': secrets.ngrokAuthtoken,
          'global.ngrokBasicAuthPassword': secrets.ngrokBasicAuthPassword,
        }));
      });
    }
    return () => {
      live = false;
    };
  }, [bridge]);

  useBridgeEvent('tunnel', (tunnel) => {
    setCallback((current) => (current ? applyTunnelEvent(current, tunnel) : current));
    // The address given to the provider follows the tunnel (online, gone, a new URL).
    void readView();
  });

  useBridgeEvent('callback-health', setHealth);

  function saved(next: SettingsView): void {
    setView(next);
    onSettingsChanged?.(next);
  }

  function setStatus(key: SecretKey, status: SecretStatusView): void {
    setStatuses((current) => ({ ...current, [key]: status }));
  }

  return (
    <section className="screen settings" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {loadError && (
        <p role="alert" className="error">
          {loadError}
        </p>
      )}
      {!view && !loadError && <p role="status">Loading the settings…</p>}
      {view && (
        <>
          <EnvironmentSection settings={view.settings} onSaved={saved} />

          <h3 className="group-heading">Provider profiles and keys</h3>
          {box && <SecretBoxNotice box={box} />}
          {secretsError && (
            <p role="alert" className="error">
              The status of the saved keys could not be read: {secretsError}
            </p>
          )}
          {ENVIRONMENTS.map((environment) => (
            <ProfileSection
              key={environment}
              environment={environment}
              settings={view.settings}
              secretStatus={(scope, name) => statuses[`${scope}.${name}`] ?? null}
              onSecretChanged={(scope, name, status) => setStatus(`${scope}.${name}`, status)}
              onSaved={saved}
            />
          ))}

          <CallbacksSection
            view={view}
            callback={callback}
            health={health}
            onHealth={setHealth}
            ngrokAuthtoken={statuses['global.ngrokAuthtoken'] ?? null}
            onNgrokAuthtokenChanged={(status) => setStatus('global.ngrokAuthtoken', status)}
            ngrokBasicAuthPassword={statuses['global.ngrokBasicAuthPassword'] ?? null}
            onNgrokBasicAuthPasswordChanged={(status) =>
              setStatus('global.ngrokBasicAuthPassword', status)
            }
            onSaved={saved}
            onRotated={readView}
          />
          <ShopSection settings={view.settings} onSaved={saved} />
          <RolesSection settings={view.settings} onSaved={saved} />
          <UpkeepSection settings={view.settings} onSaved={saved} />
          <PrintingSection settings={view.settings} onSaved={saved} />
          <DesktopSection settings={view.settings} onSaved={saved} />
          <ShellAccessSection />
          <VoiceSection settings={view.settings} onSaved={saved} />
        </>
      )}
    </section>
  );
}
