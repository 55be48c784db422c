import { useCallback, useEffect, useRef, useState } from 'react';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import { useBridgeEvent } from '../../bridge-context';
import type { CounterSounds } from '../../voice/announce';
import { usePaidAnnouncer } from '../../voice/paid-announcer';

export type SetSale = (sale: SaleView | null) => void;

/** Money on a sale that asks the cashier for a decision: paid after it closed, or paid twice. */
function asksTheCashier(sale: SaleView): boolean {
  return (
    (sale.state === 'paid_late' && sale.lateResolution === null) || sale.refundsOwed.length > 0
  );
}

/**
 * The sale this till is working on. It lives above the router so that it survives a visit to
 * another screen, follows 'sale-changed' events, and says the amount once when it turns paid
 * (the chime where the voice cannot; as the sounds settings say). A sale this page showed
 * before comes back when money on it asks the cashier for a decision and no open sale is on
 * screen: the till never shows an empty keypad while the display sends the customer over.
 */
export function useCurrentSale(sounds: CounterSounds): readonly [SaleView | null, SetSale] {
  const [sale, setSale] = useState<SaleView | null>(null);
  const latest = useRef<SaleView | null>(null);
  const shownIds = useRef(new Set<number>());
  const soundsRef = useRef(sounds);
  const announcer = usePaidAnnouncer();
  useEffect(() => {
    soundsRef.current = sounds;
  }, [sounds]);

  const update = useCallback<SetSale>(
    (next) => {
      const previous = latest.current;
      const sameSale = next !== null && previous !== null && previous.id === next.id;
      // Events and call results can cross; never go back to an older version of the same sale.
      if (sameSale && next.updatedAt < previous.updatedAt) return;
      if (next !== null) void announcer.saleChanged(previous, next, soundsRef.current);
      latest.current = next;
      if (next) shownIds.current.add(next.id);
      setSale(next);
    },
    [announcer],
  );

  useBridgeEvent('sale-changed', (changed) => {
    const current = latest.current;
    if (current?.id === changed.id) update(changed);
    else if (
      shownIds.current.has(changed.id) &&
      asksTheCashier(changed) &&
      (current === null || !isOpenSaleState(current.state))
    ) {
      update(changed);
    }
  });

  return [sale, update];
}
