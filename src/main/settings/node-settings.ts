import { join } from 'node:path';
import Conf from 'conf';
import { SETTINGS_FILE_NAME, settingsBackendOptions } from './backend-options';
import { openSettingsFile, type OpenedSettings } from './recovery';
import type { SettingsFile } from './settings-store';

/** The settings file of the browser shell and the tests: <dataDir>/settings.json via conf. */
export function openNodeSettings(
  dataDir: string,
  version: string,
  now?: () => Date,
): OpenedSettings<Conf<SettingsFile>> {
  return openSettingsFile(
    join(dataDir, `${SETTINGS_FILE_NAME}.json`),
    () => new Conf<SettingsFile>({ cwd: dataDir, ...settingsBackendOptions(version) }),
    now,
  );
}
