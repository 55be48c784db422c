import { useEffect, type Dispatch, type SetStateAction } from 'react';
import type { ActivityView } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import { pickCurrentSale } from './customer-display';

/**
 * The customer display's one call: when it opens, the sale this till is working on (from
 * today's activity), unless an event already brought one.
 */
export function useOpenSaleOnStart(
  tillId: string | null,
  setSale: Dispatch<SetStateAction<SaleView | null>>,
): void {
  const { run } = useBridgeCall<ActivityView>();
  useEffect(() => {
    void run((bridge) => bridge.getActivity({})).then((answer) => {
      if (!answer?.ok) return;
      const mine = answer.value.sales.filter((s) => !tillId || !s.tillId || s.tillId === tillId);
      const picked = pickCurrentSale(mine);
      setSale((current) => current ?? picked);
    });
  }, [run, tillId, setSale]);
}
