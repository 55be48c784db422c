import { useState } from 'react';
import type {
  ExceptionResolution,
  ExceptionResolutionView,
  ReportException,
  ResolutionAction,
} from '#shared/views';
import { useBridgeCall } from '../../hooks/use-bridge-call';

/** What the owner writes down about an exception before saving it. */
export interface ResolutionDraft {
  readonly action: ResolutionAction;
  readonly bankReference: string;
  readonly note: string;
}

/** An exception's resolution as main keeps it: record (or change) what was done, or reopen. */
export function useExceptionResolution(exception: ReportException) {
  const call = useBridgeCall<ExceptionResolutionView>();
  // What this panel last recorded, for as long as the report shown is the one it was made on
  // (a reloaded report brings the stored state with it).
  const [recorded, setRecorded] = useState<{
    readonly on: ReportException;
    readonly resolution: ExceptionResolution | null;
  } | null>(null);
  const resolution = recorded?.on === exception ? recorded.resolution : exception.resolution;

  /** Whether main recorded it. */
  async function resolve(draft: ResolutionDraft): Promise<boolean> {
    const answer = await call.run((bridge) =>
      bridge.resolveException({
        key: exception.key,
        action: draft.action,
        bankReference: draft.action === 'refunded' ? draft.bankReference : null,
        note: draft.note,
      }),
    );
    if (!answer?.ok) return false;
    setRecorded({ on: exception, resolution: answer.value.resolution });
    return true;
  }

  async function reopen(): Promise<void> {
    const answer = await call.run((bridge) => bridge.reopenException({ key: exception.key }));
    if (answer?.ok) setRecorded({ on: exception, resolution: answer.value.resolution });
  }

  return {
    resolution,
    busy: call.busy,
    error: call.error,
    errorField: call.errorField,
    clearError: () => call.showError(null),
    resolve,
    reopen,
  };
}
