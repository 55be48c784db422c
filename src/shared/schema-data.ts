/**
 * Values the zod modules compute that a page needs too: the channel table's names and the
 * settings' defaults. In the source they are read from those modules; every Vite build of the
 * renderer and the preload replaces this module with the values themselves, as JSON
 * (vite.schema-data.ts), so that neither carries zod and every schema to learn them. Only plain
 * data can be here: the build refuses anything JSON would change.
 */
export { channelNames } from './bridge/contract';
export { DEFAULT_SETTINGS, DEFAULT_VOICE_SETTINGS } from './settings-schema';
