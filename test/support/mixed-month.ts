/**
 * What a generated shop (generateShop) does not make, added over the same range, so that a
 * month's report and CSV meet every kind of exception: outage sales (confirmed after the outage,
 * assigned by a person, money not seen; some taken before the range and paid in it), customers
 * who paid twice, standing-account payments above a limit, and resolutions recorded with words
 * a CSV must quote and defuse.
 */
import { ASSIGNED_AFTER_OUTAGE, CONFIRMED_AFTER_OUTAGE } from '#main/engine/outage-matching';
import { createSeededRandom } from '#main/sandbox/seeded-random';
import type { Db } from '#main/store/database';
import { insertOutageSale, transitionSale } from '#main/store/sales-repo';
import { appendResolutionEntry } from '#main/store/exception-resolutions-repo';
import {
  COUNTER_REFERENCES,
  insertInflowRow,
  insertSaleWithHistory,
  nextSessionId,
  type ShopModel,
} from './shop-history';

const MIN = 60_000;

/** Standing-account payments above this (kobo) are exceptions when the report is asked so. */
export const MIXED_STANDING_LIMIT_KOBO = 4_000_000;

/** Adds the rows above to a generated shop in [startMs, endMs), in one transaction. */
export function addMixedMonth(
  db: Db,
  shop: ShopModel,
  options: { readonly seed: number; readonly startMs: number; readonly endMs: number },
): void {
  db.transaction(() => addRows(db, shop, options))();
}

function addRows(
  db: Db,
  shop: ShopModel,
  options: { readonly seed: number; readonly startMs: number; readonly endMs: number },
): void {
  const random = createSeededRandom(options.seed).next;
  const at = (): number =>
    options.startMs + Math.floor(random() * (options.endMs - options.startMs));
  const outageAccount = Number(
    db
      .prepare(
        `INSERT INTO virtual_accounts (type, purpose, reference, account_number, status, created_at, updated_at)
         VALUES ('static-flex', 'outage', 'TT-OUTAGE-1', '9900000099', 'active', ?, ?)`,
      )
      .run(options.startMs, options.startMs).lastInsertRowid,
  );
  const inflow = (
    sessionId: string,
    reference: string,
    amountKobo: number,
    occurredAt: number,
    saleId: number | null,
    accountId: number | null = null,
  ) =>
    insertInflowRow(
      db,
      {
        sessionId,
        reference,
        amountKobo,
        status: 'success',
        occurredAt,
        saleId,
        listed: true,
        accountId,
      },
      occurredAt + 2_000,
    );

  // Outage sales: one in three confirmed by its exact amount, one assigned, one never seen.
  for (let n = 0; n < 60; n++) {
    const createdAt = at();
    const sale = insertOutageSale(
      db,
      {
        accountId: outageAccount,
        amountKobo: 100_000 + Math.floor(random() * 2_000_000),
        note: null,
        cashier: n % 4 === 0 ? null : 'Ọlá, "till 2"',
        tillId: 'till-1',
        reference: `TT-OUTAGE-1-${n}`,
      },
      createdAt,
    );
    if (!sale || sale.amountDueKobo === null) throw new Error('outage sale not written');
    const outcome = n % 3;
    if (outcome === 2) continue;
    const sessionId = nextSessionId();
    // Some are paid hours later: a sale taken near the range's end is paid after it.
    const paidAt = createdAt + (5 + Math.floor(random() * 300)) * MIN;
    inflow(sessionId, 'TT-OUTAGE-1', sale.amountDueKobo, paidAt - 30_000, sale.id, outageAccount);
    transitionSale(
      db,
      sale.id,
      {
        state: 'paid',
        cause: outcome === 0 ? CONFIRMED_AFTER_OUTAGE : ASSIGNED_AFTER_OUTAGE,
        fields: { paidSessionId: sessionId, paidAt },
        detail: outcome === 0 ? { sessionId } : { sessionId, assignedBy: '=Owner, Bisi' },
      },
      paidAt,
    );
  }

  // Customers who paid a paid sale's account again.
  const paid = shop.sales.filter((sale) => sale.paidSessionId !== null);
  for (let n = 0; n < 40 && n * 7 < paid.length; n++) {
    const sale = paid[n * 7];
    if (!sale || sale.paidAt === null) continue;
    const again = sale.paidAt + (1 + Math.floor(random() * 90)) * MIN;
    inflow(nextSessionId(), `TT-${options.seed}-again-${n}`, sale.amountKobo, again, sale.id);
  }

  // Standing-account payments above MIXED_STANDING_LIMIT_KOBO, by account id.
  const standing = db
    .prepare(`SELECT id FROM virtual_accounts WHERE reference = ?`)
    .pluck()
    .get(COUNTER_REFERENCES[0]) as number;
  for (let n = 0; n < 25; n++) {
    const amount = MIXED_STANDING_LIMIT_KOBO + 1 + Math.floor(random() * 3_000_000);
    inflow(nextSessionId(), COUNTER_REFERENCES[0], amount, at(), null, standing);
  }

  // A sale paid by a transfer the till never linked to it, which the provider then failed: the
  // transfer's row is both the sale's reversal and a rejected transfer, before, at or after the
  // moment the sale was paid.
  for (let n = 0; n < 24; n++) {
    const createdAt = at();
    const sessionId = nextSessionId();
    const paidAt = createdAt + 4 * MIN;
    const reference = `TT-${options.seed}-unlinked-${n}`;
    insertSaleWithHistory(
      db,
      { amountKobo: 250_000 + n, tillId: 'till-1', cashier: 'Ada', reference, createdAt },
      [
        { at: createdAt + 500, state: 'awaiting_payment' },
        { at: paidAt, state: 'paid', paidSessionId: sessionId },
      ],
    );
    insertInflowRow(
      db,
      {
        sessionId,
        reference,
        amountKobo: 250_000 + n,
        status: 'failed',
        occurredAt: paidAt + ((n % 3) - 1) * MIN,
        saleId: null,
        listed: true,
      },
      paidAt + 2 * MIN,
    );
  }

  recordResolutions(db, options.endMs);
}

