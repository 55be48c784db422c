/**
 * The go-live flow's views ("Connect your provider" in Settings): one Save for an environment's
 * profile, keys and callback route, then "Check everything" in shop words.
 */
import type { Environment } from './settings-schema';
import type { SecretsView, SettingsView } from './views';

/** What the flow's one Save answers: the settings and what is known of the secrets. */
export interface ConnectionSavedView {
  readonly environment: Environment;
  readonly settings: SettingsView;
  readonly secrets: SecretsView;
  /** True when the payment listener moved to the port just saved. */
  readonly listenerMoved: boolean;
}

export type GoLiveCheckName = 'connection' | 'balance' | 'callbacks';

/** One line of "Check everything": what was checked, whether it passed, what to do. */
export interface GoLiveCheckLine {
  readonly check: GoLiveCheckName;
  readonly ok: boolean;
  /** Short, for the line's heading ("Provider connection"). */
  readonly title: string;
  /** What was found, in shop words. */
  readonly message: string;
  /** What to do about it; null when nothing is needed. */
  readonly advice: string | null;
}

export interface GoLiveCheckView {
  readonly environment: Environment;
  readonly passed: boolean;
  readonly lines: readonly GoLiveCheckLine[];
}

/** The keys the flow's Save takes; a missing one is left as it is, null clears it. */
export const GO_LIVE_SECRET_NAMES = [
  'secretKey',
  'accessToken',
  'ngrokAuthtoken',
  'ngrokBasicAuthPassword',
] as const;
export type GoLiveSecretName = (typeof GO_LIVE_SECRET_NAMES)[number];
