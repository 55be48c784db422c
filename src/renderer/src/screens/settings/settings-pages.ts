/** The pages of Settings, each its own tab with its own address (#/settings/<page>). */
export const SETTINGS_PAGES = [
  { id: 'environment', label: 'Environment' },
  { id: 'connect', label: 'Connect provider' },
  { id: 'callbacks', label: 'Callbacks' },
  { id: 'shop', label: 'Shop' },
  { id: 'roles', label: 'Cashiers and PINs' },
  { id: 'upkeep', label: 'Sync, backups, sounds' },
  { id: 'printing', label: 'Receipts' },
  { id: 'voice', label: 'Voice' },
  { id: 'hub', label: 'Shop hub' },
  { id: 'access', label: 'Browser access' },
  { id: 'desktop', label: 'Desktop app' },
] as const;

export type SettingsPage = (typeof SETTINGS_PAGES)[number]['id'];

/** Pages that belong to one shell only: the other shell does not offer them. */
export const PAGE_SHELL: Readonly<Partial<Record<SettingsPage, 'browser' | 'electron'>>> = {
  access: 'browser',
  desktop: 'electron',
};

export function settingsPageFromHash(hash: string): SettingsPage {
  const name = /^#\/settings\/([a-z-]+)/.exec(hash)?.[1];
  return SETTINGS_PAGES.find((page) => page.id === name)?.id ?? 'environment';
}
