import { afterEach, describe, expect, it } from 'vitest';
import type { TransactionRecord } from '#main/provider/schemas';
import { getInflowBySession } from '#main/store/inflows-repo';
import { upsertInflow } from './inflow-status';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * What the sync does with a listing row (src/main/sync/listing-page.ts): store it with the
 * page's observation time, then hand it to the engine with what its own upsert found.
 */
async function syncSees(harness: Harness, tx: TransactionRecord): Promise<void> {
  const stored = upsertInflow(
    harness.db,
    {
      sessionId: tx.sessionId,
      externalReference: tx.externalReference,
      amountKobo: tx.amountKobo,
      status: tx.status,
      providerDate: tx.date,
      occurredAt: tx.dateMs,
    },
    'listing',
    harness.scheduler.now(),
  );
  harness.engine.recordListedTransaction(tx, {
    inserted: stored.inserted,
    previousStatus: stored.previousStatus,
  });
  await harness.engine.idle();
}

async function listed(harness: Harness, sessionId: string): Promise<TransactionRecord> {
  const page = await harness.client.listTransactions({ offset: 0, limit: 100 });
  const row = page.transactions.find((tx) => tx.sessionId === sessionId);
  if (!row) throw new Error(`${sessionId} is not listed`);
  return row;
}

describe('status changes after the fact', () => {
  it('a reversed success on a paid sale: an error alert naming the sale and amount; it stays paid', async () => {
    const harness = (h = await createHarness({ live: true }));
    const sale = await harness.engine.createSale({ amountKobo: 250_000 });
    const tx = await harness.transfer(sale.accountNumber ?? '', 2500);
    await harness.settle();
    expect(harness.engine.getSale(sale.id).state).toBe('paid');
    const row = await listed(harness, String(tx['session_id']));

    await harness.advance(60_000);
    await syncSees(harness, { ...row, status: 'failed', rawStatus: 'failed' });
    expect(harness.engine.getSale(sale.id).state).toBe('paid');
    const alert = harness.alerts.find((a) => a.kind === 'payment_reversed');
    expect(alert).toMatchObject({ level: 'error', saleId: sale.id, sessionId: row.sessionId });
    expect(alert?.message).toContain(`sale #${sale.id}`);
    expect(alert?.message).toContain('₦2,500.00');

    // ...and a later flip back to pending is kept in the record too (a warning, once each).
    await harness.advance(60_000);
    await syncSees(harness, { ...row, status: 'pending', rawStatus: 'pending' });
    expect(getInflowBySession(harness.db, row.sessionId)?.status).toBe('pending');
    expect(harness.alerts.filter((a) => a.saleId === sale.id).map((a) => a.kind)).toEqual([
      'payment_reversed',
      'inflow_status_changed',
    ]);
  });

  it('failed then success for a sale: the sale becomes paid, with an alert naming it', async () => {
    const harness = (h = await createHarness({ live: true }));
    await harness.control('/personality', { callbacks: 'never' });
    const sale = await harness.engine.createSale({ amountKobo: 80_000 });
    const tx = await harness.transfer(sale.accountNumber ?? '', 800);
    const row = await listed(harness, String(tx['session_id']));
    // First the provider listed it as failed (the till stored that), then as a success.
    await syncSees(harness, { ...row, status: 'failed', rawStatus: 'failed' });
    expect(harness.engine.getSale(sale.id).state).toBe('awaiting_payment');
    await harness.advance(1_000);
    await syncSees(harness, row);
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'paid',
      paidSessionId: row.sessionId,
    });
    const alert = harness.alerts.find((a) => a.kind === 'inflow_status_changed');
    expect(alert).toMatchObject({ level: 'warning', saleId: sale.id });
    expect(alert?.message).toMatch(new RegExp(`Sale #${sale.id}.*success \\(it was failed\\)`));
  });

  it('a standing account payment that changes: a warning naming the account', async () => {
    const harness = (h = await createHarness({ live: true }));
    const account = await harness.engine.createStandingAccount({ type: 'static-flex' });
    const tx = await harness.transfer(account.accountNumber ?? '', 99);
    await harness.settle();
    const row = await listed(harness, String(tx['session_id']));
    await harness.advance(60_000);
    // The older calling convention (no change given): the engine's own upsert finds it.
    harness.engine.recordListedTransaction({ ...row, status: 'pending', rawStatus: 'pending' });
    const alert = harness.alerts.find((a) => a.kind === 'inflow_status_changed');
    expect(alert).toMatchObject({ level: 'warning', saleId: null });
    expect(alert?.message).toContain(`Standing account ${account.accountNumber}`);
  });

  it("another till's transfer that changes: its status is kept, but no alert at this till", async () => {
    const harness = (h = await createHarness({ live: true }));
    const row: TransactionRecord = {
      sessionId: '100004231123090000123456789012',
      externalReference: 'TILLK3J9-20261123090000-RUN001-0001-X7Q2M9AB',
      amountKobo: 150_000,
      status: 'success',
      rawStatus: 'success',
      date: '2026-11-23 09:00:00',
      dateMs: harness.scheduler.now(),
    };
    await syncSees(harness, row);
    await harness.advance(60_000);
    await syncSees(harness, { ...row, status: 'failed', rawStatus: 'failed' });
    expect(getInflowBySession(harness.db, row.sessionId)?.status).toBe('failed');
    expect(harness.alerts.filter((a) => a.sessionId === row.sessionId)).toEqual([]);
  });
});
