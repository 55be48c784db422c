/**
 * The core's events to the till's windows (each hears what its own session's role may see, the
 * same rule as the channels) and to the desktop's notifications.
 */
import { Notification, type BrowserWindow } from 'electron';
import type { Core } from '#main/core/create-core';
import { notificationFor } from '#main/desktop/notifications';
import { IPC_EVENT_CHANNEL } from '#shared/bridge/contract';
import { desktopSession } from './ipc';

/** Forwards every core event; returns the unsubscribe. */
export function forwardCoreEvents(
  core: Core,
  windows: () => readonly (BrowserWindow | null)[],
): () => void {
  const auth = core.auth;
  return core.events.subscribe((event) => {
    for (const window of windows()) {
      if (!window || window.isDestroyed()) continue;
      const viewer = auth.viewerFor(desktopSession(window.webContents));
      if (auth.eventVisibleTo(event, viewer)) window.webContents.send(IPC_EVENT_CHANNEL, event);
    }
    const note = notificationFor(event);
    if (note && Notification.isSupported()) {
      new Notification({
        title: note.title,
        body: note.body,
        urgency: note.urgent ? 'critical' : 'normal',
        timeoutType: note.urgent ? 'never' : 'default',
      }).show();
    }
  });
}
