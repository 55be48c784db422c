import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from './sandbox-provider';
import {
  balanceValue,
  createAccount,
  createdSchema,
  createRaw,
  errorBodySchema,
  http,
  listing,
  listingSchema,
  nonstaticBody,
  payout,
  startTestSandbox,
  statusOf,
  statusSchema,
  transfer,
  uniqueReference,
} from '#support/sandbox-world';

let sandbox: SandboxProvider;

beforeEach(async () => {
  ({ sandbox } = await startTestSandbox());
});

afterEach(async () => {
  await sandbox.close();
});

function expectError(result: { status: number; body: unknown; text: string }, status: number) {
  expect(result.status, result.text).toBe(status);
  const body = errorBodySchema.parse(result.body);
  expect(result.text).not.toContain(sandbox.secretKey);
  expect(result.text).not.toContain(sandbox.accessToken);
  return body.message;
}

describe('POST /virtual/new-account', () => {
  it('issues an active account echoing the request, with a capital-B Bank', async () => {
    const body = nonstaticBody({ account_name: 'Iya Basira Provisions' });
    const result = await createRaw(sandbox, body);
    expect(result.status).toBe(200);
    // Strict: an extra or renamed field (bank for Bank) fails the parse.
    const { data } = createdSchema.parse(result.body);
    expect(data.account_name).toBe('Iya Basira Provisions');
    expect(data.external_reference).toBe(body.reference);
    expect(data.Bank).toBe('Sandbox Bank');
    expect(data.status).toBe('active');
    expect(data.reference).not.toBe(body.reference);
  });

  it('issues unique 10-digit account numbers', async () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 20; i += 1) numbers.add((await createAccount(sandbox)).account_number);
    expect(numbers.size).toBe(20);
    expect(numbers.has(sandbox.payoutAccountId)).toBe(false);
  });

  it('keeps the reference verbatim as external_reference', async () => {
    const reference = ` ${uniqueReference()} `;
    const data = await createAccount(sandbox, nonstaticBody({ reference }));
    expect(data.external_reference).toBe(reference);
  });

  it('answers 400 without a secretKey and 404 for an unknown one', async () => {
    const missing = await http(`${sandbox.baseUrl}/virtual/new-account`, { body: nonstaticBody() });
    expect(expectError(missing, 400)).toMatch(/secretKey/);
    const unknown = await createRaw(sandbox, nonstaticBody(), 'sk_sandbox_not_the_right_one');
    expect(expectError(unknown, 404)).toMatch(/settlement account/);
  });

  it('refuses expires_in, of any type, naming expiers_in', async () => {
    for (const value of [30, '30', null]) {
      const body = nonstaticBody({ expires_in: value });
      delete body.expiers_in;
      const message = expectError(await createRaw(sandbox, body), 400);
      expect(message).toMatch(/^expires_in: .*expiers_in/);
    }
  });

  it.each([
    ['reference', { reference: undefined }],
    ['account_name', { account_name: undefined }],
    ['merchant_id', { merchant_id: undefined }],
    // A blank merchant ID is refused as the real provider refuses it ("missing or invalid fields").
    ['merchant_id', { merchant_id: '' }],
    ['merchant_id', { merchant_id: '   ' }],
    ['merchant', { merchant: '' }],
    ['account_name', { account_name: ' ' }],
    ['merchant', { merchant: undefined }],
    ['type', { type: undefined }],
    ['type', { type: 'dynamic' }],
    ['callback_url', { callback_url: undefined }],
    ['callback_url', { callback_url: 'not a url' }],
    ['callback_url', { callback_url: 'ftp://example.com/cb' }],
    ['callback_url', { callback_url: '/relative/path' }],
    ['amount', { amount: undefined }],
    ['amount', { amount: 0 }],
    ['amount', { amount: -5 }],
    ['amount', { amount: 10.005 }],
    ['amount', { amount: '2505' }],
    ['expiers_in', { expiers_in: undefined }],
    ['expiers_in', { expiers_in: 0 }],
    ['expiers_in', { expiers_in: 1.5 }],
    ['expiers_in', { expiers_in: '30' }],
    ['expiers_in', { expiers_in: 10_081 }],
    ['reference', { reference: '' }],
    ['account_name', { account_name: 42 }],
  ])('answers 400 naming %s for %j', async (field, overrides) => {
    const message = expectError(await createRaw(sandbox, nonstaticBody(overrides)), 400);
    expect(message.startsWith(`${field}:`)).toBe(true);
  });

  it('requires an amount for static and refuses one for static-flex', async () => {
    const staticBody = nonstaticBody({ type: 'static', amount: undefined, expiers_in: undefined });
    expect(expectError(await createRaw(sandbox, staticBody), 400)).toMatch(/^amount:/);
    const flex = nonstaticBody({ type: 'static-flex', amount: 100, expiers_in: undefined });
    expect(expectError(await createRaw(sandbox, flex), 400)).toMatch(/^amount: .*static-flex/);
  });

  it('ignores expiers_in for static and static-flex', async () => {
    const flex = nonstaticBody({ type: 'static-flex', amount: undefined, expiers_in: -1 });
    expect((await createRaw(sandbox, flex)).status).toBe(200);
    const fixed = nonstaticBody({ type: 'static', expiers_in: undefined });
    expect((await createRaw(sandbox, fixed)).status).toBe(200);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    expectError(await createRaw(sandbox, '{not json'), 400);
    expectError(await createRaw(sandbox, [1, 2]), 400);
    expectError(await createRaw(sandbox, ''), 400);
  });

  it('answers 409 for a reused reference', async () => {
    const body = nonstaticBody();
    await createAccount(sandbox, body);
    const again = await createRaw(sandbox, { ...body, amount: 100 });
    expect(expectError(again, 409)).toMatch(/^reference:/);
  });
});

