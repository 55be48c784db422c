import { useEffect, useState, type ReactNode } from 'react';
import type { SettingsView } from '#shared/views';
import './settings.css';
import { CallbacksSection } from './callbacks-section';
import { DesktopSection } from './desktop-section';
import { EnvironmentPage } from './environment-section';
import { GoLiveSection } from './go-live-section';
import { PrintingSection } from './printing-section';
import { RolesSection } from './roles-section';
import { SecretBoxNotice } from './secrets';
import {
  PAGE_SHELL,
  SETTINGS_PAGES,
  settingsPageFromHash,
  type SettingsPage,
} from './settings-pages';
import { ShellAccessSection } from './shell-access-section';
import { ShopHubSection } from './shop-hub-section';
import { ShopPage } from './shop-section';
import { UnsavedProvider, useLeaveGuard } from './unsaved';
import { UpkeepSection } from './upkeep-section';
import { VoiceSection } from './voice-section';
import {
  useCallbackStatus,
  useSecretStatuses,
  useSettingsView,
  useShellKind,
  type SecretKey,
} from './use-settings-data';

/**
 * The manager's screen, one page (tab) at a time: the environment in use first, connecting a
 * provider, callbacks, the shop and the till. Each page saves with one button; leaving
 * edits unsaved asks first; secrets go in and only their status comes back.
 */
export function SettingsScreen({
  onSettingsChanged,
}: {
  /** Settings were saved: the shell re-reads what it shows (environment badge, sounds). */
  readonly onSettingsChanged?: (view: SettingsView) => void;
}) {
  const { view, loadError, readView, saved } = useSettingsView(onSettingsChanged);
  // The address given to the provider follows the tunnel (online, gone, a new URL).
  const { callback, health, setHealth } = useCallbackStatus(() => void readView());
  const secretsRead = useSecretStatuses();
  const [page, setPage] = useState<SettingsPage>(() => settingsPageFromHash(window.location.hash));
  const shell = useShellKind();

  // A link to another page of Settings (#/settings/<page>) opens it.
  useEffect(() => {
    const onHash = () => {
      if (window.location.hash.startsWith('#/settings/')) {
        setPage(settingsPageFromHash(window.location.hash));
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const pages = SETTINGS_PAGES.filter((entry) => {
    const only = PAGE_SHELL[entry.id];
    return only === undefined || only === shell;
  });

  function open(next: SettingsPage): void {
    setPage(next);
    // The page's own address, without a hashchange (the app's route stays Settings).
    window.history.replaceState(null, '', `#/settings/${next}`);
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
        <UnsavedProvider>
          <p className="field-hint applies-note">
            Each page saves with its one Save button, and what you save applies at once: no restart
            is needed.
          </p>
          <SettingsPages
            pages={pages}
            page={page}
            open={open}
            content={
              <PageContent
                page={page}
                view={view}
                saved={saved}
                readView={readView}
                callback={{ callback, health, setHealth }}
                secretsRead={secretsRead}
              />
            }
          />
        </UnsavedProvider>
      )}
    </section>
  );
}

/** The tabs of Settings and the page open now; leaving unsaved edits asks first. */
function SettingsPages({
  pages,
  page,
  open,
  content,
}: {
  readonly pages: readonly (typeof SETTINGS_PAGES)[number][];
  readonly page: SettingsPage;
  readonly open: (page: SettingsPage) => void;
  readonly content: ReactNode;
}) {
  const attempt = useLeaveGuard();
  return (
    <>
      <div className="settings-tabs" role="tablist" aria-label="Settings pages">
        {pages.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="tab"
            id={`settings-tab-${entry.id}`}
            aria-selected={page === entry.id}
            aria-controls="settings-page"
            className={page === entry.id ? 'tab current' : 'tab'}
            onClick={() => {
              if (entry.id !== page) attempt(() => open(entry.id));
            }}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div
        id="settings-page"
        role="tabpanel"
        aria-labelledby={`settings-tab-${page}`}
        className="settings-page"
      >
        {content}
      </div>
    </>
  );
}

function PageContent({
  page,
  view,
  saved,
  readView,
  callback,
  secretsRead,
}: {
  readonly page: SettingsPage;
  readonly view: SettingsView;
  readonly saved: (next: SettingsView) => void;
  readonly readView: () => Promise<void>;
  readonly callback: ReturnType<typeof useCallbackStatus>;
  readonly secretsRead: ReturnType<typeof useSecretStatuses>;
}) {
  const { statuses, box, secretsError, setStatus } = secretsRead;
  const { settings } = view;
  const secretStatus = (key: SecretKey) => statuses[key] ?? null;
  switch (page) {
    case 'environment':
      return (
        <EnvironmentPage
          settings={settings}
          openSales={view.openSales ?? 0}
          onSaved={saved}
          secretStatus={secretStatus}
          onSecretChanged={setStatus}
          notices={
            <>
              {box && <SecretBoxNotice box={box} />}
              {secretsError && (
                <p role="alert" className="error">
                  The status of the saved keys could not be read: {secretsError}
                </p>
              )}
            </>
          }
        />
      );
    case 'connect':
      return (
        <GoLiveSection
          settings={settings}
          onSaved={saved}
          secretStatus={(environment, key) =>
            secretStatus(
              key === 'ngrokAuthtoken' ? 'global.ngrokAuthtoken' : `${environment}.${key}`,
            )
          }
        />
      );
    case 'callbacks':
      return (
        <CallbacksSection
          view={view}
          callback={callback.callback}
          health={callback.health}
          onHealth={callback.setHealth}
          secretStatus={secretStatus}
          onSecretChanged={setStatus}
          onSaved={saved}
          onRotated={readView}
        />
      );
    case 'shop':
      return <ShopPage settings={settings} onSaved={saved} />;
    case 'roles':
      return <RolesSection settings={settings} onSaved={saved} />;
    case 'upkeep':
      return <UpkeepSection settings={settings} onSaved={saved} />;
    case 'printing':
      return <PrintingSection settings={settings} onSaved={saved} />;
    case 'voice':
      return <VoiceSection settings={settings} onSaved={saved} />;
    case 'hub':
      return <ShopHubSection settings={settings} onSaved={saved} />;
    case 'access':
      return <ShellAccessSection />;
    case 'desktop':
      return <DesktopSection settings={settings} onSaved={saved} />;
  }
}
