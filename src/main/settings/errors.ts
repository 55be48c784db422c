import { AppError } from '#shared/errors';

/** Typed errors of the settings store; `field` is a dotted path the UI can put next to an input. */

export interface SettingsIssue {
  /** Dotted path, e.g. 'profiles.production.expiryMinutes'; '' for the settings as a whole. */
  readonly field: string;
  /** Plain English, without the field's name (the form shows it next to the field). */
  readonly message: string;
}

export class SettingsValidationError extends AppError<'INVALID_SETTINGS'> {
  /** The first problem's field. */
  declare readonly field: string;
  /** Every problem found, first one first. */
  readonly issues: readonly SettingsIssue[];

  constructor(issues: readonly [SettingsIssue, ...SettingsIssue[]]) {
    const [first] = issues;
    super('INVALID_SETTINGS', `${fieldLabel(first.field)}: ${first.message}`, {
      field: first.field,
    });
    this.name = 'SettingsValidationError';
    this.issues = issues;
  }
}

const LEAF_LABELS: Readonly<Record<string, string>> = {
  cashierPins: 'Cashier PINs',
  voiceURI: 'Voice',
  receiptPrinter: 'Receipt printer',
  paperWidthMm: 'Receipt paper width',
  environment: 'Environment',
  baseUrl: 'Provider address',
  payoutBaseUrl: 'Payout address',
  merchantId: 'Merchant ID',
  merchantCategory: 'Merchant category',
  accountName: 'Account display name',
  expiryMinutes: 'Account expiry (minutes)',
  payoutAccountId: 'Payout account number',
  secretKey: 'Secret key',
  name: 'Shop name',
  tillId: 'Till id',
  cashiers: 'Cashiers',
  timeZone: 'Time zone',
  dayCutoffHour: 'End-of-day cut-off hour',
  maxSaleKobo: 'Largest sale',
  flagAboveKobo: 'Flag a payment into a standing account above',
  policy: 'Outage sales: the goods',
  allowByChoice: 'Allow outage sales while the provider answers',
  mode: 'How the provider reaches this till',
  publicUrl: 'Public address',
  listenerPort: 'Listener port',
  ngrokDomain: 'ngrok domain',
  ngrokAllowCidrs: 'Allowed IP ranges',
  ngrokBasicAuthUser: 'ngrok basic-auth user',
  intervalMinutes: 'Sync interval (minutes)',
  onStartup: 'Sync on startup',
  enabled: 'Sounds',
  volume: 'Volume',
  keep: 'Backups to keep',
  lanEnabled: 'LAN listener',
  lanPort: 'LAN port',
  lanHost: 'LAN address',
};

/** Words for a dotted field path: 'profiles.production.expiryMinutes' → 'Account expiry (minutes) (production)'. */
export function fieldLabel(field: string): string {
  if (field === '') return 'Settings';
  const parts = field.split('.');
  // An array item ('shop.cashiers.2') is named after its list.
  const named = parts.filter((part) => !/^\d+$/.test(part));
  const leaf = named[named.length - 1] ?? field;
  const label = LEAF_LABELS[leaf] ?? leaf;
  const environment = parts[0] === 'profiles' && parts.length > 2 ? parts[1] : undefined;
  return environment ? `${label} (${environment})` : label;
}

/** A settings file that could not be opened and could not be recovered either. */
export class SettingsFileError extends AppError<'SETTINGS_FILE'> {
  readonly path: string;
  constructor(path: string, message: string, options: { cause?: unknown } = {}) {
    super('SETTINGS_FILE', message, options);
    this.name = 'SettingsFileError';
    this.path = path;
  }
}
