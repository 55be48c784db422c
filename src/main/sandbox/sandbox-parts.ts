/**
 * The sandbox's working parts, built once its database and merchant are known: the callback
 * dispatcher and the engine that settles transfers (each told of the other), plus two small
 * helpers of the server: a wait the close cuts short, and listening on a port.
 */
import type { Server } from 'node:http';
import {
  CallbackDispatcher,
  DEFAULT_CALLBACK_RETRY_DELAYS_MS,
  DEFAULT_CALLBACK_TIMEOUT_MS,
} from './callback-dispatcher';
import type { FaultInjector } from './faults';
import type { Personality } from './personality';
import type { SandboxDb } from './sandbox-db';
import { SandboxEngine } from './sandbox-engine';
import type { SandboxProviderOptions } from './sandbox-provider';
import type { MerchantRow } from './sandbox-state';
import type { ServedFaults } from './served-faults';

export interface PartsDeps {
  readonly db: SandboxDb;
  readonly options: SandboxProviderOptions;
  readonly merchant: MerchantRow;
  readonly now: () => number;
  readonly onError: (error: unknown) => void;
  readonly faults: FaultInjector;
  readonly served: ServedFaults;
  readonly personality: () => Personality;
  readonly fallbackUrl: () => string | undefined;
}

export function buildSandboxParts(deps: PartsDeps): {
  dispatcher: CallbackDispatcher;
  engine: SandboxEngine;
} {
  const { db, options, now, faults, served } = deps;
  const dispatcher = new CallbackDispatcher({
    db,
    now,
    fetch: options.fetch ?? globalThis.fetch,
    faults,
    retryDelaysMs: options.callbackRetryDelaysMs ?? DEFAULT_CALLBACK_RETRY_DELAYS_MS,
    timeoutMs: options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    fallbackUrl: deps.fallbackUrl,
    personality: deps.personality,
    served,
    ...(options.callbackReorderWindowMs === undefined
      ? {}
      : { reorderWindowMs: options.callbackReorderWindowMs }),
  });
  const engine = new SandboxEngine({
    db,
    now,
    payoutAccountId: deps.merchant.payoutAccountId,
    onPaymentSucceeded: (sessionId) => dispatcher.paymentSucceeded(sessionId),
    onPaymentFailed: (sessionId) => dispatcher.paymentFailed(sessionId),
    onError: deps.onError,
    personality: deps.personality,
    served,
  });
  return { dispatcher, engine };
}

/** Waits (latency, held answers) that `wakeAll` ends at once when the sandbox closes. */
export function wakeableDelays(): {
  readonly delay: (ms: number) => Promise<void>;
  readonly wakeAll: () => void;
} {
  const wakers = new Set<() => void>();
  return {
    delay: (ms) =>
      new Promise((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        wakers.add(wake);
      }),
    wakeAll: () => {
      for (const wake of wakers) wake();
    },
  };
}

/** Resolves once the server listens on `port` (0: a free one), rejects when it cannot. */
export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
