import { useState } from 'react';
import type { SaleView } from '#shared/sales';
import { AmountEntry } from './amount-entry';
import type { SetSale } from './current-sale';
import type { SaleLeave } from './leave-sale';
import { OtherSalePaidBanner } from './other-sale-paid';
import { SaleDetails } from './sale-details';

/**
 * The home screen: the amount field until a sale exists, then that sale. Digits typed on a
 * finished sale begin the next amount (the cashier need not reach for "New sale" first).
 */
export function SaleScreen({
  sale,
  onSale,
  leave,
}: {
  readonly sale: SaleView | null;
  readonly onSale: SetSale;
  /** The till's one way off an open sale to another one or the amount field. */
  readonly leave: SaleLeave;
}) {
  const [typed, setTyped] = useState('');
  return sale ? (
    <>
      {/* Money for another sale of this till, said on the open sale the cashier looks at. */}
      <OtherSalePaidBanner
        key={`other-paid:${sale.id}`}
        sale={sale}
        onSale={onSale}
        onOpen={leave.request}
      />
      <SaleDetails
        key={sale.id}
        sale={sale}
        onSale={onSale}
        leave={leave}
        onNext={(first) => {
          setTyped(first);
          onSale(null);
        }}
      />
    </>
  ) : (
    <AmountEntry onCreated={onSale} initialAmount={typed} />
  );
}
