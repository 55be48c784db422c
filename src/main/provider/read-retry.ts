/**
 * Read retries: which failures of a read (status, listing, balance) are worth another try, and
 * the jittered backoff between tries. A create never comes here (client.ts says why). The wait
 * between tries ends when the caller's signal fires: a cancelled call answers at once instead of
 * sleeping out a backoff of up to maxDelayMs first.
 */
import {
  ProviderError,
  abortedError,
  type ProviderErrorCode,
  type ProviderOperation,
} from './errors';

export interface ReadRetryPolicy {
  /** Total attempts, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_READ_RETRY: ReadRetryPolicy = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
};

/** A backoff wait. It may end early when `signal` fires; the retry loop does not rely on it. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Transient faults only: any other answer would be the same the next time. */
const READ_RETRY_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  'NETWORK',
  'TIMEOUT',
  'SERVER_ERROR',
  'RATE_LIMITED',
]);

/** The default Sleep: a timer that is cleared, not left running, when the signal fires. */
export const sleepUntilCancelled: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal?.addEventListener('abort', finish, { once: true });
  });

/**
 * Full-jitter exponential backoff before try `attempt + 1`; undefined when Retry-After asks for
 * more than the cap (the caller reports it rather than retrying too soon).
 */
export function retryDelay(
  policy: ReadRetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** Sleeps, but returns as soon as the signal fires, whether or not `sleep` heeds it. */
function waitUnlessCancelled(
  sleep: Sleep,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return sleep(ms);
  if (signal.aborted) return Promise.resolve();
  let onAbort = (): void => undefined;
  const cancelled = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([sleep(ms, signal), cancelled]).finally(() =>
    signal.removeEventListener('abort', onAbort),
  );
}

export interface ReadRetryOptions {
  readonly policy: ReadRetryPolicy;
  readonly operation: ProviderOperation;
  readonly signal: AbortSignal | undefined;
  readonly sleep: Sleep;
  readonly random: () => number;
  /** Secrets to keep out of the "gave up" error. */
  readonly redact: readonly (string | undefined)[];
}

/** Runs `attempt` until it succeeds, fails for good, runs out of tries or is cancelled. */
export async function readWithRetry<T>(
  attempt: () => Promise<T>,
  options: ReadRetryOptions,
): Promise<T> {
  const { policy, operation, signal, sleep, random, redact } = options;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ProviderError) || !READ_RETRY_CODES.has(error.code)) throw error;
      const delay =
        tries < policy.attempts ? retryDelay(policy, tries, error.retryAfterMs, random) : undefined;
      if (delay === undefined) {
        if (tries === 1) throw error;
        throw new ProviderError({
          code: error.code,
          operation: error.operation,
          message: `${error.message} (gave up after ${tries} attempts)`,
          ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
          retryable: error.retryable,
          ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
          cause: error.cause,
          redact,
        });
      }
      await waitUnlessCancelled(sleep, delay, signal);
      if (signal?.aborted) throw abortedError(operation, redact);
    }
  }
}
