import { useEffect } from 'react';
import type { ZReportView } from '#shared/views';
import { useBridgeCall } from '../../hooks/use-bridge-call';

export interface ZReportRead {
  readonly report: ZReportView | null;
  readonly error: string | null;
}

/**
 * The end-of-day report of a day (null: main's today), read again when `reloadKey` changes; a
 * late answer for a day no longer asked for is dropped, and a failed read keeps the last report.
 */
export function useZReport(day: string | null, reloadKey: number): ZReportRead {
  const { run, result, error } = useBridgeCall<ZReportView>();
  useEffect(() => {
    void run((bridge) => bridge.getZReport(day ? { day } : {}));
  }, [run, day, reloadKey]);
  return { report: result, error };
}
