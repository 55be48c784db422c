import { settingLabels, type SettingPath } from './settings/registry';

/**
 * Values the zod modules compute that a page needs too: the channel table's names, the
 * settings' defaults and their labels (for screens other than Settings). In the source they
 * are read from those modules; every Vite build of the renderer and the preload replaces this
 * module with the values themselves, as JSON (vite.schema-data.ts), so that neither carries zod
 * and every schema to learn them. Only plain data can be here: the build refuses anything JSON
 * would change.
 */
export { channelNames } from './bridge/contract';
export { DEFAULT_SETTINGS, DEFAULT_VOICE_SETTINGS } from './settings-schema';

/** Each setting's label by its registry path ('hub.lanEnabled'), declared in the registry. */
export const SETTING_LABELS: Readonly<Record<SettingPath, string>> = settingLabels();
