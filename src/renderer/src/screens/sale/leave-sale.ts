import { useCallback, useMemo, useState } from 'react';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import type { SetSale } from './current-sale';

/** Where the till would go from its open sale: another sale, or the amount field (null). */
export interface LeaveAsked {
  /** The open sale the question is asked on. */
  readonly from: number;
  readonly to: SaleView | null;
}

/**
 * The one way the till leaves the sale on screen for another ("New sale", an alert's sale
 * link, the other-sale banner's "Open sale #N"): from an open sale it asks first (the customer
 * could still pay into a number the till no longer shows); the answer cancels the open sale,
 * so the customer display follows the till. From a closed sale, or to the same sale, it goes
 * at once.
 */
export interface SaleLeave {
  /** The question to show on `sale`, or null. */
  readonly asked: LeaveAsked | null;
  readonly request: (to: SaleView | null) => void;
  /** "Keep waiting": the question goes, the sale stays. */
  readonly keep: () => void;
}

export function useSaleLeave(sale: SaleView | null, setSale: SetSale): SaleLeave {
  const [pending, setPending] = useState<LeaveAsked | null>(null);
  const request = useCallback(
    (to: SaleView | null) => {
      const leaving = sale !== null && isOpenSaleState(sale.state) && to?.id !== sale.id;
      if (leaving) setPending({ from: sale.id, to });
      else {
        setPending(null);
        setSale(to);
      }
    },
    [sale, setSale],
  );
  const keep = useCallback(() => setPending(null), []);
  // Asked only of the open sale it was asked on: a sale paid or replaced meanwhile drops it.
  const asked =
    pending !== null && sale?.id === pending.from && isOpenSaleState(sale.state) ? pending : null;
  return useMemo(() => ({ asked, request, keep }), [asked, request, keep]);
}
