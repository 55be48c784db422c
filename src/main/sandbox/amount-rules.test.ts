import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideOutcome, effectiveStatus } from './amount-rules';
import type { SandboxProvider } from './sandbox-provider';
import {
  accounts,
  balanceValue,
  createAccount,
  controlErrorSchema,
  http,
  ledger,
  listing,
  listingSchema,
  nonstaticBody,
  payout,
  startTestSandbox,
  statusOf,
  statusSchema,
  transfer,
  transferRaw,
  waitFor,
} from '#support/sandbox-world';
import type { ManualScheduler } from '#support/clock';

describe('decideOutcome', () => {
  it('applies the amount rules per account type', () => {
    const nonstatic = { type: 'nonstatic', amountKobo: 250_500 } as const;
    expect(decideOutcome(nonstatic, 250_500, false)).toEqual({ status: 'success' });
    expect(decideOutcome(nonstatic, 250_499, false)).toEqual({
      status: 'failed',
      reason: 'amount_mismatch',
    });
    expect(decideOutcome(nonstatic, 250_500, true)).toEqual({
      status: 'failed',
      reason: 'already_paid',
    });
    const fixed = { type: 'static', amountKobo: 1000 } as const;
    expect(decideOutcome(fixed, 1000, true)).toEqual({ status: 'success' });
    expect(decideOutcome(fixed, 1001, false).status).toBe('failed');
    const flex = { type: 'static-flex', amountKobo: null } as const;
    expect(decideOutcome(flex, 1, true)).toEqual({ status: 'success' });
  });

  it('derives expiry from the clock and lets cancelled win', () => {
    expect(effectiveStatus({ status: 'active', expiresAtMs: 1000 }, 999)).toBe('active');
    expect(effectiveStatus({ status: 'active', expiresAtMs: 1000 }, 1000)).toBe('expired');
    expect(effectiveStatus({ status: 'active', expiresAtMs: null }, 1e15)).toBe('active');
    expect(effectiveStatus({ status: 'cancelled', expiresAtMs: 1000 }, 2000)).toBe('cancelled');
  });
});

