import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from './sandbox-provider';
import type { ManualScheduler } from '#support/clock';
import { createSeededRandom } from './seeded-random';
import { SERVED_FAULT_KINDS } from './served-faults';
import {
  accounts,
  callbackLog,
  createAccount,
  createRaw,
  createdSchema,
  faultsSchema,
  http,
  listing,
  listingSchema,
  nonstaticBody,
  payout,
  startReceiver,
  startTestSandbox,
  statusOf,
  transfer,
  waitFor,
  type HttpResult,
} from '#support/sandbox-world';

let sandbox: SandboxProvider;
let clock: ManualScheduler;

beforeEach(async () => {
  ({ sandbox, clock } = await startTestSandbox());
});

afterEach(async () => {
  await sandbox.close();
});

const setFaults = (body: unknown) => http(`${sandbox.controlUrl}/faults`, { body });

describe('fault injection', () => {
  it('GET, POST (merging) and DELETE /faults', async () => {
    const initial = faultsSchema.parse((await http(`${sandbox.controlUrl}/faults`)).body);
    expect(initial).toMatchObject({ latency_ms: 0, error_rate: 0, count_skew: 0, seed: 42 });
    await setFaults({ error_rate: 0.25 });
    const merged = faultsSchema.parse((await setFaults({ count_skew: 3 })).body);
    expect(merged).toMatchObject({ error_rate: 0.25, count_skew: 3 });
    const cleared = faultsSchema.parse(
      (await http(`${sandbox.controlUrl}/faults`, { method: 'DELETE' })).body,
    );
    expect(cleared).toMatchObject({ error_rate: 0, count_skew: 0 });
  });

  it.each([
    { error_rate: 2 },
    { latency_ms: -1 },
    { drop_callbacks: 'all' },
    { unknown: 1 },
    { side_effect_error_rate: 1.5 },
    { timeout_rate: -0.1 },
    { timeout_hold_ms: 1.5 },
    { timeout_hold_ms: 600_001 },
    { unreachable_ms: -1 },
    { unreachable_ms: 1.5 },
    { unreachable_ms: 24 * 60 * 60_000 + 1 },
    { unreachable_until_ms: 0 },
    { served: {} },
  ])('refuses %j with 400', async (body) => {
    expect((await setFaults(body)).status).toBe(400);
  });

  it('error_rate 1 answers 5xx on provider endpoints without side effects, not on control', async () => {
    await setFaults({ error_rate: 1 });
    const created = await http(`${sandbox.baseUrl}/virtual/new-account`, {
      headers: { secretKey: sandbox.secretKey },
      body: nonstaticBody(),
    });
    expect(created.status).toBeGreaterThanOrEqual(500);
    expect(created.body).toEqual({ status: 'error', message: 'sandbox injected fault' });
    expect((await listing(sandbox)).status).toBeGreaterThanOrEqual(500);
    const accounts = await http(`${sandbox.controlUrl}/accounts`);
    expect(accounts.status).toBe(200);
    expect(accounts.body).toEqual({ accounts: [] });
  });

  it('latency_ms delays provider answers', async () => {
    await setFaults({ latency_ms: 120 });
    const started = Date.now();
    expect((await listing(sandbox)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('drop_callbacks 1 delivers none and logs the drop', async () => {
    const r = await startReceiver();
    try {
      await setFaults({ drop_callbacks: 1 });
      const account = await createAccount(
        sandbox,
        nonstaticBody({ amount: 5, callback_url: r.url }),
      );
      await transfer(sandbox, account.account_number, 5);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(r.received).toHaveLength(0);
      const log = await callbackLog(sandbox);
      expect(log.map((c) => [c.cause, c.state, c.attempts.length])).toEqual([
        ['payment', 'dropped', 0],
      ]);
    } finally {
      await r.close();
    }
  });

  it('duplicate_callbacks 1 delivers every callback twice', async () => {
    const r = await startReceiver();
    try {
      await setFaults({ duplicate_callbacks: 1 });
      const account = await createAccount(
        sandbox,
        nonstaticBody({ amount: 5, callback_url: r.url }),
      );
      await transfer(sandbox, account.account_number, 5);
      await waitFor(() => (r.received.length === 2 ? true : undefined), 'two deliveries');
      expect(r.received[0]?.body).toEqual(r.received[1]?.body);
    } finally {
      await r.close();
    }
  });

  it('count_skew makes the listing lie about count, never below 0', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 5 }));
    await transfer(sandbox, account.account_number, 5);
    await setFaults({ count_skew: 4 });
    const skewed = listingSchema.parse((await listing(sandbox)).body).data;
    expect(skewed.count).toBe(5);
    expect(skewed.transactions).toHaveLength(1);
    await setFaults({ count_skew: -10 });
    expect(listingSchema.parse((await listing(sandbox)).body).data.count).toBe(0);
  });

  it('malformed_rate 1 sends 2xx bodies a strict client must refuse', async () => {
    await setFaults({ malformed_rate: 1 });
    for (let i = 0; i < 6; i += 1) {
      const result = await http(`${sandbox.baseUrl}/virtual/new-account`, {
        headers: { secretKey: sandbox.secretKey },
        body: nonstaticBody(),
      });
      expect(result.status).toBe(200);
      expect(createdSchema.safeParse(result.body).success).toBe(false);
    }
    // Errors stay well-formed: only success bodies are mangled.
    const missingKey = await http(`${sandbox.baseUrl}/virtual/transactions`);
    expect(missingKey.status).toBe(400);
    expect(missingKey.body).toMatchObject({ status: 'error' });
    await http(`${sandbox.controlUrl}/faults`, { method: 'DELETE' });
    expect((await payout(sandbox)).id).toBe(sandbox.payoutAccountId);
  });

  it('replays the same fault decisions for the same seed', async () => {
    const run = async (): Promise<number[]> => {
      await setFaults({ error_rate: 0.5, seed: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i += 1) {
        const result: HttpResult = await listing(sandbox);
        statuses.push(result.status);
      }
      return statuses;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.some((s) => s === 200)).toBe(true);
    expect(first.some((s) => s >= 500)).toBe(true);
  });
});

describe('createSeededRandom', () => {
  it('is deterministic per seed and uniform-ish in [0, 1)', () => {
    const a = createSeededRandom(1);
    const b = createSeededRandom(1);
    const c = createSeededRandom(2);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs);
    expect(c.next()).not.toBe(xs[0]);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(a.chance(0)).toBe(false);
    expect(a.chance(1)).toBe(true);
  });
});

