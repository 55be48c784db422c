/**
 * The customer display's sandboxed preload: its window can call nothing (main refuses its IPC as
 * well), it only hears the display's events. Main sends the display's state when the page has
 * loaded, perhaps before the page subscribes: the latest is kept here and given to each new
 * subscriber first, as the browser shell's display stream greets a new listener.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BridgeEvent, DisplayApi, Subscribe } from '#shared/bridge/contract';
import { IPC_EVENT_CHANNEL } from '#shared/bridge/window-api';

const listeners = new Set<(event: BridgeEvent) => void>();
let latestState: BridgeEvent | null = null;

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event: IpcRendererEvent, message: BridgeEvent) => {
  if (message.type === 'display-state') latestState = message;
  for (const listener of listeners) listener(message);
});

const subscribe: Subscribe = (listener) => {
  listeners.add(listener);
  if (latestState) listener(latestState);
  return () => {
    listeners.delete(listener);
  };
};

const api: DisplayApi = Object.freeze({ subscribe });
contextBridge.exposeInMainWorld('tillDisplay', api);
