/**
 * The HTTP exchange with the provider: one fetch under one timeout that covers connect, headers
 * and body, a body read up to a cap, and a 2xx body parsed strictly. Every failure here is a
 * ProviderError (ABORTED, TIMEOUT, NETWORK or MALFORMED_RESPONSE); a non-2xx status is returned
 * as an answer, for the status map (status-errors.ts) to judge.
 */
import type { z } from 'zod';
import { OPERATION_LABEL, ProviderError, abortedError, type ProviderOperation } from './errors';
import { describeIssues } from './schemas';
import { transportError } from './transport-errors';

export interface ProviderRequest {
  readonly operation: ProviderOperation;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Words for messages: 'reference TT-1', 'payout account 123'. */
  readonly subject?: string;
}

export interface ProviderAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** Undefined when an error status came with a body that could not be read. */
  readonly text: string | undefined;
}

export interface ExchangeSettings {
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Secrets to keep out of every error (the key and the token). */
  readonly redact: readonly (string | undefined)[];
}

/** Error bodies are read only for a hint to show; a small cap is enough. */
const ERROR_BODY_BYTES = 64 * 1024;

class BodyTooLarge extends Error {}

/** Reads a body up to `cap` bytes; past that, cancels the stream instead of draining it. */
async function readCapped(response: Response, cap: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > cap) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  // Node's fetch types the body's chunks as `any`; they are bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

function malformed(
  request: ProviderRequest,
  settings: Pick<ExchangeSettings, 'redact'>,
  httpStatus: number,
  message: string,
  cause?: unknown,
): ProviderError {
  return new ProviderError({
    code: 'MALFORMED_RESPONSE',
    operation: request.operation,
    message,
    httpStatus,
    retryable: false,
    redact: settings.redact,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** One HTTP exchange under one timeout that covers connect, headers and body. */
export async function exchange(
  request: ProviderRequest,
  settings: ExchangeSettings,
  signal: AbortSignal | undefined,
): Promise<ProviderAnswer> {
  const label = OPERATION_LABEL[request.operation];
  if (signal?.aborted) throw abortedError(request.operation, settings.redact);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const brokeOff = (error: unknown): ProviderError =>
    transportError(request, settings, { error, cancelled: signal?.aborted === true, timedOut });

  try {
    let response: Response;
    try {
      response = await settings.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: controller.signal,
        // A redirect would carry the secretKey header to wherever it points.
        redirect: 'manual',
      });
    } catch (error) {
      throw brokeOff(error);
    }
    const ok = response.status >= 200 && response.status < 300;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readCapped(
        response,
        ok ? settings.maxResponseBytes : Math.min(ERROR_BODY_BYTES, settings.maxResponseBytes),
      );
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        if (ok) {
          throw malformed(
            request,
            settings,
            response.status,
            `The provider's answer while ${label} was larger than ${settings.maxResponseBytes} bytes and was not read.`,
          );
        }
      } else if (ok || timedOut || signal?.aborted) {
        throw brokeOff(error);
      }
      // An error status whose body could not be read: the status alone still says enough.
    }
    let text: string | undefined;
    try {
      text =
        bytes === undefined ? undefined : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (error) {
      if (ok) {
        throw malformed(
          request,
          settings,
          response.status,
          `The provider's answer while ${label} was not valid UTF-8 text.`,
          error,
        );
      }
    }
    return { status: response.status, headers: response.headers, text };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** A 2xx body as the schema's type: JSON, not HTML or empty, of the documented shape. */
export function parseAnswer<T>(
  request: ProviderRequest,
  answer: ProviderAnswer,
  schema: z.ZodType<T>,
  settings: Pick<ExchangeSettings, 'redact'>,
): T {
  const label = OPERATION_LABEL[request.operation];
  const fail = (detail: string, cause?: unknown): ProviderError =>
    malformed(
      request,
      settings,
      answer.status,
      `The provider's answer while ${label} could not be understood: ${detail}. Report this to the provider's support team if it keeps happening.`,
      cause,
    );
  const text = answer.text?.trim() ?? '';
  if (!text) throw fail('the body was empty');
  if (text.startsWith('<')) {
    throw fail('it was an HTML page, not JSON (often a gateway or proxy error page)');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fail('it was not valid JSON', error);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw fail(describeIssues(result.error));
  return result.data;
}
