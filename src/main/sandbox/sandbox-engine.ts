import { decideOutcome, effectiveStatus, type TransferOutcome } from './amount-rules';
import type { CreateAccountRequest } from './create-account-request';
import { SandboxError } from './errors';
import { newAccountNumber, newAccountReference, newSessionId } from './ids';
import type { Personality } from './personality';
import type { SandboxDb } from './sandbox-db';
import type { ServedFaults } from './served-faults';
import {
  accountByExternalReference,
  accountByNumber,
  countTransactions,
  creditBalances,
  insertAccount,
  insertTransaction,
  pageTransactions,
  pendingTransactions,
  sessionIdTaken,
  setAccountStatus,
  settleTransaction,
  transactionBySession,
  transactionsOfAccount,
  type AccountRow,
  type ListingOrder,
  type TransactionRow,
} from './sandbox-state';

/** Longest `pending_ms` the control API accepts: one day. */
export const MAX_PENDING_MS = 24 * 60 * 60 * 1000;

/** setTimeout's ceiling; a later settlement is re-armed when it fires, or settled lazily. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TransferRequest {
  readonly accountNumber: string;
  readonly amountKobo: number;
  readonly pendingMs: number;
}

export interface SandboxEngineOptions {
  readonly db: SandboxDb;
  readonly now: () => number;
  readonly payoutAccountId: string;
  /** Called after the commit of every successful payment (immediate or settled). */
  readonly onPaymentSucceeded: (sessionId: string) => void;
  /** Called after the commit of every failed payment (immediate or settled). */
  readonly onPaymentFailed?: (sessionId: string) => void;
  readonly onError: (error: unknown) => void;
  /** The readings in force; read at each transfer and settlement. */
  readonly personality: () => Personality;
  readonly served: ServedFaults;
}

/**
 * The provider's behaviour, free of HTTP: issuing accounts, taking transfers under the amount
 * rules, settling pending ones (by timer and lazily on every read, so a restart loses nothing),
 * and answering status and listing queries. Every read entry point settles what is due first.
 */
