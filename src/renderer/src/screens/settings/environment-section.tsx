import { useEffect, useRef, useState } from 'react';
import {
  ENVIRONMENT_NAMES,
  ENVIRONMENTS,
  type Environment,
  type Settings,
} from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { useSettingsSection } from './settings-form';

const ENVIRONMENT_WORDS: Readonly<Record<Environment, string>> = {
  sandbox: 'Practice on the built-in sandbox provider. No real money moves.',
  staging: "The provider's test service, with the staging keys.",
  production: 'Real money, with the production keys.',
};

/** Which provider environment the till uses; going LIVE is confirmed in plain words first. */
export function EnvironmentSection({
  settings,
  openSales = 0,
  onSaved,
}: {
  readonly settings: Settings;
  /** Open sales in the environment in use: a switch asks first when there are any. */
  readonly openSales?: number;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const current = settings.environment;
  const [choice, setChoice] = useState<Environment>(current);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const section = useSettingsSection({
    settings,
    patch: { environment: choice },
    fields: ['environment'],
    onSaved: (view) => {
      setChoice(view.settings.environment);
      onSaved(view);
    },
  });

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  function switchEnvironment(): void {
    if ((choice === 'production' && current !== 'production') || openSales > 0) {
      setConfirming(true);
      return;
    }
    void section.save();
  }

  function confirmLive(): void {
    setConfirming(false);
    void section.save();
  }

  return (
    <section className="panel settings-section environment" aria-labelledby="environment-heading">
      <h3 id="environment-heading">Environment</h3>
      <p className="current-environment">
        Now using{' '}
        <span className={`env-badge env-${current}`} data-testid="current-environment">
          {ENVIRONMENT_NAMES[current]}
        </span>
      </p>
      <fieldset className="radio-list">
        <legend>Choose the environment</legend>
        {ENVIRONMENTS.map((environment) => (
          <label key={environment} className="radio">
            <input
              type="radio"
              name="environment"
              value={environment}
              checked={choice === environment}
              onChange={() => {
                setChoice(environment);
                setConfirming(false);
                section.edited('environment');
              }}
            />
            <span>
              <strong>{ENVIRONMENT_NAMES[environment]}</strong> — {ENVIRONMENT_WORDS[environment]}
            </span>
          </label>
        ))}
        {section.errorOf('environment') && (
          <p className="field-error">{section.errorOf('environment')}</p>
        )}
      </fieldset>
      {confirming ? (
        <div
          className="confirm"
          role="group"
          aria-label={`Switch to ${ENVIRONMENT_NAMES[choice]}?`}
        >
          {openSales > 0 && (
            <p>
              {openSales === 1 ? 'One sale is' : `${openSales} sales are`} still open on{' '}
              {ENVIRONMENT_NAMES[current]}. After the switch they are watched again only when you
              switch back; finish or cancel them first if you can.
            </p>
          )}
          {choice === 'production' && (
            <p>
              Real money: sales will create real accounts at the provider and customers&apos;
              transfers will be real payments. Switch to LIVE only when the production keys are
              entered and the connection test passes.
            </p>
          )}
          <button ref={confirmRef} type="button" className="button danger" onClick={confirmLive}>
            Yes, switch to {ENVIRONMENT_NAMES[choice]}
          </button>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setConfirming(false);
              setChoice(current);
            }}
          >
            No, stay on {ENVIRONMENT_NAMES[current]}
          </button>
        </div>
      ) : (
        <div className="save-row">
          <button
            type="button"
            className="button primary"
            disabled={choice === current || section.saving}
            onClick={switchEnvironment}
          >
            Switch to {ENVIRONMENT_NAMES[choice]}
          </button>
        </div>
      )}
      {section.saving && (
        <p className="progress-text" role="status">
          Switching…
        </p>
      )}
      {section.notice && (
        <p className="saved-notice" role="status">
          Now using {ENVIRONMENT_NAMES[current]}.
        </p>
      )}
      {section.problem && (
        <p className="error" role="alert">
          {section.problem}
        </p>
      )}
    </section>
  );
}
