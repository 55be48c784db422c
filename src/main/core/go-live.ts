/**
 * "Connect your provider": one Save for an environment's profile, its keys and the callback
 * route (checked whole before anything is written), and "Check everything": the connection,
 * the payout balance, the callback route and a trial account in one run, each line in shop words.
 */
import type { ChannelParsedInput } from '#shared/bridge/contract';
import {
  creationFieldIssues,
  GO_LIVE_SECRET_NAMES,
  type ConnectionSavedView,
  type GoLiveCheckLine,
  type GoLiveCheckView,
} from '#shared/go-live';
import { keyOrigin } from '#shared/provider-url';
import { ENVIRONMENT_NAMES, type Environment, type Profile } from '#shared/settings-schema';
import type { CallbackSelfTestView, ConnectionCheckView, SettingsView } from '#shared/views';
import { normalizeSecret, type SecretStore } from '#main/secrets/secret-store';
import { SettingsValidationError } from '#main/settings/errors';
import { mergePatch, type SettingsStore } from '#main/settings/settings-store';
import { validateSettings } from '#main/settings/validate';
import { TRIAL_NOT_MADE } from './go-live-trial';
import { ListenerPortError } from './movable-listener';

export interface GoLiveDeps {
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly view: () => SettingsView;
  readonly testConnection: (environment: Environment) => Promise<readonly ConnectionCheckView[]>;
  /** The callback self-test of `environment`'s route. */
  readonly checkCallbacks: (environment: Environment) => Promise<CallbackSelfTestView>;
  /** Go-live's trial account on a keyed environment, as a check line (never throws). */
  readonly makeTrial: (environment: Exclude<Environment, 'sandbox'>) => Promise<GoLiveCheckLine>;
  /** Moves the payment listener to a saved port at once; throws ListenerPortError. */
  readonly moveListener: (port: number) => Promise<boolean>;
  /** Open sales in the environment in use. */
  readonly openSales: () => number;
  /** The standing account for outages as a check line; null for an environment not in use. */
  readonly outageAccount: (environment: Environment) => Promise<GoLiveCheckLine | null>;
}

/** A listener port in a patch that is not the one in use: moved first, or refused by field. */
export async function applyListenerPort(
  deps: Pick<GoLiveDeps, 'moveListener'>,
  callbacks: unknown,
): Promise<boolean> {
  const port =
    typeof callbacks === 'object' && callbacks !== null
      ? (callbacks as { listenerPort?: unknown }).listenerPort
      : undefined;
  if (typeof port !== 'number') return false;
  try {
    return await deps.moveListener(port);
  } catch (error) {
    if (!(error instanceof ListenerPortError)) throw error;
    throw new SettingsValidationError([
      { field: 'callbacks.listenerPort', message: error.message },
    ]);
  }
}

const TITLES = {
  connection: 'Provider connection',
  balance: 'Payout balance',
  callbacks: 'Payment news (callbacks)',
} as const;

function connectionLine(check: ConnectionCheckView): GoLiveCheckLine {
  const name = check.check === 'transactions' ? 'connection' : 'balance';
  return {
    check: name,
    ok: check.ok,
    title: TITLES[name],
    message: check.message,
    advice: check.ok ? null : (check.advice ?? 'Check the values above, then check again.'),
  };
}

function callbacksLine(
  environment: Environment,
  settings: SettingsStore,
  test: CallbackSelfTestView,
): GoLiveCheckLine {
  const title = TITLES.callbacks;
  if (test.passed) {
    return { check: 'callbacks', ok: true, title, message: test.detail, advice: null };
  }
  const current = settings.get();
  const mode = current.callbacks.mode;
  if (test.code === 'NO_ROUTE' && environment !== 'sandbox' && mode === 'polling-only') {
    return {
      check: 'callbacks',
      ok: true,
      title,
      message:
        'Polling only: the provider sends no news; the till asks about each open sale itself, so "Paid" shows a little later.',
      advice: null,
    };
  }
  if (test.code === 'NO_ROUTE' && mode === 'ngrok' && current.environment === 'sandbox') {
    return {
      check: 'callbacks',
      ok: false,
      title,
      message: `The ngrok tunnel runs only while the till uses ${ENVIRONMENT_NAMES[environment]}.`,
      advice: `Switch to ${ENVIRONMENT_NAMES[environment]} (the last step), then check again.`,
    };
  }
  return { check: 'callbacks', ok: false, title, message: test.detail, advice: test.action };
}

