/**
 * Contract tests: the real provider client (src/main/provider) against the real sandbox provider
 * (src/main/sandbox) over real HTTP on 127.0.0.1, judged by /work/shared/provider-interface.md.
 * Each test starts its own in-memory sandbox on port 0 with a manual clock; customers' transfers,
 * expiry, re-sends and faults go through the sandbox's control API, callbacks to a local
 * node:http receiver. A recording fetch counts what the client sends; where a test alters a
 * request or an answer on the way, it says so and why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isProviderError, type ProviderError } from '#main/provider/errors';
import { readAllTransactions } from '#main/provider/pagination';
import { parseCallbackBody } from '#main/webhook/callback-parser';
import {
  toCreateBody,
  type CreateVirtualAccountInput,
  type TransactionRecord,
} from '#main/provider/schemas';
import { SANDBOX_BANK_NAME } from '#main/sandbox';
import {
  SANDBOX_T0,
  callbackPayloadSchema,
  startContractEnv,
  startReceiver,
  unreachableUrl,
  uniqueReference,
  waitFor,
  type ContractEnv,
  type ControlTransaction,
  type Receiver,
} from '#support/provider-contract';

/** SANDBOX_T0 as the provider writes it: Lagos wall time. */
const T0_PROVIDER_DATE = '2025-01-15 09:00:00';

let env: ContractEnv;
const extraReceivers: Receiver[] = [];

async function start(): Promise<ContractEnv> {
  env = await startContractEnv();
  return env;
}

afterEach(async () => {
  await env.close();
  for (const receiver of extraReceivers.splice(0)) await receiver.close();
  expect(env.sandboxErrors).toEqual([]);
});

function nonstaticInput(
  amountKobo: number,
  overrides: Partial<CreateVirtualAccountInput> = {},
): CreateVirtualAccountInput {
  return {
    reference: uniqueReference(),
    accountName: 'Mama Put Stores',
    merchantId: 'MERCHANT-1',
    type: 'nonstatic',
    amountKobo,
    expiryMinutes: 30,
    callbackUrl: env.receiver.url,
    ...overrides,
  };
}

function staticInput(amountKobo: number): CreateVirtualAccountInput {
  return {
    reference: uniqueReference(),
    accountName: 'Mama Put Stores',
    merchantId: 'MERCHANT-1',
    type: 'static',
    amountKobo,
    callbackUrl: env.receiver.url,
  };
}

function flexInput(overrides: Partial<CreateVirtualAccountInput> = {}): CreateVirtualAccountInput {
  return {
    reference: uniqueReference(),
    accountName: 'Mama Put Stores',
    merchantId: 'MERCHANT-1',
    type: 'static-flex',
    callbackUrl: env.receiver.url,
    ...overrides,
  };
}

/** The ProviderError a call fails with; fails the test when it succeeds or throws another kind. */
async function providerError(call: Promise<unknown>): Promise<ProviderError> {
  try {
    await call;
  } catch (error) {
    if (isProviderError(error)) return error;
    throw error;
  }
  throw new Error('expected a ProviderError, but the call succeeded');
}

/** How the client should see a ledger row of the control API. */
function asRecord(tx: ControlTransaction): Omit<TransactionRecord, 'dateMs'> {
  return {
    amountKobo: tx.amount_kobo,
    status: tx.status,
    rawStatus: tx.status,
    sessionId: tx.session_id,
    externalReference: tx.external_reference,
    date: tx.date,
  };
}

function bySession<T extends { readonly sessionId: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => a.sessionId.localeCompare(b.sessionId));
}

async function callbacksFor(receiver: Receiver, count: number): Promise<void> {
  await waitFor(() => receiver.received.length >= count, `${count} callback(s)`);
}

function callbackBodies(receiver: Receiver) {
  return receiver.received.map((r) => callbackPayloadSchema.parse(r.body));
}

/** Sessions the sandbox started a callback delivery for (any cause, any state). */
async function dispatchedSessions(): Promise<Set<string>> {
  return new Set((await env.control.callbacks()).map((d) => d.session_id));
}

