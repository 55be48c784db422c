import { describe, expect, it } from 'vitest';
import type { ProviderErrorCode, ProviderOperation } from './errors';
import { errorForStatus } from './status-errors';

const NOW = Date.parse('2026-11-22T08:00:00Z');
const SECRET = 'sk_test_status-map';

interface Row {
  readonly operation: ProviderOperation;
  readonly status: number;
  readonly subject?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** A part of the message the shop owner acts on. */
  readonly says: string;
}

// One row per line, so the map reads as the table it is.
// prettier-ignore
const TABLE: readonly Row[] = [
  { operation: 'create', status: 400, subject: 'reference TT-1', code: 'BAD_REQUEST', retryable: false, says: 'invalid (HTTP 400) while creating a virtual account for reference TT-1.' },
  { operation: 'list', status: 400, code: 'BAD_REQUEST', retryable: false, says: 'while reading the transaction list. Check that the secret key is set' },
  { operation: 'status', status: 401, code: 'PROVIDER_AUTH_REFUSED', retryable: false, says: 'Check the secret key in Settings' },
  { operation: 'create', status: 403, code: 'PROVIDER_AUTH_REFUSED', retryable: false, says: '(HTTP 403)' },
  { operation: 'balance', status: 401, code: 'PROVIDER_AUTH_REFUSED', retryable: false, says: 'Check the payout access token in Settings; it may have expired.' },
  { operation: 'create', status: 404, code: 'SETTLEMENT_ACCOUNT_NOT_FOUND', retryable: false, says: 'no settlement account for this secret key' },
  { operation: 'status', status: 404, subject: 'reference TT-1', code: 'STATUS_NOT_FOUND', retryable: true, says: 'no payment yet for reference TT-1 (HTTP 404).' },
  { operation: 'balance', status: 404, subject: 'payout account 123', code: 'NOT_FOUND', retryable: false, says: 'could not find payout account 123 (HTTP 404)' },
  { operation: 'balance', status: 404, code: 'NOT_FOUND', retryable: false, says: 'could not find the payout account' },
  { operation: 'list', status: 404, code: 'NOT_FOUND', retryable: false, says: 'Check the provider address in Settings.' },
  { operation: 'create', status: 409, subject: 'reference TT-1', code: 'REFERENCE_IN_USE', retryable: false, says: 'already has a virtual account for reference TT-1' },
  { operation: 'status', status: 409, code: 'STATUS_PENDING', retryable: true, says: 'still being processed by the bank network' },
  { operation: 'list', status: 409, code: 'UNEXPECTED_STATUS', retryable: false, says: 'unexpected HTTP status 409' },
  { operation: 'status', status: 429, headers: { 'Retry-After': '2' }, code: 'RATE_LIMITED', retryable: true, retryAfterMs: 2000, says: 'Try again in 2 s.' },
  { operation: 'list', status: 429, headers: { 'Retry-After': 'Sun, 22 Nov 2026 08:00:05 GMT' }, code: 'RATE_LIMITED', retryable: true, retryAfterMs: 5000, says: 'Try again in 5 s.' },
  { operation: 'balance', status: 429, code: 'RATE_LIMITED', retryable: true, says: 'Try again in a minute.' },
  { operation: 'create', status: 500, code: 'SERVER_ERROR', retryable: false, says: 'may or may not have been created' },
  { operation: 'status', status: 503, code: 'SERVER_ERROR', retryable: true, says: 'This is on the provider side' },
  { operation: 'list', status: 599, code: 'SERVER_ERROR', retryable: true, says: '(HTTP 599)' },
  { operation: 'create', status: 302, code: 'UNEXPECTED_STATUS', retryable: false, says: 'unexpected HTTP status 302' },
  { operation: 'balance', status: 418, code: 'UNEXPECTED_STATUS', retryable: false, says: 'unexpected HTTP status 418' },
];

function map(
  operation: ProviderOperation,
  status: number,
  extra: { subject?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return errorForStatus(
    { operation, ...(extra.subject === undefined ? {} : { subject: extra.subject }) },
    { status, headers: new Headers(extra.headers), text: extra.body },
    NOW,
    [SECRET],
  );
}

describe('errorForStatus', () => {
  it.each(TABLE.map((row) => [row.operation, row.status, row] as const))(
    '%s, HTTP %i',
    (operation, status, row) => {
      const error = map(operation, status, row);
      expect(error).toMatchObject({
        code: row.code,
        operation,
        httpStatus: status,
        retryable: row.retryable,
        retryAfterMs: row.retryAfterMs,
      });
      expect(error?.message).toContain(row.says);
    },
  );

  it('answers nothing for a 2xx: its body is for the parser', () => {
    for (const status of [200, 201, 204, 299]) expect(map('status', status)).toBeUndefined();
    expect(map('status', 300)).toBeDefined();
    expect(map('status', 199)).toBeDefined();
  });

  it('quotes what the provider said, on one line and cut at 200 characters', () => {
    const json = map('create', 400, { body: JSON.stringify({ message: 'merchantId\n  missing' }) });
    expect(json?.message).toContain('Provider said: "merchantId missing".');
    const detail = map('list', 418, { body: JSON.stringify({ code: 7, detail: 'teapot' }) });
    expect(detail?.message).toContain('Provider said: "teapot".');
    const html = map('list', 502, { body: '<html><body>Bad gateway</body></html>' });
    expect(html?.message).toContain('The provider sent an HTML page instead of JSON.');
    const long = map('list', 400, { body: 'x'.repeat(300) });
    expect(long?.message).toContain(`"${'x'.repeat(200)}...".`);
    expect(map('list', 400, { body: '   ' })?.message).not.toContain('Provider said');
  });

  it('does not quote the body where it could only mislead', () => {
    // A 404 or 409 of the status lookup is an answer, not a fault: the words are ours alone.
    const body = JSON.stringify({ message: 'internal detail' });
    expect(map('status', 404, { body })?.message).not.toContain('internal detail');
    expect(map('status', 409, { body })?.message).not.toContain('internal detail');
  });

  it('scrubs a secret the provider echoes back', () => {
    const error = map('create', 401, { body: JSON.stringify({ message: `bad key ${SECRET}` }) });
    expect(error?.message).toContain('bad key [redacted]');
    expect(error?.message).not.toContain(SECRET);
  });
});
