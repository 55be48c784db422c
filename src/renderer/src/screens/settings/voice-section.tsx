import { useId, useMemo, useState } from 'react';
import { DEFAULT_VOICE_SETTINGS, type Settings, type VoiceSettings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { sayOrChime, TEST_VOICE_TEXT, type Announced } from '../../voice/announce';
import { pageSpeaker } from '../../voice/paid-announcer';
import { pickVoice, voiceLabel } from '../../voice/pick-voice';
import { speechOf } from '../../voice/speech';
import { useVoices } from '../../voice/use-voices';
import { CheckboxField, RangeField, SaveRow } from './fields';
import { useSettingsSection } from './settings-form';
import { settingLabel } from '#shared/settings/registry';

interface VoiceDraft {
  readonly enabled: boolean;
  /** 0..100, as the slider shows it. */
  readonly volumePercent: number;
  readonly voiceURI: string;
}

function draftOf(settings: Settings): VoiceDraft {
  const voice = settings.sounds.voice ?? DEFAULT_VOICE_SETTINGS;
  return {
    enabled: voice.enabled,
    volumePercent: Math.round(voice.volume * 100),
    voiceURI: voice.voiceURI,
  };
}

function voiceOf(draft: VoiceDraft): VoiceSettings {
  return { enabled: draft.enabled, volume: draft.volumePercent / 100, voiceURI: draft.voiceURI };
}

const TEST_RESULTS: Readonly<Record<Announced, string>> = {
  spoken: `Said: "${TEST_VOICE_TEXT}".`,
  chimed: 'No voice could speak here, so the chime played instead.',
  silent:
    'No voice could speak here, and no chime played (it is off, or this browser has no sound).',
};

/**
 * Saying the amount of a paid sale. The voices are this computer's own (each counter picks from
 * its browser's list), so a saved voice another counter lacks falls back to the best it has.
 */
export function VoiceSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [draft, setDraft] = useState<VoiceDraft>(() => draftOf(settings));
  const [testResult, setTestResult] = useState<string | null>(null);
  const ids = useId();
  const speech = useMemo(() => speechOf(window), []);
  const voices = useVoices(speech);
  const automatic = pickVoice(voices, '');
  const savedMissing =
    draft.voiceURI !== '' &&
    !voices.some((voice) => voice.voiceURI === draft.voiceURI || voice.name === draft.voiceURI);

  const section = useSettingsSection({
    settings,
    patch: { sounds: { voice: voiceOf(draft) } },
    fields: ['sounds.voice.enabled', 'sounds.voice.volume', 'sounds.voice.voiceURI'],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
    },
  });

  function change<K extends keyof VoiceDraft>(key: K, value: VoiceDraft[K], field?: string): void {
    setDraft((current) => ({ ...current, [key]: value }));
    setTestResult(null);
    if (field) section.edited(field);
  }

  async function testVoice(): Promise<void> {
    setTestResult(null);
    const sounds = { ...settings.sounds, voice: { ...voiceOf(draft), enabled: true } };
    setTestResult(TEST_RESULTS[await sayOrChime(TEST_VOICE_TEXT, sounds, pageSpeaker())]);
  }

  const voiceId = `${ids}-voice`;
  const voiceHintId = `${ids}-voice-hint`;
  return (
    <section className="panel settings-section voice" aria-labelledby="voice-heading">
      <h3 id="voice-heading">Say the amount</h3>
      <p className="field-hint">
        When a sale is paid the till says it out loud, e.g. “{TEST_VOICE_TEXT}”. Where this computer
        has no voice, or speaking fails, the chime plays instead (when the chime is on).
      </p>
      <CheckboxField
        section={section}
        field="sounds.voice.enabled"
        checked={draft.enabled}
        onChange={(checked) => change('enabled', checked)}
      />
      <RangeField
        section={section}
        field="sounds.voice.volume"
        percent={draft.volumePercent}
        disabled={!draft.enabled}
        onChange={(percent) => change('volumePercent', percent)}
      />
      <div className="field">
        <label htmlFor={voiceId}>{settingLabel('sounds.voice.voiceURI')}</label>
        <select
          id={voiceId}
          value={draft.voiceURI}
          disabled={!draft.enabled}
          aria-describedby={voiceHintId}
          onChange={(event) => change('voiceURI', event.target.value, 'sounds.voice.voiceURI')}
        >
          <option value="">
            {automatic ? `Automatic: ${voiceLabel(automatic)}` : 'Automatic'}
          </option>
          {savedMissing && (
            <option value={draft.voiceURI}>{`${draft.voiceURI} (not on this computer)`}</option>
          )}
          {voices.map((voice) => (
            <option key={voice.voiceURI} value={voice.voiceURI}>
              {voiceLabel(voice)}
            </option>
          ))}
        </select>
        <p id={voiceHintId} className="field-hint" data-testid="voice-availability">
          {!speech
            ? 'This browser cannot speak: the chime plays instead.'
            : voices.length === 0
              ? 'This computer offers no voice (yet): the chime plays instead.'
              : 'Automatic picks a Nigerian English voice, else British, else any English.'}
        </p>
      </div>
      <div className="save-row">
        <button
          type="button"
          className="button secondary"
          disabled={!(draft.volumePercent > 0)}
          onClick={() => void testVoice()}
        >
          Test voice
        </button>
        {testResult && (
          <span role="status" data-testid="voice-test-result">
            {testResult}
          </span>
        )}
      </div>
      <SaveRow section={section} label="Save voice settings" />
    </section>
  );
}
