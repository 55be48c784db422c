import type { HandlersOf, settingsChannels } from '#shared/bridge/contract';
import {
  KEYED_ENVIRONMENTS,
  type Environment,
  type Settings,
  type SettingsPatch,
} from '#shared/settings-schema';
import { creationFieldIssues } from '#shared/go-live';
import { referencePrefix } from '#shared/till-id';
import type { ConnectionCheckView, SettingsView } from '#shared/views';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import { createReferenceGenerator } from '#main/provider/references';
import type { ProviderClient } from '#main/provider/client';
import { KeysEnteredElsewhereError } from '#main/secrets/key-binding';
import type { SecretStore } from '#main/secrets/secret-store';
import { SettingsValidationError } from '#main/settings/errors';
import { mergePatch, type SettingsStore } from '#main/settings/settings-store';
import { followShopName, nameShop } from '#main/settings/shop-name';
import { validateSettings } from '#main/settings/validate';
import { testConnection } from '#main/provider/test-connection';
import {
  applyListenerPort,
  runGoLiveCheck,
  saveGoLiveConnection,
  type GoLiveDeps,
} from './go-live';
import type { Callbacks } from './callbacks';
import { callbackTarget } from './callback-target';
import { makeTrial } from './go-live-trial';
import { keyedClient } from './keyed-client';
import type { LanAddress, LanMoveRefusal } from '#main/hub/hub-types';

export interface SettingsHandlerDeps {
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** The callbacks capability: its route, token, self-tests and listener (core/callbacks.ts). */
  readonly callbacks: Pick<Callbacks, 'route' | 'rotateToken' | 'test' | 'check' | 'moveListener'>;
  /** Open sales in the environment in use (the go-live flow asks before a switch). */
  readonly openSales: () => number;
  /** "Check everything"'s line for the standing account for outages (go-live-outage.ts). */
  readonly outageAccount: GoLiveDeps['outageAccount'];
  /** The running embedded sandbox's client and payout account, when the sandbox is active. */
  /** The live counter of this hub whose till id has this one's reference prefix (its name), or null. */
  readonly counterWithPrefixOf: (tillId: string) => string | null;
  /** The hub's LAN listener opens at a new saved address first (Hub.moveLan). */
  readonly moveLan: (address: LanAddress) => Promise<LanMoveRefusal | null>;
  readonly sandboxClient: () => {
    readonly client: ProviderClient;
    readonly payoutAccountId: string;
  } | null;
}

/**
 * What the balance check says instead of its own answer, or null. The client needs some payout
 * URL to be built; without the real one the check must say so rather than test the wrong host.
 * A token entered for another origin was not sent (a placeholder went): the check says why.
 */
function balanceProblem(
  payoutBaseUrl: string,
  accessToken: string | null | KeysEnteredElsewhereError,
): ConnectionCheckView | null {
  if (accessToken instanceof KeysEnteredElsewhereError) {
    return { check: 'balance', ok: false, code: accessToken.code, message: accessToken.message };
  }
  if (payoutBaseUrl) return null;
  return {
    check: 'balance',
    ok: false,
    code: 'NOT_CONFIGURED',
    message: 'Enter the payout base URL to check the balance.',
    advice: "The provider's support team gives it with the payout access token.",
  };
}

/**
 * A LAN address or port in a patch: while the LAN listener is on, it opens there before the
 * settings say so, as the listener port does; a refusal is the save's, next to its field.
 */
async function applyLanAddress(
  moveLan: SettingsHandlerDeps['moveLan'],
  next: Settings,
  patch: SettingsPatch,
): Promise<void> {
  const hub = patch.hub;
  if (typeof hub !== 'object' || hub === null) return;
  if (!('lanHost' in hub) && !('lanPort' in hub)) return;
  const refusal = await moveLan({ host: next.hub.lanHost, port: next.hub.lanPort });
  if (refusal) throw new SettingsValidationError([refusal]);
}

