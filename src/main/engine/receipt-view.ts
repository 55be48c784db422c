import type { SaleView } from '#shared/sales';
import type { ReceiptView } from '#shared/views';

/** What a receipt shows of a sale: the sale as the engine holds it, with the shop's name and zone. */
export function receiptView(
  sale: SaleView,
  shop: { readonly name: string; readonly timeZone: string },
): ReceiptView {
  return {
    shopName: shop.name,
    saleId: sale.id,
    state: sale.state,
    amountKobo: sale.amountKobo,
    accountNumber: sale.accountNumber,
    accountName: sale.accountName,
    bank: sale.bank,
    reference: sale.reference,
    sessionId: sale.paidSessionId,
    createdAt: sale.createdAt,
    paidAt: sale.paidAt,
    cashier: sale.cashier,
    tillId: sale.tillId,
    timeZone: shop.timeZone,
  };
}
