import {
  ENVIRONMENT_NAMES,
  type Environment,
  type KeyedEnvironment,
  type Settings,
} from '#shared/settings-schema';
import { WHERE_KEYS_COME_FROM, type SecretStatusView } from '#shared/views';
import { TextField } from './fields';
import type { ProviderKeyName } from '#shared/provider-url';
import { addressKeyNotice, keyStatusAt, type KeyStatuses } from './keys-elsewhere';
import { SandboxUrlField } from './sandbox-url-field';
import { ConnectionTest, SecretInput } from './secrets';
import {
  keysOf,
  pathOf,
  PROFILE_SECRETS,
  type EnvironmentPageForm,
  type ProfileKey,
} from './use-environment-page';
import type { SecretKey } from './use-settings-data';

/** One environment's profile on the Environment page: its fields, its keys, its connection test. */
export function ProfileFields({
  environment,
  settings,
  form,
  secretStatus,
}: {
  readonly environment: Environment;
  readonly settings: Settings;
  readonly form: EnvironmentPageForm;
  readonly secretStatus: (key: SecretKey) => SecretStatusView | null;
}) {
  const name = ENVIRONMENT_NAMES[environment];
  const headingId = `profile-${environment}-heading`;
  const draft = form.drafts[environment];
  const keys: KeyStatuses = {
    secretKey: environment === 'sandbox' ? null : secretStatus(`${environment}.secretKey`),
    accessToken: environment === 'sandbox' ? null : secretStatus(`${environment}.accessToken`),
  };
  const noticeOf = (key: ProfileKey) =>
    key === 'baseUrl' || key === 'payoutBaseUrl' ? addressKeyNotice(draft, keys, key) : null;
  return (
    <section className="panel settings-section profile" aria-labelledby={headingId}>
      <h3 id={headingId}>{name} profile</h3>
      {environment === 'sandbox' && (
        <p className="notice">
          {settings.profiles.sandbox.sandboxUrl
            ? `The sandbox uses the shared sandbox provider at ${settings.profiles.sandbox.sandboxUrl}: it needs no addresses and no keys, and no real money moves.`
            : 'The sandbox runs on the built-in sandbox provider on this computer: it needs no addresses and no keys, and no real money moves.'}
        </p>
      )}
      {environment === 'production' && (
        <p className="live-warning">
          Real money: the LIVE profile talks to the provider&apos;s production service.
        </p>
      )}
      <div className="field-grid">
        {keysOf(environment).map((key) => (
          <TextField
            key={key}
            section={form.section}
            field={pathOf(environment, key)}
            value={draft[key]}
            notice={noticeOf(key)}
            onChange={(value) => form.change(environment, key, value)}
          />
        ))}
      </div>
      {environment === 'sandbox' && <SandboxUrlField form={form} />}
      {environment !== 'sandbox' && (
        <ProfileKeys
          environment={environment}
          form={form}
          keyStatus={(key) => keyStatusAt(draft, key, keys[key])}
        />
      )}
      <ConnectionTest environment={environment} label={name} />
    </section>
  );
}

function ProfileKeys({
  environment,
  form,
  keyStatus,
}: {
  readonly environment: KeyedEnvironment;
  readonly form: EnvironmentPageForm;
  /** A key's status as the form stands (one entered for another origin needs entering again). */
  readonly keyStatus: (key: ProviderKeyName) => SecretStatusView | null;
}) {
  return (
    <div className="keys" role="group" aria-label={`${ENVIRONMENT_NAMES[environment]} keys`}>
      <h4>Keys</h4>
      <p className="where-keys">{WHERE_KEYS_COME_FROM}</p>
      <div className="field-grid">
        {PROFILE_SECRETS.filter((target) => target.scope === environment).map((target) => (
          <SecretInput
            key={target.name}
            target={target}
            drafts={form.secrets}
            status={target.scope === 'global' ? null : keyStatus(target.name)}
          />
        ))}
      </div>
    </div>
  );
}
