import { useCallback, useEffect, useRef, useState } from 'react';
import type { SaleView } from '../../../../shared/sales';
import type { Settings } from '../../../../shared/settings-schema';
import { useBridgeEvent } from '../../bridge-context';
import { playChime } from '../../components/chime';

export type SetSale = (sale: SaleView | null) => void;

/**
 * The sale this till is working on. It lives above the router so that it survives a visit to
 * another screen, follows 'sale-changed' events, and chimes once when it turns paid (as the
 * sounds settings say: on or off, and how loud).
 */
export function useCurrentSale(sounds: Settings['sounds']): readonly [SaleView | null, SetSale] {
  const [sale, setSale] = useState<SaleView | null>(null);
  const latest = useRef<SaleView | null>(null);
  const soundsRef = useRef(sounds);
  useEffect(() => {
    soundsRef.current = sounds;
  }, [sounds]);

  const update = useCallback<SetSale>((next) => {
    const previous = latest.current;
    const sameSale = next !== null && previous !== null && previous.id === next.id;
    // Events and call results can cross; never go back to an older version of the same sale.
    if (sameSale && next.updatedAt < previous.updatedAt) return;
    if (sameSale && previous.state !== 'paid' && next.state === 'paid') {
      if (soundsRef.current.enabled) playChime(window, soundsRef.current.volume);
    }
    latest.current = next;
    setSale(next);
  }, []);

  useBridgeEvent('sale-changed', (changed) => {
    if (latest.current?.id === changed.id) update(changed);
  });

  return [sale, update];
}
