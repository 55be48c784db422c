import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import type { ActivityView } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { useBridgeEvent } from '../../bridge-context';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import { nextShownSale, pickCurrentSale, shownFor } from './shown-sale';

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

/**
 * The sale the customer sees, following 'sale-changed' of this till (nextShownSale), back to
 * "Welcome" when its time on screen (shownFor) runs out. `tillId` null: every sale is this
 * till's (one till).
 */
export function useShownSale(
  tillId: string | null,
): readonly [SaleView | null, Dispatch<SetStateAction<SaleView | null>>] {
  const [sale, setSale] = useState<SaleView | null>(null);

  useBridgeEvent('sale-changed', (changed) => {
    if (tillId && changed.tillId && changed.tillId !== tillId) return;
    setSale((current) => nextShownSale(current, changed));
  });

  useEffect(() => {
    const ms = sale ? shownFor(sale) : null;
    if (ms === null) return;
    const timer = setTimeout(() => setSale(null), ms);
    return () => clearTimeout(timer);
  }, [sale]);

  return [sale, setSale];
}
