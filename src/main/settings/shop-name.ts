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
 * The change that names the shop: its name, marked as asked, and the account display name of
 * every environment whose profile still holds the starting default (a name the owner chose
 * for one environment stays).
 */
export function namingPatch(settings: Settings, name: string): SettingsPatch {
  const profiles: Record<string, { accountName: string }> = {};
  for (const environment of ENVIRONMENTS) {
    if (settings.profiles[environment].accountName === DEFAULT_ACCOUNT_NAME) {
      profiles[environment] = { accountName: name };
    }
  }
  return { shop: { name, nameConfirmed: true }, profiles };
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