const served = async () =>
  faultsSchema.parse((await http(`${sandbox.controlUrl}/faults`)).body).served;

describe('side_effect_error_rate', () => {
  it('does the work, commits it, then answers 500: on create, status and listing', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 5 }));
    await transfer(sandbox, account.account_number, 5);
    await setFaults({ side_effect_error_rate: 1 });

    const body = nonstaticBody();
    const created = await http(`${sandbox.baseUrl}/virtual/new-account`, {
      headers: { secretKey: sandbox.secretKey },
      body,
    });
    expect(created.status).toBe(500);
    expect(created.body).toEqual({ status: 'error', message: 'sandbox injected fault' });
    expect((await statusOf(sandbox, account.external_reference)).status).toBe(500);
    expect((await listing(sandbox)).status).toBe(500);

    // The account was made: its reference is taken, and it is in the control API's list.
    const held = (await accounts(sandbox)).map((a) => a.external_reference);
    expect(held).toContain(body['reference']);
    await http(`${sandbox.controlUrl}/faults`, { method: 'DELETE' });
    expect((await createRaw(sandbox, body)).status).toBe(409);
    expect((await served()).side_effect_error).toBe(3);
  });

  it('leaves refusals alone: a 4xx had no work to do', async () => {
    await setFaults({ side_effect_error_rate: 1 });
    expect((await statusOf(sandbox, 'no-such-reference')).status).toBe(404);
    expect((await served()).side_effect_error).toBe(0);
  });
});

describe('timeout_rate', () => {
  it('does the work, holds the answer timeout_hold_ms, then sends it', async () => {
    await setFaults({ timeout_rate: 1, timeout_hold_ms: 300 });
    const started = Date.now();
    const body = nonstaticBody();
    const created = await createRaw(sandbox, body);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(created.status).toBe(200);
    expect(createdSchema.parse(created.body).data.external_reference).toBe(body['reference']);
    expect((await served()).timeout).toBe(1);
    // The control API is never held.
    await setFaults({ timeout_hold_ms: 5000 });
    const controlStarted = Date.now();
    await http(`${sandbox.controlUrl}/accounts`);
    expect(Date.now() - controlStarted).toBeLessThan(2500);
  });

  it('defaults to a 20 s hold, which close() cuts short (the held request is dropped)', async () => {
    const faults = faultsSchema.parse((await setFaults({ timeout_rate: 1 })).body);
    expect(faults.timeout_hold_ms).toBe(20_000);
    const body = nonstaticBody();
    const held = createRaw(sandbox, body).then(
      () => 'answered',
      () => 'dropped',
    );
    await waitFor(async () => ((await served()).timeout === 1 ? true : undefined), 'the hold');
    const closing = Date.now();
    await sandbox.close();
    expect(Date.now() - closing).toBeLessThan(2000);
    expect(await held).toBe('dropped');
    ({ sandbox } = await startTestSandbox()); // for afterEach
  });
});

