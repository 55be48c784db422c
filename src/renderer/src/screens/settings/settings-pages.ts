import { SETTINGS_PAGES, type SettingsPage } from '#shared/settings/pages';

export { SETTINGS_PAGES, type SettingsPage };

/** Pages that belong to one shell only: the other shell does not offer them. */
export const PAGE_SHELL: Readonly<Partial<Record<SettingsPage, 'browser' | 'electron'>>> = {
  access: 'browser',
  desktop: 'electron',
};

export function settingsPageFromHash(hash: string): SettingsPage {
  const name = /^#\/settings\/([a-z-]+)/.exec(hash)?.[1];
  return SETTINGS_PAGES.find((page) => page.id === name)?.id ?? 'environment';
}
