/**
 * The money-safety invariants of a run, checked against the sandbox's own ledger (what the
 * provider really holds) and the till's SQLite file (what the shop believes). Pure: the campaign
 * reads both sides and hands them here, and unit tests feed planted faults.
 *
 * A run is checked twice. First with the faults still on, after the clock has passed every
 * deadline by the time-to-paid bound, before any recovery step: nothing the till has not done on
 * its own by then may count. Then after the recovery (faults off, past the late grace, a clean
 * full sync), for completeness: every provider success stored once, nothing left open.
 */
import Database from 'better-sqlite3';
import { tillDbPath as dataFilePath } from '#main/config/data-files';
// The window is the matching rule's own parameter (issue 35: "within the outage's window").
import { CONFIRMED_AFTER_OUTAGE, OUTAGE_WINDOW } from '#main/engine/outage-matching';
import { NEEDS_PERSON } from '#shared/sales';

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
  /** An outage sale's exact amount asked (price plus its kobo tag); null for other sales. */
  readonly amountDueKobo: number | null;
  /** The till's (fake) clock when the sale was taken. */
  readonly createdAt: number;
  readonly reference: string;
  readonly accountId: number | null;
  readonly expiresAt: number | null;
  readonly paidSessionId: string | null;
  /** The till's (fake) clock when the sale became paid or paid late. */
  readonly paidAt: number | null;
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
  readonly cause: string;
}

export interface StoreAlert {
  readonly kind: string;
  readonly saleId: number | null;
  readonly sessionId: string | null;
  /** Closed (by a person, or by the engine when the fact it told changed). Absent: open. */
  readonly acknowledged?: boolean;
}

export interface StoreAccount {
  readonly id: number;
  readonly reference: string;
  readonly purpose: string;
  readonly accountNumber: string | null;
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
  return dataFilePath(dataDir, 'sandbox');
}

