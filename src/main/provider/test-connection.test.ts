import { afterEach, describe, expect, it } from 'vitest';
import { createProviderClient } from './client';
import type { ProviderClientConfig } from './client-config';
import {
  sendJson,
  startScriptedServer,
  type ScriptedHandler,
  type ScriptedServer,
} from '#support/scripted-server';
import { WHERE_KEYS_COME_FROM, testConnection, type ConnectionCheck } from './test-connection';

const SECRET = 'sk_test_S3CRET-key_9f8e7d';
const TOKEN = 'eyJhbGciOi.ACCESS-token.zz81';
const ACCOUNT_ID = '1234567890';
const LIST_PATH = '/virtual/transactions';
const BALANCE_PATH = '/request/company/get-user-account';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const LIST_OK = {
  status: 'success',
  data: {
    count: 3,
    transactions: [
      {
        amount: 1500,
        status: 'success',
        session_id: '100004261122090500123456789012',
        external_reference: 'TT-1',
        date: '2026-11-22 09:05:00',
      },
    ],
  },
};

const PAYOUT_OK = {
  id: ACCOUNT_ID,
  iban: null,
  balances: [
    { balanceType: 'SettlementPositionBalance', value: 1000, currency: 'NGN' },
    { balanceType: 'AvailableBalance', value: 12_345_650, currency: 'NGN' },
  ],
};

type Answer = readonly [status: number, body: unknown] | 'hang';

function routes(list: Answer, balance: Answer): ScriptedHandler {
  return (request, response) => {
    const answer =
      request.path === LIST_PATH
        ? list
        : request.path === BALANCE_PATH
          ? balance
          : ([404, {}] as const);
    if (answer === 'hang') return;
    sendJson(response, answer[0], answer[1]);
  };
}

async function run(
  list: Answer,
  balance: Answer,
  overrides: Partial<ProviderClientConfig> & { payoutAccountId?: string } = {},
): Promise<{ transactions: ConnectionCheck; balance: ConnectionCheck; server: ScriptedServer }> {
  const server = await startScriptedServer(routes(list, balance));
  servers.push(server);
  const { payoutAccountId = ACCOUNT_ID, ...config } = overrides;
  const client = createProviderClient({
    baseUrl: server.url,
    payoutBaseUrl: server.url,
    secretKey: SECRET,
    accessToken: TOKEN,
    readRetry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    timeoutMs: 2000,
    ...config,
  });
  const [transactions, balanceCheck] = await testConnection({ client, payoutAccountId });
  expect(transactions.check).toBe('transactions');
  expect(balanceCheck.check).toBe('balance');
  for (const check of [transactions, balanceCheck]) {
    expect(JSON.stringify(check)).not.toContain(SECRET);
    expect(JSON.stringify(check)).not.toContain(TOKEN);
  }
  return { transactions, balance: balanceCheck, server };
}

