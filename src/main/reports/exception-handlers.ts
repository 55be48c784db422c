import type { Caller, HandlersOf, exceptionChannels } from '#shared/bridge/contract';
import type { ExceptionResolutionView } from '#shared/views';
import {
  parseExceptionKey,
  type ParsedExceptionKey,
  reopenException,
  resolveException,
} from './exception-resolutions';
import { closeAlertsForResolution, type ResolvedCase } from '#main/engine/alert-closing';
import type { AlertRow } from '#main/store/alerts-repo';
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
  /** Alerts the record closed (engine/alert-closing.ts): every page showing them hears it. */
  readonly alertsClosed?: (rows: readonly AlertRow[]) => void;
}

/** The sale or transfer a report case's key names. */
function resolvedCase(parsed: ParsedExceptionKey): ResolvedCase {
  return {
    kind: parsed.kind,
    saleId: parsed.type === 'sale' ? parsed.saleId : null,
    sessionId: parsed.type === 'session' ? parsed.sessionId : null,
  };
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
  /** Records the resolution and closes the alerts it resolves, in one transaction. */
  function resolveClosingAlerts(
    input: Parameters<typeof resolveException>[1],
    by: string,
  ): ExceptionResolutionView {
    const db = deps.db();
    const now = deps.now();
    const [view, closed] = db.transaction(() => {
      const recorded = resolveException(db, input, by, now);
      const parsed = parseExceptionKey(recorded.key);
      return [
        recorded,
        parsed ? closeAlertsForResolution(db, resolvedCase(parsed), input.action, by, now) : [],
      ] as const;
    })();
    if (closed.length > 0) deps.alertsClosed?.(closed);
    return view;
  }

  return {
    resolveException: (input, caller) => told(resolveClosingAlerts(input, recordedByName(caller))),
    reopenException: ({ key }, caller) =>
      told(reopenException(deps.db(), key, recordedByName(caller), deps.now())),
  };
}
