import { AppError } from '#shared/errors';
import { isSavedKeyName, keyLabel } from '#shared/settings/key-labels';
import { settingAt } from '#shared/settings/registry';

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

/** Fields a settings message may name that are no setting: the keys saved beside them. */
function savedKeyLabelAt(field: string): string | undefined {
  const name = field.startsWith('secrets.') ? field.slice('secrets.'.length) : '';
  return isSavedKeyName(name) ? keyLabel(name) : undefined;
}

/**
 * Words for a dotted field path, from the registry (src/shared/settings/): the whole path names
 * the setting, so 'sounds.voice.enabled' is the voice's, not the chime's. A profile's field says
 * its environment: 'profiles.production.expiryMinutes' → 'Default expiry (minutes) (production)'.
 */
export function fieldLabel(field: string): string {
  if (field === '') return 'Settings';
  const label = settingAt(field)?.label ?? savedKeyLabelAt(field);
  // A path that is no setting (a group, a name nobody declared) is shown as written.
  if (label === undefined) return field;
  const parts = field.split('.');
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
