import { useCallback, useEffect, useRef, useState } from 'react';
import type { SaleView } from '#shared/sales';
import { useBridgeEvent } from '../../bridge-context';
import type { CounterSounds } from '../../voice/announce';
import { usePaidAnnouncer } from '../../voice/paid-announcer';

export type SetSale = (sale: SaleView | null) => void;

/**
 * The sale this till is working on. It lives above the router so that it survives a visit to
 * another screen, follows 'sale-changed' events, and says the amount once when it turns paid
 * (the chime where the voice cannot; as the sounds settings say).
 */
export function useCurrentSale(sounds: CounterSounds): readonly [SaleView | null, SetSale] {
  const [sale, setSale] = useState<SaleView | null>(null);
  const latest = useRef<SaleView | null>(null);
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
      setSale(next);
    },
    [announcer],
  );

  useBridgeEvent('sale-changed', (changed) => {
    if (latest.current?.id === changed.id) update(changed);
  });

  return [sale, update];
}
