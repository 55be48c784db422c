import type { Handlers } from '../../shared/bridge/contract';
import { RUNTIME_CHANNELS, type Runtime, type RuntimeChannel } from './runtime';

/**
 * Handlers that always reach the runtime of the environment active at call time, so that a
 * switch between sandbox, staging and production needs no re-registration in the shells.
 */
export function runtimeHandlers(current: () => Runtime): Pick<Handlers, RuntimeChannel> {
  const table: Partial<Record<RuntimeChannel, (input: never) => unknown>> = {};
  for (const name of RUNTIME_CHANNELS) {
    table[name] = (input: never) => (current().handlers[name] as (input: never) => unknown)(input);
  }
  return table as Pick<Handlers, RuntimeChannel>;
}
