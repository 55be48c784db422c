import { useEffect } from 'react';
import type { PrintersView } from '#shared/printing';
import { useBridgeCall } from '../../hooks/use-bridge-call';

export interface PrintersRead {
  /** The printers this computer offers (null until main says). */
  readonly printers: PrintersView | null;
  /** Why they could not be listed, in words, or null. */
  readonly listProblem: string | null;
}

/** The printers, read once when the printing page opens. */
export function usePrinters(): PrintersRead {
  const { run, result, error } = useBridgeCall<PrintersView>();
  useEffect(() => {
    void run((bridge) => bridge.listPrinters({}));
  }, [run]);
  return { printers: result, listProblem: error };
}
