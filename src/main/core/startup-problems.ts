import type { Roles } from '#main/auth/roles';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';

export interface StartupProblem {
  readonly level: 'warning';
  readonly kind: string;
  readonly message: string;
  readonly dedupeKey: string;
}

/** What the till found broken at start and set aside (a file reset, a secret unreadable): alerts. */
export function startupProblems(deps: {
  readonly settings: SettingsStore;
  readonly roles: Roles;
  readonly secrets: SecretStore;
}): StartupProblem[] {
  const problems: StartupProblem[] = [];
  const settingsRecovery = deps.settings.recovery;
  if (settingsRecovery) {
    problems.push({
      level: 'warning',
      kind: 'settings_recovered',
      message: `The settings file could not be read and was reset to defaults; the old file is kept as ${settingsRecovery.movedTo}.`,
      dedupeKey: `settings_recovered:${settingsRecovery.movedTo}`,
    });
  }
  if (deps.roles.recovery) {
    problems.push({
      level: 'warning',
      kind: 'pins_recovered',
      message: deps.roles.recovery.message,
      dedupeKey: `pins_recovered:${deps.roles.recovery.movedTo}`,
    });
  }
  for (const secret of deps.secrets.unreadable()) {
    problems.push({
      level: 'warning',
      kind: 'secret_unreadable',
      message: `The saved ${secret.name} for ${secret.scope} cannot be read: ${secret.problem}`,
      dedupeKey: `secret_unreadable:${secret.scope}:${secret.name}`,
    });
  }
  return problems;
}
