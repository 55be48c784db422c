import type { SaleView } from '#shared/sales';
import { AmountEntry } from './amount-entry';
import type { SetSale } from './current-sale';
import { SaleDetails } from './sale-details';

/** The home screen: the amount field until a sale exists, then that sale. */
export function SaleScreen({
  sale,
  onSale,
}: {
  readonly sale: SaleView | null;
  readonly onSale: SetSale;
}) {
  return sale ? (
    <SaleDetails key={sale.id} sale={sale} onSale={onSale} />
  ) : (
    <AmountEntry onCreated={onSale} />
  );
}
