/**
 * The shop's name, asked once before the first sale: customers check the payee name in their
 * bank app before they send money, so the name the till sends must be the shop's. Whether it
 * was asked is kept in the settings file (`shop.nameConfirmed`), not in a browser: several
 * browsers and counters reach one till.
 */
import { DEFAULT_ACCOUNT_NAME } from '#shared/go-live';
import {
  DEFAULT_SHOP_NAME,
  ENVIRONMENTS,
  type Settings,
  type SettingsPatch,
} from '#shared/settings-schema';
import type { SettingsFile, SettingsStore } from './settings-store';
import { validateSettings } from './validate';

/**
 * The settings file of a till's very first start, marked as not named yet; null when there is
 * nothing to mark (not a first start). A file from an older version has no mark and reads as
 * named (the schema's default): that till was set up already.
 */
export function settleShopName(file: SettingsFile, firstStart: boolean): SettingsFile | null {
  if (!firstStart) return null;
  const shop = file['shop'];
  const current =
    typeof shop === 'object' && shop !== null && !Array.isArray(shop)
      ? (shop as Record<string, unknown>)
      : {};
  return { ...file, shop: { ...current, nameConfirmed: false } };
}

/**
 * Whether the till should ask the shop's name: never asked on this till, still the default
 * name (the owner did not name it in Settings either), and no sale made yet.
 */
export function shopNameWanted(settings: Settings, hasSales: boolean): boolean {
  return !settings.shop.nameConfirmed && settings.shop.name === DEFAULT_SHOP_NAME && !hasSales;
}

/**
 * A change of the shop's name carried to the account display names that follow it: a profile
 * still at the starting default, or holding the shop's current name (the first start wrote it
 * there), takes the new name; a name the owner chose for one environment, or one this same
 * change sets, stays.
 */
export function followShopName(settings: Settings, patch: SettingsPatch): SettingsPatch {
  const shop = patch['shop'];
  const name = isRecord(shop) && typeof shop['name'] === 'string' ? shop['name'].trim() : null;
  if (name === null || name === settings.shop.name) return patch;
  const patchedProfiles = isRecord(patch['profiles']) ? patch['profiles'] : {};
  const profiles: Record<string, unknown> = { ...patchedProfiles };
  for (const environment of ENVIRONMENTS) {
    const own = patchedProfiles[environment];
    if (isRecord(own) && 'accountName' in own) continue;
    const accountName = settings.profiles[environment].accountName;
    if (accountName === DEFAULT_ACCOUNT_NAME || accountName === settings.shop.name) {
      profiles[environment] = { ...(isRecord(own) ? own : {}), accountName: name };
    }
  }
  return { ...patch, profiles };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The change that names the shop: its name, marked as asked, followed by the profiles. */
export function namingPatch(settings: Settings, name: string): SettingsPatch {
  return followShopName(settings, { shop: { name, nameConfirmed: true } });
}

/**
 * Names the shop (see namingPatch). A bad name is refused as the shop name (blank, too long)
 * before the profiles are touched, so the error names the field the owner typed in.
 */
export function nameShop(store: SettingsStore, name: string): Settings {
  const trimmed = name.trim();
  const current = store.get();
  validateSettings({ ...current, shop: { ...current.shop, name: trimmed } });
  return store.update(namingPatch(current, trimmed));
}
