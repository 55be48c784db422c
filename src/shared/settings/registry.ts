/**
 * Every setting, declared once (as VS Code's configurationRegistry does): its path, schema,
 * label, hint, page, who may change it and when it applies. settings-schema.ts composes the
 * schema from these entries, the Settings pages take their labels and hints from them, a
 * message about a field is named by them, and docs/running.md's table is checked against them.
 */
import type { KeyAddressField } from '../provider-url';
import { CONNECTION_SETTINGS, PROFILE_SETTINGS } from './connection-settings';
import type { SettingEntry } from './setting';
import { SHOP_SETTINGS } from './shop-settings';
import { HUB_AND_DESKTOP_SETTINGS, UPKEEP_SETTINGS } from './till-settings';

export const SETTINGS_REGISTRY = {
  ...CONNECTION_SETTINGS,
  ...PROFILE_SETTINGS,
  ...SHOP_SETTINGS,
  ...UPKEEP_SETTINGS,
  ...HUB_AND_DESKTOP_SETTINGS,
} as const;

type Registry = typeof SETTINGS_REGISTRY;
/** A registry path: 'shop.name', or 'profiles.*.baseUrl' for each environment's profile. */
export type SettingPath = keyof Registry;

/** The last part of a path whose parent is P ('sync.onStartup' under 'sync' → 'onStartup'). */
type ChildOf<P extends string, K> = P extends ''
  ? K extends `${string}.${string}`
    ? never
    : K
  : K extends `${P}.${infer Leaf}`
    ? Leaf extends `${string}.${string}`
      ? never
      : Leaf
    : never;

/** The zod shape of the settings directly under a group ('' for the top level). */
export type ShapeOf<P extends string> = {
  readonly [K in keyof Registry as ChildOf<P, K>]: Registry[K]['schema'];
};

/** The schemas of the settings directly under a group, keyed by their last name. */
export function shapeOf<P extends string>(group: P): ShapeOf<P> {
  const shape: Record<string, unknown> = {};
  const prefix = group === '' ? '' : `${group}.`;
  for (const [path, entry] of Object.entries(SETTINGS_REGISTRY)) {
    if (!path.startsWith(prefix)) continue;
    const leaf = path.slice(prefix.length);
    if (!leaf.includes('.')) shape[leaf] = entry.schema;
  }
  return shape as ShapeOf<P>;
}

const ENTRIES: Readonly<Record<string, SettingEntry>> = SETTINGS_REGISTRY;

/**
 * The entry of a dotted path as main and the forms write it: 'profiles.production.baseUrl' is
 * the profile's 'profiles.*.baseUrl'; a list's item ('shop.cashiers.2') is its list's. Null for
 * a path that is no setting ('' or a group).
 */
export function settingAt(field: string): SettingEntry | null {
  const parts = field.split('.');
  while (parts.length > 0 && /^\d+$/.test(parts[parts.length - 1] ?? '')) parts.pop();
  const path = parts.join('.');
  const exact = ENTRIES[path];
  if (exact) return exact;
  if (parts[0] === 'profiles' && parts.length === 3)
    return ENTRIES[`profiles.*.${parts[2]}`] ?? null;
  return null;
}

/** The entry declared at a registry path. */
export function settingEntry(path: SettingPath): SettingEntry {
  return ENTRIES[path] as SettingEntry;
}

/** The label of a setting; a setting path that is in no entry is a programming error. */
export function settingLabel(field: string): string {
  const entry = settingAt(field);
  if (!entry) throw new Error(`No setting is declared at "${field}"`);
  return entry.label;
}

/**
 * Every setting's label by its registry path, as plain data: what a screen other than Settings
 * reads (through schema-data.ts, so that it loads no zod).
 */
export function settingLabels(): Readonly<Record<SettingPath, string>> {
  return Object.fromEntries(
    Object.entries(ENTRIES).map(([path, entry]) => [path, entry.label]),
  ) as Record<SettingPath, string>;
}

/** Every entry with its path, in declaration order. */
export function settingEntries(): readonly (readonly [string, SettingEntry])[] {
  return Object.entries(ENTRIES);
}

/** The addresses a provider key is bound to, named as Settings names them (for main's messages). */
export const KEY_ADDRESS_LABELS: Readonly<Record<KeyAddressField, string>> = {
  baseUrl: SETTINGS_REGISTRY['profiles.*.baseUrl'].label,
  payoutBaseUrl: SETTINGS_REGISTRY['profiles.*.payoutBaseUrl'].label,
};
