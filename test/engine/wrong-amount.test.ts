import { afterEach, describe, expect, it } from 'vitest';
import { advanceEngine } from '#support/engine-advance';
import { listInflowsForReference } from '#main/store/inflows-repo';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECOND = 1_000;
const REASON =
  'Wrong amount ₦900.00: not accepted. The customer must send exactly ₦1,000.00. If money left their account, they should ask their bank with the transfer receipt.';

/** A ₦1,000 sale, a ₦900 transfer, callbacks never: how the provider answers is the variable. */
async function wrongTransfer(failedStatus: '200' | '404' | '409') {
  const harness = (h = await createHarness({ live: true, settings: { expiryMinutes: 2 } }));
  await harness.control('/personality', { callbacks: 'never', failed_status: failedStatus });
  const sale = await harness.engine.createSale({ amountKobo: 100_000 });
  await advanceEngine(harness, SECOND);
  await harness.transfer(sale.accountNumber ?? '', 900);
  return { harness, sale };
}

describe('wrong amount, whatever the status endpoint answers for a failed transfer', () => {
  for (const failedStatus of ['200', '404', '409'] as const) {
    it(`failed_status ${failedStatus}: shown on the safety-net cadence without a press`, async () => {
      const { harness, sale } = await wrongTransfer(failedStatus);
      await advanceEngine(harness, 15 * SECOND);
      expect(harness.engine.getSale(sale.id)).toMatchObject({
        state: 'wrong_amount',
        reason: REASON,
        paidSessionId: null,
      });
      // It stays shown (a later 404 or 409 does not hide it), and the exact amount still pays.
      await advanceEngine(harness, 30 * SECOND);
      expect(harness.engine.getSale(sale.id).state).toBe('wrong_amount');
      await harness.transfer(sale.accountNumber ?? '', 1000);
      await harness.engine.customerSaysPaid(sale.id);
      // A press within 2 s of a check reuses its answer; the backoff's first step follows.
      await advanceEngine(harness, 2 * SECOND);
      expect(harness.engine.getSale(sale.id).state).toBe('paid');
      expect(
        listInflowsForReference(harness.db, sale.reference).map((r) => [r.status, r.amountKobo]),
      ).toEqual([
        ['failed', 90_000],
        ['success', 100_000],
      ]);
    });

    it(`failed_status ${failedStatus}: shown at once when the cashier presses`, async () => {
      const { harness, sale } = await wrongTransfer(failedStatus);
      const shown = await harness.engine.customerSaysPaid(sale.id);
      expect(shown).toMatchObject({ state: 'wrong_amount', reason: REASON });
    });

    it(`failed_status ${failedStatus}: only a wrong amount by the deadline expires the sale`, async () => {
      const { harness, sale } = await wrongTransfer(failedStatus);
      await advanceEngine(harness, 2 * 60 * SECOND + 5 * SECOND);
      expect(harness.engine.getSale(sale.id)).toMatchObject({
        state: 'expired',
        reason: 'Expired: only a wrong amount arrived, and it was rejected.',
      });
    });
  }
});
