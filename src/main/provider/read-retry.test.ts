import { afterEach, describe, expect, it } from 'vitest';
import { createProviderClient } from './client';
import { ProviderError, type ProviderErrorCode } from './errors';
import {
  readWithRetry,
  retryDelay,
  sleepUntilCancelled,
  type ReadRetryOptions,
  type ReadRetryPolicy,
} from './read-retry';
import { sendJson, startScriptedServer, type ScriptedServer } from '#support/scripted-server';

const POLICY: ReadRetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 8000 };
/** Backoffs far longer than any test may take: a test that sleeps one out times out. */
const LONG: ReadRetryPolicy = { attempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 };

function failing(code: ProviderErrorCode, retryAfterMs?: number): ProviderError {
  return new ProviderError({
    code,
    operation: 'status',
    message: `failed with ${code}`,
    httpStatus: 503,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function options(overrides: Partial<ReadRetryOptions> = {}): ReadRetryOptions {
  return {
    policy: POLICY,
    operation: 'status',
    signal: undefined,
    sleep: () => Promise.resolve(),
    random: () => 0.5,
    redact: [],
    ...overrides,
  };
}

/** An attempt that fails with `codes` in turn, then answers 'ok'. */
function script(...codes: ProviderErrorCode[]): {
  attempt: () => Promise<string>;
  calls: () => number;
} {
  let calls = 0;
  return {
    attempt: () => {
      const code = codes[calls++];
      return code === undefined ? Promise.resolve('ok') : Promise.reject(failing(code));
    },
    calls: () => calls,
  };
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof ProviderError)) throw error;
  return error;
}

describe('retryDelay', () => {
  it('is full jitter under an exponential ceiling, capped', () => {
    expect(retryDelay(POLICY, 1, undefined, () => 0.999)).toBe(499);
    expect(retryDelay(POLICY, 2, undefined, () => 0.999)).toBe(999);
    expect(retryDelay(POLICY, 3, undefined, () => 0.5)).toBe(1000);
    expect(retryDelay(POLICY, 10, undefined, () => 0.999)).toBe(7992);
    expect(retryDelay(POLICY, 1, undefined, () => 0)).toBe(0);
  });

  it('waits at least Retry-After, and gives up on one beyond the cap', () => {
    expect(retryDelay(POLICY, 1, 2000, () => 0)).toBe(2000);
    expect(retryDelay(POLICY, 1, 8000, () => 0)).toBe(8000);
    expect(retryDelay(POLICY, 1, 8001, () => 0)).toBeUndefined();
  });
});

describe('readWithRetry', () => {
  it('retries transient faults only, and says when it gave up', async () => {
    const transient = script('NETWORK', 'TIMEOUT');
    await expect(readWithRetry(transient.attempt, options())).resolves.toBe('ok');
    expect(transient.calls()).toBe(3);

    for (const code of [
      'PROVIDER_AUTH_REFUSED',
      'STATUS_NOT_FOUND',
      'MALFORMED_RESPONSE',
    ] as const) {
      const final = script(code);
      const error = await rejection(readWithRetry(final.attempt, options()));
      expect(error.code).toBe(code);
      expect(final.calls()).toBe(1);
    }

    const down = script('SERVER_ERROR', 'SERVER_ERROR', 'RATE_LIMITED', 'SERVER_ERROR');
    const error = await rejection(readWithRetry(down.attempt, options()));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', httpStatus: 503 });
    expect(error.message).toBe('failed with RATE_LIMITED (gave up after 3 attempts)');
    expect(down.calls()).toBe(3);
  });

  it('stops a backoff at once when cancelled, with the default sleep', async () => {
    const controller = new AbortController();
    const down = script('SERVER_ERROR', 'SERVER_ERROR');
    const started = performance.now();
    setTimeout(() => controller.abort(), 30);
    const error = await rejection(
      readWithRetry(
        down.attempt,
        options({ policy: LONG, signal: controller.signal, sleep: sleepUntilCancelled }),
      ),
    );
    expect(error).toMatchObject({ code: 'ABORTED', operation: 'status', retryable: false });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(down.calls()).toBe(1);
  });

  it('stops a backoff at once when cancelled, even with a sleep that ignores the signal', async () => {
    const controller = new AbortController();
    const down = script('TIMEOUT', 'TIMEOUT');
    const slept: number[] = [];
    const never = (ms: number): Promise<void> => {
      slept.push(ms);
      return new Promise<void>(() => undefined);
    };
    setTimeout(() => controller.abort(), 30);
    const error = await rejection(
      readWithRetry(
        down.attempt,
        options({ policy: LONG, signal: controller.signal, sleep: never }),
      ),
    );
    expect(error.code).toBe('ABORTED');
    expect(slept).toEqual([30_000]);
    expect(down.calls()).toBe(1);
  });

  it('does not start a backoff for a signal that already fired', async () => {
    const down = script('NETWORK', 'NETWORK');
    const slept: number[] = [];
    const sleep = (ms: number): Promise<void> => {
      slept.push(ms);
      return Promise.resolve();
    };
    const error = await rejection(
      readWithRetry(down.attempt, options({ signal: AbortSignal.abort(), sleep })),
    );
    expect(error.code).toBe('ABORTED');
    expect(slept).toEqual([]);
  });
});

describe('sleepUntilCancelled', () => {
  it('sleeps the time asked, or until the signal fires', async () => {
    let started = performance.now();
    await sleepUntilCancelled(40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);

    const controller = new AbortController();
    started = performance.now();
    setTimeout(() => controller.abort(), 20);
    await sleepUntilCancelled(60_000, controller.signal);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('a client cancelled during its read backoff', () => {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('answers ABORTED at once over real HTTP, without a second request', async () => {
    const controller = new AbortController();
    const server = await startScriptedServer((_req, res) => {
      sendJson(res, 503, { message: 'maintenance' });
      // The first answer is in: cancel while the client waits out its backoff.
      setTimeout(() => controller.abort(), 30);
    });
    servers.push(server);
    const client = createProviderClient({
      baseUrl: server.url,
      payoutBaseUrl: server.url,
      secretKey: 'sk_test_retry',
      accessToken: 'token_retry',
      readRetry: LONG,
      random: () => 0.999,
    });
    const started = performance.now();
    const error = await rejection(client.getPaymentStatus('TT-1', { signal: controller.signal }));
    expect(error).toMatchObject({ code: 'ABORTED', operation: 'status' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });
});
