/**
 * The money-safety invariants of a finished run, checked against the sandbox's own ledger (what
 * the provider really holds) and the till's SQLite file (what the shop believes). Pure: the
 * campaign reads both sides and hands them here, and a unit test feeds planted faults.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';

/** A row of GET {control_url}/ledger. */
export interface LedgerTx {
  readonly session_id: string;
  readonly status: 'success' | 'failed' | 'pending';
  readonly amount_kobo: number;
  readonly external_reference: string;
  readonly account_number: string;
  readonly created_at_ms: number;
  readonly settled_at_ms: number | null;
  /** When a pending transfer is due to settle. */
  readonly settles_at_ms: number | null;
}

export interface StoreSale {
  readonly id: number;
  readonly state: string;
  readonly amountKobo: number;
  readonly reference: string;
  readonly accountId: number | null;
  readonly expiresAt: number | null;
  readonly paidSessionId: string | null;
}

export interface StoreInflow {
  readonly sessionId: string;
  readonly amountKobo: number;
  readonly status: string;
  readonly saleId: number | null;
}

export interface StoreEvent {
  readonly saleId: number;
  readonly at: number;
  readonly toState: string;
}

export interface StoreAlert {
  readonly kind: string;
  readonly saleId: number | null;
  readonly sessionId: string | null;
}

export interface StoreAccount {
  readonly id: number;
  readonly reference: string;
  readonly purpose: string;
}

export interface StoreSnapshot {
  readonly sales: readonly StoreSale[];
  readonly inflows: readonly StoreInflow[];
  readonly events: readonly StoreEvent[];
  readonly alerts: readonly StoreAlert[];
  readonly accounts: readonly StoreAccount[];
  /** session_ids stored more than once (the UNIQUE constraint makes this empty). */
  readonly duplicateSessions: readonly string[];
}

/** The till's sandbox-profile database in a data directory. */
export function tillDbPath(dataDir: string): string {
  return join(dataDir, 'till-sandbox.sqlite');
}

/** Reads the till's database read-only (the core may still have it open: WAL allows that). */
export function readStore(dbPath: string): StoreSnapshot {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return {
      sales: db
        .prepare(
          `SELECT id, state, amount_kobo AS amountKobo, reference, account_id AS accountId,
                  expires_at AS expiresAt, paid_session_id AS paidSessionId FROM sales ORDER BY id`,
        )
        .all() as StoreSale[],
      inflows: db
        .prepare(
          `SELECT session_id AS sessionId, amount_kobo AS amountKobo, status, sale_id AS saleId
           FROM inflows ORDER BY id`,
        )
        .all() as StoreInflow[],
      events: db
        .prepare(`SELECT sale_id AS saleId, at, to_state AS toState FROM sale_events ORDER BY id`)
        .all() as StoreEvent[],
      alerts: db
        .prepare(`SELECT kind, sale_id AS saleId, session_id AS sessionId FROM alerts`)
        .all() as StoreAlert[],
      accounts: db
        .prepare(`SELECT id, reference, purpose FROM virtual_accounts`)
        .all() as StoreAccount[],
      duplicateSessions: (
        db
          .prepare(`SELECT session_id AS s FROM inflows GROUP BY session_id HAVING COUNT(*) > 1`)
          .all() as { s: string }[]
      ).map((row) => row.s),
    };
  } finally {
    db.close();
  }
}

const OPEN_STATES = new Set(['creating', 'awaiting_payment', 'confirming', 'wrong_amount']);
const CLOSED_STATES = new Set(['cancelled', 'expired', 'failed_to_create']);

export type ViolationKind =
  | 'loss'
  | 'wrong_amount_stored'
  | 'phantom_inflow'
  | 'stale_status'
  | 'paid_without_inflow'
  | 'unattributed_payment'
  | 'late_not_flagged'
  | 'left_open'
  | 'double_count';

export interface Violation {
  readonly kind: ViolationKind;
  readonly message: string;
}

export interface InvariantResult {
  readonly violations: readonly Violation[];
  /** Successful provider transactions (all for this merchant: the sandbox is ours). */
  readonly inflows: number;
  readonly sales: number;
  readonly paid: number;
  readonly paidLate: number;
  /** paid_late sales with their 'paid_late' alert. */
  readonly lateFlagged: number;
  readonly states: Readonly<Record<string, number>>;
}

