import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from './sandbox-provider';
import { createSeededRandom } from './seeded-random';
import {
  callbackLog,
  createAccount,
  createdSchema,
  faultsSchema,
  http,
  listing,
  listingSchema,
  nonstaticBody,
  payout,
  startReceiver,
  startTestSandbox,
  transfer,
  waitFor,
  type HttpResult,
} from './test-support';

let sandbox: SandboxProvider;

beforeEach(async () => {
  ({ sandbox } = await startTestSandbox());
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

  it.each([{ error_rate: 2 }, { latency_ms: -1 }, { drop_callbacks: 'all' }, { unknown: 1 }])(
    'refuses %j with 400',
    async (body) => {
      expect((await setFaults(body)).status).toBe(400);
    },
  );

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
