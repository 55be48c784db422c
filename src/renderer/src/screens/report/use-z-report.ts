import { useEffect, useRef, useState } from 'react';
import type { WindowApi } from '#shared/bridge/contract';
import type { ZReportView } from '#shared/views';
import { cashierMessage } from '../../errors';

export interface ZReportRead {
  readonly report: ZReportView | null;
  readonly error: string | null;
}

/**
 * The end-of-day report of a day (null: main's today), read again when `reloadKey` changes; a
 * late answer for a day no longer asked for is dropped, and a failed read keeps the last report.
 */
export function useZReport(bridge: WindowApi, day: string | null, reloadKey: number): ZReportRead {
  const [report, setReport] = useState<ZReportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const requestId = useRef(0);

  useEffect(() => {
    const id = ++requestId.current;
    void bridge.getZReport(day ? { day } : {}).then((result) => {
      if (id !== requestId.current) return;
      if (result.ok) {
        setReport(result.value);
        setError(null);
      } else {
        setError(cashierMessage(result.error));
      }
    });
  }, [bridge, day, reloadKey]);

  return { report, error };
}
