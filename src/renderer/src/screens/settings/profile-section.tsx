import { useState } from 'react';
import {
  ENVIRONMENT_NAMES,
  type Environment,
  type KeyedEnvironment,
  type Profile,
  type Settings,
} from '#shared/settings-schema';
import { WHERE_KEYS_COME_FROM, type SecretStatusView, type SettingsView } from '#shared/views';
import { TextField, SaveRow } from './fields';
import { SandboxUrlField } from './sandbox-url-field';
import { ConnectionTest, SecretField } from './secrets';
import { parseNumber, useSettingsSection, type FieldErrors } from './settings-form';

type ProfileKey = keyof Profile;
type ProfileDraft = { readonly [K in ProfileKey]: string };

interface FieldSpec {
  readonly key: ProfileKey;
  readonly label: string;
  readonly hint: string;
  readonly type?: 'url';
  readonly inputMode?: 'numeric' | 'url';
  /** The sandbox provider needs no addresses, ids or payout account of ours. */
  readonly sandbox: boolean;
}

const FIELD_SPECS: readonly FieldSpec[] = [
  {
    key: 'baseUrl',
    label: 'Base URL',
    hint: "The provider's address for accounts and transactions, e.g. https://api.provider.example.",
    type: 'url',
    inputMode: 'url',
    sandbox: false,
  },
  {
    key: 'payoutBaseUrl',
    label: 'Payout base URL',
    hint: "The provider's address for the payout balance.",
    type: 'url',
    inputMode: 'url',
    sandbox: false,
  },
  {
    key: 'merchantId',
    label: 'Merchant ID',
    hint: 'The merchant ID the provider gave this shop.',
    sandbox: false,
  },
  {
    key: 'merchantCategory',
    label: 'Merchant category',
    hint: 'Use "others" unless the provider says otherwise.',
    sandbox: true,
  },
  {
    key: 'accountName',
    label: 'Account display name',
    hint: 'The name customers see on the account when they send the transfer.',
    sandbox: true,
  },
  {
    key: 'expiryMinutes',
    label: 'Default expiry (minutes)',
    hint: "How long each sale's account accepts a transfer, from 1 to 1440 minutes.",
    inputMode: 'numeric',
    sandbox: true,
  },
  {
    key: 'payoutAccountId',
    label: 'Payout account id',
    hint: 'Digits only; the provider gives it together with the payout access token.',
    inputMode: 'numeric',
    sandbox: false,
  },
];

function draftOf(profile: Profile): ProfileDraft {
  return { ...profile, expiryMinutes: String(profile.expiryMinutes) };
}

export function ProfileSection({
  environment,
  settings,
  secretStatus,
  onSecretChanged,
  onSaved,
}: {
  readonly environment: Environment;
  readonly settings: Settings;
  readonly secretStatus: (
    environment: KeyedEnvironment,
    name: 'secretKey' | 'accessToken',
  ) => SecretStatusView | null;
  readonly onSecretChanged: (
    environment: KeyedEnvironment,
    name: 'secretKey' | 'accessToken',
    status: SecretStatusView,
  ) => void;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [draft, setDraft] = useState<ProfileDraft>(() => draftOf(settings.profiles[environment]));
  const specs = FIELD_SPECS.filter((spec) => environment !== 'sandbox' || spec.sandbox);
  const pathOf = (key: ProfileKey) => `profiles.${environment}.${key}`;

  const localErrors: Record<string, string> = {};
  const values: Record<string, string | number> = {};
  for (const spec of specs) {
    if (spec.key === 'expiryMinutes') {
      const minutes = parseNumber(draft.expiryMinutes);
      if (minutes === null) localErrors[pathOf('expiryMinutes')] = 'Enter a number of minutes';
      else values.expiryMinutes = minutes;
    } else {
      values[spec.key] = draft[spec.key];
    }
  }
  const section = useSettingsSection({
    settings,
    patch: { profiles: { [environment]: values } },
    localErrors: localErrors satisfies FieldErrors,
    fields: specs.map((spec) => pathOf(spec.key)),
    onSaved: (view) => {
      // The server trims what was typed: show what it kept.
      setDraft(draftOf(view.settings.profiles[environment]));
      onSaved(view);
    },
  });
  const name = ENVIRONMENT_NAMES[environment];
  const headingId = `profile-${environment}-heading`;

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
        {specs.map((spec) => (
          <TextField
            key={spec.key}
            section={section}
            field={pathOf(spec.key)}
            label={spec.label}
            hint={spec.hint}
            type={spec.type}
            inputMode={spec.inputMode}
            value={draft[spec.key]}
            onChange={(value) => setDraft((current) => ({ ...current, [spec.key]: value }))}
          />
        ))}
      </div>
      <SaveRow section={section} label={`Save ${name} profile`} />
      {environment === 'sandbox' && <SandboxUrlField settings={settings} onSaved={onSaved} />}

      {environment !== 'sandbox' && (
        <div className="keys" role="group" aria-label={`${name} keys`}>
          <h4>Keys</h4>
          <p className="where-keys">{WHERE_KEYS_COME_FROM}</p>
          <SecretField
            target={{ scope: environment, name: 'secretKey' }}
            label="Secret key"
            saveLabel="Save key"
            status={secretStatus(environment, 'secretKey')}
            onChanged={(status) => onSecretChanged(environment, 'secretKey', status)}
          />
          <SecretField
            target={{ scope: environment, name: 'accessToken' }}
            label="Payout access token"
            saveLabel="Save token"
            status={secretStatus(environment, 'accessToken')}
            onChanged={(status) => onSecretChanged(environment, 'accessToken', status)}
          />
        </div>
      )}
      <ConnectionTest environment={environment} label={name} />
    </section>
  );
}