describe('operations (section 4)', () => {
  it('creates nonstatic, static and static-flex accounts: 2.1 fields back, the 2.2 body sent', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const inputs = [
      nonstaticInput(250_550, { expiryMinutes: 30 }),
      staticInput(100_000),
      flexInput({ merchant: 'restaurants' }),
    ];
    const created = [];
    for (const input of inputs) created.push(await client.createVirtualAccount(input));

    created.forEach((account, i) => {
      const { accountNumber, providerReference, ...rest } = account;
      expect(accountNumber).toMatch(/^\d{10}$/);
      expect(providerReference).toMatch(/\S/);
      expect(rest).toEqual({
        accountName: 'Mama Put Stores',
        bank: SANDBOX_BANK_NAME,
        externalReference: inputs[i]?.reference,
        status: 'active',
      });
    });
    expect(new Set(created.map((a) => a.accountNumber)).size).toBe(3);

    // What went over the wire: section 4.1 headers, section 2.2 names (expiers_in, Naira).
    expect(sent.map((r) => [r.method, r.path])).toEqual(
      Array.from({ length: 3 }, () => ['POST', '/api/virtual/new-account']),
    );
    for (const request of sent) {
      expect(request.headers.get('secretKey')).toBe(env.sandbox.secretKey);
      expect(request.headers.get('content-type')).toBe('application/json');
    }
    const bodies = sent.map((r): unknown => JSON.parse(r.body ?? 'null'));
    const common = {
      account_name: 'Mama Put Stores',
      merchant_id: 'MERCHANT-1',
      callback_url: env.receiver.url,
    };
    expect(bodies).toEqual([
      {
        ...common,
        reference: inputs[0]?.reference,
        amount: 2505.5,
        expiers_in: 30,
        type: 'nonstatic',
        merchant: 'others',
      },
      {
        ...common,
        reference: inputs[1]?.reference,
        amount: 1000,
        type: 'static',
        merchant: 'others',
      },
      { ...common, reference: inputs[2]?.reference, type: 'static-flex', merchant: 'restaurants' },
    ]);

    // What the sandbox understood: the types, Naira amounts, and expiers_in as minutes.
    const held = await env.control.accounts();
    const find = (reference: string | undefined) =>
      held.find((a) => a.external_reference === reference);
    expect(find(inputs[0]?.reference)).toMatchObject({
      account_number: created[0]?.accountNumber,
      type: 'nonstatic',
      amount: 2505.5,
      status: 'active',
      callback_url: env.receiver.url,
      expires_at_ms: SANDBOX_T0 + 30 * 60_000,
    });
    expect(find(inputs[1]?.reference)).toMatchObject({
      type: 'static',
      amount: 1000,
      expires_at_ms: null,
    });
    expect(find(inputs[2]?.reference)).toMatchObject({
      type: 'static-flex',
      amount: null,
      expires_at_ms: null,
    });
  });

  it('reads the status of a confirmed payment: the 2.3 record, dates agreeing in Lagos time', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const input = nonstaticInput(250_550);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505.5);
    expect(tx).toMatchObject({ status: 'success', date: T0_PROVIDER_DATE });

    const record = await client.getPaymentStatus(input.reference);
    expect(record).toEqual({
      status: 'success',
      rawStatus: 'success',
      sessionId: tx.session_id,
      reference: input.reference,
      amountKobo: 250_550,
      date: T0_PROVIDER_DATE,
      dateMs: SANDBOX_T0,
    });
    expect(await client.checkPayment(input.reference)).toEqual({ kind: 'confirmed', record });
    const statusCall = sent[1];
    expect(statusCall?.method).toBe('GET');
    expect(statusCall?.path).toBe(
      `/api/virtual/status?reference=${encodeURIComponent(input.reference)}`,
    );
    expect(statusCall?.headers.get('secretKey')).toBe(env.sandbox.secretKey);
  });

  it('lists transactions: 2.4 records matching the ledger, with count', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const flex = await client.createVirtualAccount(flexInput());
    const exact = await client.createVirtualAccount(nonstaticInput(50_000));
    await env.control.transfer(flex.accountNumber, 100.25);
    await env.control.transfer(exact.accountNumber, 499); // wrong amount: failed
    await env.control.transfer(exact.accountNumber, 500, 60_000); // still pending

    const page = await client.listTransactions({ offset: 0, limit: 10 });
    const ledger = await env.control.ledger();
    expect(ledger.map((tx) => tx.status).sort()).toEqual(['failed', 'pending', 'success']);
    expect(page.count).toBe(3);
    expect(bySession(page.transactions)).toEqual(
      bySession(ledger.map((tx) => ({ ...asRecord(tx), dateMs: SANDBOX_T0 }))),
    );
    expect(sent.at(-1)?.path).toBe('/api/virtual/transactions?offset=0&limit=10');

    // offset skips records, limit caps the page.
    const second = await client.listTransactions({ offset: 1, limit: 1 });
    expect(second.count).toBe(3);
    expect(second.transactions).toHaveLength(1);
    expect(page.transactions.map((t) => t.sessionId)).toContain(second.transactions[0]?.sessionId);
    expect(second.transactions[0]?.sessionId).not.toBe(page.transactions[0]?.sessionId);
  });

  it('reads the payout balance in kobo, credited by successful inflows only, from AvailableBalance', async () => {
    await start();
    const client = env.client();
    const before = await client.getPayoutAccount(env.sandbox.payoutAccountId);
    expect(before.availableBalanceKobo).toBe(0);

    const exact = await client.createVirtualAccount(nonstaticInput(250_500));
    const flex = await client.createVirtualAccount(flexInput());
    await env.control.transfer(exact.accountNumber, 2000); // failed: not credited
    await env.control.transfer(exact.accountNumber, 2505); // NGN 2,505.00 = 250500 kobo
    await env.control.transfer(flex.accountNumber, 100.5); // 10050 kobo
    await env.control.transfer(flex.accountNumber, 50, 60_000); // pending: not yet credited

    const account = await client.getPayoutAccount(env.sandbox.payoutAccountId);
    expect(account).toMatchObject({
      id: env.sandbox.payoutAccountId,
      iban: null,
      type: 'CURRENT',
      status: 'OPENED',
      externalData: {},
      availableBalanceKobo: 260_550,
    });
    expect(account.balances.find((b) => b.balanceType === 'AvailableBalance')).toEqual({
      balanceType: 'AvailableBalance',
      valueKobo: 260_550,
      currency: 'NGN',
      display: 'NGN 2,605.50',
    });
    expect(account.balances.map((b) => b.balanceType).sort()).toEqual([
      'AvailableBalance',
      'SettlementPositionBalance',
    ]);

    await env.clock.advance(60_000); // the pending inflow settles as a success
    expect((await client.getPayoutAccount(env.sandbox.payoutAccountId)).availableBalanceKobo).toBe(
      265_550,
    );

    // The sandbox credits both balances alike, so picking the wrong entry could not show. The
    // sandbox's own answer is altered on the way: the other balance first, with another value.
    const { client: reordered, sent } = env.recordedClient({
      mapJson: (json) => {
        if (typeof json !== 'object' || json === null || !('balances' in json)) return json;
        const { balances } = json;
        if (!Array.isArray(balances)) return json;
        const changed: unknown[] = balances.map((b: unknown) =>
          typeof b === 'object' &&
          b !== null &&
          'balanceType' in b &&
          b.balanceType === 'SettlementPositionBalance'
            ? { ...b, value: 999_999_00 }
            : b,
        );
        return { ...json, balances: changed.reverse() };
      },
    });
    const picked = await reordered.getPayoutAccount(env.sandbox.payoutAccountId);
    expect(picked.balances[0]?.balanceType).toBe('SettlementPositionBalance');
    expect(picked.availableBalanceKobo).toBe(265_550);
    expect(sent[0]?.path).toBe(
      `/payout/request/company/get-user-account?accountId=${env.sandbox.payoutAccountId}`,
    );
    expect(sent[0]?.headers.get('authorization')).toBe(`Bearer ${env.sandbox.accessToken}`);
  });
});