describe('transfers through the control API', () => {
  let sandbox: SandboxProvider;
  let clock: ManualScheduler;

  beforeEach(async () => {
    ({ sandbox, clock } = await startTestSandbox());
  });

  afterEach(async () => {
    await sandbox.close();
  });

  const staticBody = (amount: number) =>
    nonstaticBody({ type: 'static', amount, expiers_in: undefined });
  const flexBody = () =>
    nonstaticBody({ type: 'static-flex', amount: undefined, expiers_in: undefined });

  it('nonstatic: the exact amount succeeds and credits the balance', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 1234.56 }));
    const tx = await transfer(sandbox, account.account_number, 1234.56);
    expect(tx).toMatchObject({ status: 'success', amount: 1234.56, amount_kobo: 123_456 });
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(123_456);
  });

  it('nonstatic: any other amount fails, credits nothing, and a later exact one succeeds', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 2505 }));
    const low = await transfer(sandbox, account.account_number, 2504.99);
    const high = await transfer(sandbox, account.account_number, 2600);
    expect([low.status, low.reason]).toEqual(['failed', 'amount_mismatch']);
    expect(high.status).toBe('failed');
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(0);
    expect((await transfer(sandbox, account.account_number, 2505)).status).toBe('success');
  });

  it('nonstatic: a second payment after a success fails as already_paid', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 500 }));
    await transfer(sandbox, account.account_number, 500);
    const second = await transfer(sandbox, account.account_number, 500);
    expect([second.status, second.reason]).toEqual(['failed', 'already_paid']);
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(50_000);
  });

  it('static: the set amount succeeds every time, a different one fails', async () => {
    const account = await createAccount(sandbox, staticBody(1000));
    expect((await transfer(sandbox, account.account_number, 1000)).status).toBe('success');
    expect((await transfer(sandbox, account.account_number, 1000)).status).toBe('success');
    const wrong = await transfer(sandbox, account.account_number, 999);
    expect([wrong.status, wrong.reason]).toEqual(['failed', 'amount_mismatch']);
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(200_000);
  });

  it('static-flex: any amount succeeds, repeatedly', async () => {
    const account = await createAccount(sandbox, flexBody());
    for (const amount of [1, 0.01, 99_999.99]) {
      expect((await transfer(sandbox, account.account_number, amount)).status).toBe('success');
    }
    expect(balanceValue(await payout(sandbox), 'SettlementPositionBalance')).toBe(10_000_100);
  });

  it('nonstatic: expires expiers_in minutes after creation by the injected clock', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 10, expiers_in: 15 }));
    await clock.advance(15 * 60_000 - 1);
    const [view] = await accounts(sandbox);
    expect(view?.status).toBe('active');
    expect(view?.expires_at).toBe('2025-01-15 09:15:00');
    await clock.advance(1);
    const refused = await transferRaw(sandbox, account.account_number, 10);
    expect(refused.status).toBe(409);
    expect(controlErrorSchema.parse(refused.body).code).toBe('ACCOUNT_EXPIRED');
    expect(await ledger(sandbox)).toEqual([]);
    expect((await accounts(sandbox))[0]?.status).toBe('expired');
    expect((await statusOf(sandbox, account.external_reference)).status).toBe(404);
  });

  it('expire and cancel through the control API refuse later transfers', async () => {
    const a = await createAccount(sandbox);
    const b = await createAccount(sandbox);
    const expired = await http(`${sandbox.controlUrl}/accounts/${a.account_number}/expire`, {
      method: 'POST',
    });
    expect(expired.status).toBe(200);
    const cancelled = await http(`${sandbox.controlUrl}/accounts/${b.account_number}/cancel`, {
      method: 'POST',
    });
    expect(cancelled.status).toBe(200);
    expect((await transferRaw(sandbox, a.account_number, 2505)).status).toBe(409);
    const refused = await transferRaw(sandbox, b.account_number, 2505);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('ACCOUNT_CANCELLED');
    expect((await accounts(sandbox)).map((x) => x.status)).toEqual(['expired', 'cancelled']);
    expect(await ledger(sandbox)).toEqual([]);
  });

  it('cancel is refused for a paid nonstatic account and for other types', async () => {
    const paid = await createAccount(sandbox, nonstaticBody({ amount: 10 }));
    await transfer(sandbox, paid.account_number, 10);
    const cancelPaid = await http(`${sandbox.controlUrl}/accounts/${paid.account_number}/cancel`, {
      method: 'POST',
    });
    expect(cancelPaid.status).toBe(409);
    const flex = await createAccount(sandbox, flexBody());
    const cancelFlex = await http(`${sandbox.controlUrl}/accounts/${flex.account_number}/cancel`, {
      method: 'POST',
    });
    expect(cancelFlex.status).toBe(409);
    const unknown = await http(`${sandbox.controlUrl}/accounts/0000000001/cancel`, {
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses a transfer to an unknown account with 404 and bad amounts with 400', async () => {
    expect((await transferRaw(sandbox, '0000000001', 10)).status).toBe(404);
    const account = await createAccount(sandbox);
    for (const amount of [0, -1, 1.234]) {
      const result = await transferRaw(sandbox, account.account_number, amount);
      expect(result.status).toBe(400);
      expect(result.text).toContain('amount:');
    }
  });

  it('pending_ms: pending (409, listed pending) until settled, then success', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 2505 }));
    const tx = await transfer(sandbox, account.account_number, 2505, 30_000);
    expect(tx.status).toBe('pending');
    expect((await statusOf(sandbox, account.external_reference)).status).toBe(409);
    const listed = listingSchema.parse((await listing(sandbox)).body).data.transactions;
    expect(listed.map((t) => t.status)).toEqual(['pending']);
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(0);

    await clock.advance(30_000);
    const settled = await statusOf(sandbox, account.external_reference);
    expect(settled.status).toBe(200);
    expect(statusSchema.parse(settled.body).data).toMatchObject({
      status: 'success',
      session_id: tx.session_id,
    });
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(250_500);
  });

  it('pending_ms: the amount rules apply at settlement', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 2505 }));
    await transfer(sandbox, account.account_number, 2000, 1000);
    await clock.advance(1000);
    const [row] = await ledger(sandbox);
    expect([row?.status, row?.reason]).toEqual(['failed', 'amount_mismatch']);
  });

  it('pending_ms: settles by timer on a real clock, without any read', async () => {
    await sandbox.close();
    ({ sandbox } = await startTestSandbox({ now: Date.now }));
    const account = await createAccount(sandbox, nonstaticBody({ amount: 10 }));
    await transfer(sandbox, account.account_number, 10, 50);
    // GET /callbacks does not settle lazily: a dispatch appears only if the timer settled it.
    await waitFor(async () => {
      const log = await http(`${sandbox.controlUrl}/callbacks`);
      return log.text.includes('"cause":"payment"') ? true : undefined;
    }, 'settlement by timer');
  });
});
