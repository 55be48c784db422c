export {
  SETTINGS_FILE_NAME,
  SETTINGS_MIGRATIONS,
  settingsBackendOptions,
  settingsJsonSchema,
  type MigrationStore,
  type SettingsBackendOptions,
  type SettingsMigration,
} from './backend-options';
export {
  SettingsFileError,
  SettingsValidationError,
  fieldLabel,
  type SettingsIssue,
} from './errors';
export { openNodeSettings } from './node-settings';
export { openSettingsFile, type OpenedSettings, type SettingsRecovery } from './recovery';
export {
  DEFAULT_SETTINGS,
  ENVIRONMENTS,
  profileSchema,
  settingsSchema,
  type Environment,
  type Profile,
  type Settings,
  type SettingsPatch,
} from './schema';
export {
  createSettingsStore,
  type SettingsBackend,
  type SettingsFile,
  type SettingsListener,
  type SettingsStore,
  type SettingsStoreOptions,
} from './settings-store';
export {
  WHERE_KEYS_COME_FROM,
  testConnection,
  type ConnectionCheck,
  type ConnectionCheckName,
  type TestConnectionInput,
} from './test-connection';
export { validateSettings } from './validate';
