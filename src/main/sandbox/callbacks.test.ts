import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from './sandbox-provider';
import {
  callbackLog,
  callbackPayloadSchema,
  createAccount,
  http,
  nonstaticBody,
  startReceiver,
  startTestSandbox,
  statusOf,
  transfer,
  unreachableUrl,
  waitFor,
  type Receiver,
} from '#support/sandbox-world';
import type { ManualScheduler } from '#support/clock';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(statuses: readonly number[] = []): Promise<Receiver> {
  const r = await startReceiver(statuses);
  cleanups.push(() => r.close());
  return r;
}

async function sandboxWith(
  options: Parameters<typeof startTestSandbox>[0] = {},
): Promise<{ sandbox: SandboxProvider; clock: ManualScheduler }> {
  const started = await startTestSandbox(options);
  cleanups.push(() => started.sandbox.close());
  return started;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('payment callbacks', () => {
  it('POSTs the documented payload to callback_url on a success', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith();
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 1234.5, callback_url: r.url }),
    );
    const tx = await transfer(sandbox, account.account_number, 1234.5);
    const [received] = await waitFor(
      () => (r.received.length > 0 ? r.received : undefined),
      'callback',
    );
    expect(callbackPayloadSchema.parse(received?.body)).toEqual({
      event: 'payment.success',
      reference: account.external_reference,
      external_reference: account.external_reference,
      account_number: account.account_number,
      session_id: tx.session_id,
      amount: 1234.5,
      status: 'success',
      date: '2025-01-15 09:00:00',
      type: 'nonstatic',
    });
    expect(received?.headers['content-type']).toBe('application/json');
    const log = await waitFor(async () => {
      const entries = await callbackLog(sandbox);
      return entries[0]?.state === 'delivered' ? entries : undefined;
    }, 'delivered state');
    expect(log).toHaveLength(1);
    expect(log[0]?.attempts).toMatchObject([
      { attempt: 1, target: 'primary', url: r.url, http_status: 200, error: null },
    ]);
  });

  it('sends no callback for a failed (wrong amount) payment', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith();
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 100, callback_url: r.url }),
    );
    await transfer(sandbox, account.account_number, 99);
    await settle();
    expect(r.received).toHaveLength(0);
    expect(await callbackLog(sandbox)).toEqual([]);
  });

  it('fires the callback when a pending transfer settles', async () => {
    const r = await receiver();
    const { sandbox, clock } = await sandboxWith();
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 100, callback_url: r.url }),
    );
    await transfer(sandbox, account.account_number, 100, 10_000);
    await settle();
    expect(r.received).toHaveLength(0);
    await clock.advance(10_000);
    expect((await statusOf(sandbox, account.external_reference)).status).toBe(200);
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'callback after settlement');
  });

  it('retries with the configured backoff while the receiver answers 500', async () => {
    const r = await receiver([500, 503]);
    const { sandbox } = await sandboxWith({ callbackRetryDelaysMs: [30, 60, 90] });
    const account = await createAccount(sandbox, nonstaticBody({ amount: 5, callback_url: r.url }));
    await transfer(sandbox, account.account_number, 5);
    await waitFor(() => (r.received.length === 3 ? true : undefined), 'three deliveries');
    const [first, second, third] = r.received.map((c) => c.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(25);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(55);
    const [entry] = await waitFor(async () => {
      const log = await callbackLog(sandbox);
      return log[0]?.state === 'delivered' ? log : undefined;
    }, 'delivered');
    expect(entry?.attempts.map((a) => [a.attempt, a.http_status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
  });

  it('gives up as failed when the retries run out', async () => {
    const r = await receiver([500, 500, 500, 500]);
    const { sandbox } = await sandboxWith({ callbackRetryDelaysMs: [5, 5] });
    const account = await createAccount(sandbox, nonstaticBody({ amount: 5, callback_url: r.url }));
    await transfer(sandbox, account.account_number, 5);
    const [entry] = await waitFor(async () => {
      const log = await callbackLog(sandbox);
      return log[0]?.state === 'failed' ? log : undefined;
    }, 'failed');
    expect(entry?.attempts).toHaveLength(3);
    expect(r.received).toHaveLength(3);
  });

  it('delivers to the fallback URL when the primary is unreachable', async () => {
    const fallback = await receiver();
    const primary = await unreachableUrl();
    const { sandbox } = await sandboxWith({ fallbackCallbackUrl: fallback.url });
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 5, callback_url: primary }),
    );
    const tx = await transfer(sandbox, account.account_number, 5);
    const [received] = await waitFor(
      () => (fallback.received.length > 0 ? fallback.received : undefined),
      'fallback delivery',
    );
    expect(callbackPayloadSchema.parse(received?.body).session_id).toBe(tx.session_id);
    const [entry] = await waitFor(async () => {
      const log = await callbackLog(sandbox);
      return log[0]?.state === 'delivered' ? log : undefined;
    }, 'delivered');
    expect(entry?.attempts).toHaveLength(2);
    expect(entry?.attempts[0]).toMatchObject({
      target: 'primary',
      url: primary,
      http_status: null,
    });
    expect(entry?.attempts[0]?.error).toMatch(/ECONNREFUSED/);
    expect(entry?.attempts[1]).toMatchObject({
      target: 'fallback',
      url: fallback.url,
      http_status: 200,
    });
  });

  it('takes the fallback URL from POST /config, and does not use it for a 500', async () => {
    const fallback = await receiver();
    const primary = await receiver([500]);
    const { sandbox } = await sandboxWith();
    const set = await http(`${sandbox.controlUrl}/config`, {
      body: { fallback_callback_url: fallback.url },
    });
    expect(set.body).toEqual({ fallback_callback_url: fallback.url });
    expect(
      (await http(`${sandbox.controlUrl}/config`, { body: { fallback_callback_url: 'x' } })).status,
    ).toBe(400);

    const answering = await createAccount(
      sandbox,
      nonstaticBody({ amount: 5, callback_url: primary.url }),
    );
    await transfer(sandbox, answering.account_number, 5);
    await waitFor(() => (primary.received.length === 2 ? true : undefined), 'retry on primary');
    expect(fallback.received).toHaveLength(0);

    const dead = await createAccount(
      sandbox,
      nonstaticBody({ amount: 5, callback_url: await unreachableUrl() }),
    );
    await transfer(sandbox, dead.account_number, 5);
    await waitFor(() => (fallback.received.length === 1 ? true : undefined), 'fallback delivery');
  });

  it('re-sends a callback on request, as many copies as asked, with one session_id', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith();
    const account = await createAccount(sandbox, nonstaticBody({ amount: 5, callback_url: r.url }));
    const tx = await transfer(sandbox, account.account_number, 5);
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'first delivery');
    const resend = await http(`${sandbox.controlUrl}/transactions/${tx.session_id}/callbacks`, {
      body: { copies: 3 },
    });
    expect(resend.status).toBe(202);
    await waitFor(() => (r.received.length === 4 ? true : undefined), 'three copies');
    const sessions = r.received.map((c) => callbackPayloadSchema.parse(c.body).session_id);
    expect(new Set(sessions)).toEqual(new Set([tx.session_id]));
    const single = await http(`${sandbox.controlUrl}/transactions/${tx.session_id}/callbacks`, {
      method: 'POST',
    });
    expect(single.status).toBe(202);
    await waitFor(() => (r.received.length === 5 ? true : undefined), 'one more copy');
    const causes = (await callbackLog(sandbox)).map((c) => c.cause);
    expect(causes).toEqual(['payment', 'resend', 'resend', 'resend', 'resend']);
  });

  it('refuses to re-send for unknown or unsuccessful transactions', async () => {
    const { sandbox } = await sandboxWith();
    const missing = await http(`${sandbox.controlUrl}/transactions/123/callbacks`, { body: {} });
    expect(missing.status).toBe(404);
    const account = await createAccount(sandbox, nonstaticBody({ amount: 5 }));
    const failed = await transfer(sandbox, account.account_number, 6);
    const refused = await http(
      `${sandbox.controlUrl}/transactions/${failed.session_id}/callbacks`,
      {
        body: {},
      },
    );
    expect(refused.status).toBe(409);
    const tooMany = await http(
      `${sandbox.controlUrl}/transactions/${failed.session_id}/callbacks`,
      {
        body: { copies: 0 },
      },
    );
    expect(tooMany.status).toBe(400);
  });
});
