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
  /** Open sales in the environment in use: switching asks first when there are any. */
  readonly openSales: number;
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
  /** Open sales in the environment in use: switching asks first when there are any. */
  readonly openSales: number;
}

/** The keys the flow's Save takes; a missing one is left as it is, null clears it. */
export const GO_LIVE_SECRET_NAMES = [
  'secretKey',
  'accessToken',
  'ngrokAuthtoken',
  'ngrokBasicAuthPassword',
] as const;
export type GoLiveSecretName = (typeof GO_LIVE_SECRET_NAMES)[number];

/** The account display name a profile starts with, before the shop chooses one. */
export const DEFAULT_ACCOUNT_NAME = 'Transfer Till';

/**
 * The payee name customers see in their bank app: the profile's own choice, or the shop's name
 * while the profile still holds the starting default (customers check it against the shop).
 */
export function payeeNameOf(accountName: string, shopName: string): string {
  return accountName === DEFAULT_ACCOUNT_NAME && shopName.trim() !== '' ? shopName : accountName;
}
