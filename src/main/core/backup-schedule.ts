import { join } from 'node:path';
import type { Environment } from '#shared/settings-schema';
import { businessDay } from '#shared/provider-time';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { SettingsStore } from '#main/settings/settings-store';
import { dailyBackup, keepBackupsPrivate } from '#main/store/backup';
import type { Db } from '#main/store/database';

export interface BackupScheduleOptions {
  readonly db: Db;
  readonly dataDir: string;
  readonly environment: Environment;
  readonly settings: SettingsStore;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
}

export interface BackupSchedule {
  /** Stops the schedule; a backup in progress finishes first (closing under it would fail it). */
  close(): Promise<void>;
}

/** Once an hour: a backup when today's does not exist yet (the first one a minute after start). */
export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { db, settings, scheduler, logger } = options;
  let cancelTimer: (() => void) | null = null;
  let running: Promise<unknown> | null = null;
  let closed = false;

  function schedule(delayMs: number): void {
    cancelTimer = scheduler.setTimer(delayMs, () => {
      if (closed) return;
      const current = settings.get();
      const day = businessDay(scheduler.now(), { timeZone: current.timeZone, cutoffHour: 0 });
      running = dailyBackup(db, {
        dir: join(options.dataDir, 'backups', options.environment),
        keep: current.backups.keep,
        day,
      })
        .then((path) => path && logger.info({ path }, 'daily backup written'))
        .catch((error: unknown) => logger.error({ err: error }, 'daily backup failed'))
        .finally(() => {
          running = null;
          if (!closed) schedule(60 * 60_000);
        });
    });
  }
  schedule(60_000);
  try {
    keepBackupsPrivate(join(options.dataDir, 'backups'));
  } catch (error) {
    logger.warn({ err: error }, 'could not make the backups folder private');
  }

  return {
    async close() {
      closed = true;
      cancelTimer?.();
      await running;
    },
  };
}
