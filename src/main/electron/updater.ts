/**
 * electron-updater, wired to the decisions of src/main/desktop/updates.ts. The module is loaded
 * only once an update address is set: with none, nothing of it runs and nothing is fetched.
 */
import { app } from 'electron';
import type { AppUpdater } from 'electron-updater';
import type { Settings } from '#shared/settings-schema';
import {
  mayCheck,
  nextUpdateStatus,
  updatePlan,
  UPDATES_OFF,
  type UpdateEvent,
  type UpdateStatus,
} from '#main/desktop/updates';
import type { Logger } from '#main/logging/logger';

export interface Updater {
  /** The settings were read or changed: start, move or stop the checks. */
  apply(settings: Pick<Settings, 'desktop'>): void;
  check(userAsked: boolean): void;
  download(): void;
  /** Quits and installs; the caller has already asked about open sales. */
  install(): void;
  status(): UpdateStatus;
  close(): void;
}

export interface UpdaterDeps {
  readonly logger: Logger;
  readonly onStatus: (next: UpdateStatus, previous: UpdateStatus) => void;
}

async function loadAutoUpdater(): Promise<AppUpdater> {
  // A CommonJS package: its exports arrive as the default of the ESM namespace.
  const module = await import('electron-updater');
  return module.default.autoUpdater;
}

export function createUpdater(deps: UpdaterDeps): Updater {
  const { logger } = deps;
  let status: UpdateStatus = UPDATES_OFF;
  let updater: AppUpdater | null = null;
  let feedUrl: string | null = null;
  /** The plan last applied: the feed, or why updates are off. */
  let applied: string | null = null;
  let timers: ReturnType<typeof setTimeout>[] = [];

  function note(event: UpdateEvent): void {
    const previous = status;
    status = nextUpdateStatus(status, event);
    if (status !== previous) deps.onStatus(status, previous);
  }

  function clearTimers(): void {
    for (const timer of timers) clearTimeout(timer);
    timers = [];
  }

  function hook(instance: AppUpdater): void {
    instance.logger = {
      info: (message: unknown) => logger.info({ updater: message }, 'updater'),
      warn: (message: unknown) => logger.warn({ updater: message }, 'updater'),
      error: (message: unknown) => logger.error({ updater: message }, 'updater'),
    };
    instance.on('update-available', (info) => note({ type: 'available', version: info.version }));
    instance.on('update-not-available', () => note({ type: 'not-available', at: Date.now() }));
    instance.on('download-progress', (info) => note({ type: 'progress', percent: info.percent }));
    instance.on('update-downloaded', (info) => note({ type: 'downloaded', version: info.version }));
    // Failures come here and as rejected promises; the event alone changes the status.
    instance.on('error', (error) =>
      note({ type: 'error', message: error.message, at: Date.now() }),
    );
  }

  function check(userAsked: boolean): void {
    if (!updater || !mayCheck(status)) return;
    note({ type: 'check-started', userAsked });
    void updater.checkForUpdates().catch((error: unknown) => {
      logger.warn({ err: error }, 'update check failed');
    });
  }

  return {
    apply(settings) {
      const plan = updatePlan(settings, { packaged: app.isPackaged });
      const key = plan.enabled ? `feed:${plan.feed.url}` : `off:${plan.reason}`;
      if (key === applied) return;
      applied = key;
      feedUrl = plan.enabled ? plan.feed.url : null;
      clearTimers();
      note({ type: 'plan', plan });
      if (!plan.enabled) {
        logger.info({ reason: plan.reason }, 'updates off');
        return;
      }
      void loadAutoUpdater()
        .then((instance) => {
          if (feedUrl !== plan.feed.url) return;
          if (!updater) hook(instance);
          updater = instance;
          instance.autoDownload = plan.autoDownload;
          instance.autoInstallOnAppQuit = plan.autoInstallOnAppQuit;
          instance.setFeedURL(plan.feed);
          logger.info({ feed: plan.feed.url }, 'updates on');
          timers.push(setTimeout(() => check(false), plan.firstCheckAfterMs));
          const every = setInterval(() => check(false), plan.checkEveryMs);
          timers.push(every);
        })
        .catch((error: unknown) => logger.error({ err: error }, 'electron-updater did not load'));
    },
    check,
    download() {
      if (!updater || status.state !== 'available') return;
      note({ type: 'download-started' });
      void updater.downloadUpdate().catch((error: unknown) => {
        logger.warn({ err: error }, 'update download failed');
      });
    },
    install() {
      if (!updater || status.state !== 'ready') return;
      updater.quitAndInstall();
    },
    status: () => status,
    close: clearTimers,
  };
}
