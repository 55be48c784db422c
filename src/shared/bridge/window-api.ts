/**
 * The window API built from a list of channel names, and the Electron shell's IPC names. No
 * runtime import of the table (its zod schemas): the sandboxed preload and the renderer build the
 * API from this module and the names alone (src/shared/schema-data.ts). contract.ts re-exports it.
 */
import type { BridgeEvent, BridgeResult, ChannelName, WindowApi } from './contract';

export type Invoke = (channel: ChannelName, input: unknown) => Promise<BridgeResult<unknown>>;
export type Subscribe = (listener: (event: BridgeEvent) => void) => () => void;

/** IPC channel names used by the Electron shell. */
export const IPC_EVENT_CHANNEL = 'till:event';
export function ipcChannelOf(name: ChannelName): string {
  return `till:${name}`;
}

/** One function per named channel and the event subscription: no way to reach other channels. */
export function windowApiOf(
  names: readonly ChannelName[],
  invoke: Invoke,
  subscribe: Subscribe,
): WindowApi {
  const api: Record<string, unknown> = { subscribe };
  for (const name of names) {
    api[name] = (input: unknown) => invoke(name, input);
  }
  return Object.freeze(api) as WindowApi;
}

/**
 * What the customer display's window gets from its preload: the display's events and no call at
 * all (as the browser shell's display token).
 */
export interface DisplayApi {
  readonly subscribe: Subscribe;
}
