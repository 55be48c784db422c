/**
 * Why an exchange broke off before a whole answer came: the caller cancelled (ABORTED), our
 * timer fired (TIMEOUT) or the network failed (NETWORK), in words a shop owner can act on. A
 * create is retryable only when nothing can have reached the provider.
 */
import {
  OPERATION_LABEL,
  ProviderError,
  abortedError,
  inSeconds,
  type ProviderOperation,
} from './errors';

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function networkWords(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the address could not be found (DNS)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'the connection was cut';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection could not be opened in time';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'its security certificate was not accepted';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

/** Nothing reached the server, so even a create may be repeated with the same reference. */
function neverSent(code: string | undefined): boolean {
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/** Why the exchange broke off: the caller cancelled, our timer fired, or the network failed. */
export function transportError(
  request: { readonly operation: ProviderOperation; readonly url: string },
  settings: { readonly timeoutMs: number; readonly redact: readonly (string | undefined)[] },
  cause: { readonly error: unknown; readonly cancelled: boolean; readonly timedOut: boolean },
): ProviderError {
  const { operation } = request;
  const { error } = cause;
  if (cause.cancelled) return abortedError(operation, settings.redact, error);
  const where = new URL(request.url).origin;
  const label = OPERATION_LABEL[operation];
  if (cause.timedOut) {
    return new ProviderError({
      code: 'TIMEOUT',
      operation,
      message:
        `The provider at ${where} did not answer within ${inSeconds(settings.timeoutMs)} while ${label}.` +
        (operation === 'create'
          ? ' The virtual account may or may not have been created; start the sale again so a new reference is used.'
          : ' Check the internet connection; the provider may be slow.'),
      retryable: operation !== 'create',
      cause: error,
      redact: settings.redact,
    });
  }
  const code = causeCode(error);
  return new ProviderError({
    code: 'NETWORK',
    operation,
    message: `Could not reach the provider at ${where} (${networkWords(code)}) while ${label}. Check the internet connection and the provider address in Settings.`,
    retryable: operation !== 'create' || neverSent(code),
    cause: error,
    redact: settings.redact,
  });
}