describe('GET /virtual/status', () => {
  it('answers 404 when no transaction exists, for a known and an unknown reference', async () => {
    const account = await createAccount(sandbox);
    expectError(await statusOf(sandbox, account.external_reference), 404);
    expectError(await statusOf(sandbox, 'never-issued'), 404);
  });

  it('answers 200 with the success record in Naira and Lagos time', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 1234.56 }));
    const tx = await transfer(sandbox, account.account_number, 1234.56);
    const result = await statusOf(sandbox, account.external_reference);
    expect(result.status).toBe(200);
    const { data } = statusSchema.parse(result.body);
    expect(data).toEqual({
      status: 'success',
      session_id: tx.session_id,
      reference: account.external_reference,
      amount: 1234.56,
      date: '2025-01-15 09:00:00',
    });
  });

  it('answers 200 with status failed when only a wrong amount was paid', async () => {
    const account = await createAccount(sandbox);
    const tx = await transfer(sandbox, account.account_number, 100);
    const result = await statusOf(sandbox, account.external_reference);
    expect(result.status).toBe(200);
    const { data } = statusSchema.parse(result.body);
    expect(data.status).toBe('failed');
    expect(data.session_id).toBe(tx.session_id);
    expect(data.amount).toBe(100);
  });

  it('answers 409 while the only transfer is pending', async () => {
    const account = await createAccount(sandbox);
    await transfer(sandbox, account.account_number, 2505, 60_000);
    expectError(await statusOf(sandbox, account.external_reference), 409);
  });

  it('answers 400 without reference or secretKey and 404 for an unknown key', async () => {
    expectError(
      await http(`${sandbox.baseUrl}/virtual/status`, {
        headers: { secretKey: sandbox.secretKey },
      }),
      400,
    );
    expectError(await http(`${sandbox.baseUrl}/virtual/status?reference=x`), 400);
    expectError(
      await http(`${sandbox.baseUrl}/virtual/status?reference=x`, {
        headers: { secretKey: 'sk_wrong_key_123' },
      }),
      404,
    );
  });
});