export class SandboxEngine {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: SandboxEngineOptions) {}

  /** Settles what came due while the sandbox was down and arms timers for the rest. */
  start(): void {
    this.settleDue();
    for (const tx of pendingTransactions(this.options.db)) {
      if (tx.settleAtMs !== null) this.scheduleSettlement(tx.sessionId, tx.settleAtMs);
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  createAccount(request: CreateAccountRequest): AccountRow {
    const { db, now } = this.options;
    const createdAtMs = now();
    return db.transaction((): AccountRow => {
      if (accountByExternalReference(db, request.reference) !== undefined) {
        throw new SandboxError(
          'REFERENCE_EXISTS',
          'reference: a virtual account with this reference already exists',
        );
      }
      const account: AccountRow = {
        accountNumber: this.freshAccountNumber(),
        reference: newAccountReference(),
        externalReference: request.reference,
        accountName: request.accountName,
        merchantId: request.merchantId,
        merchantCategory: request.merchantCategory,
        type: request.type,
        amountKobo: request.amountKobo,
        expiresAtMs:
          request.expiresInMinutes === null
            ? null
            : createdAtMs + request.expiresInMinutes * 60_000,
        status: 'active',
        callbackUrl: request.callbackUrl,
        createdAtMs,
      };
      insertAccount(db, account);
      return account;
    })();
  }

  /**
   * A customer's transfer into a virtual account. Unknown accounts are refused outright and leave
   * no ledger row; so are expired and cancelled ones (the sender's bank never reaches the
   * account) unless the personality says `expired_payments: "accept"`.
   */
  transfer(request: TransferRequest): TransactionRow {
    const { db, now } = this.options;
    this.settleDue(); // earlier pending transfers first, so "already paid" is judged in order
    const account = this.requireAccount(request.accountNumber);
    const createdAtMs = now();
    const status = effectiveStatus(account, createdAtMs);
    const acceptExpired = this.options.personality().expired_payments === 'accept';
    if (status === 'cancelled' && !acceptExpired) {
      throw new SandboxError('ACCOUNT_CANCELLED', 'account_number: the account is cancelled');
    }
    if (status === 'expired' && !acceptExpired) {
      throw new SandboxError('ACCOUNT_EXPIRED', 'account_number: the account has expired');
    }
    if (status !== 'active') this.options.served.record('expired_payment_accepted');
    const sessionId = this.freshSessionId(createdAtMs);
    if (request.pendingMs > 0) {
      const settleAtMs = createdAtMs + request.pendingMs;
      insertTransaction(db, {
        sessionId,
        accountNumber: account.accountNumber,
        amountKobo: request.amountKobo,
        status: 'pending',
        reason: null,
        createdAtMs,
        settleAtMs,
        settledAtMs: null,
      });
      this.scheduleSettlement(sessionId, settleAtMs);
    } else {
      const outcome = db.transaction((): TransferOutcome => {
        const decided = this.decide(account, request.amountKobo);
        insertTransaction(db, {
          sessionId,
          accountNumber: account.accountNumber,
          amountKobo: request.amountKobo,
          status: decided.status,
          reason: decided.status === 'failed' ? decided.reason : null,
          createdAtMs,
          settleAtMs: null,
          settledAtMs: createdAtMs,
        });
        if (decided.status === 'success') creditBalances(db, request.amountKobo);
        return decided;
      })();
      this.settled(sessionId, outcome);
    }
    return this.requireTransaction(sessionId);
  }

  /** Applies the amount rules to every pending transfer whose time has come. */
  settleDue(): void {
    if (this.closed) return;
    const { db, now } = this.options;
    const nowMs = now();
    const settled = db.transaction(() => {
      const done: [string, TransferOutcome][] = [];
      for (const tx of pendingTransactions(db)) {
        if (tx.settleAtMs === null || tx.settleAtMs > nowMs) continue;
        const account = this.requireAccount(tx.accountNumber);
        const outcome = this.decide(account, tx.amountKobo);
        settleTransaction(
          db,
          tx.seq,
          outcome.status,
          outcome.status === 'failed' ? outcome.reason : null,
          nowMs,
        );
        if (outcome.status === 'success') creditBalances(db, tx.amountKobo);
        done.push([tx.sessionId, outcome]);
      }
      return done;
    })();
    for (const [sessionId, outcome] of settled) this.settled(sessionId, outcome);
  }

  private decide(account: AccountRow, amountKobo: number): TransferOutcome {
    const personality = this.options.personality();
    return decideOutcome(account, amountKobo, this.hasSuccess(account), {
      staticMismatch: personality.static_mismatch,
      repeatPayments: personality.repeat_payments,
    });
  }

  /** After the commit: count what the personality let through, then hand over the callbacks. */
  private settled(sessionId: string, outcome: TransferOutcome): void {
    if (outcome.status === 'success') {
      if (outcome.mismatchAccepted === true) {
        this.options.served.record('static_mismatch_accepted');
      }
      if (outcome.repeatAccepted === true) this.options.served.record('repeat_payment_accepted');
      this.options.onPaymentSucceeded(sessionId);
    } else {
      this.options.onPaymentFailed?.(sessionId);
    }
  }

  /**
   * The status lookup by external reference: the latest success wins; else a pending transfer
   * answers 409; else the latest failed one is reported (status `failed`); else 404.
   */
  paymentStatus(externalReference: string): TransactionRow {
    this.settleDue();
    const account = accountByExternalReference(this.options.db, externalReference);
    const txs =
      account === undefined ? [] : transactionsOfAccount(this.options.db, account.accountNumber);
    const latest = (status: TransactionRow['status']): TransactionRow | undefined =>
      txs.filter((tx) => tx.status === status).at(-1);
    const found = latest('success');
    if (found !== undefined) return found;
    if (latest('pending') !== undefined) {
      throw new SandboxError('PENDING', 'reference: the transaction is still pending');
    }
    const failed = latest('failed');
    if (failed !== undefined) return failed;
    throw new SandboxError('NOT_FOUND', 'reference: no transaction found for this reference');
  }

  listTransactions(
    offset: number,
    limit: number,
    order: ListingOrder = 'oldest_first',
  ): { readonly count: number; readonly rows: readonly TransactionRow[] } {
    this.settleDue();
    const { db } = this.options;
    return db.transaction(() => ({
      count: countTransactions(db),
      rows: pageTransactions(db, offset, limit, order),
    }))();
  }

  /** Ends a nonstatic account's life now, as if its `expiers_in` had run out. */
  expire(accountNumber: string): AccountRow {
    this.settleDue();
    const account = this.requireNonstatic(accountNumber, 'expire');
    const status = effectiveStatus(account, this.options.now());
    if (status === 'cancelled') {
      throw new SandboxError('ACCOUNT_CANCELLED', 'account_number: the account is cancelled');
    }
    setAccountStatus(this.options.db, accountNumber, 'expired');
    return this.requireAccount(accountNumber);
  }

  /** Cancels a nonstatic account before payment (section 3.1); idempotent once cancelled. */
  cancel(accountNumber: string): AccountRow {
    this.settleDue();
    const account = this.requireNonstatic(accountNumber, 'cancel');
    if (account.status === 'cancelled') return account;
    const txs = transactionsOfAccount(this.options.db, accountNumber);
    if (txs.some((tx) => tx.status === 'success')) {
      throw new SandboxError('CONFLICT', 'account_number: the account is already paid');
    }
    if (txs.some((tx) => tx.status === 'pending')) {
      throw new SandboxError('CONFLICT', 'account_number: a transfer to the account is pending');
    }
    setAccountStatus(this.options.db, accountNumber, 'cancelled');
    return this.requireAccount(accountNumber);
  }

  requireAccount(accountNumber: string): AccountRow {
    const account = accountByNumber(this.options.db, accountNumber);
    if (account === undefined) {
      throw new SandboxError('NOT_FOUND', 'account_number: no such virtual account');
    }
    return account;
  }

  requireTransaction(sessionId: string): TransactionRow {
    const tx = transactionBySession(this.options.db, sessionId);
    if (tx === undefined) throw new SandboxError('NOT_FOUND', 'session_id: no such transaction');
    return tx;
  }

  private requireNonstatic(accountNumber: string, action: string): AccountRow {
    const account = this.requireAccount(accountNumber);
    if (account.type !== 'nonstatic') {
      throw new SandboxError(
        'CONFLICT',
        `account_number: only nonstatic accounts can ${action}, this one is ${account.type}`,
      );
    }
    return account;
  }

  private hasSuccess(account: AccountRow): boolean {
    return transactionsOfAccount(this.options.db, account.accountNumber).some(
      (tx) => tx.status === 'success',
    );
  }

  private freshAccountNumber(): string {
    for (;;) {
      const candidate = newAccountNumber();
      if (
        candidate !== this.options.payoutAccountId &&
        accountByNumber(this.options.db, candidate) === undefined
      ) {
        return candidate;
      }
    }
  }

  private freshSessionId(atMs: number): string {
    for (;;) {
      const candidate = newSessionId(atMs);
      if (!sessionIdTaken(this.options.db, candidate)) return candidate;
    }
  }

  /**
   * The timer runs on real time while `now` may be an injected clock: when it fires and the
   * transfer is still not due, it is re-armed only if the clock is moving; a frozen test clock
   * relies on the lazy settlement of the next read instead of spinning.
   */
  private scheduleSettlement(sessionId: string, settleAtMs: number): void {
    if (this.closed) return;
    const armedAt = this.options.now();
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (this.closed) return;
        try {
          this.settleDue();
          const tx = transactionBySession(this.options.db, sessionId);
          if (tx?.status === 'pending' && this.options.now() !== armedAt) {
            this.scheduleSettlement(sessionId, settleAtMs);
          }
        } catch (error) {
          this.options.onError(error);
        }
      },
      Math.min(MAX_TIMER_MS, Math.max(0, settleAtMs - armedAt)),
    );
    timer.unref();
    this.timers.add(timer);
  }
}
