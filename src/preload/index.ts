/**
 * The sandboxed preload: exposes only the named functions of the bridge contract. No raw
 * ipcRenderer, no process.env, no other channel can be reached from the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BridgeEvent, BridgeResult } from '#shared/bridge/contract';
import { IPC_EVENT_CHANNEL, ipcChannelOf, windowApiOf } from '#shared/bridge/window-api';
// Built as the list itself (vite.schema-data.ts): the preload carries no zod.
import { channelNames } from '#shared/schema-data';

const api = windowApiOf(
  channelNames,
  (name, input) => ipcRenderer.invoke(ipcChannelOf(name), input) as Promise<BridgeResult<unknown>>,
  (listener) => {
    const handler = (_event: IpcRendererEvent, message: BridgeEvent) => listener(message);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
);

contextBridge.exposeInMainWorld('till', api);
