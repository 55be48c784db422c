/**
 * The status-to-error map: the ProviderError for a non-2xx answer, per interface section 7 and
 * our own reading where it is silent. Pure (the clock comes in as `nowMs`), so the whole table is
 * tested without a server. The words tell a shop owner what to do, per operation.
 */
import {
  OPERATION_LABEL,
  ProviderError,
  inSeconds,
  type ProviderErrorCode,
  type ProviderOperation,
} from './errors';

export interface StatusRequest {
  readonly operation: ProviderOperation;
  /** Words for messages: 'reference TT-1', 'payout account 123'. */
  readonly subject?: string;
}

export interface StatusAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text; undefined when it could not be read (the status alone still says enough). */
  readonly text: string | undefined;
}

/** Retry-After as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** What an error body says, on one line: its `message` when JSON; undefined when empty or HTML. */
export function providerHint(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed || trimmed.startsWith('<')) return undefined;
  let hint = trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const found = [record.message, record.error, record.detail].find(
        (value): value is string => typeof value === 'string',
      );
      if (found) hint = found;
    }
  } catch {
    // Plain text is shown as is.
  }
  const oneLine = hint.replace(/\s+/g, ' ');
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine;
}

/** The hint for a support person reading the message (a note when the body was an HTML page). */
function providerSaid(text: string | undefined): string {
  if (text?.trim().startsWith('<')) return ' The provider sent an HTML page instead of JSON.';
  const hint = providerHint(text);
  return hint === undefined ? '' : ` Provider said: "${hint}".`;
}

interface Mapped {
  readonly code: ProviderErrorCode;
  readonly message: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
}

function describeStatus(request: StatusRequest, answer: StatusAnswer, nowMs: number): Mapped {
  const { operation, subject } = request;
  const { status } = answer;
  const label = OPERATION_LABEL[operation];
  const said = providerSaid(answer.text);
  const about = subject ? ` for ${subject}` : '';
  const wrongKeyHint =
    operation === 'balance'
      ? 'Check the payout access token in Settings; it may have expired.'
      : 'Check the secret key in Settings; staging and production keys are different.';

  if (status === 400) {
    return {
      code: 'BAD_REQUEST',
      message: `The provider rejected the request as invalid (HTTP 400) while ${label}${about}.${said} Check that the secret key is set and the details are complete.`,
      retryable: false,
    };
  }
  if (status === 401 || status === 403) {
    return {
      code: 'PROVIDER_AUTH_REFUSED',
      message: `The provider refused our credentials (HTTP ${status}) while ${label}. ${wrongKeyHint}${said}`,
      retryable: false,
    };
  }
  if (status === 404 && operation === 'create') {
    return {
      code: 'SETTLEMENT_ACCOUNT_NOT_FOUND',
      message: `The provider has no settlement account for this secret key (HTTP 404). Check that the key belongs to this environment, or ask the provider's support team.${said}`,
      retryable: false,
    };
  }
  if (status === 404 && operation === 'status') {
    return {
      code: 'STATUS_NOT_FOUND',
      message: `The provider has no payment yet${about} (HTTP 404).`,
      retryable: true,
    };
  }
  if (status === 404) {
    return {
      code: 'NOT_FOUND',
      message:
        operation === 'balance'
          ? `The provider could not find ${subject ?? 'the payout account'} (HTTP 404). Check the payout account number in Settings.${said}`
          : `The provider answered "not found" (HTTP 404) while ${label}. Check the provider address in Settings.${said}`,
      retryable: false,
    };
  }
  if (status === 409 && operation === 'create') {
    return {
      code: 'REFERENCE_IN_USE',
      message: `The provider already has a virtual account${about} (HTTP 409). Start the sale again so a new reference is used.${said}`,
      retryable: false,
    };
  }
  if (status === 409 && operation === 'status') {
    return {
      code: 'STATUS_PENDING',
      message: `The payment${about} is still being processed by the bank network (HTTP 409). Check again shortly.`,
      retryable: true,
    };
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), nowMs);
    return {
      code: 'RATE_LIMITED',
      message: `The provider is limiting requests (HTTP 429) while ${label}.${retryAfterMs === undefined ? ' Try again in a minute.' : ` Try again in ${inSeconds(retryAfterMs)}.`}`,
      retryable: true,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (status >= 500 && status <= 599) {
    return {
      code: 'SERVER_ERROR',
      message:
        `The provider had an internal error (HTTP ${status}) while ${label}.` +
        (operation === 'create'
          ? ' The virtual account may or may not have been created; start the sale again so a new reference is used.'
          : ' This is on the provider side; try again in a few minutes.') +
        said,
      // A create may have made the account: repeating it could only answer 409.
      retryable: operation !== 'create',
    };
  }
  return {
    code: 'UNEXPECTED_STATUS',
    message: `The provider answered with unexpected HTTP status ${status} while ${label}.${said}`,
    retryable: false,
  };
}

/** The error for a non-2xx answer, or undefined for a 2xx one (its body is read next). */
export function errorForStatus(
  request: StatusRequest,
  answer: StatusAnswer,
  nowMs: number,
  redact: readonly (string | undefined)[],
): ProviderError | undefined {
  if (answer.status >= 200 && answer.status < 300) return undefined;
  const mapped = describeStatus(request, answer, nowMs);
  const said = providerHint(answer.text);
  return new ProviderError({
    operation: request.operation,
    httpStatus: answer.status,
    redact,
    ...(said === undefined ? {} : { providerSaid: said }),
    ...mapped,
  });
}
