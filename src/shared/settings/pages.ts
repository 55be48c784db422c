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
