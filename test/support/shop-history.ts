/**
 * A generated shop history for report tests: sales through their real state changes (so
 * sale_events hold the history), inflows as callbacks and listings would store them, and a
 * plain JavaScript model of the same history to compute the expected figures independently.
 */
import type { SaleState } from '#shared/sales';
import type { TransactionRecord } from '#main/provider/schemas';
import { createSeededRandom } from '#main/sandbox/seeded-random';
import { callbackUrlRecord } from '#main/security/callback-url-record';
import type { InflowStatus } from '#main/store/inflows-repo';
import type { Db } from '#main/store/database';
import { insertSale, transitionSale } from '#main/store/sales-repo';

export interface ModelInflow {
  readonly sessionId: string;
  readonly reference: string;
  readonly amountKobo: number;
  readonly status: Exclude<InflowStatus, 'unknown'>;
  readonly occurredAt: number;
  readonly saleId: number | null;
  readonly counter: boolean;
  readonly listed: boolean;
}

export interface ModelSale {
  readonly id: number;
  readonly amountKobo: number;
  readonly tillId: string;
  readonly cashier: string | null;
  readonly createdAt: number;
  /** Every state with the time it was entered, in order. */
  readonly history: readonly { readonly at: number; readonly state: SaleState }[];
  readonly paidAt: number | null;
  readonly paidSessionId: string | null;
}

export interface ShopModel {
  readonly sales: readonly ModelSale[];
  readonly inflows: readonly ModelInflow[];
  readonly counterReferences: readonly string[];
}

export const COUNTER_REFERENCES = ['CTR-FLEX-1', 'CTR-FLEX-2'] as const;

let sessionCounter = 0;
export function nextSessionId(): string {
  sessionCounter += 1;
  return `100004${String(sessionCounter).padStart(24, '0')}`;
}

/** One parsed row of the provider's transaction list (a ₦1,500 success by default). */
export function transactionRecord(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    amountKobo: 150000,
    status: 'success',
    rawStatus: overrides.status ?? 'success',
    sessionId: nextSessionId(),
    externalReference: 'TT-1',
    date: '2026-11-22 09:05:00',
    dateMs: Date.UTC(2026, 10, 22, 8, 5),
    ...overrides,
  };
}

