/**
 * Money into the outage account, matched to the outage sales when the link is back (real
 * sandbox over HTTP, real SQLite file, fake clock shared with the sandbox): one exact match in
 * the window is paid, by callback or by the listing, once; anything else needs a person, who
 * assigns it in one press.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NEEDS_PERSON } from '#shared/sales';
import { getInflowBySession } from '#main/store/inflows-repo';
import { getSale, listSaleEvents } from '#main/store/sales-repo';
import { alertCandidates, OUTAGE_WINDOW } from '#main/engine/outage-matching';
import { makeOutageAccount, nairaOf, takeOutageSale } from '#support/outage-account';
import { createHarness, harnessSync, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function needsPerson(harness: Harness) {
  return harness.alerts.filter((alert) => alert.kind === NEEDS_PERSON);
}

function paidEvents(harness: Harness, saleId: number) {
  return listSaleEvents(harness.db, saleId).filter((event) => event.toState === 'paid');
}

async function sync(harness: Harness) {
  expect((await harnessSync(harness).run({ mode: 'full', trigger: 'user' })).status).toBe(
    'complete',
  );
  await harness.settle();
}

describe('an outage sale confirmed when the link is back', () => {
  it('is paid by its one exact match from the callback, and the listing of it later changes nothing', async () => {
    const harness = (h = await createHarness({ live: true }));
    const account = await makeOutageAccount(harness);
    const sale = takeOutageSale(harness, account, 150_000);
    const other = takeOutageSale(harness, account, 150_000);
    expect([sale.amountDueKobo, other.amountDueKobo]).toEqual([150_001, 150_002]);

    await harness.advance(7 * 60_000); // the link comes back 7 minutes later
    const sent = await harness.transfer(account.accountNumber ?? '', nairaOf(150_001));
    await harness.settle();

    const sessionId = String(sent['session_id']);
    expect(getSale(harness.db, sale.id)).toMatchObject({ state: 'paid', paidSessionId: sessionId });
    expect(getSale(harness.db, other.id)?.state).toBe('unconfirmed');
    const [event] = paidEvents(harness, sale.id);
    expect(event?.cause).toBe('confirmed_after_outage');
    expect(JSON.parse(event?.detail ?? '{}')).toMatchObject({ sessionId, delayMs: 7 * 60_000 });
    // Published as any paid sale (the till chimes and speaks on this change).
    expect(harness.saleEvents.filter((v) => v.id === sale.id).map((v) => v.state)).toEqual([
      'paid',
    ]);
    expect(getInflowBySession(harness.db, sessionId)?.saleId).toBe(sale.id);

    // The same callback again and the listing of the same transfer: matched once.
    await harness.engine.handleCallback(null, { reference: account.reference, sessionId });
    await sync(harness);
    expect(paidEvents(harness, sale.id)).toHaveLength(1);
    expect(needsPerson(harness)).toEqual([]);
    expect(getSale(harness.db, other.id)?.state).toBe('unconfirmed');
  });

  it('is paid from the listing sync when no callback comes', async () => {
    const harness = (h = await createHarness({ live: true }));
    const account = await makeOutageAccount(harness, null);
    const sale = takeOutageSale(harness, account, 250_000);
    await harness.advance(60_000);
    const sent = await harness.transfer(account.accountNumber ?? '', nairaOf(250_001));
    await harness.settle();
    expect(getSale(harness.db, sale.id)?.state).toBe('unconfirmed');

    await sync(harness);
    expect(getSale(harness.db, sale.id)).toMatchObject({
      state: 'paid',
      paidSessionId: String(sent['session_id']),
    });
    expect(paidEvents(harness, sale.id).map((e) => e.cause)).toEqual(['confirmed_after_outage']);
    await sync(harness);
    expect(paidEvents(harness, sale.id)).toHaveLength(1);
  });
});

describe('a payment the till will not assign', () => {
  it('a round amount no sale asked for needs a person, naming the sales it could be for; the owner assigns it once', async () => {
    const harness = (h = await createHarness({ live: true }));
    const account = await makeOutageAccount(harness);
    const first = takeOutageSale(harness, account, 150_000, 'Ada');
    const second = takeOutageSale(harness, account, 150_000, 'Bisi');
    const far = takeOutageSale(harness, account, 900_000);
    await harness.advance(60_000);
    const sent = await harness.transfer(account.accountNumber ?? '', 1_500); // ₦1,500.00
    await harness.settle();
    const sessionId = String(sent['session_id']);

    for (const sale of [first, second, far]) {
      expect(getSale(harness.db, sale.id)?.state).toBe('unconfirmed');
    }
    const [alert] = needsPerson(harness);
    expect(needsPerson(harness)).toHaveLength(1);
    expect(alert).toMatchObject({ saleId: null, sessionId });
    expect(alert?.message).toContain('₦1,500.00');
    expect(alert?.message).toContain(`#${first.id} (asked ₦1,500.01)`);
    expect(alert?.message).toContain(`#${second.id} (asked ₦1,500.02)`);
    expect(alert?.message).not.toContain(`#${far.id}`);
    expect(alert && alertCandidates(harness.db, alert)?.map((c) => c.saleId)).toEqual([
      first.id,
      second.id,
    ]);

    // Seen again by the listing: still one alert, still nobody paid.
    await sync(harness);
    expect(needsPerson(harness)).toHaveLength(1);
    expect(getSale(harness.db, first.id)?.state).toBe('unconfirmed');

    const view = harness.engine.assignOutagePayment({ sessionId, saleId: second.id }, 'Mama');
    expect(view).toMatchObject({ state: 'paid', paidSessionId: sessionId });
    const [event] = paidEvents(harness, second.id);
    expect(event?.cause).toBe('assigned_after_outage');
    expect(JSON.parse(event?.detail ?? '{}')).toMatchObject({ sessionId, assignedBy: 'Mama' });
    expect(harness.alerts.at(-1)).toMatchObject({
      kind: NEEDS_PERSON,
      closedBy: `assigned to sale #${second.id} by Mama`,
    });

    // No transfer pays two sales; no sale is paid twice.
    expect(() =>
      harness.engine.assignOutagePayment({ sessionId, saleId: first.id }, 'Mama'),
    ).toThrow(/already went to sale/);
    expect(getSale(harness.db, first.id)?.state).toBe('unconfirmed');
    const again = await harness.transfer(account.accountNumber ?? '', 1_400);
    await harness.settle();
    expect(() =>
      harness.engine.assignOutagePayment(
        { sessionId: String(again['session_id']), saleId: second.id },
        'Mama',
      ),
    ).toThrow(/not an outage sale still waiting/);
    expect(paidEvents(harness, second.id)).toHaveLength(1);
  });

  it('a second exact match for a sale already paid needs a person (the tag was reused)', async () => {
    const harness = (h = await createHarness({ live: true }));
    const account = await makeOutageAccount(harness);
    const first = takeOutageSale(harness, account, 150_000);
    await harness.transfer(account.accountNumber ?? '', nairaOf(150_001));
    await harness.settle();
    expect(getSale(harness.db, first.id)?.state).toBe('paid');

    // The tag is free again: the next sale of ₦1,500 asks for ₦1,500.01 too.
    const next = takeOutageSale(harness, account, 150_000);
    expect(next.amountDueKobo).toBe(150_001);
    await harness.advance(60_000);
    await harness.transfer(account.accountNumber ?? '', nairaOf(150_001));
    await harness.settle();
    expect(getSale(harness.db, next.id)?.state).toBe('unconfirmed');
    expect(paidEvents(harness, first.id)).toHaveLength(1);
    const [alert] = needsPerson(harness);
    expect(alert?.message).toContain(
      `sale #${first.id} asked for this amount and is already settled`,
    );
    expect(alert?.message).toContain(`#${next.id} (asked ₦1,500.01)`);
  });

  it('an exact amount outside the outage window needs a person', async () => {
    const harness = (h = await createHarness({ live: true }));
    const account = await makeOutageAccount(harness);
    const old = takeOutageSale(harness, account, 80_000);
    await harness.advance(OUTAGE_WINDOW.afterSaleMs + 60_000);
    await harness.transfer(account.accountNumber ?? '', nairaOf(80_001));
    await harness.settle();
    expect(getSale(harness.db, old.id)?.state).toBe('unconfirmed');
    expect(needsPerson(harness)).toHaveLength(1);
    expect(needsPerson(harness)[0]?.message).toContain(
      'no outage sale asked for exactly this amount',
    );

    // A payment handed to a person stays theirs: a sale taken since with that exact amount is
    // not paid by it when the callback or the listing brings it again.
    const late = await harness.transfer(account.accountNumber ?? '', nairaOf(60_001));
    await harness.settle();
    const later = takeOutageSale(harness, account, 60_000);
    expect(later.amountDueKobo).toBe(60_001);
    await harness.engine.handleCallback(null, {
      reference: account.reference,
      sessionId: String(late['session_id']),
    });
    await sync(harness);
    expect(getSale(harness.db, later.id)?.state).toBe('unconfirmed');
    expect(needsPerson(harness)).toHaveLength(2);
  });
});
