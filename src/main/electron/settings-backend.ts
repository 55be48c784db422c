/**
 * The desktop settings file: electron-store in the userData folder, with the same options,
 * migrations and recovery as the browser shell's conf file (electron-store extends conf).
 */
import { join } from 'node:path';
import { app } from 'electron';
import ElectronStore from 'electron-store';
import { settingsBackendOptions } from '#main/settings/backend-options';
import { openSettingsFile, type OpenedSettings } from '#main/settings/recovery';
import type { SettingsFile } from '#main/settings/settings-store';

/** Call after app 'ready'. Pass `backend` and `recovery` to createSettingsStore. */
export function openElectronSettings(): OpenedSettings<ElectronStore<SettingsFile>> {
  // electron-store names the file with `name` and takes the version from app.getVersion().
  const {
    configName,
    projectVersion: _projectVersion,
    ...options
  } = settingsBackendOptions(app.getVersion());
  const path = join(app.getPath('userData'), `${configName}.json`);
  return openSettingsFile(
    path,
    () => new ElectronStore<SettingsFile>({ ...options, name: configName }),
  );
}
