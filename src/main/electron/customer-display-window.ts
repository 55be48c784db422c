/**
 * The desktop's customer display: one window at most, with the display preload (no call), refused
 * on IPC by main (ipc.ts asks `isDisplay`), and sent what to show, as the browser shell's display
 * stream is (customer-display.ts in the web shell).
 */
import type { BrowserWindow, WebContents } from 'electron';
import type { Core } from '#main/core/create-core';
import { displayState, watchDisplayState } from '#main/web/customer-display';
import { IPC_EVENT_CHANNEL } from '#shared/bridge/contract';
import type { DisplayStateView } from '#shared/hub';
import type { RendererSource } from './renderer-source';
import { createDisplayWindow } from './window';

export interface CustomerDisplayWindow {
  /** Opens the display, or brings the open one forward. */
  open(core: Core): void;
  /** The open display's window, if any. */
  readonly window: () => BrowserWindow | null;
  /** Whether these web contents are, or were, a customer display's. */
  readonly isDisplay: (contents: Pick<WebContents, 'id'>) => boolean;
}

export function customerDisplayWindow(source: RendererSource): CustomerDisplayWindow {
  let current: BrowserWindow | null = null;
  // Web contents ids are never reused in a run: a closed display's stays refused.
  const contentsIds = new Set<number>();
  return {
    open(core) {
      if (current && !current.isDestroyed()) {
        current.focus();
        return;
      }
      const opened = createDisplayWindow(source);
      contentsIds.add(opened.webContents.id);
      feedCustomerDisplay(core, opened);
      opened.on('closed', () => {
        current = null;
      });
      current = opened;
    },
    window: () => current,
    isDisplay: (contents) => contentsIds.has(contents.id),
  };
}

/**
 * What the display shows, sent to its window on every load and again when the shop's name or
 * this till's id changes (its preload keeps the latest for the page: the page cannot ask).
 */
function feedCustomerDisplay(core: Core, window: BrowserWindow): void {
  const send = (payload: DisplayStateView) => {
    if (!window.isDestroyed()) {
      window.webContents.send(IPC_EVENT_CHANNEL, { type: 'display-state', payload });
    }
  };
  window.webContents.on('did-finish-load', () => void displayState(core).then(send));
  const unwatch = watchDisplayState(core, send);
  window.once('closed', unwatch);
}
