/**
 * The reach state from what real calls meet at the real sandbox: an answer, a 4xx refusal
 * included, is reach; a destroyed connection (`unreachable_ms`) is not; a cancelled call says
 * nothing. The probe asks only after REACH_PROBE_EVERY_MS without a call heard.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from '#main/sandbox';
import type { ManualScheduler } from '#support/clock';
import { http, startTestSandbox } from '#support/sandbox-world';
import { createProviderClient, type ProviderClient } from './client';
import { ProviderError } from './errors';
import { createProviderReach, reachSignOf, type ProviderReach } from './provider-reach';
import { observeReach } from './reach-observer';
import { REACH_PROBE_EVERY_MS, REACH_PROBE_REFERENCE, startReachProbe } from './reach-probe';

let sandbox: SandboxProvider;
let clock: ManualScheduler;
let reach: ProviderReach;
let changes: string[];

beforeEach(async () => {
  ({ sandbox, clock } = await startTestSandbox());
  reach = createProviderReach(clock.now);
  changes = [];
  reach.subscribe((view) => changes.push(view.state));
});

afterEach(async () => {
  await sandbox.close();
});

function clientFor(secretKey = sandbox.secretKey): ProviderClient {
  return createProviderClient({
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    secretKey,
    accessToken: sandbox.accessToken,
    sleep: () => Promise.resolve(),
  });
}

async function outage(ms: number): Promise<void> {
  const answer = await http(`${sandbox.controlUrl}/faults`, { body: { unreachable_ms: ms } });
  expect(answer.status).toBe(200);
}

const failure = (code: ProviderError['code']) =>
  new ProviderError({ code, operation: 'list', message: code });

describe('what a finished call tells about reach', () => {
  it.each([
    ['NETWORK', 'unreachable'],
    ['TIMEOUT', 'unreachable'],
    ['ABORTED', 'silent'],
    ['INVALID_REQUEST', 'silent'],
    ['BAD_REQUEST', 'answered'],
    ['STATUS_NOT_FOUND', 'answered'],
    ['PROVIDER_AUTH_REFUSED', 'answered'],
    ['REFERENCE_IN_USE', 'answered'],
    ['SERVER_ERROR', 'answered'],
    ['MALFORMED_RESPONSE', 'answered'],
  ] as const)('%s is %s', (code, sign) => {
    expect(reachSignOf(failure(code))).toBe(sign);
  });

  it('an error of our own (not the provider client) tells nothing', () => {
    expect(reachSignOf(new Error('not set up'))).toBe('silent');
  });
});

describe('the observed client at the real sandbox', () => {
  it('a 4xx refusal is reach; a cut connection is not, told before the caller hears', async () => {
    const refused = observeReach(clientFor('sk_wrong_key_0000'), reach);
    await expect(refused.listTransactions({ offset: 0, limit: 10 })).rejects.toMatchObject({
      httpStatus: 404,
    });
    expect(reach.view()).toEqual({ state: 'reachable', since: clock.now() });
    const client = observeReach(clientFor(), reach);
    await expect(client.getPaymentStatus('TT-NO-SUCH')).rejects.toMatchObject({
      code: 'STATUS_NOT_FOUND',
    });
    expect(reach.isUnreachable()).toBe(false);

    await outage(60_000);
    await clock.advance(1_000);
    const seenInCatch = await client.listTransactions({ offset: 0, limit: 10 }).then(
      () => 'answered',
      (error: unknown) => [(error as ProviderError).code, reach.isUnreachable()],
    );
    expect(seenInCatch).toEqual(['NETWORK', true]);
    expect(reach.view()).toEqual({ state: 'unreachable', since: clock.now() });

    // A cancelled call tells nothing, either way.
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(
      client.listTransactions({ offset: 0, limit: 10 }, { signal: cancelled.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(reach.isUnreachable()).toBe(true);

    await clock.advance(59_000);
    await client.listTransactions({ offset: 0, limit: 10 });
    expect(reach.view()).toEqual({ state: 'reachable', since: clock.now() });
    expect(changes).toEqual(['unreachable', 'reachable']);
  });
});

describe('the idle probe', () => {
  it('asks only after a quiet spell, the status of a reference no sale has, and follows the outage', async () => {
    const raw = clientFor();
    const asked: string[] = [];
    const counting: ProviderClient = {
      ...raw,
      checkPayment: (reference, options) => {
        asked.push(reference);
        return raw.checkPayment(reference, options);
      },
    };
    const probe = startReachProbe({ reach, scheduler: clock, client: () => counting });
    const settle = () => probe.idle();
    try {
      await clock.advance(REACH_PROBE_EVERY_MS - 1, settle);
      expect(asked).toEqual([]);
      await clock.advance(1, settle);
      expect(asked).toEqual([REACH_PROBE_REFERENCE]);
      expect(reach.view()).toEqual({ state: 'reachable', since: clock.now() });

      // A call the till made meanwhile is proof enough: no probe until it is 15 s old.
      await clock.advance(10_000, settle);
      reach.note('answered');
      await clock.advance(REACH_PROBE_EVERY_MS - 1, settle);
      expect(asked).toHaveLength(1);
      await clock.advance(1, settle);
      expect(asked).toHaveLength(2);

      await outage(40_000);
      await clock.advance(REACH_PROBE_EVERY_MS, settle);
      expect(reach.isUnreachable()).toBe(true);
      // While it is down, the probe asks again every 15 s, and sees it back the first time.
      await clock.advance(REACH_PROBE_EVERY_MS, settle);
      expect(reach.isUnreachable()).toBe(true);
      await clock.advance(REACH_PROBE_EVERY_MS, settle);
      expect(reach.isUnreachable()).toBe(false);
      expect(changes).toEqual(['unreachable', 'reachable']);
      expect(asked).toHaveLength(5);
    } finally {
      probe.close();
    }
    expect(clock.pending()).toBe(0);
  });
});
