import { formatNaira } from '../../shared/money';
import {
  isOpenSaleState,
  type CallbackMode,
  type SaleState,
  type SaleView,
} from '../../shared/sales';
import type { Logger } from '../logging/logger';
import type { PaymentCheck, ProviderClient } from '../provider/client';
import { isProviderError, type ProviderError } from '../provider/errors';
import type { ReferenceGenerator } from '../provider/references';
import type {
  PaymentStatusRecord,
  TransactionRecord,
  VirtualAccountType,
} from '../provider/schemas';
import {
  getAccount,
  getAccountByReference,
  insertPendingAccount,
  markAccountActive,
  setAccountStatus,
  type AccountRow,
} from '../store/accounts-repo';
import { raiseAlert, type AlertRow, type NewAlert } from '../store/alerts-repo';
import { listUnprocessedCallbacks, markCallbackProcessed } from '../store/callback-log-repo';
import type { Db } from '../store/database';
import {
  getInflowBySession,
  upsertInflow,
  type InflowRow,
  type InflowSource,
} from '../store/inflows-repo';
import {
  getSale,
  getSaleByReference,
  getSaleOrThrow,
  insertSale,
  listWatchedSales,
  transitionSale,
  type SaleChange,
  type SaleRow,
} from '../store/sales-repo';
import type { Scheduler } from './scheduler';

export class SaleError extends Error {
  constructor(
    readonly code: 'INVALID_AMOUNT' | 'SALE_NOT_FOUND' | 'SALE_NOT_OPEN' | 'NOT_CONFIGURED',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'SaleError';
  }
}

/** What the engine reads from settings each time it needs it (settings may change). */
export interface EngineSettings {
  readonly accountName: string;
  readonly merchantId: string;
  readonly merchantCategory: string;
  readonly expiryMinutes: number;
  readonly maxSaleKobo: number;
  readonly tillId: string;
}

export interface CallbackRoute {
  /** The callback_url given to the provider at creation. */
  readonly url: string;
  /** Whether the provider can reach it now (tunnel online, public URL, local sandbox). */
  readonly live: boolean;
}

export interface PollPolicy {
  /** Delays before the first retries: the interface's 2 s, 4 s, 8 s. */
  readonly backoffMs: readonly number[];
  /** The steady interval once the backoff is used up (section 8: 30 s or more). */
  readonly steadyMs: number;
  /** How long after expiry a pending transfer is still watched for a late payment. */
  readonly lateGraceMs: number;
  /** Wait after the deadline before the final status check (provider clock skew). */
  readonly expiryCheckDelayMs: number;
}

export const DEFAULT_POLL_POLICY: PollPolicy = {
  backoffMs: [2_000, 4_000, 8_000],
  steadyMs: 30_000,
  lateGraceMs: 30 * 60_000,
  expiryCheckDelayMs: 5_000,
};

export interface EngineEvents {
  saleChanged(view: SaleView): void;
  inflowRecorded(row: InflowRow): void;
  alertRaised(alert: AlertRow): void;
}

export interface SalesEngineDeps {
  readonly db: Db;
  readonly client: () => ProviderClient;
  readonly references: ReferenceGenerator;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly settings: () => EngineSettings;
  readonly callbackRoute: () => CallbackRoute;
  readonly events: EngineEvents;
  readonly poll?: PollPolicy;
}

export interface NewSaleInput {
  readonly amountKobo: number;
  readonly note?: string | null;
  readonly cashier?: string | null;
}

export interface CallbackHint {
  readonly reference?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly amountKobo?: number | undefined;
  readonly status?: string | undefined;
  readonly accountNumber?: string | undefined;
}

type CheckTrigger = 'callback' | 'poll' | 'cashier' | 'expiry' | 'resume';

interface Watch {
  cancelTimer: (() => void) | null;
  attempt: number;
  alertedAtCap: boolean;
}

/** States from which a confirmed payment makes the sale paid (not paid late). */
const PAYABLE: readonly SaleState[] = ['awaiting_payment', 'confirming', 'wrong_amount'];
/** States from which a confirmed payment is a late payment. */
const LATE: readonly SaleState[] = ['expired', 'cancelled', 'failed_to_create'];

/**
 * The life of a sale from "the cashier typed an amount" to "the money is confirmed".
 *
 * A callback is only a hint: a sale becomes paid only when the provider's status endpoint,
 * called with our own key, answers `success` for the sale's reference with the exact amount.
 * Every inflow is stored once per session_id. Polling follows the interface's backoff when no
 * callback can come or one is overdue, and there is never more than one poll loop per sale.
 * All checks of one sale run one after another, so two reports of the same payment cannot race.
 */
