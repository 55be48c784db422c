import { useState } from 'react';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { playChime } from '../../components/chime';
import { CheckboxField, RangeField, SaveRow, TextField } from './fields';
import { parseNumber, useSettingsSection } from './settings-form';

interface UpkeepDraft {
  readonly syncInterval: string;
  readonly syncOnStartup: boolean;
  readonly backupsKeep: string;
  readonly callbackBodyDays: string;
  readonly soundsEnabled: boolean;
  /** 0..100, as the slider shows it. */
  readonly volumePercent: number;
}

function draftOf(settings: Settings): UpkeepDraft {
  return {
    syncInterval: String(settings.sync.intervalMinutes),
    syncOnStartup: settings.sync.onStartup,
    backupsKeep: String(settings.backups.keep),
    callbackBodyDays: String(settings.retention.callbackBodyDays),
    soundsEnabled: settings.sounds.enabled,
    volumePercent: Math.round(settings.sounds.volume * 100),
  };
}

/** Syncing with the provider, backups and the paid chime: set once, rarely changed. */
export function UpkeepSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [draft, setDraft] = useState<UpkeepDraft>(() => draftOf(settings));
  const interval = parseNumber(draft.syncInterval);
  const keep = parseNumber(draft.backupsKeep);
  const bodyDays = parseNumber(draft.callbackBodyDays);
  const localErrors: Record<string, string> = {};
  if (interval === null)
    localErrors['sync.intervalMinutes'] = 'Enter a number of minutes (0 is off)';
  if (keep === null) localErrors['backups.keep'] = 'Enter how many backups to keep';
  if (bodyDays === null)
    localErrors['retention.callbackBodyDays'] = 'Enter a number of days (30 to 3650)';
  const volume = draft.volumePercent / 100;

  const section = useSettingsSection({
    settings,
    patch: {
      sync: {
        onStartup: draft.syncOnStartup,
        ...(interval === null ? {} : { intervalMinutes: interval }),
      },
      backups: keep === null ? {} : { keep },
      retention: bodyDays === null ? {} : { callbackBodyDays: bodyDays },
      sounds: { enabled: draft.soundsEnabled, volume },
    },
    localErrors,
    fields: [
      'sync.intervalMinutes',
      'sync.onStartup',
      'backups.keep',
      'retention.callbackBodyDays',
      'sounds.enabled',
      'sounds.volume',
    ],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
    },
  });

  function change<K extends keyof UpkeepDraft>(key: K, value: UpkeepDraft[K]): void {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  return (
    <section className="panel settings-section upkeep" aria-labelledby="upkeep-heading">
      <h3 id="upkeep-heading">Sync, backups and sounds</h3>
      <div className="field-grid">
        <TextField
          section={section}
          field="sync.intervalMinutes"
          value={draft.syncInterval}
          onChange={(value) => change('syncInterval', value)}
        />
        <TextField
          section={section}
          field="backups.keep"
          value={draft.backupsKeep}
          onChange={(value) => change('backupsKeep', value)}
        />
        <TextField
          section={section}
          field="retention.callbackBodyDays"
          value={draft.callbackBodyDays}
          onChange={(value) => change('callbackBodyDays', value)}
        />
      </div>
      <CheckboxField
        section={section}
        field="sync.onStartup"
        checked={draft.syncOnStartup}
        onChange={(checked) => change('syncOnStartup', checked)}
      />
      <CheckboxField
        section={section}
        field="sounds.enabled"
        checked={draft.soundsEnabled}
        onChange={(checked) => change('soundsEnabled', checked)}
      />
      <RangeField
        section={section}
        field="sounds.volume"
        percent={draft.volumePercent}
        disabled={!draft.soundsEnabled}
        onChange={(percent) => change('volumePercent', percent)}
        extra={
          <button
            type="button"
            className="button secondary"
            disabled={!draft.soundsEnabled}
            onClick={() => playChime(window, volume)}
          >
            Play the chime
          </button>
        }
      />
      <SaveRow section={section} label="Save sync, backup and sound settings" />
    </section>
  );
}
