import { useEffect, useEffectEvent, useRef } from 'react';
import type { WindowApi } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';

const SALE_KEY = 'till.sale';

/** The id of the sale this tab showed, as kept in its storage; null if none or unreadable. */
export function keptSaleId(storage: Storage): number | null {
  const text = storage.getItem(SALE_KEY);
  const id = text === null ? NaN : Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The sale on screen survives a reload: the tab keeps only its id, and once main has said who
 * this page is, asks main for the sale as it is now (paid meanwhile, expired...). The sale's
 * state lives in main; the tab never shows a copy of its own.
 */
export function useKeptSale(
  bridge: WindowApi,
  sale: SaleView | null,
  setSale: (sale: SaleView | null) => void,
  sessionKnown: boolean,
  storage: Storage = window.sessionStorage,
): void {
  // Read before anything writes: the first render has no sale yet.
  const pending = useRef<number | null | undefined>(undefined);
  if (pending.current === undefined) pending.current = keptSaleId(storage);
  // Read when the answer comes, not when the request went out.
  const saleShownNow = useEffectEvent(() => sale);

  useEffect(() => {
    const saleId = pending.current;
    if (!sessionKnown || saleId === null || saleId === undefined) return;
    let live = true;
    void bridge.getSale({ saleId }).then((result) => {
      if (!live) return;
      pending.current = null;
      // A sale started meanwhile wins over the one read back.
      const shown = saleShownNow();
      if (shown) storage.setItem(SALE_KEY, String(shown.id));
      else if (result.ok) setSale(result.value);
      else storage.removeItem(SALE_KEY);
    });
    return () => {
      live = false;
    };
  }, [bridge, sessionKnown, setSale, storage]);

  useEffect(() => {
    // Until the kept sale is read back, an empty screen must not forget it.
    if (pending.current !== null) return;
    if (sale) storage.setItem(SALE_KEY, String(sale.id));
    else storage.removeItem(SALE_KEY);
  }, [sale, storage]);
}