describe('unreachable_ms: the shop cannot reach the provider for a while', () => {
  const flexBody = (callbackUrl: string) =>
    nonstaticBody({
      type: 'static-flex',
      amount: undefined,
      expiers_in: undefined,
      callback_url: callbackUrl,
    });

  it('cuts the till off the provider for N ms of the sandbox clock, holding callbacks till the end', async () => {
    const r = await startReceiver();
    try {
      const flex = await createAccount(sandbox, flexBody(r.url));
      const started = clock.now();
      const set = faultsSchema.parse((await setFaults({ unreachable_ms: 60_000 })).body);
      expect(set.unreachable_until_ms).toBe(started + 60_000);

      // Every provider endpoint: the connection breaks (a network error), nothing is answered.
      await expect(listing(sandbox)).rejects.toThrow();
      await expect(statusOf(sandbox, 'TT-NONE')).rejects.toThrow();
      await expect(payout(sandbox)).rejects.toThrow();
      await expect(createRaw(sandbox, nonstaticBody())).rejects.toThrow();

      // The customer's bank still works: the control API takes the transfer.
      const paid = await transfer(sandbox, flex.account_number, 1500.37);
      expect(paid.status).toBe('success');
      expect(await accounts(sandbox)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(r.received).toHaveLength(0);

      await clock.advance(59_999);
      await expect(listing(sandbox)).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(r.received).toHaveLength(0);

      await clock.advance(1);
      const callback = await waitFor(() => r.received[0], 'the held callback');
      expect(callback.body).toMatchObject({ session_id: paid.session_id, amount: 1500.37 });
      const after = await listing(sandbox);
      expect(after.status).toBe(200);
      expect(listingSchema.parse(after.body).data.transactions).toHaveLength(1);
      expect((await served()).unreachable).toBe(5);
      expect(faultsSchema.parse((await http(`${sandbox.controlUrl}/faults`)).body)).toMatchObject({
        unreachable_until_ms: started + 60_000,
      });
    } finally {
      await r.close();
    }
  });

  it('unreachable_ms 0 and DELETE /faults end an outage at once', async () => {
    await setFaults({ unreachable_ms: 60_000 });
    await expect(listing(sandbox)).rejects.toThrow();
    expect(faultsSchema.parse((await setFaults({ unreachable_ms: 0 })).body)).toMatchObject({
      unreachable_until_ms: null,
    });
    expect((await listing(sandbox)).status).toBe(200);
    await setFaults({ unreachable_ms: 60_000 });
    await http(`${sandbox.controlUrl}/faults`, { method: 'DELETE' });
    expect((await listing(sandbox)).status).toBe(200);
  });
});

describe('served fault counts', () => {
  it('count what was served, by kind; DELETE /faults keeps them, DELETE /faults/served zeroes them', async () => {
    const initial = await served();
    expect(Object.values(initial).every((n) => n === 0)).toBe(true);
    expect(Object.keys(initial).sort()).toEqual([...SERVED_FAULT_KINDS].sort());

    const r = await startReceiver();
    try {
      const account = await createAccount(
        sandbox,
        nonstaticBody({ amount: 5, callback_url: r.url }),
      );
      const flex = await createAccount(
        sandbox,
        nonstaticBody({
          type: 'static-flex',
          amount: undefined,
          expiers_in: undefined,
          callback_url: r.url,
        }),
      );
      await setFaults({ drop_callbacks: 1 });
      await transfer(sandbox, account.account_number, 5);
      await setFaults({ drop_callbacks: 0, duplicate_callbacks: 1 });
      await transfer(sandbox, flex.account_number, 7);
      await waitFor(() => (r.received.length === 2 ? true : undefined), 'the duplicated callback');
    } finally {
      await r.close();
    }
    await setFaults({ duplicate_callbacks: 0, latency_ms: 5, count_skew: 2 });
    await listing(sandbox);
    await listing(sandbox);
    await setFaults({ latency_ms: 0, count_skew: 0, error_rate: 1 });
    await listing(sandbox);
    await setFaults({ error_rate: 0, malformed_rate: 1 });
    await listing(sandbox);
    await listing(sandbox);
    await http(`${sandbox.controlUrl}/accounts`); // control calls serve nothing

    const expected = {
      ...initial,
      callbacks_dropped: 1,
      callbacks_duplicated: 1,
      latency: 2,
      count_skew: 2,
      error: 1,
      malformed: 2,
    };
    expect(await served()).toEqual(expected);

    const cleared = faultsSchema.parse(
      (await http(`${sandbox.controlUrl}/faults`, { method: 'DELETE' })).body,
    );
    expect(cleared).toMatchObject({ malformed_rate: 0, served: expected });
    const reset = await http(`${sandbox.controlUrl}/faults/served`, { method: 'DELETE' });
    expect(reset.status).toBe(200);
    expect(faultsSchema.parse(reset.body).served).toEqual(initial);
    expect(await served()).toEqual(initial);
  });

  it('an answer replaced by a fault serves none of what it held', async () => {
    const flex = await createAccount(
      sandbox,
      nonstaticBody({ type: 'static-flex', amount: undefined, expiers_in: undefined }),
    );
    for (let i = 0; i < 4; i += 1) await transfer(sandbox, flex.account_number, 10);
    await http(`${sandbox.controlUrl}/personality`, { body: { bad_row_every: 2 } });
    await setFaults({ side_effect_error_rate: 1 });
    expect((await listing(sandbox)).status).toBe(500);
    await setFaults({ side_effect_error_rate: 0, malformed_rate: 1 });
    expect((await listing(sandbox)).status).toBe(200);
    expect(await served()).toMatchObject({ side_effect_error: 1, malformed: 1, bad_rows: 0 });
    await setFaults({ malformed_rate: 0 });
    await listing(sandbox);
    expect((await served()).bad_rows).toBe(2);
  });
});
