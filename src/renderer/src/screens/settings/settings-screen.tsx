import { ENVIRONMENTS } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { useBridge } from '../../bridge-context';
import { CallbacksSection } from './callbacks-section';
import { DesktopSection } from './desktop-section';
import { EnvironmentSection } from './environment-section';
import { PrintingSection } from './printing-section';
import { ProfileSection } from './profile-section';
import { ReportSection } from './report-section';
import { RolesSection } from './roles-section';
import { SecretBoxNotice } from './secrets';
import { ShellAccessSection } from './shell-access-section';
import { ShopSection } from './shop-section';
import { UpkeepSection } from './upkeep-section';
import { VoiceSection } from './voice-section';
import { useCallbackStatus, useSecretStatuses, useSettingsView } from './use-settings-data';

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
  const { view, loadError, readView, saved } = useSettingsView(bridge, onSettingsChanged);
  // The address given to the provider follows the tunnel (online, gone, a new URL).
  const { callback, health, setHealth } = useCallbackStatus(bridge, () => void readView());
  const { statuses, box, secretsError, setStatus } = useSecretStatuses(bridge);

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
          <ReportSection settings={view.settings} onSaved={saved} />
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
