import type { Caller, HandlersOf, exceptionChannels } from '#shared/bridge/contract';
import { reopenException, resolveException } from '#main/reports/exception-resolutions';
import type { Db } from '#main/store/database';

export interface ExceptionHandlerDeps {
  /** The database of the environment active at call time (exceptions belong to it). */
  readonly db: () => Db;
  readonly now: () => number;
}

/** The name a resolution is recorded under: the signed-in name, else the role that made it. */
export function recordedByName(caller: Pick<Caller, 'name'> | undefined): string {
  const name = caller?.name?.trim() ?? '';
  return name === '' ? 'owner' : name.slice(0, 60);
}

/** The owner's record of what was done about the report's exceptions. */
export function exceptionHandlers(
  deps: ExceptionHandlerDeps,
): HandlersOf<typeof exceptionChannels> {
  return {
    resolveException: (input, caller) =>
      resolveException(deps.db(), input, recordedByName(caller), deps.now()),
    reopenException: ({ key }, caller) =>
      reopenException(deps.db(), key, recordedByName(caller), deps.now()),
  };
}