/** Settings in, secrets in; only settings and the status of secrets come out. */
export function settingsHandlers(deps: SettingsHandlerDeps): HandlersOf<typeof settingsChannels> {
  const { settings, secrets } = deps;
  // Trial accounts carry this till's prefix, so the provider's records say which till tried.
  const references = createReferenceGenerator({
    prefix: () => referencePrefix(settings.get().shop.tillId),
    clock: () => deps.scheduler.now(),
    timeZone: settings.get().timeZone,
  });

  function view(): SettingsView {
    const route = deps.callbacks.route();
    return {
      settings: settings.get(),
      callbackUrl: route.mode === 'polling-only' ? null : route.callbackUrl,
      callbackProblem: route.mode === 'polling-only' ? route.reason : null,
      openSales: deps.openSales(),
    };
  }

  /** Two tills of one shop never share a reference prefix: a counter of this hub holds its own. */
  function refuseCounterTillId(patch: Readonly<Record<string, unknown>>): void {
    const shop = patch['shop'];
    const tillId =
      typeof shop === 'object' && shop !== null ? (shop as { tillId?: unknown }).tillId : undefined;
    if (typeof tillId !== 'string' || tillId.trim() === settings.get().shop.tillId) return;
    const counter = deps.counterWithPrefixOf(tillId.trim());
    if (counter === null) return;
    throw new SettingsValidationError([
      {
        field: 'shop.tillId',
        message: `The counter "${counter}" already uses this till id (its letters and digits); choose another`,
      },
    ]);
  }

  function failed(message: string, code: string, advice?: string): readonly ConnectionCheckView[] {
    return (['transactions', 'balance'] as const).map((check) => ({
      check,
      ok: false,
      code,
      message,
      ...(advice ? { advice } : {}),
    }));
  }

  async function test(environment: Environment): Promise<readonly ConnectionCheckView[]> {
    if (environment === 'sandbox') {
      const sandbox = deps.sandboxClient();
      if (!sandbox) {
        return failed(
          'The sandbox runs only while the SANDBOX profile is active.',
          'SANDBOX_NOT_ACTIVE',
        );
      }
      return testConnection(sandbox);
    }
    const built = keyedClient(settings, secrets, environment);
    if ('failure' in built) {
      const { message, code, advice } = built.failure;
      return failed(message, code, advice);
    }
    const { client, profile, accessToken } = built;
    const checks = await testConnection({ client, payoutAccountId: profile.payoutAccountId });
    const balance = balanceProblem(profile.payoutBaseUrl, accessToken);
    return balance ? checks.map((check) => (check.check === 'balance' ? balance : check)) : checks;
  }

  const goLive: GoLiveDeps = {
    settings,
    secrets,
    view,
    testConnection: test,
    checkCallbacks: (environment) => deps.callbacks.check(environment),
    makeTrial: (environment) =>
      makeTrial({
        settings,
        secrets,
        references,
        logger: deps.logger,
        callbackUrl: callbackTarget(environment, deps.callbacks.route()).url,
        environment,
      }),
    moveListener: (port) => deps.callbacks.moveListener(port),
    openSales: deps.openSales,
    outageAccount: deps.outageAccount,
  };

  return {
    getSettings: () => view(),
    updateSettings: async ({ patch: asked }) => {
      refuseCounterTillId(asked);
      const patch = followShopName(settings.get(), asked);
      // Checked whole first; then a new listener port (or LAN address) is taken before the
      // settings say so.
      const next = validateSettings(mergePatch(settings.get(), patch));
      refuseIncompleteProfiles(next, patch);
      await applyListenerPort(goLive, patch['callbacks']);
      await applyLanAddress(deps.moveLan, next, patch);
      settings.update(patch);
      return view();
    },
    setShopName: ({ name }) => {
      nameShop(settings, name);
      return view();
    },
    getSecrets: ({ environment }) => secrets.describe(environment),
    setSecret: (input) =>
      input.scope === 'global'
        ? secrets.set('global', input.name, input.value)
        : secrets.set(input.scope, input.name, input.value),
    testConnection: ({ environment }) => test(environment),
    rotateCallbackToken: () => {
      deps.callbacks.rotateToken();
      return { rotated: true };
    },
    testCallbacks: () => deps.callbacks.test(),
    saveConnection: (input) => saveGoLiveConnection(goLive, input),
    checkEverything: ({ environment, trialAccount }) =>
      runGoLiveCheck(goLive, environment, trialAccount === true),
  };
}

/**
 * The fields a sale's account needs (interface section 2.2), refused at Save on whichever page
 * changes a profile, as the Connect provider page does; the secret key is saved apart, so the
 * go-live Save and Check everything hold that one.
 */
function refuseIncompleteProfiles(next: Settings, patch: SettingsPatch): void {
  const profiles = patch['profiles'];
  if (typeof profiles !== 'object' || profiles === null) return;
  const issues = KEYED_ENVIRONMENTS.filter((environment) => environment in profiles).flatMap(
    (environment) => creationFieldIssues(environment, next.profiles[environment], true),
  );
  const [first, ...rest] = issues;
  if (first) throw new SettingsValidationError([first, ...rest]);
}