describe('testConnection', () => {
  it('reports both reads as fine, with the count and the available balance', async () => {
    const { transactions, balance, server } = await run([200, LIST_OK], [200, PAYOUT_OK]);
    expect(transactions).toEqual({
      check: 'transactions',
      ok: true,
      message: expect.stringContaining('3 transactions on record') as unknown,
    });
    expect(balance.ok).toBe(true);
    expect(balance.message).toContain('₦123,456.50');
    expect(balance.code).toBeUndefined();
    const list = server.requests.find((r) => r.path === LIST_PATH);
    expect(list?.url).toBe(`${LIST_PATH}?offset=0&limit=1`);
    expect(list?.method).toBe('GET');
    expect(list?.headers['secretkey']).toBe(SECRET);
    const payout = server.requests.find((r) => r.path === BALANCE_PATH);
    expect(payout?.query.get('accountId')).toBe(ACCOUNT_ID);
    expect(payout?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('says the secret key is wrong on 401, and that environments have different keys', async () => {
    const { transactions, balance } = await run(
      [401, { message: 'Invalid key' }],
      [200, PAYOUT_OK],
    );
    expect(transactions).toMatchObject({ ok: false, code: 'PROVIDER_AUTH_REFUSED' });
    expect(transactions.message).toMatch(/refused the secret key \(HTTP 401\)/);
    expect(transactions.advice).toMatch(/staging and production keys differ/);
    expect(balance.ok).toBe(true);
  });

  it('reads a 400 as a missing or unrecognised key', async () => {
    const { transactions } = await run(
      [400, { message: 'secretKey is required' }],
      [200, PAYOUT_OK],
    );
    expect(transactions).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(transactions.message).toMatch(/secret key is missing or not recognised/);
  });

  it('reads a 404 on the list as no settlement account or the wrong environment', async () => {
    const { transactions } = await run(
      [404, { message: 'Settlement account not found' }],
      [200, PAYOUT_OK],
    );
    expect(transactions).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(transactions.message).toMatch(/no settlement account .* wrong environment/);
    expect(transactions.advice).toMatch(
      /check that this key belongs to this environment — staging and production keys differ/i,
    );
  });

  it('says the provider is unreachable when nothing listens, naming both addresses', async () => {
    const closed = await startScriptedServer(() => undefined);
    const url = closed.url;
    await closed.close();
    const { transactions, balance } = await run([200, LIST_OK], [200, PAYOUT_OK], {
      baseUrl: url,
      payoutBaseUrl: url,
    });
    expect(transactions).toMatchObject({ ok: false, code: 'NETWORK' });
    expect(transactions.message).toMatch(/Could not reach the provider .*connection refused/);
    expect(transactions.advice).toMatch(/base URL.*online/);
    expect(balance).toMatchObject({ ok: false, code: 'NETWORK' });
    expect(balance.advice).toMatch(/payout base URL/);
  });

  it('says the provider did not answer in time', async () => {
    const { transactions, balance } = await run('hang', 'hang', { timeoutMs: 300 });
    expect(transactions).toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(transactions.advice).toMatch(/base URL/);
    expect(balance).toMatchObject({ ok: false, code: 'TIMEOUT' });
  });

  it('says an HTML page is not a transaction list', async () => {
    const { transactions } = await run([200, '<html>Gateway</html>'], [200, PAYOUT_OK]);
    expect(transactions).toMatchObject({ ok: false, code: 'MALFORMED_RESPONSE' });
    expect(transactions.advice).toMatch(/base URL/);
  });

  it('puts a provider outage on the provider', async () => {
    const { transactions } = await run([503, { message: 'down' }], [200, PAYOUT_OK]);
    expect(transactions).toMatchObject({ ok: false, code: 'SERVER_ERROR' });
    expect(transactions.message).toMatch(/HTTP 503.*provider's side/);
  });

  it('says when no secret key is saved, without calling the provider', async () => {
    const { transactions, server } = await run([200, LIST_OK], [200, PAYOUT_OK], { secretKey: '' });
    expect(transactions).toMatchObject({ ok: false, code: 'INVALID_REQUEST' });
    expect(transactions.message).toBe('No secret key is saved for this environment.');
    expect(transactions.advice).toContain(WHERE_KEYS_COME_FROM);
    expect(server.requests.some((r) => r.path === LIST_PATH)).toBe(false);
  });

  it('says the access token expired or is wrong on a balance 401', async () => {
    const { transactions, balance } = await run(
      [200, LIST_OK],
      [401, { message: 'Token expired' }],
    );
    expect(transactions.ok).toBe(true);
    expect(balance).toMatchObject({ ok: false, code: 'PROVIDER_AUTH_REFUSED' });
    expect(balance.message).toMatch(/access token .*expired or is wrong/);
    expect(balance.advice).toMatch(/new access token/);
  });

  it('says the payout account is unknown on a balance 404', async () => {
    const { balance } = await run([200, LIST_OK], [404, { message: 'Account not found' }]);
    expect(balance).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(balance.message).toContain(`no payout account "${ACCOUNT_ID}"`);
    expect(balance.advice).toMatch(/payout account number/);
  });

  it('says an account without AvailableBalance has an unknown (not zero) balance', async () => {
    const { balance } = await run(
      [200, LIST_OK],
      [
        200,
        { ...PAYOUT_OK, balances: [{ balanceType: 'LedgerBalance', value: 5, currency: 'NGN' }] },
      ],
    );
    expect(balance).toMatchObject({ ok: false, code: 'NO_AVAILABLE_BALANCE' });
    expect(balance.message).toMatch(/unknown \(it is not zero\)/);
  });

  it('says a malformed balance answer is not understood', async () => {
    const { balance } = await run(
      [200, LIST_OK],
      [200, '{"id": "1234567890", "balances": "lots"}'],
    );
    expect(balance).toMatchObject({ ok: false, code: 'MALFORMED_RESPONSE' });
    expect(balance.advice).toMatch(/payout base URL/);
  });

  it('skips the balance when no payout account is saved, and says so', async () => {
    const { balance, server } = await run([200, LIST_OK], [200, PAYOUT_OK], {
      payoutAccountId: ' ',
    });
    expect(balance).toMatchObject({ ok: false, code: 'NO_PAYOUT_ACCOUNT' });
    expect(server.requests.some((r) => r.path === BALANCE_PATH)).toBe(false);
  });

  it('says when no access token is saved', async () => {
    const { balance } = await run([200, LIST_OK], [200, PAYOUT_OK], { accessToken: '' });
    expect(balance).toMatchObject({ ok: false, code: 'INVALID_REQUEST' });
    expect(balance.message).toBe('No payout access token is saved for this environment.');
  });

  it('explains where keys come from', () => {
    expect(WHERE_KEYS_COME_FROM).toMatch(/not self-served/);
    expect(WHERE_KEYS_COME_FROM).toMatch(/support team/);
    expect(WHERE_KEYS_COME_FROM).toMatch(/Staging and production keys are different/);
  });
});
