import { useState } from 'react';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { CheckboxField, SaveRow, TextField } from './fields';
import { useSettingsSection } from './settings-form';
import { useShellKind } from './use-settings-data';

interface DesktopDraft {
  readonly startAtLogin: boolean;
  readonly updateUrl: string;
}

function draftOf(settings: Settings): DesktopDraft {
  return {
    startAtLogin: settings.desktop.startAtLogin,
    updateUrl: settings.desktop.updateUrl,
  };
}

/**
 * The desktop app's own settings: starting with the computer, and where it looks for updates
 * (nowhere until an address is set). The browser shell keeps them for the desktop app.
 */
export function DesktopSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const shell = useShellKind();
  const [draft, setDraft] = useState<DesktopDraft>(() => draftOf(settings));

  const section = useSettingsSection({
    settings,
    patch: { desktop: { startAtLogin: draft.startAtLogin, updateUrl: draft.updateUrl } },
    fields: ['desktop.startAtLogin', 'desktop.updateUrl'],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
    },
  });

  const savedUrl = settings.desktop.updateUrl;
  return (
    <section className="panel settings-section desktop" aria-labelledby="desktop-heading">
      <h3 id="desktop-heading">Desktop app</h3>
      {shell === 'browser' && (
        <p className="muted">
          These settings are for the desktop app. This browser page keeps them for it; they change
          nothing here.
        </p>
      )}
      <CheckboxField
        section={section}
        field="desktop.startAtLogin"
        checked={draft.startAtLogin}
        onChange={(checked) => setDraft((current) => ({ ...current, startAtLogin: checked }))}
      />
      <TextField
        section={section}
        field="desktop.updateUrl"
        value={draft.updateUrl}
        onChange={(value) => setDraft((current) => ({ ...current, updateUrl: value }))}
      />
      <p className="muted">
        {savedUrl === ''
          ? 'Updates are off: the till never looks for them.'
          : 'The desktop app looks for a new version a few minutes after it starts and every 6 hours. Nothing is downloaded or installed until you choose it in the tray menu.'}
      </p>
      <SaveRow section={section} label="Save desktop settings" />
    </section>
  );
}