export function insertStandingAccounts(db: Db, now: number): number[] {
  return COUNTER_REFERENCES.map((reference, index) => {
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO virtual_accounts (type, purpose, reference, account_number, status, created_at, updated_at)
         VALUES ('static-flex', 'counter', ?, ?, 'active', ?, ?)`,
      )
      .run(reference, `99000000${index}1`, now, now);
    return Number(lastInsertRowid);
  });
}

export function insertInflowRow(
  db: Db,
  inflow: Omit<ModelInflow, 'counter'> & { readonly accountId?: number | null },
  now: number,
): void {
  db.prepare(
    `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, provider_date,
       occurred_at, source, last_source, sale_id, account_id, first_seen_at, updated_at,
       listed_at, listed_status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    inflow.sessionId,
    inflow.reference,
    inflow.amountKobo,
    inflow.status,
    lagosProviderDate(inflow.occurredAt),
    inflow.occurredAt,
    inflow.listed ? 'listing' : 'callback',
    inflow.listed ? 'listing' : 'callback',
    inflow.saleId,
    inflow.accountId ?? null,
    now,
    now,
    inflow.listed ? now : null,
    inflow.listed ? inflow.status : null,
  );
}

/** The provider's own text of a moment (Lagos wall clock), as a listing or callback gives it. */
function lagosProviderDate(ms: number): string {
  return new Date(ms + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A sale moved through `states` at the given times (the first is 'creating' at createdAt). */
export function insertSaleWithHistory(
  db: Db,
  sale: {
    readonly amountKobo: number;
    readonly tillId: string;
    readonly cashier: string | null;
    readonly reference: string;
    readonly createdAt: number;
  },
  steps: readonly {
    readonly at: number;
    readonly state: SaleState;
    readonly paidSessionId?: string;
  }[],
): ModelSale {
  const row = insertSale(
    db,
    {
      amountKobo: sale.amountKobo,
      note: null,
      cashier: sale.cashier,
      tillId: sale.tillId,
      reference: sale.reference,
    },
    sale.createdAt,
    'test',
  );
  // Its one-off account as the engine makes it, with the record of the callback address given
  // to the provider (retention clears it); not linked to the sale, so no report's reading changes.
  db.prepare(
    `INSERT INTO virtual_accounts (type, purpose, reference, account_number, account_name, bank,
       amount_kobo, callback_url, status, created_at, updated_at)
     VALUES ('nonstatic', 'sale', ?, NULL, 'TT/SHOP', 'Wema Bank', ?, ?, 'expired', ?, ?)`,
  ).run(
    `${sale.reference}-VA`,
    sale.amountKobo,
    callbackUrlRecord('https://till.example/webhook/t/4f9c2a7d1e8b4c6f0a3d5e7b9c1f2a4d'),
    sale.createdAt,
    sale.createdAt,
  );
  const history: { at: number; state: SaleState }[] = [{ at: sale.createdAt, state: 'creating' }];
  let paidAt: number | null = null;
  let paidSessionId: string | null = null;
  for (const step of steps) {
    const paid = step.state === 'paid' || step.state === 'paid_late';
    transitionSale(
      db,
      row.id,
      {
        state: step.state,
        cause: 'test',
        ...(paid && step.paidSessionId
          ? {
              fields: { paidSessionId: step.paidSessionId, paidAt: step.at },
              // What the engine records with a payment (confirmation.ts): retention clears it.
              detail: { sessionId: step.paidSessionId, providerDate: lagosProviderDate(step.at) },
            }
          : {}),
      },
      step.at,
    );
    history.push({ at: step.at, state: step.state });
    if (paid && step.paidSessionId) {
      paidAt = step.at;
      paidSessionId = step.paidSessionId;
    }
  }
  return { id: row.id, ...sale, history, paidAt, paidSessionId };
}

/** What generateShop makes: `events` sales and payments of `seed`, in [startMs, endMs). */
export interface ShopOptions {
  readonly seed: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly events: number;
}

/**
 * A few hundred sales and inflows at random times in [startMs, endMs): paid, paid late, wrong
 * amounts, still open, expired, standing-account payments, payments nobody here asked for, and
 * pending transfers. About one paid sale in ten is not shown by the listing, and one in twenty
 * is reversed (its payment failed after the sale was marked paid).
 */
export function generateShop(db: Db, options: ShopOptions): ShopModel {
  // One transaction: thousands of fsyncs (synchronous=FULL) would take seconds.
  return db.transaction(() => generateShopRows(db, options))();
}

function generateShopRows(db: Db, options: ShopOptions): ShopModel {
  const random = createSeededRandom(options.seed).next;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const amount = (): number => 100 + Math.floor(random() * 5_000_000);
  const at = (): number =>
    options.startMs + Math.floor(random() * (options.endMs - options.startMs));
  const counterIds = insertStandingAccounts(db, options.startMs);
  const sales: ModelSale[] = [];
  const inflows: ModelInflow[] = [];
  const tills = ['till-1', 'till-2'];
  const cashiers = ['Ada', 'Bola', null];
  const min = 60_000;

  const addInflow = (inflow: ModelInflow, accountId: number | null = null): void => {
    // First seen when it happened (a callback), as a till sees its payments, not all at the end.
    insertInflowRow(
      db,
      { ...inflow, accountId },
      Math.min(inflow.occurredAt + 2_000, options.endMs),
    );
    inflows.push(inflow);
  };

  for (let n = 0; n < options.events; n++) {
    const t = at();
    const roll = random();
    const base = {
      amountKobo: amount(),
      tillId: pick(tills),
      cashier: pick(cashiers),
      reference: `TT-${options.seed}-${n}`,
      createdAt: t,
    };
    if (roll < 0.45) {
      const sessionId = nextSessionId();
      const paidAt = t + Math.floor(random() * 10 * min) + 1000;
      const sale = insertSaleWithHistory(db, base, [
        { at: t + 500, state: 'awaiting_payment' },
        { at: paidAt, state: 'paid', paidSessionId: sessionId },
      ]);
      sales.push(sale);
      // Now and then the provider reverses the payment after the sale was marked paid.
      const reversed = random() < 0.05;
      addInflow({
        sessionId,
        reference: base.reference,
        amountKobo: base.amountKobo,
        status: reversed ? 'failed' : 'success',
        occurredAt: paidAt - Math.floor(random() * 30_000),
        saleId: sale.id,
        counter: false,
        listed: reversed || random() < 0.9,
      });
    } else if (roll < 0.5) {
      const sessionId = nextSessionId();
      const sale = insertSaleWithHistory(db, base, [
        { at: t + 500, state: 'awaiting_payment' },
        { at: t + 15 * min, state: 'expired' },
        { at: t + 20 * min, state: 'paid_late', paidSessionId: sessionId },
      ]);
      sales.push(sale);
      addInflow({
        sessionId,
        reference: base.reference,
        amountKobo: base.amountKobo,
        status: 'success',
        occurredAt: t + 20 * min - 5_000,
        saleId: sale.id,
        counter: false,
        listed: true,
      });
    } else if (roll < 0.58) {
      const wrongAt = t + 2 * min;
      const later = random() < 0.5;
      const sessionId = nextSessionId();
      const sale = insertSaleWithHistory(db, base, [
        { at: t + 500, state: 'awaiting_payment' },
        { at: wrongAt, state: 'wrong_amount' },
        later
          ? { at: t + 6 * min, state: 'paid', paidSessionId: sessionId }
          : { at: t + 15 * min, state: 'expired' },
      ]);
      sales.push(sale);
      addInflow({
        sessionId: nextSessionId(),
        reference: base.reference,
        amountKobo: base.amountKobo + 100,
        status: 'failed',
        occurredAt: wrongAt - 1000,
        saleId: sale.id,
        counter: false,
        listed: true,
      });
      if (later) {
        addInflow({
          sessionId,
          reference: base.reference,
          amountKobo: base.amountKobo,
          status: 'success',
          occurredAt: t + 6 * min - 2000,
          saleId: sale.id,
          counter: false,
          listed: true,
        });
      }
    } else if (roll < 0.65) {
      // Still open now, or open for hours and then expired.
      const steps: { at: number; state: SaleState }[] = [
        { at: t + 500, state: 'awaiting_payment' },
      ];
      if (random() < 0.5) steps.push({ at: t + 6 * 60 * min, state: 'expired' });
      sales.push(insertSaleWithHistory(db, base, steps));
    } else if (roll < 0.7) {
      sales.push(
        insertSaleWithHistory(db, base, [
          { at: t + 500, state: 'awaiting_payment' },
          { at: t + 3 * min, state: 'cancelled' },
        ]),
      );
    } else if (roll < 0.85) {
      const which = Math.floor(random() * COUNTER_REFERENCES.length);
      addInflow(
        {
          sessionId: nextSessionId(),
          reference: COUNTER_REFERENCES[which] ?? 'CTR-FLEX-1',
          amountKobo: amount(),
          status: 'success',
          occurredAt: t,
          saleId: null,
          counter: true,
          listed: true,
        },
        // Half linked by account id, half known only by reference.
        random() < 0.5 ? (counterIds[which] ?? null) : null,
      );
    } else if (roll < 0.93) {
      addInflow({
        sessionId: nextSessionId(),
        reference: `OTHER-TILL-${n}`,
        amountKobo: amount(),
        status: 'success',
        occurredAt: t,
        saleId: null,
        counter: false,
        listed: true,
      });
    } else {
      addInflow({
        sessionId: nextSessionId(),
        reference: `TT-PENDING-${n}`,
        amountKobo: amount(),
        status: 'pending',
        occurredAt: t,
        saleId: null,
        counter: false,
        listed: true,
      });
    }
  }
  return { sales, inflows, counterReferences: [...COUNTER_REFERENCES] };
}

/** A finished sync run, as the report reads it. */
export function insertCompleteSyncRun(db: Db, startedAt: number, count = 0): number {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO sync_runs (mode, trigger, status, started_at, finished_at, reported_count,
         collected, next_offset, listing_order)
       VALUES ('full', 'test', 'complete', ?, ?, ?, ?, ?, 'oldest_first')`,
    )
    .run(startedAt, startedAt + 1000, count, count, count);
  return Number(lastInsertRowid);
}
