import { describe, expect, it } from 'vitest';
import { ProviderError, scrubSecrets } from './errors';

const KEY = 'sk live/key+1"x';

describe('scrubSecrets', () => {
  it('removes a secret in plain, URL-encoded and JSON-escaped spellings', () => {
    const text = `a ${KEY} b ${encodeURIComponent(KEY)} c ${JSON.stringify(KEY)}`;
    const scrubbed = scrubSecrets(text, [KEY]);
    expect(scrubbed).not.toContain(KEY);
    expect(scrubbed).not.toContain(encodeURIComponent(KEY));
    expect(scrubbed).not.toContain('live/key+1\\"x');
    expect(scrubbed).toBe('a [redacted] b [redacted] c "[redacted]"');
  });

  it('ignores empty and missing secrets', () => {
    expect(scrubSecrets('nothing here', ['', undefined])).toBe('nothing here');
  });
});

describe('ProviderError', () => {
  it('scrubs its message and a copy of its cause chain', () => {
    const cause = new Error(`inner ${KEY}`, { cause: `deeper ${KEY}` });
    const error = new ProviderError({
      code: 'NETWORK',
      operation: 'status',
      message: `outer ${KEY}`,
      cause,
      redact: [KEY],
    });
    expect(error.message).toBe('outer [redacted]');
    const copy = error.cause as Error;
    expect(copy).not.toBe(cause);
    expect(copy.message).toBe('inner [redacted]');
    expect(copy.stack).not.toContain(KEY);
    expect((copy.cause as Error).message).toBe('deeper [redacted]');
  });

  it('defaults retryable from the code', () => {
    const make = (code: 'TIMEOUT' | 'BAD_REQUEST' | 'STATUS_PENDING') =>
      new ProviderError({ code, operation: 'status', message: 'm' });
    expect(make('TIMEOUT').retryable).toBe(true);
    expect(make('STATUS_PENDING').retryable).toBe(true);
    expect(make('BAD_REQUEST').retryable).toBe(false);
    expect(
      new ProviderError({ code: 'TIMEOUT', operation: 'create', message: 'm', retryable: false })
        .retryable,
    ).toBe(false);
  });
});
