import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxProvider, SandboxProviderOptions } from './sandbox-provider';
import {
  callbackLog,
  callbackPayloadSchema,
  createAccount,
  failureNoticeSchema,
  http,
  ledger,
  SANDBOX_T0,
  nonstaticBody,
  servedFaults,
  setPersonality,
  startReceiver,
  startTestSandbox,
  transfer,
  waitFor,
  type Receiver,
} from '#support/sandbox-world';
import { ManualScheduler } from '#support/clock';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function sandboxWith(
  options: SandboxProviderOptions = {},
  clock: ManualScheduler = new ManualScheduler(SANDBOX_T0),
): Promise<{ sandbox: SandboxProvider; clock: ManualScheduler }> {
  const started = await startTestSandbox(options, clock);
  cleanups.push(() => started.sandbox.close());
  return started;
}

/** Real time for a callback that is coming to arrive; used to show one did not. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 200));

const flexBody = (callbackUrl: string) =>
  nonstaticBody({
    type: 'static-flex',
    amount: undefined,
    expiers_in: undefined,
    callback_url: callbackUrl,
  });

const sessionsReceived = (r: Receiver) =>
  r.received.map((x) => callbackPayloadSchema.parse(x.body).session_id);

describe('callbacks personality', () => {
  it('"never" sends no payment callback, logs it dropped and counts it; a re-send still goes', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith({ personality: { callbacks: 'never' } });
    const account = await createAccount(sandbox, flexBody(r.url));
    const tx = await transfer(sandbox, account.account_number, 50);
    await quiet();
    expect(r.received).toEqual([]);
    expect((await callbackLog(sandbox)).map((c) => [c.cause, c.state, c.note])).toEqual([
      ['payment', 'dropped', 'callbacks_never'],
    ]);
    expect((await servedFaults(sandbox)).callbacks_never).toBe(1);

    // An explicit re-send is the operator's own act, not the provider's habit.
    await http(`${sandbox.controlUrl}/transactions/${tx.session_id}/callbacks`, { body: {} });
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'the re-send');
  });

  it('"late" holds each callback callback_delay_ms on the sandbox clock; a moved clock releases it', async () => {
    const r = await receiver();
    const { sandbox, clock } = await sandboxWith({
      personality: { callbacks: 'late', callback_delay_ms: 30_000 },
    });
    const account = await createAccount(sandbox, flexBody(r.url));
    const tx = await transfer(sandbox, account.account_number, 50);
    expect((await servedFaults(sandbox)).callbacks_late).toBe(1);
    await quiet();
    expect(r.received).toEqual([]);
    const [held] = await callbackLog(sandbox);
    expect(held).toMatchObject({ state: 'pending', note: 'late', due_at_ms: clock.now() + 30_000 });

    await clock.advance(29_999);
    await quiet();
    expect(r.received).toEqual([]);
    // No request is needed: the short real-time poll sees the clock move.
    await clock.advance(1);
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'the late callback');
    expect(sessionsReceived(r)).toEqual([tx.session_id]);
  });

  it('"late" holds keep across a restart and go out when due', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-late-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = path.join(dir, 'sandbox.sqlite');
    const r = await receiver();
    const clock = new ManualScheduler(SANDBOX_T0);
    const first = await startTestSandbox(
      { dbPath, personality: { callbacks: 'late', callback_delay_ms: 10_000 } },
      clock,
    );
    const account = await createAccount(first.sandbox, flexBody(r.url));
    const tx = await transfer(first.sandbox, account.account_number, 50);
    await first.sandbox.close();

    const { sandbox } = await sandboxWith({ dbPath }, clock);
    await quiet();
    expect(r.received).toEqual([]);
    await clock.advance(10_000);
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'the held callback');
    expect(sessionsReceived(r)).toEqual([tx.session_id]);
    expect((await servedFaults(sandbox)).callbacks_late).toBe(1); // counted once, when held
  });

  it('"reordered" sends callbacks due together newest first, counting the reversed batch', async () => {
    const r = await receiver();
    const { sandbox, clock } = await sandboxWith({ personality: { callbacks: 'reordered' } });
    const account = await createAccount(sandbox, flexBody(r.url));
    // Three transfers settling at the same moment: due together.
    for (const amount of [1, 2, 3]) await transfer(sandbox, account.account_number, amount, 1000);
    await clock.advance(1000);
    const made = (await ledger(sandbox)).map((t) => t.session_id); // settles all three, in order
    await waitFor(() => (r.received.length === 3 ? true : undefined), 'three callbacks');
    expect(sessionsReceived(r)).toEqual([...made].reverse());
    expect((await servedFaults(sandbox)).callbacks_reordered).toBe(1);

    // A lone callback has nothing to swap with: sent after the short window, not counted.
    const lone = await transfer(sandbox, account.account_number, 4);
    await waitFor(() => (r.received.length === 4 ? true : undefined), 'the lone callback');
    expect(sessionsReceived(r).at(-1)).toBe(lone.session_id);
    expect((await servedFaults(sandbox)).callbacks_reordered).toBe(1);
    expect((await callbackLog(sandbox)).map((c) => c.note)).toEqual(Array(4).fill('reordered'));
  });

  it('"on" sends at once, in order, as before', async () => {
    const r = await receiver();
    const { sandbox, clock } = await sandboxWith();
    const account = await createAccount(sandbox, flexBody(r.url));
    for (const amount of [1, 2]) await transfer(sandbox, account.account_number, amount, 1000);
    await clock.advance(1000);
    await ledger(sandbox);
    await waitFor(() => (r.received.length === 2 ? true : undefined), 'two callbacks');
    expect((await callbackLog(sandbox)).map((c) => c.note)).toEqual([null, null]);
    const served = await servedFaults(sandbox);
    expect([served.callbacks_late, served.callbacks_reordered, served.callbacks_never]).toEqual([
      0, 0, 0,
    ]);
  });
});

describe('failed_callbacks and callback_format', () => {
  it('failed_callbacks "sent" posts a failure notice for a wrong amount, counted', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith();
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 100, callback_url: r.url }),
    );
    await transfer(sandbox, account.account_number, 99); // "none" (default): nothing sent
    await setPersonality(sandbox, { failed_callbacks: 'sent' });
    const wrong = await transfer(sandbox, account.account_number, 98);
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'the failure notice');
    expect(failureNoticeSchema.parse(r.received[0]?.body)).toMatchObject({
      event: 'payment.failed',
      status: 'failed',
      session_id: wrong.session_id,
      amount: 98,
      external_reference: account.external_reference,
    });
    expect((await servedFaults(sandbox)).failed_callbacks_sent).toBe(1);
    // A re-send of a failed payment is still refused: only successes have callbacks to repeat.
    const resend = await http(`${sandbox.controlUrl}/transactions/${wrong.session_id}/callbacks`, {
      body: {},
    });
    expect(resend.status).toBe(409);
  });

  it('callback_format "form" sends the same fields form-encoded', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith({ personality: { callback_format: 'form' } });
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 2505.5, callback_url: r.url }),
    );
    const tx = await transfer(sandbox, account.account_number, 2505.5);
    await waitFor(() => (r.received.length === 1 ? true : undefined), 'the callback');
    const [received] = r.received;
    expect(received?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(typeof received?.body).toBe('string');
    const fields = Object.fromEntries(new URLSearchParams(String(received?.body)));
    expect(fields).toEqual({
      event: 'payment.success',
      reference: account.external_reference,
      external_reference: account.external_reference,
      account_number: account.account_number,
      session_id: tx.session_id,
      amount: '2505.5',
      status: 'success',
      date: '2025-01-15 09:00:00',
      type: 'nonstatic',
    });
  });
});
