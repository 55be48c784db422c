import { koboToNaira } from '#shared/money';
import type { FaultInjector } from './faults';
import { formatProviderDate } from './lagos-time';
import type { Personality } from './personality';
import type { SandboxDb } from './sandbox-db';
import type { ServedFaults } from './served-faults';
import {
  insertAttempt,
  insertDispatch,
  pendingDispatches,
  setDispatchState,
  transactionBySession,
  type CallbackUrlSlot,
  type DispatchCause,
  type TransactionRow,
} from './sandbox-state';

/**
 * The sandbox's callback body (the real payload is not shown in the interface). A failure
 * notice (personality `failed_callbacks: "sent"`) has the same fields with `payment.failed`.
 */
export interface CallbackPayload {
  readonly event: 'payment.success' | 'payment.failed';
  /** The account's external_reference (the integrator's own reference). */
  readonly reference: string;
  readonly external_reference: string;
  readonly account_number: string;
  readonly session_id: string;
  /** Naira. */
  readonly amount: number;
  readonly status: 'success' | 'failed';
  readonly date: string;
  readonly type: TransactionRow['accountType'];
}

export function callbackPayload(tx: TransactionRow): CallbackPayload {
  const failed = tx.status === 'failed';
  return {
    event: failed ? 'payment.failed' : 'payment.success',
    reference: tx.externalReference,
    external_reference: tx.externalReference,
    account_number: tx.accountNumber,
    session_id: tx.sessionId,
    amount: koboToNaira(tx.amountKobo),
    status: failed ? 'failed' : 'success',
    date: formatProviderDate(tx.createdAtMs),
    type: tx.accountType,
  };
}

/**
 * The same payment under field names that are none of ours (`callback_format: "foreign_form"`):
 * a provider written from the interface alone, which names its fields as it likes.
 */
export function foreignCallbackFields(payload: CallbackPayload): Readonly<Record<string, string>> {
  return {
    txnRef: payload.reference,
    vaNumber: payload.account_number,
    nipSessionRef: payload.session_id,
    amountPaid: String(payload.amount),
    txnStatus: payload.status === 'success' ? 'SUCCESSFUL' : 'FAILED',
    paidAt: payload.date,
    channel: 'bank_transfer',
  };
}

/**
 * The body as sent under `callback_format`: JSON, the same flat fields form-encoded, or a form
 * with foreign field names.
 */
export function encodeCallback(
  payload: CallbackPayload,
  format: Personality['callback_format'],
): { readonly body: string; readonly contentType: string } {
  if (format === 'json') return { body: JSON.stringify(payload), contentType: 'application/json' };
  const fields: readonly (readonly [string, unknown])[] = Object.entries(
    format === 'foreign_form' ? foreignCallbackFields(payload) : payload,
  );
  const form = new URLSearchParams();
  for (const [key, value] of fields) form.set(key, String(value));
  return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
}

type EncodedCallback = ReturnType<typeof encodeCallback>;

export const DEFAULT_CALLBACK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000];
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5000;
/** Real time in which callbacks due together are gathered before going out newest first. */
export const DEFAULT_REORDER_WINDOW_MS = 150;
/** How often held (late) callbacks are checked against the sandbox's clock, in real time. */
const LATE_POLL_MS = 25;

export interface CallbackDispatcherOptions {
  readonly db: SandboxDb;
  readonly now: () => number;
  readonly fetch: typeof fetch;
  readonly faults: FaultInjector;
  readonly retryDelaysMs: readonly number[];
  readonly timeoutMs: number;
  readonly fallbackUrl: () => string | undefined;
  readonly personality: () => Personality;
  readonly served: ServedFaults;
  readonly reorderWindowMs?: number;
}

type AttemptResult = 'delivered' | 'retry';

interface Held {
  readonly id: number;
  readonly sessionId: string;
  readonly dueAtMs: number;
  /** Held for an outage: due as soon as the shop is back, even when the outage ends early. */
  readonly outage?: boolean;
}

