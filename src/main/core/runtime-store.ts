import type { BridgeEvent } from '#shared/bridge/contract';
import { formatDateTime } from '#shared/report-words';
import { callbackRowDaysOf, type Environment } from '#shared/settings-schema';
import type { Scheduler } from '#main/clock/scheduler';
import { tillDbPath } from '#main/config/data-files';
import type { Logger } from '#main/logging/logger';
import type { SettingsStore } from '#main/settings/settings-store';
import { openDatabase } from '#main/store/database';
import { createStoreSpace } from '#main/store/store-space';
import { startDiskFullWatch } from './disk-full-watch';
import { startMaintenanceSchedule } from './maintenance-schedule';

/** The runtime's database and its upkeep: store space, the full-disk watch and maintenance. */
export function openRuntimeStore(options: {
  readonly environment: Environment;
  readonly dataDir: string;
  readonly sqliteNativeBinding?: string;
  readonly settings: SettingsStore;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly emit: (event: BridgeEvent) => void;
}) {
  const { environment, settings, scheduler, logger, emit } = options;
  const db = openDatabase({
    path: tillDbPath(options.dataDir, environment),
    nativeBinding: options.sqliteNativeBinding,
  });
  const storeSpace = createStoreSpace(db, () => scheduler.now());
  const diskFullWatch = startDiskFullWatch({
    db,
    space: storeSpace,
    scheduler,
    logger,
    emit,
    timeText: (at) => formatDateTime(at, settings.get().timeZone),
  });
  const maintenance = startMaintenanceSchedule({
    db,
    space: storeSpace,
    scheduler,
    logger,
    callbackBodyDays: () => settings.get().retention.callbackBodyDays,
    callbackRowDays: () => callbackRowDaysOf(settings.get().retention),
  });
  return { db, storeSpace, diskFullWatch, maintenance };
}
