import type { z } from 'zod';
import type { SettingsPage } from './pages';

/** Who may change a setting. Main enforces it (the channel that saves settings); the entry says it. */
export type SettingRole = 'owner' | 'cashier';

/** When a saved value takes effect. */
export type SettingApplies = 'when-saved' | 'next-log-in';

/** How the Settings page takes the value in (the input's type and keyboard). */
export type SettingInput = 'text' | 'url' | 'numeric' | 'decimal';

/** One setting, declared once: the Settings pages, messages and docs/running.md follow from it. */
export interface SettingEntry<S extends z.ZodType = z.ZodType> {
  /** Its shape, default and rules (settings-schema.ts composes the whole from these). */
  readonly schema: S;
  /** Its name, as its Settings page shows it and as a message about it begins. */
  readonly label: string;
  /** The words under the field; absent where the page words them from what is typed. */
  readonly hint?: string;
  /** The hint where the field stands in the go-live walk-through (the Connect provider page). */
  readonly shortHint?: string;
  /** The page that edits it; null for one main keeps for itself. */
  readonly page: SettingsPage | null;
  readonly role: SettingRole;
  readonly applies: SettingApplies;
  /** What saving it does beyond "at once" (docs/running.md's table lists these). */
  readonly effect?: string;
  readonly input?: SettingInput;
}

/** An entry; who may change it defaults to the owner, as a channel's access does. */
export function setting<S extends z.ZodType>(
  entry: Omit<SettingEntry<S>, 'role' | 'applies'> &
    Partial<Pick<SettingEntry<S>, 'role' | 'applies'>>,
): SettingEntry<S> {
  return { role: 'owner', applies: 'when-saved', ...entry };
}
