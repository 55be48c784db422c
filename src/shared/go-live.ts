/**
 * The go-live flow's views ("Connect your provider" in Settings): one Save for an environment's
 * profile, keys and callback route, then "Check everything" in shop words.
 */
import { KEYED_ENVIRONMENTS, type Environment, type Profile } from './settings-schema';
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

/** 'outage-account': the till's standing account for outages, made during the check when missing. */
export type GoLiveCheckName = 'connection' | 'balance' | 'callbacks' | 'trial' | 'outage-account';

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
  /**
   * Not run, by the owner's choice (LIVE's trial account left unticked): it does not fail the
   * check, and the line says what stays unproven.
   */
  readonly notRun?: true;
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

/** The smallest sale the till allows (the engine refuses ₦0.00): a trial account asks for it. */
export const SMALLEST_SALE_KOBO = 1;
/** A trial account's expiry: the shortest the interface's `expiers_in` can say (minutes). */
export const TRIAL_EXPIRY_MINUTES = 1;
/** LIVE's choice in "Check everything" (STAGING always makes one). */
export const TRIAL_CHOICE_LABEL = 'Make a trial account too (a real account nobody pays into)';
export const MERCHANT_ID_MISSING = 'Enter the Merchant ID your provider gave you';
export const SECRET_KEY_MISSING = 'Enter the secret key your provider gave you';

export interface CreationFieldIssue {
  /** Dotted settings path ('profiles.staging.merchantId') or 'secrets.secretKey'. */
  readonly field: string;
  readonly message: string;
}

/**
 * What a sale's account creation (interface section 2.2) needs that the settings do not hold, for
 * an environment in use (its base URL set): a blank one passes Save today and fails the first
 * sale. The account display name and merchant category are refused blank by the schema itself.
 */
export function creationFieldIssues(
  environment: Environment,
  profile: Pick<Profile, 'baseUrl' | 'merchantId'>,
  hasSecretKey: boolean,
): readonly CreationFieldIssue[] {
  if (!(KEYED_ENVIRONMENTS as readonly Environment[]).includes(environment)) return [];
  if (profile.baseUrl.trim() === '') return [];
  const issues: CreationFieldIssue[] = [];
  if (profile.merchantId.trim() === '') {
    issues.push({ field: `profiles.${environment}.merchantId`, message: MERCHANT_ID_MISSING });
  }
  if (!hasSecretKey) issues.push({ field: 'secrets.secretKey', message: SECRET_KEY_MISSING });
  return issues;
}
