import { useEffect, useRef, type ReactNode } from 'react';
import { ENVIRONMENT_NAMES, ENVIRONMENTS, type Environment } from '#shared/settings-schema';
import type { SecretStatusView, SettingsView } from '#shared/views';
import { SaveRow } from './fields';
import { ProfileFields } from './profile-section';
import { useEnvironmentPage, type EnvironmentPageForm } from './use-environment-page';
import type { SecretKey } from './use-settings-data';
import { settingLabel } from '#shared/settings/registry';

const ENVIRONMENT_WORDS: Readonly<Record<Environment, string>> = {
  sandbox: 'Practice on the built-in sandbox provider. No real money moves.',
  staging: "The provider's test service, with the staging keys.",
  production: 'Real money, with the production keys.',
};

/**
 * The Environment page: which provider environment the till uses, the profile in use open and
 * the others folded, all saved by one button; going LIVE is confirmed in plain words first.
 */
export function EnvironmentPage(props: {
  readonly settings: SettingsView['settings'];
  /** Open sales in the environment in use: a switch asks first when there are any. */
  readonly openSales: number;
  readonly onSaved: (view: SettingsView) => void;
  readonly secretStatus: (key: SecretKey) => SecretStatusView | null;
  readonly onSecretChanged: (key: SecretKey, status: SecretStatusView) => void;
  /** Shown between the choice and the profiles: how the keys are kept, a read problem. */
  readonly notices?: ReactNode;
}) {
  const form = useEnvironmentPage(props);
  const { current, section } = form;
  const profile = (environment: Environment) => (
    <ProfileFields
      key={environment}
      environment={environment}
      settings={props.settings}
      form={form}
      secretStatus={props.secretStatus}
    />
  );
  return (
    <>
      <section className="panel settings-section environment" aria-labelledby="environment-heading">
        <h3 id="environment-heading">{settingLabel('environment')}</h3>
        <p className="current-environment">
          Now using{' '}
          <span className={`env-badge env-${current}`} data-testid="current-environment">
            {ENVIRONMENT_NAMES[current]}
          </span>
        </p>
        <EnvironmentChoice form={form} />
      </section>
      {props.notices}
      {profile(current)}
      {ENVIRONMENTS.filter((environment) => environment !== current).map((environment) => (
        <details key={environment} className="folded-profile">
          <summary>{ENVIRONMENT_NAMES[environment]} profile (not in use)</summary>
          {profile(environment)}
        </details>
      ))}
      <div className="panel settings-save">
        {form.confirming && <SwitchQuestion form={form} openSales={props.openSales} />}
        <SaveRow
          section={section}
          onSave={() => form.save()}
          label={
            form.choice === current
              ? 'Save'
              : `Save and switch to ${ENVIRONMENT_NAMES[form.choice]}`
          }
        />
      </div>
    </>
  );
}

function EnvironmentChoice({ form }: { readonly form: EnvironmentPageForm }) {
  const error = form.section.errorOf('environment');
  return (
    <fieldset className="radio-list">
      <legend>Choose the environment</legend>
      {ENVIRONMENTS.map((environment) => (
        <label key={environment} className="radio">
          <input
            type="radio"
            name="environment"
            value={environment}
            id={environment === form.choice ? form.section.idOf('environment') : undefined}
            checked={form.choice === environment}
            onChange={() => form.choose(environment)}
          />
          <span>
            <strong>{ENVIRONMENT_NAMES[environment]}</strong> — {ENVIRONMENT_WORDS[environment]}
          </span>
        </label>
      ))}
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

/** Asked before a save that goes LIVE or leaves open sales behind. */
function SwitchQuestion({
  form,
  openSales,
}: {
  readonly form: EnvironmentPageForm;
  readonly openSales: number;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  const { choice, current } = form;
  return (
    <div className="confirm" role="group" aria-label={`Switch to ${ENVIRONMENT_NAMES[choice]}?`}>
      {openSales > 0 && (
        <p>
          {openSales === 1 ? 'One sale is' : `${openSales} sales are`} still open on{' '}
          {ENVIRONMENT_NAMES[current]}. After the switch they are watched again only when you switch
          back; finish or cancel them first if you can.
        </p>
      )}
      {choice === 'production' && (
        <p>
          Real money: sales will create real accounts at the provider and customers&apos; transfers
          will be real payments. Switch to LIVE only when the production keys are entered and the
          connection test passes.
        </p>
      )}
      <button
        ref={confirmRef}
        type="button"
        className="button danger"
        onClick={() => form.save(true)}
      >
        Yes, switch to {ENVIRONMENT_NAMES[choice]}
      </button>
      <button type="button" className="button secondary" onClick={form.stay}>
        No, stay on {ENVIRONMENT_NAMES[current]}
      </button>
    </div>
  );
}
