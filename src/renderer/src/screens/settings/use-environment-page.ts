import { useState } from 'react';
import {
  ENVIRONMENTS,
  KEYED_ENVIRONMENTS,
  type Environment,
  type Profile,
  type Settings,
} from '#shared/settings-schema';
import { keyFieldLabel } from '#shared/settings/key-labels';
import type { SecretStatusView, SettingsView } from '#shared/views';
import { useBridge } from '../../bridge-context';
import { failureOf } from '../../hooks/use-bridge-call';
import { parseNumber, useSettingsSection } from './settings-form';
import { useSecretDrafts, type SecretTarget } from './use-secret-drafts';
import type { SecretKey } from './use-settings-data';

export type ProfileKey = Exclude<keyof Profile, 'sandboxUrl'>;
export type ProfileDraft = { readonly [K in ProfileKey]: string };
type Drafts = Readonly<Record<Environment, ProfileDraft>>;

/** The profile fields the built-in sandbox uses; it needs no addresses, ids or payout account. */
export const SANDBOX_KEYS: readonly ProfileKey[] = [
  'merchantCategory',
  'accountName',
  'expiryMinutes',
];
export const PROFILE_KEYS: readonly ProfileKey[] = [
  'baseUrl',
  'payoutBaseUrl',
  'merchantId',
  'merchantCategory',
  'accountName',
  'expiryMinutes',
  'payoutAccountId',
];
export const SANDBOX_URL = 'profiles.sandbox.sandboxUrl';

export function keysOf(environment: Environment): readonly ProfileKey[] {
  return environment === 'sandbox' ? SANDBOX_KEYS : PROFILE_KEYS;
}

export function pathOf(environment: Environment, key: ProfileKey | 'sandboxUrl'): string {
  return `profiles.${environment}.${key}`;
}

/** The keys each keyed environment takes, labelled as the page shows them. */
export const PROFILE_SECRETS: readonly SecretTarget[] = KEYED_ENVIRONMENTS.flatMap((scope) => [
  { scope, name: 'secretKey', label: keyFieldLabel('secretKey') } as const,
  { scope, name: 'accessToken', label: keyFieldLabel('accessToken') } as const,
]);

function draftsOf(settings: Settings): Drafts {
  const draft = (environment: Environment): ProfileDraft => {
    const profile = settings.profiles[environment];
    return Object.fromEntries(
      PROFILE_KEYS.map((key) => [key, String(profile[key])]),
    ) as ProfileDraft;
  };
  return { sandbox: draft('sandbox'), staging: draft('staging'), production: draft('production') };
}

/** The settings patch of every profile as typed, and the fields that are not a number yet. */
function profilesPatch(drafts: Drafts, sandboxUrl: string) {
  const localErrors: Record<string, string> = {};
  const profiles: Record<string, Record<string, string | number>> = {};
  for (const environment of ENVIRONMENTS) {
    const values: Record<string, string | number> = {};
    for (const key of keysOf(environment)) values[key] = drafts[environment][key];
    const minutes = parseNumber(drafts[environment].expiryMinutes);
    if (minutes === null) {
      localErrors[pathOf(environment, 'expiryMinutes')] = 'Enter a number of minutes';
      delete values.expiryMinutes;
    } else {
      values.expiryMinutes = minutes;
    }
    profiles[environment] = values;
  }
  profiles.sandbox = { ...profiles.sandbox, sandboxUrl };
  return { patch: { profiles }, localErrors };
}

/**
 * The Environment page's one form: which environment, every profile, the shared sandbox and the
 * keys. One Save sends the profiles, then each key typed, then the switch (last, so that a LIVE
 * switch finds its keys in place); going LIVE or leaving open sales behind asks first.
 */
export function useEnvironmentPage(options: {
  readonly settings: Settings;
  readonly openSales: number;
  readonly onSaved: (view: SettingsView) => void;
  readonly onSecretChanged: (key: SecretKey, status: SecretStatusView) => void;
}) {
  const { settings, openSales, onSaved } = options;
  const bridge = useBridge();
  const current = settings.environment;
  const [choice, setChoice] = useState<Environment>(current);
  const [confirming, setConfirming] = useState(false);
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(settings));
  const [sandboxUrl, setSandboxUrl] = useState(settings.profiles.sandbox.sandboxUrl);
  const secrets = useSecretDrafts(bridge, PROFILE_SECRETS, options.onSecretChanged);
  const { patch, localErrors } = profilesPatch(drafts, sandboxUrl);

  async function switchIfChosen(view: SettingsView): Promise<string | null> {
    const problem = await secrets.send();
    if (problem !== null || choice === view.settings.environment) return problem;
    const result = await bridge.updateSettings({ patch: { environment: choice } });
    if (!result.ok)
      return `The profiles are saved, but not the switch: ${failureOf(result.error).words}`;
    onSaved(result.value);
    return null;
  }

  const section = useSettingsSection({
    settings,
    patch,
    localErrors,
    fields: [
      'environment',
      ...ENVIRONMENTS.flatMap((environment) =>
        keysOf(environment).map((key) => pathOf(environment, key)),
      ),
      SANDBOX_URL,
    ],
    onSaved: (view) => {
      // The server trims what was typed: show what it kept.
      setDrafts(draftsOf(view.settings));
      setSandboxUrl(view.settings.profiles.sandbox.sandboxUrl);
      onSaved(view);
    },
    after: switchIfChosen,
  });

  function choose(next: Environment): void {
    setChoice(next);
    setConfirming(false);
    section.edited('environment');
  }

  function change(environment: Environment, key: ProfileKey, value: string): void {
    setDrafts((now) => ({ ...now, [environment]: { ...now[environment], [key]: value } }));
  }

  /** The page's Save: asks first when it would go LIVE or leave open sales behind. */
  function save(confirmed = false): void {
    const switching = choice !== current;
    if (!confirmed && switching && (choice === 'production' || openSales > 0)) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    void section.save();
  }

  function stay(): void {
    setConfirming(false);
    setChoice(current);
  }

  return {
    current,
    choice,
    choose,
    confirming,
    save,
    stay,
    drafts,
    change,
    sandboxUrl,
    setSandboxUrl,
    section,
    secrets,
  };
}

export type EnvironmentPageForm = ReturnType<typeof useEnvironmentPage>;