/** Resolutions of some of the cases, in words a CSV must quote (commas, quotes) and defuse (=). */
function recordResolutions(db: Db, now: number): void {
  const keys = (kind: string, column: 'sale' | 'session', sql: string): string[] =>
    (db.prepare(sql).pluck().all() as (number | string)[]).map((id) => `${kind}:${column}:${id}`);
  const cases = [
    ...keys('paid_late', 'sale', `SELECT id FROM sales WHERE state = 'paid_late' LIMIT 6`),
    ...keys(
      'outage_not_seen',
      'sale',
      `SELECT id FROM sales WHERE amount_due_kobo IS NOT NULL AND state = 'unconfirmed' LIMIT 4`,
    ),
    ...keys(
      'unmatched_inflow',
      'session',
      `SELECT session_id FROM inflows WHERE external_reference LIKE 'OTHER-TILL-%' LIMIT 4`,
    ),
  ];
  const actions = ['refunded', 'goods_given', 'credited', 'other'] as const;
  cases.forEach((key, n) => {
    const action = actions[n % actions.length] ?? 'other';
    appendResolutionEntry(db, {
      key,
      action,
      bankReference: action === 'refunded' ? `+REF ${n}, "bank"` : null,
      note: n % 2 === 0 || action === 'other' ? `=HYPERLINK("x"), said "no"\nline ${n}` : null,
      recordedBy: n % 3 === 0 ? 'Ọlá' : 'owner',
      recordedAt: now - n * MIN,
    });
  });
}

/**
 * More than a report lists of a kind (its limit, 500): `count` transfers no till made and as
 * many the provider rejected, at a few instants of [startMs, endMs) so that many share one
 * moment, with references and amounts in different orders (the tie order decides which are
 * listed).
 */
export function addOverflowingCases(
  db: Db,
  options: { readonly startMs: number; readonly endMs: number; readonly count: number },
): void {
  db.transaction(() => {
    const instants = 41;
    const step = Math.floor((options.endMs - options.startMs) / instants);
    for (let n = 0; n < options.count; n++) {
      const occurredAt = options.startMs + (n % instants) * step;
      const reference = `ELSEWHERE-${(n * 7919) % 1000}`;
      for (const status of ['success', 'failed'] as const) {
        insertInflowRow(
          db,
          {
            // Numbered here, not by nextSessionId: the file's digest must not depend on what ran before.
            sessionId: `200031${String(2 * n + (status === 'success' ? 0 : 1)).padStart(24, '0')}`,
            reference,
            amountKobo: 100_000 + ((n * 104_729) % 900_000),
            status,
            occurredAt,
            saleId: null,
            listed: true,
          },
          occurredAt + 2_000,
        );
      }
    }
  })();
}