/** Reads the till's database read-only (the core may still have it open: WAL allows that). */
export function readStore(dbPath: string): StoreSnapshot {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return {
      sales: db
        .prepare(
          `SELECT id, state, amount_kobo AS amountKobo, amount_due_kobo AS amountDueKobo,
                  created_at AS createdAt, reference, account_id AS accountId,
                  expires_at AS expiresAt, paid_session_id AS paidSessionId, paid_at AS paidAt
           FROM sales ORDER BY id`,
        )
        .all() as StoreSale[],
      inflows: db
        .prepare(
          `SELECT session_id AS sessionId, amount_kobo AS amountKobo, status, sale_id AS saleId
           FROM inflows ORDER BY id`,
        )
        .all() as StoreInflow[],
      events: db
        .prepare(
          `SELECT sale_id AS saleId, at, to_state AS toState, cause FROM sale_events ORDER BY id`,
        )
        .all() as StoreEvent[],
      alerts: (
        db
          .prepare(
            `SELECT kind, sale_id AS saleId, session_id AS sessionId,
                    acknowledged_at IS NOT NULL AS acknowledged FROM alerts`,
          )
          .all() as (Omit<StoreAlert, 'acknowledged'> & { acknowledged: number })[]
      ).map((alert) => ({ ...alert, acknowledged: alert.acknowledged === 1 })),
      accounts: db
        .prepare(
          `SELECT id, reference, purpose, account_number AS accountNumber FROM virtual_accounts`,
        )
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
/** Open and payable: the customer has the account number and the till still waits. */
const PAYABLE_STATES = new Set(['awaiting_payment', 'confirming', 'wrong_amount']);

/**
 * The time-to-paid bound, in fake time from the provider's settlement to the sale's paid state,
 * for a transfer that settled while its sale was open, with every callback lost and no button
 * pressed: the issue's promise (35 s). Provider trouble on the way adds its own slack (see
 * TimingContext.slackMs); a clean stretch gets exactly this.
 */
export const PAID_BOUND_MS = 35_000;

/**
 * The provider's `date` has whole seconds, so a transfer made in the same second just after a
 * cut-off may read as made at it: the rules below give that second to the till.
 */
const DATE_PRECISION_MS = 1_000;

export type CheckPhase = 'faults-on' | 'recovered';

export type ViolationKind =
  | 'loss'
  | 'wrong_amount_stored'
  | 'phantom_inflow'
  | 'stale_status'
  | 'paid_without_inflow'
  | 'unattributed_payment'
  | 'late_not_flagged'
  | 'left_open'
  | 'double_count'
  /** A transfer that settled while its sale was open did not make it `paid` (by the bound). */
  | 'open_payment_not_paid'
  /** ... it did, but later than the bound after its settlement. */
  | 'open_payment_slow'
  /**
   * ... the till expired the sale after that money had settled (even if it was paid later):
   * the cashier was told "expired" for a payment made in time.
   */
  | 'open_payment_expired'
  /**
   * A success beyond the one that paid its sale (the customer paid twice) stored with no
   * 'paid_twice' alert naming it: money the shop owes back, silently kept.
   */
  | 'extra_payment_not_flagged'
  /**
   * After recovery, a sale paid by a transfer the provider dates later than another exact
   * success for it, or an open 'paid_twice' alert naming the transfer that paid it: the till
   * tells the owner to refund the wrong transfer and reports the wrong time.
   */
  | 'payment_misattributed'
  /** A transfer paid two outage sales, or an outage sale was paid by two transfers. */
  | 'outage_double_pay'
  /**
   * An outage sale paid though no exact transfer was its alone (a round amount, an amount
   * another outage sale asked, a transfer that is not its exact amount due), or not paid though
   * one was (after recovery).
   */
  | 'outage_wrong_match'
  /** A success into the outage account that paid no sale has no open 'needs_person' alert. */
  | 'outage_payment_not_flagged'
  /** An unconfirmed outage sale became anything but paid (expired, cancelled) by the till. */
  | 'outage_sale_closed';

export interface Violation {
  readonly kind: ViolationKind;
  readonly phase: CheckPhase;
  readonly message: string;
}

/** One sale's time to paid: from the provider's settlement to the till's paid state. */
export interface TimeToPaid {
  readonly saleId: number;
  readonly sessionId: string;
  readonly settledAt: number;
  readonly paidAt: number;
  readonly ms: number;
  /** The bound this sale was held to (PAID_BOUND_MS plus provider-trouble slack). */
  readonly boundMs: number;
  /** Whether the cashier pressed "Customer says they paid" between settlement and paid. */
  readonly pressed: boolean;
  /** From the first such press to paid, when pressed. */
  readonly afterPressMs: number | null;
}

export interface TimingContext {
  /** The fake clock at the check. */
  readonly now: number;
  /** Extra time allowed for a wait from `from` to `to`: provider trouble met on the way. */
  slackMs(from: number, to: number): number;
  /** When the cashier pressed "Customer says they paid", by sale id (fake times). */
  readonly presses: ReadonlyMap<number, readonly number[]>;
}

export interface CheckOptions {
  readonly phase: CheckPhase;
  /** The engine's wait after a deadline before its final check (a payment dated up to then is on time). */
  readonly expiryCheckDelayMs: number;
  /** Needed for the faults-on phase's time-to-paid rule. */
  readonly timing?: TimingContext;
}

export interface InvariantResult {
  readonly phase: CheckPhase;
  readonly violations: readonly Violation[];
  /** Successful provider transactions (all for this merchant: the sandbox is ours). */
  readonly inflows: number;
  readonly sales: number;
  readonly paid: number;
  readonly paidLate: number;
  /** paid_late sales with their 'paid_late' alert. */
  readonly lateFlagged: number;
  readonly states: Readonly<Record<string, number>>;
  /** Transfers that settled while their sale was open (the time-to-paid rule's subjects). */
  readonly openPayments: number;
  readonly timeToPaid: readonly TimeToPaid[];
  /** Open payments not paid yet whose bound has not passed: the check cannot judge them yet. */
  readonly notYetDue: readonly { saleId: number; sessionId: string; dueAt: number }[];
  /** Outage sales and the successes into the outage account. */
  readonly outage: OutageCounts;
}

export interface OutageCounts {
  readonly sales: number;
  /** Paid by their one exact transfer (cause 'confirmed_after_outage'). */
  readonly confirmed: number;
  /** Successes into the outage account that paid no sale: each one a "Needs a person". */
  readonly toAPerson: number;
}

/** The sale's state just after `at` (events at the same instant count as before it). */
function stateAt(events: readonly StoreEvent[], at: number): string | undefined {
  let state: string | undefined;
  for (const event of events) {
    if (event.at > at) break;
    state = event.toState;
  }
  return state;
}

/**
 * Whether the sale was open and payable when the money settled: before its deadline, and
 * neither cancelled nor closed by then.
 */
export function settledWhileOpen(
  tx: LedgerTx,
  sale: StoreSale,
  events: readonly StoreEvent[],
): boolean {
  if (tx.status !== 'success' || tx.settled_at_ms === null || sale.expiresAt === null) return false;
  if (tx.settled_at_ms >= sale.expiresAt) return false;
  const state = stateAt(events, tx.settled_at_ms);
  return state !== undefined && PAYABLE_STATES.has(state);
}

/**
 * Whether the money was sent after the till had closed the sale: after the cashier cancelled,
 * or after the deadline's final check had expired it (a transfer dated up to that check is on
 * time: the engine's deadline rule).
 */
function sentAfterClose(
  tx: LedgerTx,
  sale: StoreSale,
  events: readonly StoreEvent[],
  expiryCheckDelayMs: number,
): boolean {
  const state = stateAt(events, tx.created_at_ms);
  if (state === 'cancelled') return true;
  if (state !== 'expired' || sale.expiresAt === null) return false;
  return tx.created_at_ms > sale.expiresAt + expiryCheckDelayMs + DATE_PRECISION_MS;
}

export function checkInvariants(
  ledger: readonly LedgerTx[],
  store: StoreSnapshot,
  options: CheckOptions,
): InvariantResult {
  const { phase } = options;
  const recovered = phase === 'recovered';
  const violations: Violation[] = [];
  const fail = (kind: ViolationKind, message: string) => violations.push({ kind, phase, message });

  const inflowBySession = new Map(store.inflows.map((row) => [row.sessionId, row]));
  const ledgerBySession = new Map(ledger.map((tx) => [tx.session_id, tx]));
  const accountByReference = new Map(store.accounts.map((a) => [a.reference, a]));
  // Outage sales share the outage account: their money is judged by outageViolations.
  const saleByAccount = new Map(
    store.sales
      .filter((s) => s.accountId !== null && !isOutageSale(s))
      .map((s) => [s.accountId, s]),
  );
  const eventsBySale = new Map<number, StoreEvent[]>();
  for (const event of store.events) {
    const list = eventsBySale.get(event.saleId) ?? [];
    list.push(event);
    eventsBySale.set(event.saleId, list);
  }
  const eventsOf = (saleId: number) => eventsBySale.get(saleId) ?? [];

  // 1. Every successful inflow the provider has is stored exactly once, with its amount, and
  //    every stored row is one the provider has. Completeness (and the final status) only after
  //    the recovery: before it, a payment into a closed sale may wait for its sync.
  for (const tx of ledger) {
    const row = inflowBySession.get(tx.session_id);
    if (recovered && tx.status === 'success') {
      if (!row) {
        fail('loss', `success ${tx.session_id} (${tx.amount_kobo} kobo) is not in the store`);
      } else if (row.status !== 'success') {
        fail('loss', `success ${tx.session_id} is stored as '${row.status}'`);
      }
    } else if (recovered && row && row.status !== tx.status && tx.status !== 'pending') {
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
    if (sale.paidSessionId !== null && !isOutageSale(sale)) {
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
    // Nothing left open after its expiry plus the grace period.
    if (recovered && OPEN_STATES.has(sale.state)) {
      fail('left_open', `sale ${sale.id} is still '${sale.state}' (expires ${sale.expiresAt})`);
    }
  }

  // 4. Every success into a sale's account made that sale paid (or paid late) by that payment.
  //    Money sent after the till closed the sale is a flagged late payment; money that settled
  //    while the sale was open makes it `paid`, within the bound (checked with faults on).
  const timeToPaid: TimeToPaid[] = [];
  const notYetDue: { saleId: number; sessionId: string; dueAt: number }[] = [];
  let openPayments = 0;
  for (const tx of ledger) {
    if (tx.status !== 'success') continue;
    const account = accountByReference.get(tx.external_reference);
    const sale = account ? saleByAccount.get(account.id) : undefined;
    if (!sale) {
      if (recovered && account?.purpose === 'sale') {
        fail('unattributed_payment', `success ${tx.session_id} into an account with no sale`);
      }
      continue;
    }
    const events = eventsOf(sale.id);
    const paidByThis = sale.paidSessionId === tx.session_id;
    // Which of two exact transfers paid is checked after recovery (paymentOrderViolations):
    // with faults on the till may not see the earlier one yet, but the sale must be paid in time.
    const paidByExact = paidByThis || exactPaymentOf(sale, ledgerBySession) !== undefined;
    if (
      paidByThis &&
      sale.state === 'paid' &&
      sentAfterClose(tx, sale, events, options.expiryCheckDelayMs)
    ) {
      fail(
        'late_not_flagged',
        `sale ${sale.id} is 'paid' by ${tx.session_id}, sent at ${tx.created_at_ms} after the till closed it ('${stateAt(events, tx.created_at_ms)}')`,
      );
    }
    if (recovered && !paidByThis) {
      // A payment beyond the first is fine only when it is flagged, never silently stored.
      const extra = sale.paidSessionId !== null;
      const flagged = store.alerts.some(
        (a) => a.kind === 'paid_twice' && a.sessionId === tx.session_id && a.saleId === sale.id,
      );
      if (!extra) {
        fail(
          'unattributed_payment',
          `success ${tx.session_id} into sale ${sale.id}'s account, but the sale is '${sale.state}' (paid by ${sale.paidSessionId})`,
        );
      } else if (!flagged) {
        fail(
          'extra_payment_not_flagged',
          `success ${tx.session_id} into sale ${sale.id}'s account after it was paid by ${sale.paidSessionId}, with no 'paid_twice' alert`,
        );
      }
    }
    if (phase !== 'faults-on' || !settledWhileOpen(tx, sale, events)) continue;
    openPayments += 1;
    const settledAt = tx.settled_at_ms ?? tx.created_at_ms;
    const timing = options.timing;
    if (!timing) throw new Error('the faults-on check needs the run timing');
    const end = paidByExact && sale.paidAt !== null ? sale.paidAt : timing.now;
    const boundMs = PAID_BOUND_MS + timing.slackMs(settledAt, end);
    const expiredAfter = events.find((e) => e.toState === 'expired' && e.at > settledAt);
    if (expiredAfter) {
      fail(
        'open_payment_expired',
        `sale ${sale.id}: expired at ${expiredAfter.at} although ${tx.session_id} had settled at ${settledAt}, before its deadline ${sale.expiresAt}`,
      );
    }
    const paidAt = paidByExact && sale.state === 'paid' ? sale.paidAt : null;
    if (paidAt === null) {
      if (!paidByExact && timing.now < settledAt + boundMs) {
        notYetDue.push({ saleId: sale.id, sessionId: tx.session_id, dueAt: settledAt + boundMs });
        continue;
      }
      fail(
        'open_payment_not_paid',
        `sale ${sale.id}: ${tx.session_id} settled at ${settledAt} while the sale was open (deadline ${sale.expiresAt}); ${(timing.now - settledAt) / 1000} s later the sale is '${sale.state}' (paid by ${sale.paidSessionId})`,
      );
      continue;
    }
    const ms = paidAt - settledAt;
    const firstPress = (timing.presses.get(sale.id) ?? [])
      .filter((at) => at >= settledAt && at <= paidAt)
      .reduce<number | null>((first, at) => (first === null || at < first ? at : first), null);
    const pressed = firstPress !== null;
    timeToPaid.push({
      saleId: sale.id,
      sessionId: tx.session_id,
      settledAt,
      paidAt,
      ms,
      boundMs,
      pressed,
      afterPressMs: firstPress === null ? null : paidAt - firstPress,
    });
    if (ms > boundMs) {
      fail(
        'open_payment_slow',
        `sale ${sale.id}: paid ${ms / 1000} s after ${tx.session_id} settled (bound ${boundMs / 1000} s${pressed ? ', cashier pressed' : ''})`,
      );
    }
  }

  if (recovered) {
    for (const message of paymentOrderViolations(ledger, store, ledgerBySession)) {
      fail('payment_misattributed', message);
    }
  }
  for (const [kind, message] of outageViolations(ledger, store, recovered)) fail(kind, message);

  const states: Record<string, number> = {};
  for (const sale of store.sales) states[sale.state] = (states[sale.state] ?? 0) + 1;
  return {
    phase,
    violations,
    inflows: ledger.filter((tx) => tx.status === 'success').length,
    sales: store.sales.length,
    paid: states['paid'] ?? 0,
    paidLate: states['paid_late'] ?? 0,
    lateFlagged,
    states,
    openPayments,
    timeToPaid,
    notYetDue,
    outage: countOutage(ledger, store),
  };
}

function countOutage(ledger: readonly LedgerTx[], store: StoreSnapshot): OutageCounts {
  const outageSales = store.sales.filter(isOutageSale);
  const outageRefs = new Set(
    store.accounts.filter((a) => a.purpose === 'outage').map((a) => a.reference),
  );
  const paidBy = new Set(outageSales.map((sale) => sale.paidSessionId));
  return {
    sales: outageSales.length,
    confirmed: store.events.filter(
      (e) => e.toState === 'paid' && e.cause === CONFIRMED_AFTER_OUTAGE,
    ).length,
    toAPerson: ledger.filter(
      (tx) =>
        tx.status === 'success' &&
        outageRefs.has(tx.external_reference) &&
        !paidBy.has(tx.session_id),
    ).length,
  };
}

/** The provider's `date` of a transfer, in its whole seconds (what the till can compare). */
function dateSecond(tx: LedgerTx): number {
  return Math.floor(tx.created_at_ms / DATE_PRECISION_MS);
}

/** The ledger's exact success that paid the sale, if the sale is paid by one. */
function exactPaymentOf(
  sale: StoreSale,
  ledgerBySession: ReadonlyMap<string, LedgerTx>,
): LedgerTx | undefined {
  const tx = sale.paidSessionId === null ? undefined : ledgerBySession.get(sale.paidSessionId);
  return tx?.status === 'success' &&
    tx.amount_kobo === sale.amountKobo &&
    tx.external_reference === sale.reference
    ? tx
    : undefined;
}

/**
 * Of a sale's exact successes, the one the provider dates first pays it (to the second, the
 * date's precision), whichever the till heard of first; no open 'paid_twice' alert may name it.
 */
function paymentOrderViolations(
  ledger: readonly LedgerTx[],
  store: StoreSnapshot,
  ledgerBySession: ReadonlyMap<string, LedgerTx>,
): string[] {
  const messages: string[] = [];
  for (const sale of store.sales) {
    if (isOutageSale(sale)) continue;
    const paying = exactPaymentOf(sale, ledgerBySession);
    if (!paying) continue;
    const earlier = ledger.find(
      (tx) =>
        tx.status === 'success' &&
        tx.external_reference === sale.reference &&
        tx.amount_kobo === sale.amountKobo &&
        dateSecond(tx) < dateSecond(paying),
    );
    if (earlier) {
      messages.push(
        `sale ${sale.id} is '${sale.state}' by ${paying.session_id} (dated ${paying.created_at_ms}), but ${earlier.session_id} paid it earlier (dated ${earlier.created_at_ms})`,
      );
    }
    const refundTold = store.alerts.some(
      (a) =>
        a.kind === 'paid_twice' && a.sessionId === paying.session_id && a.acknowledged !== true,
    );
    if (refundTold) {
      messages.push(
        `sale ${sale.id}: an open 'paid_twice' alert tells the owner to refund ${paying.session_id}, the transfer that paid it`,
      );
    }
  }
  return messages;
}

/** A sale taken on the outage account (it asks an amount due, not its own account's amount). */
export function isOutageSale(sale: StoreSale): boolean {
  return sale.amountDueKobo !== null;
}

/** The outage sales a transfer could be for: those that asked exactly its amount in the window. */
function outageSalesAsking(tx: LedgerTx, outageSales: readonly StoreSale[]): StoreSale[] {
  return outageSales.filter(
    (sale) =>
      sale.amountDueKobo === tx.amount_kobo &&
      tx.created_at_ms >= sale.createdAt - OUTAGE_WINDOW.beforeSaleMs - DATE_PRECISION_MS &&
      tx.created_at_ms <= sale.createdAt + OUTAGE_WINDOW.afterSaleMs,
  );
}

/**
 * The outage invariants. Always: (1) no transfer pays two outage sales, no outage sale is paid
 * by two transfers; (4) an unconfirmed sale never becomes expired or cancelled (nobody in the
 * campaign closes one by hand). After recovery, when every transfer has reached the till:
 * (2) an outage sale is paid iff an exact success for it arrived in the window that no other
 * outage sale asked for (then by one of those; by that one when it is the only one), and a sale
 * is never paid by a transfer of another amount or into another account; (3) every success into
 * the outage account that paid no sale has an open 'needs_person' alert naming it.
 */
function outageViolations(
  ledger: readonly LedgerTx[],
  store: StoreSnapshot,
  recovered: boolean,
): [ViolationKind, string][] {
  const found: [ViolationKind, string][] = [];
  const outageSales = store.sales.filter(isOutageSale);
  const outageRefs = new Set(
    store.accounts.filter((a) => a.purpose === 'outage').map((a) => a.reference),
  );
  const successes = ledger.filter(
    (tx) => tx.status === 'success' && outageRefs.has(tx.external_reference),
  );
  const ledgerBySession = new Map(ledger.map((tx) => [tx.session_id, tx]));
  // (1) One transfer, one sale: by the sales' paid transfer and by the transfers' links.
  const payers = new Map<string, number[]>();
  for (const sale of outageSales) {
    if (sale.paidSessionId === null) continue;
    payers.set(sale.paidSessionId, [...(payers.get(sale.paidSessionId) ?? []), sale.id]);
  }
  for (const [session, sales] of payers) {
    if (sales.length > 1) {
      found.push(['outage_double_pay', `${session} pays outage sales ${sales.join(', ')}`]);
    }
  }
  for (const sale of outageSales) {
    const linked = store.inflows.filter((row) => row.saleId === sale.id);
    if (linked.length > 1) {
      found.push([
        'outage_double_pay',
        `outage sale ${sale.id} is paid by ${linked.map((row) => row.sessionId).join(' and ')}`,
      ]);
    }
  }
  // (4) Unconfirmed until paid: nothing else.
  for (const sale of outageSales) {
    const closed = store.events.find(
      (e) => e.saleId === sale.id && e.toState !== 'unconfirmed' && e.toState !== 'paid',
    );
    if (closed) {
      found.push([
        'outage_sale_closed',
        `outage sale ${sale.id} became '${closed.toState}' (${closed.cause}) at ${closed.at}`,
      ]);
    }
  }
  // (2) Paid by an exact transfer that is its alone; never by anything else.
  for (const sale of outageSales) {
    const paying =
      sale.paidSessionId === null ? undefined : ledgerBySession.get(sale.paidSessionId);
    if (sale.paidSessionId !== null) {
      const asking = paying ? outageSalesAsking(paying, outageSales) : [];
      const ok =
        paying?.status === 'success' &&
        outageRefs.has(paying.external_reference) &&
        asking.length === 1 &&
        asking[0]?.id === sale.id;
      if (!ok) {
        found.push([
          'outage_wrong_match',
          `outage sale ${sale.id} (asked ${sale.amountDueKobo} kobo) is paid by ${sale.paidSessionId}: ${paying ? `${paying.status} ${paying.amount_kobo} kobo, which ${asking.length} outage sale(s) asked` : 'unknown to the provider'}`,
        ]);
      }
    }
    if (!recovered) continue;
    const its = successes.filter((tx) => {
      const asking = outageSalesAsking(tx, outageSales);
      return asking.length === 1 && asking[0]?.id === sale.id;
    });
    if (its.length > 0 && sale.state !== 'paid') {
      found.push([
        'outage_wrong_match',
        `outage sale ${sale.id} is '${sale.state}' though ${its.map((tx) => tx.session_id).join(', ')} sent exactly its ${sale.amountDueKobo} kobo`,
      ]);
    }
    const only = its.length === 1 ? its[0] : undefined;
    if (only && sale.paidSessionId !== null && sale.paidSessionId !== only.session_id) {
      found.push([
        'outage_wrong_match',
        `outage sale ${sale.id} is paid by ${sale.paidSessionId}, not by ${only.session_id}, its one exact transfer`,
      ]);
    }
  }
  // (3) Money no sale took goes to a person.
  if (recovered) {
    const paidBy = new Set(outageSales.map((sale) => sale.paidSessionId));
    for (const tx of successes) {
      if (paidBy.has(tx.session_id)) continue;
      const flagged = store.alerts.some(
        (a) => a.kind === NEEDS_PERSON && a.sessionId === tx.session_id && a.acknowledged !== true,
      );
      if (!flagged) {
        found.push([
          'outage_payment_not_flagged',
          `${tx.session_id} (${tx.amount_kobo} kobo) into the outage account paid no sale and has no open 'needs_person' alert`,
        ]);
      }
    }
  }
  return found;
}

/** The p-th percentile (0..100) of a list, nearest rank; null for an empty list. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? null;
}
