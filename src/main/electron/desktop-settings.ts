/**
 * The desktop's settings (start at login, updates) applied at start and after each change of the
 * settings file. The file is written before the store's own copy moves on: it is read on the
 * next turn.
 */
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import type { Core } from '#main/core/create-core';
import { applyLoginItem } from './login-item';
import type { Updater } from './updater';

/** Applies the settings now and on every change; returns the unsubscribe. */
export function followDesktopSettings(
  core: Core,
  updater: Pick<Updater, 'apply'>,
  onSettingsFileChanged: (listener: () => void) => () => void,
): () => void {
  const logger = core.log.logger;
  let startAtLogin: boolean | null = null;
  async function applySettings(): Promise<void> {
    try {
      const { settings } = await core.handlers.getSettings({}, IN_PROCESS_OWNER);
      if (settings.desktop.startAtLogin !== startAtLogin) {
        startAtLogin = settings.desktop.startAtLogin;
        applyLoginItem(startAtLogin, logger);
      }
      updater.apply(settings);
    } catch (error) {
      logger.error({ err: error }, 'desktop settings could not be applied');
    }
  }
  const off = onSettingsFileChanged(() => setImmediate(() => void applySettings()));
  void applySettings();
  return off;
}