describe('errors (section 7)', () => {
  const invalidBodies: readonly [
    string,
    (body: Record<string, unknown>) => Record<string, unknown>,
  ][] = [
    [
      'expiers_in sent as expires_in',
      ({ expiers_in, ...rest }) => ({ ...rest, expires_in: expiers_in }),
    ],
    ['a nonstatic account without amount', ({ amount: _amount, ...rest }) => rest],
    ['a nonstatic account without expiers_in', ({ expiers_in: _expiry, ...rest }) => rest],
    ['a static-flex account with an amount', (body) => ({ ...body, type: 'static-flex' })],
    ['an unknown type', (body) => ({ ...body, type: 'dynamic' })],
    ['an amount as a string', (body) => ({ ...body, amount: '2505' })],
    ['no callback_url', ({ callback_url: _url, ...rest }) => rest],
    ['no merchant', ({ merchant: _merchant, ...rest }) => rest],
  ];

  // The client validates its input and would never send these; the body is altered on the way
  // (a proxy, or an older client) to see the sandbox's 400 read as BAD_REQUEST.
  it.each(invalidBodies)('create with %s is 400 → BAD_REQUEST', async (_what, mapBody) => {
    await start();
    const { client, sent } = env.recordedClient({ mapBody });
    const input = nonstaticInput(250_500);
    const error = await providerError(client.createVirtualAccount(input));
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      operation: 'create',
      httpStatus: 400,
      retryable: false,
    });
    expect(sent).toHaveLength(1); // create is never repeated
    expect((await env.control.accounts()).map((a) => a.external_reference)).not.toContain(
      input.reference,
    );
  });

  it('create with a field the client accepts but the sandbox refuses is 400 → BAD_REQUEST', async () => {
    await start();
    // The interface gives no length bounds; the sandbox caps text fields at 200 characters.
    const error = await providerError(
      env.client().createVirtualAccount(nonstaticInput(250_500, { accountName: 'A'.repeat(201) })),
    );
    expect(error).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(error.message).toContain('account_name');
  });

  it('create without a secret key is 400 → BAD_REQUEST (the client itself refuses to send one)', async () => {
    await start();
    const input = nonstaticInput(250_500);

    // The client will not send a create without a usable key: nothing reaches the sandbox.
    for (const secretKey of ['', 'has a space']) {
      const refusing = env.recordedClient({}, { secretKey });
      expect(await providerError(refusing.client.createVirtualAccount(input))).toMatchObject({
        code: 'INVALID_REQUEST',
        field: 'secretKey',
      });
      expect(refusing.sent).toHaveLength(0);
    }

    // Raw fetch: the sandbox's answer to a create without the header.
    const raw = await fetch(`${env.sandbox.baseUrl}/virtual/new-account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(toCreateBody(input)),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ status: 'error' });

    // The client's reading of that 400, with the header dropped on the way.
    const stripped = env.recordedClient({ dropHeaders: ['secretKey'] });
    expect(await providerError(stripped.client.createVirtualAccount(input))).toMatchObject({
      code: 'BAD_REQUEST',
      httpStatus: 400,
      retryable: false,
    });
    expect(stripped.sent).toHaveLength(1);
    expect(stripped.sent[0]?.headers.has('secretKey')).toBe(false);
    expect(await env.control.accounts()).toEqual([]);
  });

  it('create with a key linked to no settlement account is 404 → SETTLEMENT_ACCOUNT_NOT_FOUND', async () => {
    await start();
    const { client, sent } = env.recordedClient({}, { secretKey: 'sk_unknown_0123456789' });
    const error = await providerError(client.createVirtualAccount(nonstaticInput(250_500)));
    expect(error).toMatchObject({
      code: 'SETTLEMENT_ACCOUNT_NOT_FOUND',
      operation: 'create',
      httpStatus: 404,
      retryable: false,
    });
    expect(error.message).not.toContain('sk_unknown_0123456789');
    expect(sent).toHaveLength(1);
    expect(await env.control.accounts()).toEqual([]);

    // The same key on the listing: a plain NOT_FOUND, not retried (not a missing payment).
    expect(await providerError(client.listTransactions({ offset: 0, limit: 5 }))).toMatchObject({
      code: 'NOT_FOUND',
      httpStatus: 404,
      retryable: false,
    });
    expect(sent).toHaveLength(2);
  });

  it('create with a reference already used is 409 → REFERENCE_IN_USE', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const input = nonstaticInput(250_500);
    const first = await client.createVirtualAccount(input);
    const error = await providerError(
      client.createVirtualAccount(flexInput({ reference: input.reference })),
    );
    expect(error).toMatchObject({
      code: 'REFERENCE_IN_USE',
      operation: 'create',
      httpStatus: 409,
      retryable: false,
    });
    expect(sent).toHaveLength(2);
    const held = (await env.control.accounts()).filter(
      (a) => a.external_reference === input.reference,
    );
    expect(held).toEqual([
      expect.objectContaining({ account_number: first.accountNumber, type: 'nonstatic' }),
    ]);
  });

  it('status with no transaction is 404 → STATUS_NOT_FOUND / checkPayment not_found', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const input = nonstaticInput(250_500);
    await client.createVirtualAccount(input);
    sent.splice(0);

    expect(await providerError(client.getPaymentStatus(input.reference))).toMatchObject({
      code: 'STATUS_NOT_FOUND',
      operation: 'status',
      httpStatus: 404,
      retryable: true,
    });
    expect(await client.checkPayment(input.reference)).toEqual({ kind: 'not_found' });
    expect(await client.checkPayment(uniqueReference('NEVER-ISSUED'))).toEqual({
      kind: 'not_found',
    });
    // An answer, not a fault: the read loop does not repeat it.
    expect(sent).toHaveLength(3);
    expect(env.sleeps).toEqual([]);
  });

  it('status of a pending transfer is 409 → STATUS_PENDING / checkPayment pending, then confirmed', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505, 60_000);
    expect(tx.status).toBe('pending');
    sent.splice(0);

    expect(await providerError(client.getPaymentStatus(input.reference))).toMatchObject({
      code: 'STATUS_PENDING',
      operation: 'status',
      httpStatus: 409,
      retryable: true,
    });
    expect(await client.checkPayment(input.reference)).toEqual({ kind: 'pending' });
    expect(sent).toHaveLength(2);
    expect(await dispatchedSessions()).toEqual(new Set());

    await env.clock.advance(60_000);
    expect(await client.checkPayment(input.reference)).toMatchObject({
      kind: 'confirmed',
      record: { sessionId: tx.session_id, amountKobo: 250_500, status: 'success' },
    });
    await callbacksFor(env.receiver, 1);
    expect(callbackBodies(env.receiver)[0]?.session_id).toBe(tx.session_id);
  });
});

describe('amount rules (section 3.2) and expiry', () => {
  it('nonstatic: exactly the expected amount succeeds and sends a success callback', async () => {
    await start();
    const client = env.client();
    const input = nonstaticInput(250_550);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505.5);
    expect(tx.status).toBe('success');

    expect(await client.checkPayment(input.reference)).toMatchObject({
      kind: 'confirmed',
      record: { sessionId: tx.session_id, amountKobo: 250_550 },
    });
    await callbacksFor(env.receiver, 1);
    expect(callbackBodies(env.receiver)).toEqual([
      expect.objectContaining({
        status: 'success',
        session_id: tx.session_id,
        external_reference: input.reference,
        amount: 2505.5,
      }),
    ]);
  });

  it('nonstatic: any other amount is rejected and no success callback is sent', async () => {
    await start();
    const client = env.client();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    const under = await env.control.transfer(account.accountNumber, 2504.99);
    const over = await env.control.transfer(account.accountNumber, 2600);
    expect([under.status, over.status]).toEqual(['failed', 'failed']);

    const check = await client.checkPayment(input.reference);
    expect(check.kind).toBe('failed');
    expect(check).toMatchObject({ record: { status: 'failed', sessionId: over.session_id } });

    // Absence, proven by order: a later payment's callback arrives, and it is the only one.
    const marker = await client.createVirtualAccount(flexInput());
    const markerTx = await env.control.transfer(marker.accountNumber, 10);
    await callbacksFor(env.receiver, 1);
    await waitFor(
      async () => (await env.control.callbacks()).every((d) => d.state !== 'pending'),
      'callback deliveries to settle',
    );
    expect(callbackBodies(env.receiver).map((b) => b.session_id)).toEqual([markerTx.session_id]);
    expect(await dispatchedSessions()).toEqual(new Set([markerTx.session_id]));
    expect((await client.getPayoutAccount(env.sandbox.payoutAccountId)).availableBalanceKobo).toBe(
      1000,
    );
  });

  it('nonstatic (sandbox choice): after a wrong amount the exact one still succeeds, but only once', async () => {
    await start();
    const client = env.client();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    expect((await env.control.transfer(account.accountNumber, 2000)).status).toBe('failed');
    const paid = await env.control.transfer(account.accountNumber, 2505);
    expect(paid.status).toBe('success');
    const again = await env.control.transfer(account.accountNumber, 2505);
    expect(again).toMatchObject({ status: 'failed', reason: 'already_paid' });

    expect(await client.checkPayment(input.reference)).toMatchObject({
      kind: 'confirmed',
      record: { sessionId: paid.session_id },
    });
    await callbacksFor(env.receiver, 1);
    expect(await dispatchedSessions()).toEqual(new Set([paid.session_id]));
  });

  it('static-flex: any amount is accepted and each sends a callback', async () => {
    await start();
    const client = env.client();
    const input = flexInput();
    const account = await client.createVirtualAccount(input);
    const amounts = [1, 2505.5, 100_000];
    const txs = [];
    for (const amount of amounts)
      txs.push(await env.control.transfer(account.accountNumber, amount));
    expect(txs.map((t) => t.status)).toEqual(['success', 'success', 'success']);

    await callbacksFor(env.receiver, 3);
    const bodies = callbackBodies(env.receiver);
    expect(bodies.map((b) => [b.session_id, b.amount, b.status, b.type]).sort()).toEqual(
      txs.map((t) => [t.session_id, t.amount, 'success', 'static-flex']).sort(),
    );
    expect((await client.checkPayment(input.reference)).kind).toBe('confirmed');
    const page = await client.listTransactions({ offset: 0, limit: 10 });
    expect(page.transactions.map((t) => t.amountKobo).sort((a, b) => a - b)).toEqual([
      100, 250_550, 10_000_000,
    ]);
  });

  it('static (as the sandbox documents): the exact amount succeeds, repeatedly; another fails silently', async () => {
    await start();
    const client = env.client();
    const input = staticInput(100_000);
    const account = await client.createVirtualAccount(input);
    const first = await env.control.transfer(account.accountNumber, 1000);
    const wrong = await env.control.transfer(account.accountNumber, 999.99);
    const second = await env.control.transfer(account.accountNumber, 1000);
    expect([first.status, wrong.status, second.status]).toEqual(['success', 'failed', 'success']);
    expect(wrong.reason).toBe('amount_mismatch');

    await callbacksFor(env.receiver, 2);
    await waitFor(
      async () => (await env.control.callbacks()).every((d) => d.state !== 'pending'),
      'callback deliveries to settle',
    );
    expect(
      callbackBodies(env.receiver)
        .map((b) => b.session_id)
        .sort(),
    ).toEqual([first.session_id, second.session_id].sort());
    expect(await client.checkPayment(input.reference)).toMatchObject({
      kind: 'confirmed',
      record: { sessionId: second.session_id },
    });
    expect((await client.getPayoutAccount(env.sandbox.payoutAccountId)).availableBalanceKobo).toBe(
      200_000,
    );
  });

  it('expiry: an expired nonstatic account refuses transfers (control expire, and the clock)', async () => {
    await start();
    const client = env.client();
    const expiredNow = nonstaticInput(250_500);
    const expiredAccount = await client.createVirtualAccount(expiredNow);
    expect(await env.control.expire(expiredAccount.accountNumber)).toMatchObject({
      status: 'expired',
    });
    expect(await env.control.refusedTransfer(expiredAccount.accountNumber, 2505)).toEqual({
      status: 409,
      code: 'ACCOUNT_EXPIRED',
    });
    expect(await env.control.ledger()).toEqual([]);
    expect(await client.checkPayment(expiredNow.reference)).toEqual({ kind: 'not_found' });

    // expiers_in is minutes: 5 minutes later the 5-minute account is gone, the 10-minute one not.
    const short = await client.createVirtualAccount(nonstaticInput(100_000, { expiryMinutes: 5 }));
    const longer = nonstaticInput(100_000, { expiryMinutes: 10 });
    const longAccount = await client.createVirtualAccount(longer);
    await env.clock.advance(5 * 60_000);
    expect(await env.control.refusedTransfer(short.accountNumber, 1000)).toEqual({
      status: 409,
      code: 'ACCOUNT_EXPIRED',
    });
    expect((await env.control.transfer(longAccount.accountNumber, 1000)).status).toBe('success');
    expect((await client.checkPayment(longer.reference)).kind).toBe('confirmed');
    expect((await env.control.ledger()).map((t) => t.account_number)).toEqual([
      longAccount.accountNumber,
    ]);
  });
});

describe('pagination (section 4.3)', () => {
  /** `count` transfers spread over three static-flex accounts, each amount different. */
  async function seedTransfers(count: number): Promise<void> {
    const client = env.client();
    const accounts = [];
    for (let i = 0; i < 3; i += 1) accounts.push(await client.createVirtualAccount(flexInput()));
    for (let i = 0; i < count; i += 1) {
      await env.control.transfer(accounts[i % 3]?.accountNumber ?? '', 100 + i);
    }
  }

  async function ledgerSessions(): Promise<string[]> {
    return (await env.control.ledger()).map((t) => t.session_id).sort();
  }

  it('reads every transaction exactly once over several pages, progress reaching count', async () => {
    await start();
    await seedTransfers(23);
    const { client, sent } = env.recordedClient();
    const progress: { collected: number; count: number }[] = [];
    const result = await readAllTransactions(client, {
      limit: 5,
      onProgress: (p) => progress.push({ ...p }),
    });

    expect(result).toMatchObject({ count: 23, complete: true, stopReason: 'complete', pages: 5 });
    const sessions = result.transactions.map((t) => t.sessionId);
    expect(new Set(sessions).size).toBe(23);
    expect([...sessions].sort()).toEqual(await ledgerSessions());
    expect(progress.map((p) => p.collected)).toEqual([5, 10, 15, 20, 23]);
    expect(progress.at(-1)).toEqual({ collected: 23, count: 23 });
    expect(sent.map((r) => r.path)).toEqual(
      [0, 5, 10, 15, 20].map((offset) => `/api/virtual/transactions?offset=${offset}&limit=5`),
    );
  });

  it('still reads everything once when the sandbox clamps a large limit to its page maximum', async () => {
    await start();
    await seedTransfers(105);
    const { client, sent } = env.recordedClient();
    const result = await readAllTransactions(client, { limit: 250 });
    // Section 4.3 says "add limit to the offset"; with a clamped page that would skip rows.
    expect(sent.map((r) => r.path)).toEqual([
      '/api/virtual/transactions?offset=0&limit=250',
      '/api/virtual/transactions?offset=100&limit=250',
    ]);
    expect(result).toMatchObject({ count: 105, complete: true, pages: 2 });
    expect(result.transactions.map((t) => t.sessionId).sort()).toEqual(await ledgerSessions());
  });

  it('stops safely when count lies (count_skew): no loop, no duplicate, nothing invented', async () => {
    await start();
    await seedTransfers(23);
    const ledger = await ledgerSessions();
    const client = env.client();

    // count says 30 where 23 exist: reading stops at the first empty page, marked incomplete.
    await env.control.faults({ count_skew: 7 });
    const over = await readAllTransactions(client, { limit: 5 });
    expect(over).toMatchObject({ count: 30, complete: false, stopReason: 'empty_page', pages: 6 });
    expect(over.transactions.map((t) => t.sessionId).sort()).toEqual(ledger);

    // count says 18 where 23 exist: the section 4.3 rule stops once 18 are collected.
    await env.control.faults({ count_skew: -5 });
    const under = await readAllTransactions(client, { limit: 5 });
    expect(under).toMatchObject({ count: 18, stopReason: 'complete', pages: 4 });
    const sessions = under.transactions.map((t) => t.sessionId);
    expect(new Set(sessions).size).toBe(sessions.length);
    expect(sessions.length).toBeGreaterThanOrEqual(18);
    for (const session of sessions) expect(ledger).toContain(session);
  });
});

describe('payout balance errors', () => {
  it('a wrong access token is PROVIDER_AUTH_REFUSED, not retried; a missing one is never sent', async () => {
    await start();
    const wrong = env.recordedClient({}, { accessToken: 'wrong-token-0123456789' });
    const error = await providerError(wrong.client.getPayoutAccount(env.sandbox.payoutAccountId));
    expect(error).toMatchObject({
      code: 'PROVIDER_AUTH_REFUSED',
      operation: 'balance',
      httpStatus: 401,
      retryable: false,
    });
    expect(wrong.sent).toHaveLength(1);

    const missing = env.recordedClient({}, { accessToken: '' });
    expect(
      await providerError(missing.client.getPayoutAccount(env.sandbox.payoutAccountId)),
    ).toMatchObject({ code: 'INVALID_REQUEST', field: 'accessToken' });
    expect(missing.sent).toHaveLength(0);
  });

  it('an unknown payout account is NOT_FOUND', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const other = env.sandbox.payoutAccountId === '0000000001' ? '0000000002' : '0000000001';
    expect(await providerError(client.getPayoutAccount(other))).toMatchObject({
      code: 'NOT_FOUND',
      operation: 'balance',
      httpStatus: 404,
      retryable: false,
    });
    expect(sent).toHaveLength(1);
  });
});

describe('callbacks (section 6)', () => {
  it('are POSTed to a local receiver with the documented payload, keyed by session_id', async () => {
    await start();
    const client = env.client();
    const input = nonstaticInput(250_550);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505.5);
    await callbacksFor(env.receiver, 1);

    const [received] = env.receiver.received;
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/webhook');
    expect(received?.headers['content-type']).toMatch(/^application\/json/);
    expect(callbackPayloadSchema.parse(received?.body)).toEqual({
      event: 'payment.success',
      reference: input.reference,
      external_reference: input.reference,
      account_number: account.accountNumber,
      session_id: tx.session_id,
      amount: 2505.5,
      status: 'success',
      date: T0_PROVIDER_DATE,
      type: 'nonstatic',
    });
    // The callback and the poll agree on the deduplication key and the amount.
    const record = await client.getPaymentStatus(input.reference);
    expect(record.sessionId).toBe(tx.session_id);
    expect(record.amountKobo).toBe(250_550);
  });

  it('go to the fallback URL when the primary is unreachable', async () => {
    await start();
    const fallback = await startReceiver();
    extraReceivers.push(fallback);
    await env.control.setFallbackUrl(fallback.url);
    const primary = await unreachableUrl();
    const input = nonstaticInput(250_500, { callbackUrl: primary });
    const account = await env.client().createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505);

    await callbacksFor(fallback, 1);
    expect(callbackBodies(fallback)).toEqual([
      expect.objectContaining({ session_id: tx.session_id, external_reference: input.reference }),
    ]);
    expect(env.receiver.received).toEqual([]);
    await waitFor(
      async () => (await env.control.callbacks()).every((d) => d.state === 'delivered'),
      'the dispatch to be marked delivered',
    );
    const [dispatch] = await env.control.callbacks();
    expect(dispatch?.attempts).toEqual([
      expect.objectContaining({ target: 'primary', url: primary, http_status: null }),
      expect.objectContaining({ target: 'fallback', url: fallback.url, http_status: 200 }),
    ]);
    expect(dispatch?.attempts[0]?.error).toMatch(/\S/);
  });

  it('can arrive more than once (control re-send); session_id deduplicates them', async () => {
    await start();
    const input = flexInput();
    const account = await env.client().createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 750);
    await callbacksFor(env.receiver, 1);
    await env.control.resend(tx.session_id, 2);
    await callbacksFor(env.receiver, 3);

    const bodies = callbackBodies(env.receiver);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1); // identical copies
    expect(new Set(bodies.map((b) => b.session_id))).toEqual(new Set([tx.session_id]));
    expect((await env.control.callbacks()).map((d) => d.cause)).toEqual([
      'payment',
      'resend',
      'resend',
    ]);
  });
});

describe('server faults (5xx)', () => {
  it('reads retry then fail with SERVER_ERROR; create is sent once and not retried', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    const paidInput = nonstaticInput(250_500);
    const paid = await client.createVirtualAccount(paidInput);
    await env.control.transfer(paid.accountNumber, 2505);
    sent.splice(0);

    await env.control.faults({ error_rate: 1 });
    const reads: readonly [string, () => Promise<unknown>][] = [
      ['status', () => client.getPaymentStatus(paidInput.reference)],
      ['list', () => client.listTransactions({ offset: 0, limit: 10 })],
      ['balance', () => client.getPayoutAccount(env.sandbox.payoutAccountId)],
    ];
    for (const [operation, read] of reads) {
      sent.splice(0);
      env.sleeps.splice(0);
      const error = await providerError(read());
      expect(error).toMatchObject({ code: 'SERVER_ERROR', operation, retryable: true });
      expect([500, 502, 503]).toContain(error.httpStatus);
      expect(error.message).toContain('gave up after 3 attempts');
      expect(sent).toHaveLength(3);
      expect(new Set(sent.map((r) => r.path)).size).toBe(1);
      expect(env.sleeps).toHaveLength(2);
    }

    sent.splice(0);
    env.sleeps.splice(0);
    const fresh = nonstaticInput(100_000);
    const error = await providerError(client.createVirtualAccount(fresh));
    expect(error).toMatchObject({ code: 'SERVER_ERROR', operation: 'create', retryable: false });
    expect(sent).toHaveLength(1);
    expect(env.sleeps).toEqual([]);

    // The sandbox faults before its handler runs: nothing was created, so the same reference
    // works once the fault is gone, and reads answer again.
    await env.control.clearFaults();
    expect((await env.control.accounts()).map((a) => a.external_reference)).not.toContain(
      fresh.reference,
    );
    expect((await client.createVirtualAccount(fresh)).externalReference).toBe(fresh.reference);
    expect((await client.checkPayment(paidInput.reference)).kind).toBe('confirmed');
  });
});

/**
 * The same client against every reading the sandbox offers where the interface is silent
 * (CONTRACTS.md personalities): whatever the provider does there, the client must say what
 * happened without inventing anything.
 */
describe('personalities (where the interface is silent)', () => {
  it.each([
    ['200', 'failed'],
    ['404', 'not_found'],
    ['409', 'pending'],
  ] as const)(
    'failed_status %s: checkPayment on a wrong-amount transfer is %s, never confirmed',
    async (failedStatus, kind) => {
      await start();
      await env.control.personality({ failed_status: failedStatus });
      const { client, sent } = env.recordedClient();
      const input = nonstaticInput(250_500);
      const account = await client.createVirtualAccount(input);
      const wrong = await env.control.transfer(account.accountNumber, 2500);
      expect(wrong.status).toBe('failed');
      sent.splice(0);

      const check = await client.checkPayment(input.reference);
      expect(check.kind).toBe(kind);
      if (check.kind === 'failed') {
        expect(check.record).toMatchObject({ sessionId: wrong.session_id, amountKobo: 250_000 });
      }
      expect(sent).toHaveLength(1); // an answer, not a fault: not repeated
      expect((await env.control.served())['failed_status_masked']).toBe(
        failedStatus === '200' ? 0 : 1,
      );

      // The exact amount then confirms under every reading.
      const paid = await env.control.transfer(account.accountNumber, 2505);
      expect(await client.checkPayment(input.reference)).toMatchObject({
        kind: 'confirmed',
        record: { sessionId: paid.session_id },
      });
    },
  );

  it.each(['oldest_first', 'newest_first', 'shuffled'] as const)(
    'listing_order %s: the listing read to its end returns every row exactly once',
    async (order) => {
      await start();
      const client = env.client();
      const account = await client.createVirtualAccount(flexInput());
      for (let i = 0; i < 11; i += 1) await env.control.transfer(account.accountNumber, 100 + i);
      await env.control.personality({ listing_order: order });

      const result = await readAllTransactions(client, { limit: 4 });
      expect(result).toMatchObject({ count: 11, complete: true, pages: 3, unreadable: [] });
      const sessions = result.transactions.map((t) => t.sessionId);
      expect(new Set(sessions).size).toBe(11);
      const ledger = (await env.control.ledger()).map((t) => t.session_id);
      expect([...sessions].sort()).toEqual([...ledger].sort());
      if (order === 'oldest_first') expect(sessions).toEqual(ledger);
      if (order === 'newest_first') expect(sessions).toEqual([...ledger].reverse());
    },
  );

  it('bad_row_every 3: each page sets its bad rows aside in `unreadable`, the rest read', async () => {
    await start();
    const client = env.client();
    const account = await client.createVirtualAccount(flexInput());
    for (let i = 0; i < 10; i += 1) await env.control.transfer(account.accountNumber, 100 + i);
    await env.control.personality({ bad_row_every: 3 });
    const ledger = (await env.control.ledger()).map((t) => t.session_id);

    const first = await client.listTransactions({ offset: 0, limit: 5 });
    expect(first.count).toBe(10);
    expect(first.transactions.map((t) => t.sessionId)).toEqual([0, 1, 3, 4].map((i) => ledger[i]));
    expect(first.unreadable.map((u) => u.position)).toEqual([2]);
    expect(first.unreadable[0]?.problem).toMatch(/^session_id: missing/);

    const second = await client.listTransactions({ offset: 5, limit: 5 });
    expect(second.unreadable.map((u) => u.position)).toEqual([5, 8]);
    expect(second.unreadable[0]?.problem).toMatch(/date/);
    expect(second.unreadable[1]?.problem).toMatch(/amount/);
    for (const row of [...first.unreadable, ...second.unreadable]) {
      expect(row.raw.length).toBeGreaterThan(0);
      expect(row.problem).not.toMatch(/2026-02-30|NGN/); // value-free
    }

    // Read to the end: 7 readable rows, 3 set aside, nothing lost and nothing twice.
    const all = await readAllTransactions(client, { limit: 4 });
    expect(all).toMatchObject({ count: 10, complete: true });
    expect(all.transactions.map((t) => t.sessionId)).toEqual(
      ledger.filter((_, i) => (i + 1) % 3 !== 0),
    );
    expect(all.unreadable.map((u) => u.position)).toEqual([2, 5, 8]);
    expect((await env.control.served())['bad_rows']).toBe(6);

    // The setting back to 0: the same rows read again.
    await env.control.personality({ bad_row_every: 0 });
    const healed = await readAllTransactions(client, { limit: 4 });
    expect(healed.transactions.map((t) => t.sessionId)).toEqual(ledger);
  });

  it('callbacks never: nothing reaches the receiver; the status endpoint still confirms', async () => {
    env = await startContractEnv({ personality: { callbacks: 'never' } });
    const client = env.client();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(env.receiver.received).toEqual([]);
    expect(await client.checkPayment(input.reference)).toMatchObject({
      kind: 'confirmed',
      record: { sessionId: tx.session_id },
    });
    expect((await env.control.served())['callbacks_never']).toBe(1);
  });

  it('callbacks late: the callback comes callback_delay_ms later on the sandbox clock', async () => {
    env = await startContractEnv({
      personality: { callbacks: 'late', callback_delay_ms: 45_000 },
    });
    const client = env.client();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505);
    expect((await client.checkPayment(input.reference)).kind).toBe('confirmed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(env.receiver.received).toEqual([]);

    await env.clock.advance(45_000);
    await callbacksFor(env.receiver, 1);
    expect(callbackBodies(env.receiver)).toEqual([
      expect.objectContaining({ session_id: tx.session_id, date: T0_PROVIDER_DATE }),
    ]);
  });

  it('page_cap 4: pages hold at most 4 rows whatever limit asks; reading by rows returned gets every row', async () => {
    await start();
    const client = env.client();
    const account = await client.createVirtualAccount(flexInput());
    for (let i = 0; i < 11; i += 1) await env.control.transfer(account.accountNumber, 100 + i);
    await env.control.personality({ page_cap: 4 });
    const first = await client.listTransactions({ offset: 0, limit: 100 });
    expect(first.count).toBe(11);
    expect(first.transactions).toHaveLength(4);
    const { client: recorded, sent } = env.recordedClient();
    const result = await readAllTransactions(recorded, { limit: 100 });
    expect(result).toMatchObject({ count: 11, complete: true, pages: 3 });
    expect(sent.map((r) => r.path)).toEqual(
      [0, 4, 8].map((offset) => `/api/virtual/transactions?offset=${offset}&limit=100`),
    );
    const ledger = (await env.control.ledger()).map((t) => t.session_id);
    expect(result.transactions.map((t) => t.sessionId)).toEqual(ledger);
  });

  it('repeat_payments accept: a second exact transfer into a paid nonstatic account succeeds, with its own session and callback', async () => {
    env = await startContractEnv({ personality: { repeat_payments: 'accept' } });
    const client = env.client();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    const first = await env.control.transfer(account.accountNumber, 2505);
    const second = await env.control.transfer(account.accountNumber, 2505);
    expect([first.status, second.status]).toEqual(['success', 'success']);
    expect(second.session_id).not.toBe(first.session_id);
    await callbacksFor(env.receiver, 2);
    expect(
      callbackBodies(env.receiver)
        .map((b) => b.session_id)
        .sort(),
    ).toEqual([first.session_id, second.session_id].sort());
    const listed = await readAllTransactions(client, { limit: 10 });
    expect(listed.transactions.filter((t) => t.externalReference === input.reference)).toHaveLength(
      2,
    );
    expect((await env.control.served())['repeat_payment_accepted']).toBe(1);
  });

  it('callback_format foreign_form: a form whose names are none of ours; the reference is among its values', async () => {
    env = await startContractEnv({ personality: { callback_format: 'foreign_form' } });
    const client = env.client();
    const input = nonstaticInput(250_500);
    const account = await client.createVirtualAccount(input);
    const tx = await env.control.transfer(account.accountNumber, 2505);
    await callbacksFor(env.receiver, 1);
    const got = env.receiver.received[0];
    expect(got?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const parsed = parseCallbackBody(String(got?.body), 'application/x-www-form-urlencoded');
    // The till's parser finds none of its fields, and keeps the values to search.
    expect(parsed.hint?.reference).toBeUndefined();
    expect(parsed.hint?.sessionId).toBeUndefined();
    expect(parsed.hint?.foreign?.values).toContain(input.reference);
    expect(parsed.hint?.foreign?.values).toContain(tx.session_id);
    expect((await env.control.served())['callbacks_foreign_form']).toBe(1);
  });

  it('callbacks reordered: payments due together arrive newest first', async () => {
    env = await startContractEnv({ personality: { callbacks: 'reordered' } });
    const client = env.client();
    const accounts = [];
    for (let i = 0; i < 3; i += 1) {
      accounts.push(await client.createVirtualAccount(nonstaticInput(100_000)));
    }
    for (const account of accounts) await env.control.transfer(account.accountNumber, 1000, 5000);
    await env.clock.advance(5000);
    const settled = (await env.control.ledger()).map((t) => t.session_id);
    await callbacksFor(env.receiver, 3);
    expect(callbackBodies(env.receiver).map((b) => b.session_id)).toEqual([...settled].reverse());
    expect((await env.control.served())['callbacks_reordered']).toBe(1);
  });
});

describe('faults with side effects', () => {
  it('side_effect_error_rate: a create answered 500 was made all the same; its reference is taken', async () => {
    await start();
    const { client, sent } = env.recordedClient();
    await env.control.faults({ side_effect_error_rate: 1 });
    const input = nonstaticInput(250_500);
    const error = await providerError(client.createVirtualAccount(input));
    expect(error).toMatchObject({ code: 'SERVER_ERROR', httpStatus: 500, retryable: false });
    expect(sent).toHaveLength(1);

    await env.control.clearFaults();
    expect((await env.control.accounts()).map((a) => a.external_reference)).toContain(
      input.reference,
    );
    expect(await providerError(client.createVirtualAccount(input))).toMatchObject({
      code: 'REFERENCE_IN_USE',
    });
    expect((await env.control.served())['side_effect_error']).toBe(1);
  });

  it('timeout_rate: the client times out while the sandbox holds an answer whose work is done', async () => {
    await start();
    await env.control.faults({ timeout_rate: 1, timeout_hold_ms: 2000 });
    const { client, sent } = env.recordedClient({}, { timeoutMs: 150 });
    const input = nonstaticInput(250_500);
    expect(await providerError(client.createVirtualAccount(input))).toMatchObject({
      code: 'TIMEOUT',
      operation: 'create',
    });
    expect(sent).toHaveLength(1);
    expect((await env.control.accounts()).map((a) => a.external_reference)).toContain(
      input.reference,
    );
    expect((await env.control.served())['timeout']).toBe(1);
  });
});