describe('GET /virtual/transactions', () => {
  async function seed(n: number): Promise<string[]> {
    const sessions: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const account = await createAccount(sandbox, nonstaticBody({ amount: 100 + i }));
      sessions.push((await transfer(sandbox, account.account_number, 100 + i)).session_id);
    }
    return sessions;
  }

  it('lists every transaction of the merchant oldest first, with all statuses', async () => {
    const a = await createAccount(sandbox, nonstaticBody({ amount: 50 }));
    const ok = await transfer(sandbox, a.account_number, 50);
    const b = await createAccount(sandbox, nonstaticBody({ amount: 70.25 }));
    const bad = await transfer(sandbox, b.account_number, 70);
    const c = await createAccount(sandbox, nonstaticBody({ amount: 90 }));
    const pending = await transfer(sandbox, c.account_number, 90, 5000);
    const result = await listing(sandbox);
    expect(result.status).toBe(200);
    const { data } = listingSchema.parse(result.body);
    expect(data.count).toBe(3);
    expect(data.transactions).toEqual([
      {
        amount: 50,
        status: 'success',
        session_id: ok.session_id,
        external_reference: a.external_reference,
        date: '2025-01-15 09:00:00',
      },
      {
        amount: 70,
        status: 'failed',
        session_id: bad.session_id,
        external_reference: b.external_reference,
        date: '2025-01-15 09:00:00',
      },
      {
        amount: 90,
        status: 'pending',
        session_id: pending.session_id,
        external_reference: c.external_reference,
        date: '2025-01-15 09:00:00',
      },
    ]);
  });

  it('pages with offset and limit and reports the total count', async () => {
    const sessions = await seed(7);
    const pages: string[] = [];
    for (let offset = 0; ; offset += 3) {
      const { data } = listingSchema.parse(
        (await listing(sandbox, `?offset=${offset}&limit=3`)).body,
      );
      expect(data.count).toBe(7);
      expect(data.transactions.length).toBeLessThanOrEqual(3);
      pages.push(...data.transactions.map((t) => t.session_id));
      if (pages.length >= data.count) break;
    }
    expect(pages).toEqual(sessions);
    const beyond = listingSchema.parse((await listing(sandbox, '?offset=50')).body).data;
    expect(beyond).toEqual({ count: 7, transactions: [] });
  });

  it('defaults to 50 per page and clamps limit to 100', async () => {
    const flex = await createAccount(
      sandbox,
      nonstaticBody({ type: 'static-flex', amount: undefined, expiers_in: undefined }),
    );
    for (let i = 0; i < 120; i += 1) await transfer(sandbox, flex.account_number, 1 + i);
    const first = listingSchema.parse((await listing(sandbox)).body).data;
    expect(first.count).toBe(120);
    expect(first.transactions).toHaveLength(50);
    const big = listingSchema.parse((await listing(sandbox, '?limit=1000')).body).data;
    expect(big.transactions).toHaveLength(100);
    expect(big.transactions[99]?.amount).toBe(100);
  });

  it.each(['?offset=-1', '?offset=1.5', '?limit=0', '?limit=abc', '?offset=', '?limit=-3'])(
    'answers 400 for %s',
    async (query) => {
      const message = expectError(await listing(sandbox, query), 400);
      expect(message).toMatch(/^(offset|limit):/);
    },
  );

  it('answers 400 without secretKey and 404 for an unknown one', async () => {
    expectError(await http(`${sandbox.baseUrl}/virtual/transactions`), 400);
    expectError(
      await http(`${sandbox.baseUrl}/virtual/transactions`, {
        headers: { secretKey: 'sk_nope_nope' },
      }),
      404,
    );
  });
});

describe('GET /payout/request/company/get-user-account', () => {
  const url = (s: SandboxProvider, accountId: string) =>
    `${s.payoutBaseUrl}/request/company/get-user-account?accountId=${accountId}`;

  it('answers 401 without or with a wrong Bearer token', async () => {
    expectError(await http(url(sandbox, sandbox.payoutAccountId)), 401);
    expectError(
      await http(url(sandbox, sandbox.payoutAccountId), {
        headers: { Authorization: 'Bearer at_sandbox_wrong' },
      }),
      401,
    );
    expectError(
      await http(url(sandbox, sandbox.payoutAccountId), {
        headers: { Authorization: sandbox.accessToken },
      }),
      401,
    );
  });

  it('answers 404 for an unknown accountId', async () => {
    const result = await http(url(sandbox, '0000000000'), {
      headers: { Authorization: `Bearer ${sandbox.accessToken}` },
    });
    expectError(result, 404);
  });

  it('answers the bare account object with kobo balances credited by successful inflows', async () => {
    const before = await payout(sandbox);
    expect(before.id).toBe(sandbox.payoutAccountId);
    expect(before.balances).toEqual([
      { balanceType: 'AvailableBalance', value: 0, currency: 'NGN', display: 'NGN 0.00' },
      { balanceType: 'SettlementPositionBalance', value: 0, currency: 'NGN', display: 'NGN 0.00' },
    ]);
    const a = await createAccount(sandbox, nonstaticBody({ amount: 2505 }));
    await transfer(sandbox, a.account_number, 2505);
    const b = await createAccount(sandbox, nonstaticBody({ amount: 0.1 }));
    await transfer(sandbox, b.account_number, 0.1);
    await transfer(sandbox, (await createAccount(sandbox)).account_number, 1); // failed: no credit
    const after = await payout(sandbox);
    expect(after.balances).toEqual([
      { balanceType: 'AvailableBalance', value: 250510, currency: 'NGN', display: 'NGN 2,505.10' },
      {
        balanceType: 'SettlementPositionBalance',
        value: 250510,
        currency: 'NGN',
        display: 'NGN 2,505.10',
      },
    ]);
    expect(balanceValue(after, 'AvailableBalance')).toBe(250510);
  });
});

describe('routing', () => {
  it('answers 404 for unknown paths and 405 for a wrong method', async () => {
    expectError(await http(`${sandbox.baseUrl}/virtual/nope`), 404);
    expectError(await http(`${sandbox.baseUrl}/virtual/new-account`), 405);
  });
});
