import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '#support/sales-harness';
import { receiptView } from './receipt-view';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the receipt view (real sandbox, real SQLite)', () => {
  it('is the paid sale as the engine holds it, with the shop name and time zone', async () => {
    const harness = (h = await createHarness({ live: true }));
    const sale = await harness.engine.createSale({ amountKobo: 150_000, cashier: 'Ada' });
    await harness.transfer(sale.accountNumber ?? '', 1500);
    await harness.settle();
    const paid = harness.engine.getSale(sale.id);
    expect(paid.state).toBe('paid');

    const receipt = receiptView(paid, { name: 'Mama Put', timeZone: 'Africa/Lagos' });
    expect(receipt).toEqual({
      shopName: 'Mama Put',
      saleId: sale.id,
      state: 'paid',
      amountKobo: 150_000,
      accountNumber: sale.accountNumber,
      accountName: sale.accountName,
      bank: 'Sandbox Bank',
      reference: sale.reference,
      // The receipt names the transfer that paid the sale.
      sessionId: paid.paidSessionId,
      createdAt: sale.createdAt,
      paidAt: paid.paidAt,
      cashier: 'Ada',
      tillId: sale.tillId,
      timeZone: 'Africa/Lagos',
    });
    expect(receipt.sessionId).toMatch(/^\d{30}$/);
  });
});
