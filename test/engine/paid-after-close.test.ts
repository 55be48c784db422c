/**
 * A sale paid after it closed says which close it was (the till knows: the cashier cancelled,
 * or it expired) and what was done about it, from the report's own record of the case: the
 * real engine, the sandbox over HTTP, a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { paidLateKey } from '#shared/views';
import { exceptionHandlers } from '#main/reports/exception-handlers';
import { exceptionKey } from '#main/reports/exception-resolutions';
import { currentEntry } from '#main/store/exception-resolutions-repo';
import { advanceEngine } from '#support/engine-advance';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECOND = 1_000;
const MINUTE = 60_000;
const OWNER = { role: 'owner', name: null, sessionId: 's', via: 'browser' } as const;

describe('a sale paid after it closed', () => {
  it("is the report's case of the same key", () => {
    const finding = {
      kind: 'paid_late',
      saleId: 12,
      sessionId: '100004261122090000123456789012',
      amountKobo: 200_000,
      at: 1,
      message: '',
      action: '',
    } as const;
    expect(exceptionKey(finding)).toBe(paidLateKey(12));
  });

  it('after a cancel: paid_late, paid after "cancelled", nothing recorded yet', async () => {
    const harness = (h = await createHarness({ live: true }));
    const sale = await harness.engine.createSale({ amountKobo: 200_000 });
    expect(sale).toMatchObject({ paidAfter: null, lateResolution: null });
    harness.engine.cancelSale(sale.id);
    await harness.transfer(sale.accountNumber ?? '', 2000);
    await harness.settle();
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'paid_late',
      paidAfter: 'cancelled',
      lateResolution: null,
    });
  });

  it('after expiry: paid after "expired"', async () => {
    const harness = (h = await createHarness({ live: true, settings: { expiryMinutes: 2 } }));
    await harness.control('/personality', { expired_payments: 'accept', callbacks: 'never' });
    const sale = await harness.engine.createSale({ amountKobo: 12_000 });
    await advanceEngine(harness, 2 * MINUTE + 15 * SECOND);
    await harness.transfer(sale.accountNumber ?? '', 120);
    await advanceEngine(harness, MINUTE);
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'paid_late',
      paidAfter: 'expired',
    });
  });

  it("the report's resolution of the case is the sale's: recorded once, every page told", async () => {
    const harness = (h = await createHarness({ live: true }));
    const sale = await harness.engine.createSale({ amountKobo: 200_000 });
    harness.engine.cancelSale(sale.id);
    await harness.transfer(sale.accountNumber ?? '', 2000);
    await harness.settle();
    const handlers = exceptionHandlers({
      db: () => harness.db,
      now: () => harness.scheduler.now(),
      lateResolutionRecorded: (saleId) => harness.engine.lateResolutionRecorded(saleId),
    });
    const told = harness.saleEvents.length;
    await handlers.resolveException(
      { key: paidLateKey(sale.id), action: 'refunded', bankReference: 'RF-1' },
      OWNER,
    );
    const expected = {
      action: 'refunded',
      bankReference: 'RF-1',
      note: null,
      resolvedBy: 'owner',
    };
    expect(currentEntry(harness.db, paidLateKey(sale.id))).toMatchObject({ action: 'refunded' });
    expect(harness.engine.getSale(sale.id).lateResolution).toMatchObject(expected);
    const sent = harness.saleEvents.slice(told);
    expect(sent.map((view) => view.id)).toEqual([sale.id]);
    expect(sent[0]?.lateResolution).toMatchObject(expected);
    // Reopened on the report: the sale asks again.
    await handlers.reopenException({ key: paidLateKey(sale.id) }, OWNER);
    expect(harness.engine.getSale(sale.id).lateResolution).toBeNull();
    expect(harness.saleEvents.at(-1)).toMatchObject({ id: sale.id, lateResolution: null });
  });
});
