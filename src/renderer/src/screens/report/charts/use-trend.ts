import { useEffect } from 'react';
import type { TrendView } from '#shared/views';
import { useBridgeCall } from '../../../hooks/use-bridge-call';

/**
 * The seven business days ending on `day`, read again when `reloadKey` changes; a late answer
 * for a day no longer asked for is dropped, and a failed read shows no trend.
 */
export function useTrend(
  day: string,
  reloadKey: number,
): { readonly trend: TrendView | null; readonly error: string | null } {
  const { run, result, error } = useBridgeCall<TrendView>();
  useEffect(() => {
    void run((bridge) => bridge.getTrend({ day }));
  }, [run, day, reloadKey]);
  return { trend: error === null ? result : null, error };
}
