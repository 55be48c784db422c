import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { app } from 'electron';
import { loginItemPlan, xdgConfigHome } from '#main/desktop/login-item';
import type { Logger } from '#main/logging/logger';

/** Carries out the "Start at login" setting (see loginItemPlan for the rules). */
export function applyLoginItem(wanted: boolean, logger: Logger): void {
  const plan = loginItemPlan({
    wanted,
    platform: process.platform,
    packaged: app.isPackaged,
    execPath: process.execPath,
    appImagePath: process.env['APPIMAGE'],
    configHome: xdgConfigHome(process.env, homedir()),
  });
  try {
    switch (plan.kind) {
      case 'login-item':
        app.setLoginItemSettings({ openAtLogin: plan.openAtLogin });
        break;
      case 'autostart-file':
        if (plan.contents === null) {
          rmSync(plan.path, { force: true });
        } else {
          mkdirSync(dirname(plan.path), { recursive: true });
          writeFileSync(plan.path, plan.contents, { mode: 0o644 });
        }
        break;
      case 'unsupported':
        if (wanted) logger.warn({ reason: plan.reason }, 'start at login not set');
        return;
    }
    logger.info({ startAtLogin: wanted, how: plan.kind }, 'start at login applied');
  } catch (error) {
    logger.error({ err: error }, 'start at login could not be applied');
  }
}
