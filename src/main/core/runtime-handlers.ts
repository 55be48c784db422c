import type { Caller, HandlersOf } from '#shared/bridge/contract';
import type { Runtime } from './runtime';
import { RUNTIME_CHANNELS, type RuntimeChannel, type runtimeChannels } from './runtime-table';

/**
 * Handlers that always reach the runtime of the environment active at call time, so that a
 * switch between sandbox, staging and production needs no re-registration in the shells.
 */
export function runtimeHandlers(current: () => Runtime): HandlersOf<typeof runtimeChannels> {
  type Forward = (input: never, caller: Caller) => unknown;
  const table: Partial<Record<RuntimeChannel, Forward>> = {};
  for (const name of RUNTIME_CHANNELS) {
    table[name] = (input, caller) => (current().handlers[name] as Forward)(input, caller);
  }
  return table as HandlersOf<typeof runtimeChannels>;
}
