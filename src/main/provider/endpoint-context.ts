/**
 * What every endpoint function runs on (the context built once per client in client.ts), and the
 * pieces they share: the INVALID_REQUEST refusal (nothing sent), the error for a 200 about the
 * wrong thing, the URL of an endpoint and the secret-key headers.
 */
import type { z } from 'zod';
import { credentialProblem } from './client-config';
import {
  OPERATION_LABEL,
  ProviderError,
  type ProviderErrorCode,
  type ProviderOperation,
} from './errors';
import type { ProviderRequest } from './http-exchange';
import type { ResponseSchemas } from './schemas';

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** What the endpoints run on; built once per client. */
export interface EndpointContext {
  readonly baseUrl: URL;
  readonly payoutBaseUrl: URL;
  readonly secretKey: string;
  readonly accessToken: string;
  readonly schemas: ResponseSchemas;
  readonly redact: readonly (string | undefined)[];
  /** One exchange, status judged and body parsed; never repeated (a create). */
  send<T>(request: ProviderRequest, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T>;
  /** The same for a read, with the read retries. */
  read<T>(request: ProviderRequest, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T>;
}

/** Our own check refused the call before anything was sent. */
export function invalidRequest(
  context: EndpointContext,
  operation: ProviderOperation,
  field: string,
  problem: string,
): ProviderError {
  return new ProviderError({
    code: 'INVALID_REQUEST',
    operation,
    message: `Cannot send the request for ${OPERATION_LABEL[operation]}: ${problem}. Nothing was sent to the provider.`,
    field,
    retryable: false,
    redact: context.redact,
  });
}

/** A 200 whose content is wrong for the request (another reference, no usable balance). */
export function wrongAnswer(
  context: EndpointContext,
  operation: ProviderOperation,
  code: ProviderErrorCode,
  message: string,
): ProviderError {
  return new ProviderError({
    code,
    operation,
    message,
    httpStatus: 200,
    retryable: false,
    redact: context.redact,
  });
}

/** Keeps a base path of the base URL (a provider behind /v1), with or without its trailing slash. */
export function endpointUrl(
  base: URL,
  path: string,
  query: Readonly<Record<string, string>> = {},
): string {
  const search = Object.entries(query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
}

export function secretHeaders(
  context: EndpointContext,
  operation: ProviderOperation,
): Record<string, string> {
  const problem = credentialProblem('secretKey', context.secretKey);
  if (problem !== null) throw invalidRequest(context, operation, 'secretKey', problem);
  return { secretKey: context.secretKey, Accept: 'application/json' };
}
