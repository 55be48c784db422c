/**
 * The owner hears of every change to what reaches the provider: a provider key saved or
 * removed ("LIVE keys changed"), or an address its keys go to changed ("LIVE address
 * changed"). Each is an alert of its own (no dedupe key: a second change is a second alert) and
 * a log line that says what changed, never the value.
 */
import type { BridgeEvent } from '#shared/bridge/contract';
import { addressOrigin, type KeyAddressField } from '#shared/provider-url';
import { keyLabelInText } from '#shared/settings/key-labels';
import { KEY_ADDRESS_LABELS } from '#shared/settings/registry';
import {
  ENVIRONMENTS,
  ENVIRONMENT_NAMES,
  type Environment,
  type Settings,
} from '#shared/settings-schema';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { SecretChange, SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import { raiseTillAlert, type NewAlert } from '#main/engine/till-alerts';
import type { Runtime } from './runtime';

export interface KeyAlertDeps {
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  readonly emit: (event: BridgeEvent) => void;
  /** The runtime in use (its database holds the alerts), or null while it switches. */
  readonly runtime: () => Runtime | null;
}

const ADDRESS_FIELDS: readonly KeyAddressField[] = ['baseUrl', 'payoutBaseUrl'];

/** Whether any provider key of `environment` is saved (readable or not). */
function keysSaved(secrets: SecretStore, environment: Environment): boolean {
  const { secretKey, accessToken } = secrets.describe(environment).secrets;
  return [secretKey, accessToken].some((status) => status.set || status.problem !== null);
}

/** The address fields of each keyed environment that a settings save changed. */
function changedAddresses(
  next: Settings,
  previous: Settings,
  secrets: SecretStore,
): readonly { readonly environment: Environment; readonly fields: readonly KeyAddressField[] }[] {
  return ENVIRONMENTS.flatMap((environment) => {
    const fields = ADDRESS_FIELDS.filter(
      (field) => next.profiles[environment][field] !== previous.profiles[environment][field],
    );
    return fields.length > 0 && keysSaved(secrets, environment) ? [{ environment, fields }] : [];
  });
}

/** Follows both stores until the returned function is called. */
export function watchKeyChanges(deps: KeyAlertDeps): () => void {
  const { settings, secrets, logger } = deps;

  function raise(alert: NewAlert): void {
    const runtime = deps.runtime();
    if (!runtime) return;
    const view = raiseTillAlert(runtime.db, alert, deps.scheduler.now());
    if (view) deps.emit({ type: 'alert', payload: view });
  }

  function keyChanged(change: SecretChange): void {
    if (change.scope === 'global') return;
    if (change.name !== 'secretKey' && change.name !== 'accessToken') return;
    const name = ENVIRONMENT_NAMES[change.scope];
    const what = `the ${keyLabelInText(change.name)} was ${change.removed ? 'removed' : 'entered'}`;
    logger.warn(
      { environment: change.scope, key: change.name, removed: change.removed },
      `${name} keys changed`,
    );
    raise({
      level: 'warning',
      kind: 'provider_keys_changed',
      message: `${name} keys changed: ${what} in Settings. If nobody at the shop did this, ask the provider for new keys and enter them again.`,
    });
  }

  function addressChanged(environment: Environment, fields: readonly KeyAddressField[]): void {
    const name = ENVIRONMENT_NAMES[environment];
    logger.warn({ environment, fields }, `${name} address changed`);
    const profile = settings.get().profiles[environment];
    const where = fields
      .map((field) => {
        const origin = addressOrigin(profile[field]);
        return `the ${KEY_ADDRESS_LABELS[field]} now points to ${origin || 'nothing'}`;
      })
      .join(' and ');
    raise({
      level: 'warning',
      kind: 'provider_address_changed',
      message: `${name} address changed: ${where}. Saved keys go only to the address they were entered for; if nobody at the shop did this, check Settings → Connect provider.`,
    });
  }

  const stopSecrets = secrets.subscribe(keyChanged);
  const stopSettings = settings.subscribe((next, previous) => {
    for (const { environment, fields } of changedAddresses(next, previous, secrets)) {
      addressChanged(environment, fields);
    }
  });
  return () => {
    stopSecrets();
    stopSettings();
  };
}
