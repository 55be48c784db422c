import { koboToNaira } from '../../shared/money';
import type { FaultInjector } from './faults';
import { formatProviderDate } from './lagos-time';
import type { SandboxDb } from './sandbox-db';
import {
  insertAttempt,
  insertDispatch,
  pendingDispatches,
  setDispatchState,
  transactionBySession,
  type CallbackTarget,
  type DispatchCause,
  type TransactionRow,
} from './sandbox-state';

/** The sandbox's callback body (the real payload is not shown in the interface). */
export interface CallbackPayload {
  readonly event: 'payment.success';
  /** The account's external_reference (the integrator's own reference). */
  readonly reference: string;
  readonly external_reference: string;
  readonly account_number: string;
  readonly session_id: string;
  /** Naira. */
  readonly amount: number;
  readonly status: 'success';
  readonly date: string;
  readonly type: TransactionRow['accountType'];
}

export function callbackPayload(tx: TransactionRow): CallbackPayload {
  return {
    event: 'payment.success',
    reference: tx.externalReference,
    external_reference: tx.externalReference,
    account_number: tx.accountNumber,
    session_id: tx.sessionId,
    amount: koboToNaira(tx.amountKobo),
    status: 'success',
    date: formatProviderDate(tx.createdAtMs),
    type: tx.accountType,
  };
}

export const DEFAULT_CALLBACK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000];
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5000;

export interface CallbackDispatcherOptions {
  readonly db: SandboxDb;
  readonly now: () => number;
  readonly fetch: typeof fetch;
  readonly faults: FaultInjector;
  readonly retryDelaysMs: readonly number[];
  readonly timeoutMs: number;
  readonly fallbackUrl: () => string | undefined;
}

type AttemptResult = 'delivered' | 'retry';

/**
 * Delivers payment callbacks. Each delivery (a "dispatch") is persisted before it is tried, so
 * a restart resumes the unfinished ones; each HTTP try is recorded as an attempt. An attempt
 * POSTs to the primary URL; when that is unreachable (network error, not an HTTP status) and a
 * fallback URL is configured, the same attempt goes on to the fallback. A non-2xx answer or a
 * failed attempt is retried after the next configured delay, until the delays run out.
 */
export class CallbackDispatcher {
  private closed = false;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly options: CallbackDispatcherOptions) {}

  /** A payment succeeded: deliver its callback, subject to the drop and duplicate faults. */
  paymentSucceeded(sessionId: string): void {
    const { db, now, faults } = this.options;
    if (faults.shouldDropCallback()) {
      insertDispatch(db, sessionId, 'payment', 'dropped', now());
      return;
    }
    this.start(sessionId, 'payment');
    if (faults.shouldDuplicateCallback()) this.start(sessionId, 'duplicate');
  }

  /** Explicit re-sends from the control API: exactly `copies` deliveries, no faults applied. */
  resend(sessionId: string, copies: number): readonly number[] {
    const ids: number[] = [];
    for (let i = 0; i < copies; i += 1) ids.push(this.start(sessionId, 'resend'));
    return ids;
  }

  /** Picks up deliveries a previous run left unfinished. */
  resumePending(): void {
    for (const dispatch of pendingDispatches(this.options.db))
      this.run(dispatch.id, dispatch.sessionId);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    for (const wake of this.sleepers) wake();
    await Promise.allSettled([...this.running]);
  }

  private start(sessionId: string, cause: DispatchCause): number {
    const id = insertDispatch(this.options.db, sessionId, cause, 'pending', this.options.now());
    // While closing, the dispatch is only recorded: the next run resumes it.
    if (!this.closed) this.run(id, sessionId);
    return id;
  }

  private run(dispatchId: number, sessionId: string): void {
    const task = this.deliver(dispatchId, sessionId).finally(() => this.running.delete(task));
    this.running.add(task);
  }

  private async deliver(dispatchId: number, sessionId: string): Promise<void> {
    const { db, retryDelaysMs } = this.options;
    const tx = transactionBySession(db, sessionId);
    if (tx === undefined) {
      setDispatchState(db, dispatchId, 'failed');
      return;
    }
    const body = JSON.stringify(callbackPayload(tx));
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.attempt(dispatchId, attempt, tx.callbackUrl, body);
      if (this.closed) return; // left pending: the next run resumes it
      if (result === 'delivered') {
        setDispatchState(db, dispatchId, 'delivered');
        return;
      }
      const delay = retryDelaysMs[attempt - 1];
      if (delay === undefined) {
        setDispatchState(db, dispatchId, 'failed');
        return;
      }
      await this.sleep(delay);
      if (this.closed) return;
    }
  }

  private async attempt(
    dispatchId: number,
    attempt: number,
    primaryUrl: string,
    body: string,
  ): Promise<AttemptResult> {
    const primary = await this.post(dispatchId, attempt, 'primary', primaryUrl, body);
    if (primary !== 'unreachable') return primary;
    const fallbackUrl = this.options.fallbackUrl();
    if (fallbackUrl === undefined || this.closed) return 'retry';
    const fallback = await this.post(dispatchId, attempt, 'fallback', fallbackUrl, body);
    return fallback === 'delivered' ? 'delivered' : 'retry';
  }

  private async post(
    dispatchId: number,
    attempt: number,
    target: CallbackTarget,
    url: string,
    body: string,
  ): Promise<AttemptResult | 'unreachable'> {
    const { db, now, timeoutMs } = this.options;
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const response = await this.options.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'transfer-till-sandbox-provider',
          'x-sandbox-dispatch-id': String(dispatchId),
          'x-sandbox-attempt': String(attempt),
        },
        body,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(timeoutMs)]),
      });
      httpStatus = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (caught) {
      error = describeFetchError(caught);
    }
    if (this.closed) return 'retry';
    insertAttempt(db, { dispatchId, attempt, target, url, httpStatus, error, atMs: now() });
    if (httpStatus === null) return 'unreachable';
    return httpStatus >= 200 && httpStatus < 300 ? 'delivered' : 'retry';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}

/** fetch wraps the socket error in `cause`; its code (ECONNREFUSED...) is what a reader wants. */
function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    const cause: unknown = error.cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      return code !== undefined ? `${code}: ${cause.message}` : cause.message;
    }
    return error.name === 'TimeoutError' ? 'timeout' : error.message;
  }
  return String(error);
}