/**
 * A sale's account needs every field of interface section 2.2: one left blank is refused here,
 * at its field, not by the provider at the first sale. A saved key counts (entered for another
 * address, the form says so beside the Base URL).
 */
export function refuseMissingCreationFields(
  secrets: Pick<SecretStore, 'describe'>,
  environment: Environment,
  profile: Pick<Profile, 'baseUrl' | 'merchantId'>,
  givenKey: string | null | undefined,
): void {
  const hasKey =
    givenKey === undefined
      ? secrets.describe(environment).secrets.secretKey.set
      : givenKey !== null;
  const [first, ...rest] = creationFieldIssues(environment, profile, hasKey);
  if (first) throw new SettingsValidationError([first, ...rest]);
}

/** "Connect your provider": everything is checked before anything is written. */
export async function saveGoLiveConnection(
  deps: GoLiveDeps,
  input: ChannelParsedInput<'saveConnection'>,
): Promise<ConnectionSavedView> {
  const { settings, secrets } = deps;
  const { environment, profile, callbacks, secrets: keys = {} } = input;
  // A bad key or field saves nothing.
  const given = GO_LIVE_SECRET_NAMES.flatMap((name) => {
    const value = keys[name];
    if (value === undefined) return [];
    return [{ name, value: value === null ? null : normalizeSecret(name, value) }];
  });
  const patch = {
    profiles: { [environment]: profile },
    ...(callbacks ? { callbacks } : {}),
  };
  const next = validateSettings(mergePatch(settings.get(), patch));
  refuseMissingCreationFields(secrets, environment, next.profiles[environment], keys.secretKey);
  const listenerMoved = await applyListenerPort(deps, callbacks);
  for (const { name, value } of given) {
    // Keys saved with new addresses are entered for those addresses.
    if (name === 'secretKey' || name === 'accessToken') {
      secrets.set(environment, name, value, keyOrigin(next.profiles[environment], name));
    } else secrets.set('global', name, value);
  }
  settings.update(patch);
  return {
    environment,
    settings: deps.view(),
    secrets: secrets.describe(environment),
    listenerMoved,
    openSales: deps.openSales(),
  };
}

/**
 * "Check everything": the connection, the payout balance, the callback route, on a keyed
 * environment a trial account (always on STAGING; on LIVE only when the owner ticks it), and on
 * the environment in use the till's standing account for outages (made when missing).
 */
export async function runGoLiveCheck(
  deps: GoLiveDeps,
  environment: Environment,
  trialOnLive: boolean,
): Promise<GoLiveCheckView> {
  const trial =
    environment === 'sandbox'
      ? Promise.resolve(null)
      : environment === 'production' && !trialOnLive
        ? Promise.resolve(TRIAL_NOT_MADE)
        : deps.makeTrial(environment);
  const [checks, callbacks, trialLine, outageLine] = await Promise.all([
    deps.testConnection(environment),
    deps.checkCallbacks(environment),
    trial,
    deps.outageAccount(environment),
  ]);
  const lines = [
    ...checks.map(connectionLine),
    callbacksLine(environment, deps.settings, callbacks),
    ...(trialLine ? [trialLine] : []),
    ...(outageLine ? [outageLine] : []),
  ];
  return {
    environment,
    passed: lines.every((line) => line.ok),
    lines,
    openSales: deps.openSales(),
  };
}