/**
 * Delivers payment callbacks. Each delivery (a "dispatch") is persisted before it is tried, so
 * a restart resumes the unfinished ones; each HTTP try is recorded as an attempt. An attempt
 * POSTs to the primary URL; when that is unreachable (network error, not an HTTP status) and a
 * fallback URL is configured, the same attempt goes on to the fallback. A non-2xx answer or a
 * failed attempt is retried after the next configured delay, until the delays run out.
 *
 * The `callbacks` personality shapes the payment callbacks (not explicit re-sends): "never"
 * records them as dropped; "late" holds each until `callback_delay_ms` has passed on the
 * sandbox's clock (checked by a short real-time poll and on every request, so a fast-forwarded
 * test clock releases them); "reordered" gathers the ones due within a short real-time window
 * and sends them newest first.
 *
 * During an outage (fault `unreachable_ms`) no callback goes out: each one that falls due is
 * held until the outage ends, as a provider that retries until the shop is back online.
 */
export class CallbackDispatcher {
  private closed = false;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  private readonly held = new Map<number, Held>();
  private latePoll: NodeJS.Timeout | undefined;
  private batch: { id: number; sessionId: string }[] = [];
  private batchTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: CallbackDispatcherOptions) {}

  /** A payment succeeded: deliver its callback, subject to the personality and the faults. */
  paymentSucceeded(sessionId: string): void {
    this.paymentCallback(sessionId);
  }

  /** A payment failed: a failure notice goes out only under `failed_callbacks: "sent"`. */
  paymentFailed(sessionId: string): void {
    if (this.options.personality().failed_callbacks !== 'sent') return;
    if (this.paymentCallback(sessionId)) this.options.served.record('failed_callbacks_sent');
  }

  /** Explicit re-sends from the control API: exactly `copies` deliveries, sent at once. */
  resend(sessionId: string, copies: number): readonly number[] {
    const ids: number[] = [];
    for (let i = 0; i < copies; i += 1) ids.push(this.start(sessionId, 'resend'));
    return ids;
  }

  /** Picks up deliveries a previous run left unfinished; held ones wait for their time. */
  resumePending(): void {
    const nowMs = this.options.now();
    for (const dispatch of pendingDispatches(this.options.db)) {
      if (dispatch.dueAtMs !== null && dispatch.dueAtMs > nowMs) {
        this.hold({ id: dispatch.id, sessionId: dispatch.sessionId, dueAtMs: dispatch.dueAtMs });
      } else {
        this.run(dispatch.id, dispatch.sessionId);
      }
    }
  }

  /** Sends the held callbacks whose time has come on the sandbox's clock. */
  releaseDue(): void {
    if (this.closed || this.held.size === 0) return;
    // Nothing reaches the shop while it is offline; what fell due goes once it is back.
    if (this.options.faults.unreachableNow()) return;
    const nowMs = this.options.now();
    const due = [...this.held.values()]
      .filter((h) => h.outage === true || h.dueAtMs <= nowMs)
      .sort((a, b) => a.dueAtMs - b.dueAtMs || a.id - b.id);
    for (const h of due) {
      this.held.delete(h.id);
      this.run(h.id, h.sessionId);
    }
    if (this.held.size === 0) this.stopLatePoll();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopLatePoll();
    clearTimeout(this.batchTimer);
    this.abort.abort();
    for (const wake of this.sleepers) wake();
    await Promise.allSettled([...this.running]);
  }

  /** Returns whether a delivery was started (or held), not dropped. */
  private paymentCallback(sessionId: string): boolean {
    const { db, now, faults, served } = this.options;
    const personality = this.options.personality();
    if (personality.callbacks === 'never') {
      insertDispatch(db, {
        sessionId,
        cause: 'payment',
        state: 'dropped',
        createdAtMs: now(),
        note: 'callbacks_never',
      });
      served.record('callbacks_never');
      return false;
    }
    if (faults.shouldDropCallback()) {
      insertDispatch(db, {
        sessionId,
        cause: 'payment',
        state: 'dropped',
        createdAtMs: now(),
        note: 'drop_callbacks',
      });
      served.record('callbacks_dropped');
      return false;
    }
    const duplicate = faults.shouldDuplicateCallback();
    if (duplicate) served.record('callbacks_duplicated');
    for (const cause of duplicate ? (['payment', 'duplicate'] as const) : (['payment'] as const)) {
      switch (personality.callbacks) {
        case 'late':
          this.startLate(sessionId, cause, personality.callback_delay_ms);
          break;
        case 'reordered':
          this.startBatched(sessionId, cause);
          break;
        case 'on':
          this.start(sessionId, cause);
          break;
      }
    }
    return true;
  }

  private start(sessionId: string, cause: DispatchCause): number {
    // The shop is offline (`unreachable_ms`): the callback is due when it is back.
    const outageEnd = this.options.faults.unreachableUntil();
    const id = insertDispatch(this.options.db, {
      sessionId,
      cause,
      state: 'pending',
      createdAtMs: this.options.now(),
      ...(outageEnd === null ? {} : { dueAtMs: outageEnd, note: 'unreachable' }),
    });
    // While closing, the dispatch is only recorded: the next run resumes it.
    if (this.closed) return id;
    if (outageEnd === null) this.run(id, sessionId);
    else this.hold({ id, sessionId, dueAtMs: outageEnd, outage: true });
    return id;
  }

  private startLate(sessionId: string, cause: DispatchCause, delayMs: number): void {
    const createdAtMs = this.options.now();
    const dueAtMs = createdAtMs + delayMs;
    const id = insertDispatch(this.options.db, {
      sessionId,
      cause,
      state: 'pending',
      createdAtMs,
      dueAtMs,
      note: 'late',
    });
    this.options.served.record('callbacks_late');
    if (this.closed) return;
    this.hold({ id, sessionId, dueAtMs });
    this.releaseDue(); // a zero delay goes at once
  }

  private hold(held: Held): void {
    this.held.set(held.id, held);
    if (this.latePoll === undefined && !this.closed) {
      this.latePoll = setInterval(() => this.releaseDue(), LATE_POLL_MS);
      this.latePoll.unref();
    }
  }

  private stopLatePoll(): void {
    clearInterval(this.latePoll);
    this.latePoll = undefined;
  }

  private startBatched(sessionId: string, cause: DispatchCause): void {
    if (this.options.faults.unreachableNow()) {
      this.start(sessionId, cause); // held for the outage's end, in the order they came
      return;
    }
    const id = insertDispatch(this.options.db, {
      sessionId,
      cause,
      state: 'pending',
      createdAtMs: this.options.now(),
      note: 'reordered',
    });
    if (this.closed) return;
    this.batch.push({ id, sessionId });
    if (this.batchTimer !== undefined) return;
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      const batch = this.batch.reverse();
      this.batch = [];
      if (batch.length >= 2) this.options.served.record('callbacks_reordered');
      const task = this.sendInTurn(batch).finally(() => this.running.delete(task));
      this.running.add(task);
    }, this.options.reorderWindowMs ?? DEFAULT_REORDER_WINDOW_MS);
    this.batchTimer.unref();
  }

  /** Each delivery's first attempt finishes before the next starts, so the order holds. */
  private async sendInTurn(batch: readonly { id: number; sessionId: string }[]): Promise<void> {
    for (const { id, sessionId } of batch) {
      if (this.closed) return;
      await new Promise<void>((firstAttemptDone) => this.run(id, sessionId, firstAttemptDone));
    }
  }

  private run(dispatchId: number, sessionId: string, firstAttemptDone?: () => void): void {
    const task = this.deliver(dispatchId, sessionId, firstAttemptDone).finally(() => {
      this.running.delete(task);
      firstAttemptDone?.();
    });
    this.running.add(task);
  }

  private async deliver(
    dispatchId: number,
    sessionId: string,
    firstAttemptDone?: () => void,
  ): Promise<void> {
    const { db, retryDelaysMs } = this.options;
    const tx = transactionBySession(db, sessionId);
    if (tx === undefined) {
      setDispatchState(db, dispatchId, 'failed');
      return;
    }
    const format = this.options.personality().callback_format;
    if (format === 'foreign_form') this.options.served.record('callbacks_foreign_form');
    const encoded = encodeCallback(callbackPayload(tx), format);
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.attempt(dispatchId, attempt, tx.callbackUrl, encoded);
      if (attempt === 1) firstAttemptDone?.();
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
    body: EncodedCallback,
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
    target: CallbackUrlSlot,
    url: string,
    body: EncodedCallback,
  ): Promise<AttemptResult | 'unreachable'> {
    const { db, now, timeoutMs } = this.options;
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const response = await this.options.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': body.contentType,
          'user-agent': 'transfer-till-sandbox-provider',
          'x-sandbox-dispatch-id': String(dispatchId),
          'x-sandbox-attempt': String(attempt),
        },
        body: body.body,
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
