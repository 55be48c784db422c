/**
 * The app side of the provider boundary: one typed function per endpoint of the interface,
 * each with a timeout, a response size cap, strict parsing, and a ProviderError with a code on
 * every failure. Reads retry transient faults with jittered backoff; create never retries,
 * because a second POST with the same reference could only answer 409 and would hide the
 * account number the first one may have created.
 *
 * The parts: client-config.ts (checks), http-exchange.ts (fetch, body, JSON), status-errors.ts
 * (non-2xx to errors), read-retry.ts (backoff), and the endpoints over an EndpointContext:
 * account-endpoints.ts (4.1, 4.2), listing-endpoint.ts (4.3), payout-endpoint.ts (4.4).
 */
import type { z } from 'zod';
import { checkClientConfig, type ProviderClientConfig } from './client-config';
import {
  checkPayment,
  createVirtualAccount,
  getPaymentStatus,
  type PaymentCheck,
} from './account-endpoints';
import type { CallOptions, EndpointContext } from './endpoint-context';
import {
  exchange,
  parseAnswer,
  type ExchangeSettings,
  type ProviderRequest,
} from './http-exchange';
import { listTransactions, type TransactionPageRequest } from './listing-endpoint';
import { getPayoutAccount, type PayoutAccountWithBalance } from './payout-endpoint';
import { readWithRetry, sleepUntilCancelled } from './read-retry';
import {
  createResponseSchemas,
  type CreateVirtualAccountInput,
  type PaymentStatusRecord,
  type TransactionPage,
  type VirtualAccount,
} from './schemas';
import { errorForStatus } from './status-errors';

export interface ProviderClient {
  createVirtualAccount(
    input: CreateVirtualAccountInput,
    options?: CallOptions,
  ): Promise<VirtualAccount>;
  getPaymentStatus(reference: string, options?: CallOptions): Promise<PaymentStatusRecord>;
  checkPayment(reference: string, options?: CallOptions): Promise<PaymentCheck>;
  listTransactions(page: TransactionPageRequest, options?: CallOptions): Promise<TransactionPage>;
  getPayoutAccount(accountId: string, options?: CallOptions): Promise<PayoutAccountWithBalance>;
}

export function createProviderClient(config: ProviderClientConfig): ProviderClient {
  const checked = checkClientConfig(config);
  const redact = [config.secretKey, config.accessToken];
  const transport: ExchangeSettings = {
    fetch: config.fetch ?? globalThis.fetch,
    timeoutMs: checked.timeoutMs,
    maxResponseBytes: checked.maxResponseBytes,
    redact,
  };
  const sleep = config.sleep ?? sleepUntilCancelled;
  const random = config.random ?? Math.random;

  async function send<T>(
    request: ProviderRequest,
    schema: z.ZodType<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const answer = await exchange(request, transport, signal);
    const error = errorForStatus(request, answer, Date.now(), redact);
    if (error) throw error;
    return parseAnswer(request, answer, schema, transport);
  }

  const context: EndpointContext = {
    baseUrl: checked.baseUrl,
    payoutBaseUrl: checked.payoutBaseUrl,
    secretKey: config.secretKey,
    accessToken: config.accessToken,
    schemas: createResponseSchemas(checked.timeZone),
    redact,
    send,
    read: (request, schema, signal) =>
      readWithRetry(() => send(request, schema, signal), {
        policy: checked.retry,
        operation: request.operation,
        signal,
        sleep,
        random,
        redact,
      }),
  };

  return {
    createVirtualAccount: (input, options) => createVirtualAccount(context, input, options),
    getPaymentStatus: (reference, options) => getPaymentStatus(context, reference, options),
    checkPayment: (reference, options) => checkPayment(context, reference, options),
    listTransactions: (page, options) => listTransactions(context, page, options),
    getPayoutAccount: (accountId, options) => getPayoutAccount(context, accountId, options),
  };
}