export function checkInvariants(
  ledger: readonly LedgerTx[],
  store: StoreSnapshot,
): InvariantResult {
  const violations: Violation[] = [];
  const fail = (kind: ViolationKind, message: string) => violations.push({ kind, message });

  const inflowBySession = new Map(store.inflows.map((row) => [row.sessionId, row]));
  const ledgerBySession = new Map(ledger.map((tx) => [tx.session_id, tx]));
  const accountByReference = new Map(store.accounts.map((a) => [a.reference, a]));
  const saleByAccount = new Map(
    store.sales.filter((s) => s.accountId !== null).map((s) => [s.accountId, s]),
  );
  const eventsOf = (saleId: number) => store.events.filter((e) => e.saleId === saleId);

  // 1. Every successful inflow the provider has is stored exactly once, with its amount; every
  //    stored row is one the provider has, with the provider's final status.
  for (const tx of ledger) {
    const row = inflowBySession.get(tx.session_id);
    if (tx.status === 'success') {
      if (!row) {
        fail('loss', `success ${tx.session_id} (${tx.amount_kobo} kobo) is not in the store`);
      } else if (row.status !== 'success') {
        fail('loss', `success ${tx.session_id} is stored as '${row.status}'`);
      }
    } else if (row && row.status !== tx.status && tx.status !== 'pending') {
      fail('stale_status', `${tx.session_id} is '${tx.status}' but stored as '${row.status}'`);
    }
    if (row && row.amountKobo !== tx.amount_kobo) {
      fail(
        'wrong_amount_stored',
        `${tx.session_id}: provider ${tx.amount_kobo} kobo, store ${row.amountKobo}`,
      );
    }
  }
  for (const row of store.inflows) {
    const tx = ledgerBySession.get(row.sessionId);
    if (!tx) fail('phantom_inflow', `stored ${row.sessionId} is unknown to the provider`);
    else if (row.status === 'success' && tx.status !== 'success') {
      fail('phantom_inflow', `stored success ${row.sessionId} is '${tx.status}' at the provider`);
    }
  }

  // 2. No double counting.
  for (const session of store.duplicateSessions)
    fail('double_count', `${session} stored more than once`);
  const paidSales = store.sales.filter((s) => s.paidSessionId !== null);
  const paidSessions = new Set(paidSales.map((s) => s.paidSessionId));
  if (paidSessions.size !== paidSales.length) {
    fail('double_count', `${paidSales.length} paid sales share ${paidSessions.size} payments`);
  }

  // 3. A paid sale has a successful provider inflow of its exact amount into its own account.
  let lateFlagged = 0;
  for (const sale of store.sales) {
    const paidState = sale.state === 'paid' || sale.state === 'paid_late';
    if (paidState !== (sale.paidSessionId !== null)) {
      fail(
        'paid_without_inflow',
        `sale ${sale.id} is '${sale.state}' with paid_session_id ${sale.paidSessionId}`,
      );
    }
    if (sale.paidSessionId !== null) {
      const row = inflowBySession.get(sale.paidSessionId);
      const tx = ledgerBySession.get(sale.paidSessionId);
      if (!row || row.status !== 'success' || row.amountKobo !== sale.amountKobo) {
        fail(
          'paid_without_inflow',
          `sale ${sale.id} (${sale.amountKobo} kobo) paid by ${sale.paidSessionId}: stored ${row ? `${row.status} ${row.amountKobo}` : 'nothing'}`,
        );
      }
      if (!tx || tx.status !== 'success' || tx.amount_kobo !== sale.amountKobo) {
        fail(
          'paid_without_inflow',
          `sale ${sale.id} paid by ${sale.paidSessionId}: the provider has ${tx ? `${tx.status} ${tx.amount_kobo}` : 'nothing'}`,
        );
      } else if (tx.external_reference !== sale.reference) {
        fail(
          'paid_without_inflow',
          `sale ${sale.id} (${sale.reference}) paid by a transfer to ${tx.external_reference}`,
        );
      }
    }
    if (sale.state === 'paid_late') {
      if (store.alerts.some((a) => a.kind === 'paid_late' && a.saleId === sale.id)) {
        lateFlagged += 1;
      } else {
        fail('late_not_flagged', `sale ${sale.id} is paid_late without a 'paid_late' alert`);
      }
    }
    // 5. Nothing left open after its expiry plus the grace period.
    if (OPEN_STATES.has(sale.state)) {
      fail('left_open', `sale ${sale.id} is still '${sale.state}' (expires ${sale.expiresAt})`);
    }
  }

  // 4. Every success into a sale's account made that sale paid (or paid late) by that payment;
  //    money that landed after the sale was closed is flagged as late.
  for (const tx of ledger) {
    if (tx.status !== 'success') continue;
    const account = accountByReference.get(tx.external_reference);
    const sale = account ? saleByAccount.get(account.id) : undefined;
    if (!sale) {
      if (account?.purpose === 'sale') {
        fail('unattributed_payment', `success ${tx.session_id} into an account with no sale`);
      }
      continue;
    }
    if (sale.paidSessionId !== tx.session_id) {
      fail(
        'unattributed_payment',
        `success ${tx.session_id} into sale ${sale.id}'s account, but the sale is '${sale.state}' (paid by ${sale.paidSessionId})`,
      );
      continue;
    }
    // Closed (cancelled, expired, abandoned) when the payment landed, or when the till learned
    // of it: then it must be 'paid_late' (a retried sale reopens, so only the latest state
    // counts).
    const events = eventsOf(sale.id);
    const paidIndex = events.findIndex((e) => e.toState === 'paid' || e.toState === 'paid_late');
    const landed = tx.settled_at_ms ?? tx.created_at_ms;
    const whenLearned = paidIndex > 0 ? events[paidIndex - 1] : undefined;
    const whenLanded = events
      .slice(0, paidIndex < 0 ? events.length : paidIndex)
      .filter((e) => e.at < landed)
      .at(-1);
    const late = [whenLearned, whenLanded].find((e) => e && CLOSED_STATES.has(e.toState));
    if (late && sale.state !== 'paid_late') {
      fail(
        'late_not_flagged',
        `sale ${sale.id} is '${sale.state}' but was ${late.toState} at ${late.at} before its payment ${tx.session_id} (landed ${landed})`,
      );
    }
  }

  const states: Record<string, number> = {};
  for (const sale of store.sales) states[sale.state] = (states[sale.state] ?? 0) + 1;
  return {
    violations,
    inflows: ledger.filter((tx) => tx.status === 'success').length,
    sales: store.sales.length,
    paid: states['paid'] ?? 0,
    paidLate: states['paid_late'] ?? 0,
    lateFlagged,
    states,
  };
}
