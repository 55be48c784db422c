/**
 * Updates through electron-updater, decided here and only wired in src/main/electron/updater.ts.
 * Off until the owner sets an update address (a generic https feed of electron-builder's
 * latest*.yml files): with none, electron-updater is never even loaded. Nothing downloads or
 * installs without a person choosing it in the menu.
 */
import { urlProblem, type Settings } from '#shared/settings-schema';
import type { DesktopNotification } from './notifications';
import type { TrayMenuItem } from './tray-state';

export interface UpdateEnvironment {
  /** false when run from the source tree (`npm start`): there is no installed copy to replace. */
  readonly packaged: boolean;
}

export const UPDATE_TIMING = {
  /** Not at once: the first minutes after a start belong to the till (resume, sync, self-test). */
  firstCheckAfterMs: 2 * 60_000,
  checkEveryMs: 6 * 60 * 60_000,
} as const;

export type UpdatePlan =
  | { readonly enabled: false; readonly reason: string }
  | {
      readonly enabled: true;
      /** electron-updater's generic provider: the folder that holds latest.yml. */
      readonly feed: { readonly provider: 'generic'; readonly url: string };
      /** Never download by itself: a shop's data may be metered. */
      readonly autoDownload: false;
      /** An update someone chose to download installs when the till is next quit. */
      readonly autoInstallOnAppQuit: true;
      readonly firstCheckAfterMs: number;
      readonly checkEveryMs: number;
    };

/** Whether and where the desktop app looks for updates. */
export function updatePlan(
  settings: Pick<Settings, 'desktop'>,
  environment: UpdateEnvironment,
): UpdatePlan {
  const url = settings.desktop.updateUrl.trim();
  if (url === '') {
    return {
      enabled: false,
      reason: 'No update address is set, so the till never looks for updates.',
    };
  }
  // The settings schema says the same; a hand-edited file is checked again before any request.
  const problem =
    urlProblem(url) ?? (url.toLowerCase().startsWith('https://') ? null : 'not https');
  if (problem) {
    return { enabled: false, reason: `The update address cannot be used (${problem}).` };
  }
  if (!environment.packaged) {
    return {
      enabled: false,
      reason: 'This copy runs from the source code: updates apply to installed copies only.',
    };
  }
  return {
    enabled: true,
    feed: { provider: 'generic', url },
    autoDownload: false,
    autoInstallOnAppQuit: true,
    ...UPDATE_TIMING,
  };
}

export type UpdateStatus =
  | { readonly state: 'off'; readonly reason: string }
  | { readonly state: 'idle' }
  | { readonly state: 'checking'; readonly userAsked: boolean }
  | { readonly state: 'up-to-date'; readonly checkedAt: number }
  | { readonly state: 'available'; readonly version: string }
  | { readonly state: 'downloading'; readonly version: string; readonly percent: number }
  | { readonly state: 'ready'; readonly version: string }
  | {
      readonly state: 'failed';
      readonly message: string;
      readonly at: number;
      readonly during: 'check' | 'download';
    };

/** What happened, from the plan and from electron-updater's events. */
export type UpdateEvent =
  | { readonly type: 'plan'; readonly plan: UpdatePlan }
  | { readonly type: 'check-started'; readonly userAsked: boolean }
  | { readonly type: 'available'; readonly version: string }
  | { readonly type: 'not-available'; readonly at: number }
  | { readonly type: 'download-started' }
  | { readonly type: 'progress'; readonly percent: number }
  | { readonly type: 'downloaded'; readonly version: string }
  | { readonly type: 'error'; readonly message: string; readonly at: number };

export const UPDATES_OFF: UpdateStatus = {
  state: 'off',
  reason: 'No update address is set, so the till never looks for updates.',
};

/** An updater error in one short line (they can carry a whole HTTP answer or a stack). */
export function updateErrorText(message: string): string {
  const line = (message.split('\n')[0] ?? '').trim();
  const text = line === '' ? 'Unknown error' : line;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export function nextUpdateStatus(status: UpdateStatus, event: UpdateEvent): UpdateStatus {
  if (event.type === 'plan') {
    if (!event.plan.enabled) return { state: 'off', reason: event.plan.reason };
    return status.state === 'off' ? { state: 'idle' } : status;
  }
  // A late event from an updater that was just switched off changes nothing.
  if (status.state === 'off') return status;
  switch (event.type) {
    case 'check-started':
      return status.state === 'downloading' || status.state === 'ready'
        ? status
        : { state: 'checking', userAsked: event.userAsked };
    case 'available':
      if (status.state === 'downloading' || status.state === 'ready') return status;
      return { state: 'available', version: event.version };
    case 'not-available':
      return status.state === 'ready' ? status : { state: 'up-to-date', checkedAt: event.at };
    case 'download-started':
      return status.state === 'available'
        ? { state: 'downloading', version: status.version, percent: 0 }
        : status;
    case 'progress':
      return status.state === 'downloading'
        ? {
            ...status,
            percent: Math.max(0, Math.min(100, Math.floor(event.percent))),
          }
        : status;
    case 'downloaded':
      return { state: 'ready', version: event.version };
    case 'error':
      return {
        state: 'failed',
        message: updateErrorText(event.message),
        at: event.at,
        during: status.state === 'downloading' ? 'download' : 'check',
      };
  }
}

/** Whether a check may start now (none while one runs, a download runs, or one waits to install). */
export function mayCheck(status: UpdateStatus): boolean {
  return !['off', 'checking', 'downloading', 'ready'].includes(status.state);
}

/** A desktop notification for a change of update status, or null to stay quiet. */
export function updateNotice(
  previous: UpdateStatus,
  next: UpdateStatus,
): DesktopNotification | null {
  if (
    next.state === 'available' &&
    !(previous.state === 'available' && previous.version === next.version)
  ) {
    return {
      title: `Update available: Transfer Till ${next.version}`,
      body: `Choose "Download update ${next.version}" in the tray menu. Nothing is downloaded or installed until you do.`,
      urgent: false,
    };
  }
  if (next.state === 'ready' && previous.state !== 'ready') {
    return {
      title: `Update ready: Transfer Till ${next.version}`,
      body: `Choose "Restart to update to ${next.version}" in the tray menu, or it installs the next time the till is quit.`,
      urgent: false,
    };
  }
  const userAsked = previous.state === 'checking' && previous.userAsked;
  if (next.state === 'up-to-date' && userAsked) {
    return {
      title: 'Transfer Till is up to date',
      body: 'There is no newer version at the update address.',
      urgent: false,
    };
  }
  if (next.state === 'failed' && (userAsked || next.during === 'download')) {
    return {
      title:
        next.during === 'download' ? 'The update did not download' : 'Could not check for updates',
      body: next.message,
      urgent: false,
    };
  }
  return null;
}

/** The update line of the tray menu (and the app menu), or null when updates are off. */
export function updateMenuItem(status: UpdateStatus): TrayMenuItem | null {
  switch (status.state) {
    case 'off':
      return null;
    case 'checking':
      return { kind: 'label', label: 'Checking for updates…' };
    case 'available':
      return {
        kind: 'action',
        action: 'download-update',
        label: `Download update ${status.version}`,
      };
    case 'downloading':
      return {
        kind: 'label',
        label: `Downloading update ${status.version}… ${status.percent}%`,
      };
    case 'ready':
      return {
        kind: 'action',
        action: 'install-update',
        label: `Restart to update to ${status.version}`,
      };
    case 'idle':
    case 'up-to-date':
    case 'failed':
      return { kind: 'action', action: 'check-updates', label: 'Check for updates' };
  }
}