export function createSalesEngine(deps: SalesEngineDeps) {
  const { db, scheduler, logger, events } = deps;
  const poll = deps.poll ?? DEFAULT_POLL_POLICY;
  const watches = new Map<number, Watch>();
  const expiryTimers = new Map<number, () => void>();
  const locks = new Map<number, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Runs fn after every earlier task of the same sale has finished. */
  function withSale<T>(saleId: number, fn: () => Promise<T>): Promise<T> {
    const previous = locks.get(saleId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    locks.set(saleId, next);
    void next
      .finally(() => {
        if (locks.get(saleId) === next) locks.delete(saleId);
      })
      .catch(() => undefined);
    return track(next);
  }

  function view(sale: SaleRow): SaleView {
    const account = sale.accountId === null ? undefined : getAccount(db, sale.accountId);
    return {
      id: sale.id,
      state: sale.state,
      reason: sale.reason,
      amountKobo: sale.amountKobo,
      note: sale.note,
      cashier: sale.cashier,
      tillId: sale.tillId,
      reference: sale.reference,
      accountNumber: account?.accountNumber ?? null,
      accountName: account?.accountName ?? null,
      bank: account?.bank ?? null,
      expiresAt: sale.expiresAt,
      paidAt: sale.paidAt,
      paidSessionId: sale.paidSessionId,
      createdAt: sale.createdAt,
      updatedAt: sale.updatedAt,
      callbackMode: callbackMode(),
    };
  }

  function callbackMode(): CallbackMode {
    return deps.callbackRoute().live ? 'live' : 'polling';
  }

  /** Events waiting for the transaction that caused them to commit (see atomically). */
  let deferred: (() => void)[] | null = null;

  function publish(send: () => void): void {
    if (deferred) deferred.push(send);
    else send();
  }

  /**
   * Runs fn in one transaction — one commit, one fsync, for a payment's inflow row, its sale
   * change and any alert — and publishes the events it raised only once that commit is done,
   * so the renderer never hears of a change the disk does not have.
   */
  function atomically<T>(fn: () => T): T {
    if (deferred) return fn();
    const queue: (() => void)[] = [];
    deferred = queue;
    let result: T;
    try {
      result = db.transaction(fn)();
    } finally {
      deferred = null;
    }
    for (const send of queue) send();
    return result;
  }

  function change(
    saleId: number,
    next: SaleChange,
    expect?: readonly SaleState[],
  ): SaleRow | undefined {
    const updated = transitionSale(db, saleId, next, scheduler.now(), expect);
    if (updated) {
      logger.info({ saleId, state: updated.state, cause: next.cause }, 'sale changed');
      const shown = view(updated);
      publish(() => events.saleChanged(shown));
    }
    return updated;
  }

  function alert(input: NewAlert): void {
    const row = raiseAlert(db, input, scheduler.now());
    if (row) {
      logger.warn({ kind: row.kind, saleId: row.saleId }, row.message);
      publish(() => events.alertRaised(row));
    }
  }

  function recordInflow(
    record: Pick<TransactionRecord, 'sessionId' | 'amountKobo' | 'status' | 'date' | 'dateMs'> & {
      readonly externalReference: string | null;
    },
    source: InflowSource,
    link: { readonly saleId?: number | null; readonly accountId?: number | null },
  ): InflowRow {
    const result = upsertInflow(
      db,
      {
        sessionId: record.sessionId,
        externalReference: record.externalReference,
        amountKobo: record.amountKobo,
        status: record.status,
        providerDate: record.date,
        occurredAt: record.dateMs,
        saleId: link.saleId ?? null,
        accountId: link.accountId ?? null,
      },
      source,
      scheduler.now(),
    );
    if (result.amountConflict) {
      alert({
        level: 'error',
        kind: 'amount_conflict',
        sessionId: record.sessionId,
        message: `The provider reported two different amounts for transfer ${record.sessionId}; the first (${formatNaira(result.row.amountKobo)}) is kept. Check it with the provider.`,
        dedupeKey: `amount_conflict:${record.sessionId}`,
      });
    }
    if (result.inserted || result.statusChanged) publish(() => events.inflowRecorded(result.row));
    return result.row;
  }

  // ---------------------------------------------------------------------------------------
  // Creating a sale

  /** The pending row of a sale's nonstatic account, written before the provider is asked. */
  function insertSaleAccount(reference: string, amountKobo: number): AccountRow {
    return insertPendingAccount(
      db,
      {
        type: 'nonstatic',
        purpose: 'sale',
        reference,
        amountKobo,
        expiryMinutes: deps.settings().expiryMinutes,
        callbackUrl: deps.callbackRoute().url,
      },
      scheduler.now(),
    );
  }

  /** Back to 'creating' with a fresh reference and account row (after a 409, or a retry). */
  function restartCreation(
    sale: SaleRow,
    why: Pick<SaleChange, 'cause' | 'reason' | 'detail'>,
    expect?: readonly SaleState[],
  ): void {
    const reference = deps.references.next();
    db.transaction(() => {
      if (sale.accountId !== null) {
        setAccountStatus(db, sale.accountId, 'failed_to_create', scheduler.now());
      }
      const account = insertSaleAccount(reference, sale.amountKobo);
      change(
        sale.id,
        { ...why, state: 'creating', fields: { reference, accountId: account.id } },
        expect,
      );
    })();
  }

  async function createAccountFor(saleId: number, attempt: 1 | 2): Promise<SaleRow> {
    const sale = getSaleOrThrow(db, saleId);
    const settings = deps.settings();
    const route = deps.callbackRoute();
    const startedAt = scheduler.now();
    try {
      const issued = await deps.client().createVirtualAccount({
        reference: sale.reference,
        accountName: settings.accountName,
        merchantId: settings.merchantId,
        merchant: settings.merchantCategory,
        type: 'nonstatic',
        amountKobo: sale.amountKobo,
        expiryMinutes: settings.expiryMinutes,
        callbackUrl: route.url,
      });
      // The provider starts the clock somewhere between our request and its answer: counting
      // from the request keeps our countdown on the safe side of the provider's.
      const expiresAt = startedAt + settings.expiryMinutes * 60_000;
      if (sale.accountId !== null) {
        markAccountActive(
          db,
          sale.accountId,
          {
            providerReference: issued.providerReference,
            accountNumber: issued.accountNumber,
            accountName: issued.accountName,
            bank: issued.bank,
            expiresAt,
          },
          scheduler.now(),
        );
      }
      const updated = change(
        saleId,
        {
          state: 'awaiting_payment',
          cause: 'account-created',
          reason: null,
          fields: { expiresAt },
        },
        ['creating'],
      );
      if (!updated) return getSaleOrThrow(db, saleId);
      startWatching(updated);
      return updated;
    } catch (error) {
      if (isProviderError(error) && error.code === 'REFERENCE_IN_USE' && attempt === 1) {
        // Someone (another till, an earlier crashed run) used this reference: one retry with a
        // fresh one, never a blind resend of the same request.
        restartCreation(sale, {
          cause: 'reference-in-use',
          detail: { previousReference: sale.reference },
        });
        return createAccountFor(saleId, 2);
      }
      const reason = createFailureReason(error);
      logger.warn({ saleId, err: error }, 'creating the virtual account failed');
      if (sale.accountId !== null)
        setAccountStatus(db, sale.accountId, 'failed_to_create', scheduler.now());
      return (
        change(
          saleId,
          {
            state: 'failed_to_create',
            cause: isProviderError(error) ? `create-${error.code.toLowerCase()}` : 'create-error',
            reason,
          },
          ['creating'],
        ) ?? getSaleOrThrow(db, saleId)
      );
    }
  }

  async function createSale(input: NewSaleInput): Promise<SaleView> {
    const settings = deps.settings();
    if (!Number.isSafeInteger(input.amountKobo) || input.amountKobo <= 0) {
      throw new SaleError('INVALID_AMOUNT', 'Enter an amount greater than ₦0.00.', 'amount');
    }
    if (input.amountKobo > settings.maxSaleKobo) {
      throw new SaleError(
        'INVALID_AMOUNT',
        `The largest sale this till accepts is ${formatNaira(settings.maxSaleKobo)} (see Settings).`,
        'amount',
      );
    }
    const reference = deps.references.next();
    const now = scheduler.now();
    // The sale is stored before the provider is called, and again after: a crash in between
    // leaves a 'creating' sale that the next start resolves.
    const sale = db.transaction(() => {
      const account = insertSaleAccount(reference, input.amountKobo);
      return insertSale(
        db,
        {
          accountId: account.id,
          amountKobo: input.amountKobo,
          note: input.note?.trim() || null,
          cashier: input.cashier?.trim() || null,
          tillId: settings.tillId,
          reference,
        },
        now,
        'cashier',
      );
    })();
    events.saleChanged(view(sale));
    const result = await withSale(sale.id, () => createAccountFor(sale.id, 1));
    return view(result);
  }

  /** A sale whose account could not be created: try again with a new reference. */
  async function retrySale(saleId: number): Promise<SaleView> {
    const sale = requireSale(saleId);
    if (sale.state !== 'failed_to_create') {
      throw new SaleError(
        'SALE_NOT_OPEN',
        'Only a sale whose account could not be created can be retried.',
      );
    }
    restartCreation(sale, { cause: 'cashier-retry', reason: null }, ['failed_to_create']);
    return view(await withSale(saleId, () => createAccountFor(saleId, 1)));
  }

  function requireSale(saleId: number): SaleRow {
    const sale = getSale(db, saleId);
    if (!sale) throw new SaleError('SALE_NOT_FOUND', `Sale ${saleId} does not exist.`);
    return sale;
  }

  // ---------------------------------------------------------------------------------------
  // Confirming a payment

  function applyCheck(saleId: number, check: PaymentCheck, trigger: CheckTrigger): SaleRow {
    return atomically(() => applyCheckNow(saleId, check, trigger));
  }

  function applyCheckNow(saleId: number, check: PaymentCheck, trigger: CheckTrigger): SaleRow {
    const sale = getSaleOrThrow(db, saleId);
    const source: InflowSource = trigger === 'callback' ? 'callback' : 'poll';
    switch (check.kind) {
      case 'confirmed':
        return applyConfirmed(sale, check.record, source);
      case 'failed': {
        recordInflow({ ...check.record, externalReference: check.record.reference }, source, {
          saleId: sale.id,
          accountId: sale.accountId,
        });
        if (!PAYABLE.includes(sale.state)) return sale;
        return (
          change(
            sale.id,
            {
              state: 'wrong_amount',
              cause: `${trigger}-status-failed`,
              reason: `A transfer of ${formatNaira(check.record.amountKobo)} was rejected: the customer must send exactly ${formatNaira(sale.amountKobo)}.`,
              detail: { sessionId: check.record.sessionId },
            },
            PAYABLE,
          ) ?? sale
        );
      }
      case 'pending':
        if (check.record) {
          recordInflow({ ...check.record, externalReference: check.record.reference }, source, {
            saleId: sale.id,
            accountId: sale.accountId,
          });
        }
        if (sale.state === 'awaiting_payment' || sale.state === 'wrong_amount') {
          return (
            change(
              sale.id,
              {
                state: 'confirming',
                cause: `${trigger}-status-pending`,
                reason: 'The bank is still processing the transfer.',
              },
              ['awaiting_payment', 'wrong_amount'],
            ) ?? sale
          );
        }
        return sale;
      case 'unknown':
        alert({
          level: 'warning',
          kind: 'unknown_status',
          saleId: sale.id,
          message: `The provider answered an unknown status "${check.record.rawStatus}" for sale #${sale.id}. Still checking.`,
          dedupeKey: `unknown_status:${sale.id}:${check.record.rawStatus}`,
        });
        return sale;
      case 'not_found':
        return sale;
    }
  }

  function applyConfirmed(
    sale: SaleRow,
    record: PaymentStatusRecord,
    source: InflowSource,
  ): SaleRow {
    const inflow = recordInflow({ ...record, externalReference: record.reference }, source, {
      saleId: sale.id,
      accountId: sale.accountId,
    });
    if (sale.paidSessionId !== null) return sale;
    if (record.amountKobo !== sale.amountKobo) {
      // The interface says a nonstatic account only accepts the exact amount; a success with
      // another amount is an anomaly that a person must look at. Never mark the sale paid.
      alert({
        level: 'error',
        kind: 'amount_mismatch',
        saleId: sale.id,
        sessionId: record.sessionId,
        message: `Sale #${sale.id}: the provider confirmed ${formatNaira(record.amountKobo)} but the sale is for ${formatNaira(sale.amountKobo)}. Not marked paid; check with the provider.`,
        dedupeKey: `amount_mismatch:${record.sessionId}`,
      });
      return sale;
    }
    const paid = { paidSessionId: inflow.sessionId, paidAt: scheduler.now() };
    if (PAYABLE.includes(sale.state) || sale.state === 'creating') {
      const updated = change(
        sale.id,
        {
          state: 'paid',
          cause: `${source}-confirmed`,
          reason: null,
          fields: paid,
          detail: { sessionId: record.sessionId },
        },
        [...PAYABLE, 'creating'],
      );
      if (updated) stopWatching(sale.id);
      return updated ?? sale;
    }
    if (LATE.includes(sale.state)) {
      const before = sale.state;
      const updated = change(
        sale.id,
        {
          state: 'paid_late',
          cause: `${source}-confirmed-after-${before}`,
          reason: `Paid after the sale was ${before === 'failed_to_create' ? 'abandoned' : before}.`,
          fields: paid,
          detail: { sessionId: record.sessionId },
        },
        LATE,
      );
      alert({
        level: 'error',
        kind: 'paid_late',
        saleId: sale.id,
        sessionId: record.sessionId,
        message: `LATE PAYMENT: sale #${sale.id} (${formatNaira(sale.amountKobo)}) was paid after it was ${before}. The money arrived: give the goods or refund the customer.`,
        dedupeKey: `paid_late:${sale.id}`,
      });
      stopWatching(sale.id);
      return updated ?? sale;
    }
    return sale;
  }

  async function check(saleId: number, trigger: CheckTrigger): Promise<SaleRow> {
    const sale = getSaleOrThrow(db, saleId);
    if (sale.paidSessionId !== null || sale.state === 'creating') return sale;
    try {
      const result = await deps.client().checkPayment(sale.reference);
      return applyCheck(saleId, result, trigger);
    } catch (error) {
      logStatusError(sale, error);
      return getSaleOrThrow(db, saleId);
    }
  }

  function logStatusError(sale: SaleRow, error: unknown): void {
    logger.warn({ saleId: sale.id, err: error }, 'status check failed');
    if (
      isProviderError(error) &&
      (error.code === 'UNAUTHORIZED' || error.code === 'SETTLEMENT_ACCOUNT_NOT_FOUND')
    ) {
      alert({
        level: 'error',
        kind: 'provider_auth',
        message:
          'The provider refused our key while checking a payment. Check the secret key in Settings.',
        dedupeKey: `provider_auth:${new Date(scheduler.now()).toISOString().slice(0, 13)}`,
      });
    }
  }

  // ---------------------------------------------------------------------------------------
  // Watching: polling with backoff and the deadline

  function startWatching(sale: SaleRow): void {
    scheduleExpiry(sale);
    if (!deps.callbackRoute().live) startPolling(sale.id);
  }

  function scheduleExpiry(sale: SaleRow): void {
    if (sale.expiresAt === null || expiryTimers.has(sale.id)) return;
    const delay = sale.expiresAt - scheduler.now() + poll.expiryCheckDelayMs;
    const cancel = scheduler.setTimer(delay, () => {
      expiryTimers.delete(sale.id);
      void withSale(sale.id, () => onDeadline(sale.id));
    });
    expiryTimers.set(sale.id, cancel);
  }

  async function onDeadline(saleId: number): Promise<void> {
    if (closed) return;
    const after = await check(saleId, 'expiry');
    if (isOpenSaleState(after.state) && after.state !== 'creating') {
      const wasPending = after.state === 'confirming';
      const expired = change(
        saleId,
        {
          state: 'expired',
          cause: 'deadline',
          reason: wasPending
            ? 'Expired while the bank was still processing a transfer; still watching.'
            : 'Expired unpaid.',
        },
        ['awaiting_payment', 'confirming', 'wrong_amount'],
      );
      // A transfer still pending at the deadline may settle later: keep polling it through the
      // grace period so that a late payment is flagged, not lost.
      if (expired && wasPending) startPolling(saleId);
      else stopWatching(saleId);
    } else if (after.state === 'cancelled') {
      stopWatching(saleId);
    }
  }

  function startPolling(saleId: number, immediate = false): void {
    if (closed) return;
    const existing = watches.get(saleId);
    if (existing) {
      if (immediate) {
        // "Customer says they paid": check now, then restart the backoff from 2 s.
        existing.cancelTimer?.();
        existing.attempt = 0;
        schedulePoll(saleId, existing, 0);
      }
      return;
    }
    const watch: Watch = { cancelTimer: null, attempt: 0, alertedAtCap: false };
    watches.set(saleId, watch);
    schedulePoll(saleId, watch, immediate ? 0 : (poll.backoffMs[0] ?? poll.steadyMs));
  }

  function schedulePoll(saleId: number, watch: Watch, delay: number): void {
    watch.cancelTimer = scheduler.setTimer(delay, () => {
      watch.cancelTimer = null;
      void withSale(saleId, () => pollOnce(saleId, watch));
    });
  }

  async function pollOnce(saleId: number, watch: Watch): Promise<void> {
    if (closed || watches.get(saleId) !== watch) return;
    const sale = await check(saleId, 'poll');
    if (!stillWatched(sale)) {
      stopWatching(saleId);
      return;
    }
    watch.attempt += 1;
    const delay = poll.backoffMs[watch.attempt] ?? poll.steadyMs;
    if (
      watch.attempt >= poll.backoffMs.length &&
      !watch.alertedAtCap &&
      isOpenSaleState(sale.state)
    ) {
      watch.alertedAtCap = true;
      alert({
        level: 'warning',
        kind: 'poll_cap',
        saleId,
        message: `Sale #${saleId}: no confirmation yet after ${watch.attempt} checks. Still checking every ${Math.round(poll.steadyMs / 1000)} s; ask the customer to show the transfer receipt.`,
        dedupeKey: `poll_cap:${saleId}`,
      });
    }
    schedulePoll(saleId, watch, delay);
  }

  function stillWatched(sale: SaleRow): boolean {
    const now = scheduler.now();
    if (sale.paidSessionId !== null) return false;
    if (isOpenSaleState(sale.state)) return true;
    if (sale.state === 'cancelled')
      return sale.expiresAt !== null && now < sale.expiresAt + poll.expiryCheckDelayMs;
    if (sale.state === 'expired')
      return sale.expiresAt !== null && now < sale.expiresAt + poll.lateGraceMs;
    return false;
  }

  function stopWatching(saleId: number): void {
    const watch = watches.get(saleId);
    watch?.cancelTimer?.();
    watches.delete(saleId);
    const cancelExpiry = expiryTimers.get(saleId);
    if (cancelExpiry && !stillWatched(getSaleOrThrow(db, saleId))) {
      cancelExpiry();
      expiryTimers.delete(saleId);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Cashier actions

  function cancelSale(saleId: number): SaleView {
    const sale = requireSale(saleId);
    if (!isOpenSaleState(sale.state) || sale.state === 'creating') {
      throw new SaleError(
        'SALE_NOT_OPEN',
        `Sale #${saleId} is ${sale.state.replace('_', ' ')} and cannot be cancelled.`,
      );
    }
    // There is no cancel endpoint: the account stays valid at the provider until it expires,
    // so the engine keeps watching it and records a late payment if one comes.
    const updated = change(
      saleId,
      { state: 'cancelled', cause: 'cashier', reason: 'Cancelled by the cashier.' },
      ['awaiting_payment', 'confirming', 'wrong_amount'],
    );
    return view(updated ?? getSaleOrThrow(db, saleId));
  }

  async function customerSaysPaid(saleId: number): Promise<SaleView> {
    const sale = requireSale(saleId);
    if (!stillWatched(sale)) return view(sale);
    const checked = await withSale(saleId, () => check(saleId, 'cashier'));
    if (stillWatched(checked)) startPolling(saleId);
    return view(getSaleOrThrow(db, saleId));
  }

  // ---------------------------------------------------------------------------------------
  // Callbacks: a hint, confirmed with the status endpoint

  function saleForHint(hint: CallbackHint): SaleRow | undefined {
    if (hint.reference) {
      const byReference = getSaleByReference(db, hint.reference);
      if (byReference) return byReference;
      const account = getAccountByReference(db, hint.reference);
      if (account?.purpose === 'sale') {
        const sale = db.prepare('SELECT id FROM sales WHERE account_id = ?').get(account.id) as
          { id: number } | undefined;
        if (sale) return getSale(db, sale.id);
      }
    }
    if (hint.sessionId) {
      const inflow = getInflowBySession(db, hint.sessionId);
      if (inflow?.saleId) return getSale(db, inflow.saleId);
    }
    if (hint.accountNumber) {
      const row = db
        .prepare(
          `SELECT s.id FROM sales s JOIN virtual_accounts a ON a.id = s.account_id
           WHERE a.account_number = ? ORDER BY s.id DESC LIMIT 1`,
        )
        .get(hint.accountNumber) as { id: number } | undefined;
      if (row) return getSale(db, row.id);
    }
    return undefined;
  }

  /**
   * Tracked as a whole, not only its status check: idle() (and so close(), which closes the
   * database after it) must also wait for the outcome to be written to the callback log.
   */
  function handleCallback(callbackId: number | null, hint: CallbackHint | null): Promise<string> {
    return track(confirmCallback(callbackId, hint));
  }

  async function confirmCallback(
    callbackId: number | null,
    hint: CallbackHint | null,
  ): Promise<string> {
    const outcome = await (async (): Promise<string> => {
      const sale = hint ? saleForHint(hint) : undefined;
      if (!sale) {
        if (hint?.reference || hint?.accountNumber) {
          const counter = counterAccountForHint(hint);
          if (counter) return confirmCounterCallback(counter, hint);
        }
        alert({
          level: 'warning',
          kind: 'unknown_callback',
          message: `A payment notification arrived for a reference this till does not know (${hint?.reference ?? 'no reference'}). Nothing was marked paid; it will be checked against the provider's list at the next sync.`,
          dedupeKey: `unknown_callback:${hint?.reference ?? hint?.sessionId ?? callbackId}`,
        });
        return 'unknown-reference';
      }
      const after = await withSale(sale.id, () => check(sale.id, 'callback'));
      if (after.paidSessionId !== null)
        return after.state === 'paid_late' ? 'confirmed-late' : 'confirmed';
      // The provider does not confirm (yet): the callback is overdue news, so poll.
      if (stillWatched(after)) startPolling(sale.id);
      return `not-confirmed:${after.state}`;
    })();
    if (callbackId !== null) markCallbackProcessed(db, callbackId, outcome, scheduler.now());
    return outcome;
  }

  function counterAccountForHint(hint: CallbackHint): AccountRow | undefined {
    const account = hint.reference ? getAccountByReference(db, hint.reference) : undefined;
    if (account?.purpose === 'counter') return account;
    if (hint.accountNumber) {
      return db
        .prepare(
          `SELECT id FROM virtual_accounts WHERE purpose = 'counter' AND account_number = ? LIMIT 1`,
        )
        .all(hint.accountNumber)
        .map((row) => getAccount(db, (row as { id: number }).id))
        .find((row) => row !== undefined);
    }
    return undefined;
  }

  async function confirmCounterCallback(account: AccountRow, hint: CallbackHint): Promise<string> {
    try {
      const result = await deps.client().checkPayment(account.reference);
      if (
        result.kind === 'confirmed' &&
        (!hint.sessionId || result.record.sessionId === hint.sessionId)
      ) {
        recordInflow({ ...result.record, externalReference: account.reference }, 'callback', {
          accountId: account.id,
        });
        return 'counter-confirmed';
      }
      // A permanent account has many payments; the status endpoint shows one. The listing
      // sync confirms the rest.
      return 'counter-needs-sync';
    } catch (error) {
      logger.warn({ accountId: account.id, err: error }, 'counter account status check failed');
      return 'counter-needs-sync';
    }
  }

  // ---------------------------------------------------------------------------------------
  // Listing rows (from the sync): the provider's own list, fetched with our key

  function recordListedTransaction(tx: TransactionRecord): InflowRow {
    const sale = getSaleByReference(db, tx.externalReference);
    const account = getAccountByReference(db, tx.externalReference);
    const row = recordInflow(tx, 'listing', {
      saleId: sale?.id ?? null,
      accountId: account?.id ?? null,
    });
    if (sale && tx.status === 'success' && sale.paidSessionId === null) {
      void withSale(sale.id, () =>
        Promise.resolve(
          atomically(() =>
            applyConfirmed(
              getSaleOrThrow(db, sale.id),
              { ...tx, reference: tx.externalReference },
              'listing',
            ),
          ),
        ),
      );
    }
    return row;
  }

  // ---------------------------------------------------------------------------------------
  // Permanent counter accounts (static-flex: any amount; static: a fixed amount)

  async function createCounterAccount(input: {
    readonly type: Extract<VirtualAccountType, 'static' | 'static-flex'>;
    readonly amountKobo?: number;
  }): Promise<AccountRow> {
    const settings = deps.settings();
    const route = deps.callbackRoute();
    const reference = deps.references.next();
    const pending = insertPendingAccount(
      db,
      {
        type: input.type,
        purpose: 'counter',
        reference,
        amountKobo: input.type === 'static' ? (input.amountKobo ?? null) : null,
        expiryMinutes: null,
        callbackUrl: route.url,
      },
      scheduler.now(),
    );
    try {
      const issued = await deps.client().createVirtualAccount({
        reference,
        accountName: settings.accountName,
        merchantId: settings.merchantId,
        merchant: settings.merchantCategory,
        type: input.type,
        ...(input.type === 'static' ? { amountKobo: input.amountKobo } : {}),
        callbackUrl: route.url,
      });
      return markAccountActive(
        db,
        pending.id,
        {
          providerReference: issued.providerReference,
          accountNumber: issued.accountNumber,
          accountName: issued.accountName,
          bank: issued.bank,
          expiresAt: null,
        },
        scheduler.now(),
      );
    } catch (error) {
      setAccountStatus(db, pending.id, 'failed_to_create', scheduler.now());
      throw error;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Start-up: finish what a crash interrupted

  async function resume(): Promise<void> {
    const now = scheduler.now();
    for (const sale of listWatchedSales(db, now, poll.lateGraceMs)) {
      if (sale.state === 'creating') {
        // We never learned whether the provider made the account, and the cashier never saw a
        // number, so nobody can pay it: the sale failed to create and can be retried.
        if (sale.accountId !== null) setAccountStatus(db, sale.accountId, 'failed_to_create', now);
        change(
          sale.id,
          {
            state: 'failed_to_create',
            cause: 'resume-interrupted',
            reason: 'The app stopped while the account was being created. Retry the sale.',
          },
          ['creating'],
        );
        continue;
      }
      void withSale(sale.id, async () => {
        const checked = await check(sale.id, 'resume');
        if (!stillWatched(checked)) return;
        if (checked.expiresAt !== null && isOpenSaleState(checked.state)) {
          scheduleExpiry(checked);
          if (!callbacksReach(checked)) startPolling(sale.id);
        } else if (checked.state === 'cancelled' || checked.state === 'expired') {
          if (checked.state === 'cancelled') scheduleExpiry(checked);
          if (!callbacksReach(checked) || checked.state === 'expired') startPolling(sale.id);
        }
      });
    }
    for (const callback of listUnprocessedCallbacks(db)) {
      void track(
        handleCallback(callback.id, {
          reference: callback.hintReference ?? undefined,
          sessionId: callback.hintSessionId ?? undefined,
          amountKobo: callback.hintAmountKobo ?? undefined,
          status: callback.hintStatus ?? undefined,
        }),
      );
    }
    await idle();
  }

  /**
   * Whether the provider can reach us at the callback URL the sale's account was created with.
   * A restart without a fixed address (ngrok without a reserved domain, a listener on a free
   * port) gives a new URL, and the callbacks of accounts made before it go to the old one.
   */
  function callbacksReach(sale: SaleRow): boolean {
    const route = deps.callbackRoute();
    if (!route.live) return false;
    const account = sale.accountId === null ? undefined : getAccount(db, sale.accountId);
    return account?.callbackUrl === route.url;
  }

  /** Open sales move to polling when callbacks stop being live (tunnel down, URL changed). */
  function callbacksWentDown(): void {
    for (const sale of listWatchedSales(db, scheduler.now(), 0)) {
      if (sale.state !== 'creating') startPolling(sale.id);
    }
  }

  async function idle(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  function close(): void {
    closed = true;
    for (const watch of watches.values()) watch.cancelTimer?.();
    watches.clear();
    for (const cancel of expiryTimers.values()) cancel();
    expiryTimers.clear();
  }

  return {
    createSale,
    retrySale,
    cancelSale,
    customerSaysPaid,
    getSale: (saleId: number) => view(requireSale(saleId)),
    handleCallback,
    recordListedTransaction,
    createCounterAccount,
    callbacksWentDown,
    resume,
    idle,
    close,
    /** For tests and diagnostics: how many sales have a poll loop. */
    pollingCount: () => watches.size,
  };
}

export type SalesEngine = ReturnType<typeof createSalesEngine>;

function createFailureReason(error: unknown): string {
  if (!isProviderError(error)) return 'The account could not be created. Try again.';
  const e: ProviderError = error;
  switch (e.code) {
    case 'TIMEOUT':
    case 'NETWORK':
      return 'The provider did not answer. Check the internet connection and try again (no money can reach an account the customer never saw).';
    case 'SERVER_ERROR':
    case 'MALFORMED_RESPONSE':
    case 'UNEXPECTED_STATUS':
      return 'The provider had a problem creating the account. Try again.';
    case 'UNAUTHORIZED':
    case 'BAD_REQUEST':
      return 'The provider refused the request. Check the secret key and merchant details in Settings.';
    case 'SETTLEMENT_ACCOUNT_NOT_FOUND':
      return 'The provider does not know the settlement account for this key. Check that the key belongs to this environment.';
    case 'RATE_LIMITED':
      return 'The provider asked us to slow down. Wait a moment and try again.';
    case 'INVALID_REQUEST':
      return `The sale could not be sent to the provider: ${e.message}`;
    default:
      return 'The account could not be created. Try again.';
  }
}
