import type { Caller, HandlersOf, exceptionChannels } from '#shared/bridge/contract';
import type { ExceptionResolutionView } from '#shared/views';
import {
  parseExceptionKey,
  reopenException,
  resolveException,
} from '#main/reports/exception-resolutions';
import type { Db } from '#main/store/database';

export interface ExceptionHandlerDeps {
  /** The database of the environment active at call time (exceptions belong to it). */
  readonly db: () => Db;
  readonly now: () => number;
  /**
   * A paid-late sale's case was resolved or reopened: its sale screen (and Activity, and the
   * customer display) show what was done, from the same record.
   */
  readonly lateResolutionRecorded?: (saleId: number) => void;
}

/** The name a resolution is recorded under: the signed-in name, else the role that made it. */
export function recordedByName(caller: Pick<Caller, 'name'> | undefined): string {
  const name = caller?.name?.trim() ?? '';
  return name === '' ? 'owner' : name.slice(0, 60);
}

/** The owner's record of what was done about the report's exceptions (and a sale paid late). */
export function exceptionHandlers(
  deps: ExceptionHandlerDeps,
): HandlersOf<typeof exceptionChannels> {
  function told(view: ExceptionResolutionView): ExceptionResolutionView {
    const parsed = parseExceptionKey(view.key);
    if (parsed?.kind === 'paid_late' && parsed.type === 'sale') {
      deps.lateResolutionRecorded?.(parsed.saleId);
    }
    return view;
  }
  return {
    resolveException: (input, caller) =>
      told(resolveException(deps.db(), input, recordedByName(caller), deps.now())),
    reopenException: ({ key }, caller) =>
      told(reopenException(deps.db(), key, recordedByName(caller), deps.now())),
  };
}
