/**
 * The core's events to the till's windows (each hears what its own session's role may see, the
 * same rule as the channels), to the customer display's window (what the browser shell's display
 * stream carries) and to the desktop's notifications.
 */
import { Notification, type BrowserWindow } from 'electron';
import type { Core } from '#main/core/create-core';
import { notificationFor } from '#main/desktop/notifications';
import { displayWants } from '#main/web/customer-display';
import { IPC_EVENT_CHANNEL, type BridgeEvent } from '#shared/bridge/contract';
import { desktopSession } from './ipc';

export interface DesktopWindows {
  /** The till's windows: each is a session of its own. */
  readonly till: () => readonly (BrowserWindow | null)[];
  /** The customer display's window: no session, it calls nothing. */
  readonly display: () => BrowserWindow | null;
}

function send(window: BrowserWindow | null, event: BridgeEvent): void {
  if (window && !window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event);
}

/** Forwards every core event; returns the unsubscribe. */
export function forwardCoreEvents(core: Core, windows: DesktopWindows): () => void {
  const auth = core.auth;
  return core.events.subscribe((event) => {
    for (const window of windows.till()) {
      if (!window || window.isDestroyed()) continue;
      const viewer = auth.viewerFor(desktopSession(window.webContents));
      if (auth.eventVisibleTo(event, viewer)) send(window, event);
    }
    if (displayWants(event, core.settings.get().shop.tillId)) send(windows.display(), event);
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
