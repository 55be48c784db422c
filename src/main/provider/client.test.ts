import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseProviderTimestamp } from '#shared/provider-time';
import { createProviderClient, type ProviderClient } from './client';
import type { ProviderClientConfig } from './client-config';
import { ProviderError, type ProviderErrorCode } from './errors';
import type { CreateVirtualAccountInput } from './schemas';
import { parseRetryAfter } from './status-errors';
import {
  sendJson,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedHandler,
  type ScriptedServer,
} from '#support/scripted-server';

const SECRET = 'sk_test_S3CRET-key_9f8e7d';
const TOKEN = 'eyJhbGciOi.ACCESS-token.zz81';

/** Every error any test saw, checked for secrets at the end. */
const seenErrors: unknown[] = [];
const servers: ScriptedServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Harness {
  readonly server: ScriptedServer;
  readonly client: ProviderClient;
  readonly sleeps: number[];
}

async function setup(
  handler: ScriptedHandler,
  overrides: Partial<ProviderClientConfig> = {},
): Promise<Harness> {
  const server = await startScriptedServer(handler);
  servers.push(server);
  const sleeps: number[] = [];
  const client = createProviderClient({
    baseUrl: server.url,
    payoutBaseUrl: server.url,
    secretKey: SECRET,
    accessToken: TOKEN,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.999,
    ...overrides,
  });
  return { server, client, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    seenErrors.push(error);
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

function answer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ScriptedHandler {
  return (_req, res) => sendJson(res, status, body, headers);
}

function sequence(...handlers: ScriptedHandler[]): ScriptedHandler {
  return (req, res, index) => {
    const handler = handlers[Math.min(index, handlers.length - 1)];
    if (!handler) throw new Error('no handler');
    return handler(req, res, index);
  };
}

const hang: ScriptedHandler = () => undefined;

const ACCOUNT = {
  account_number: '9912345678',
  account_name: 'Mama Put Stores',
  reference: 'PRV-0001',
  Bank: 'Sandbox Microfinance Bank',
  external_reference: 'TT-1',
  status: 'active',
};

const SESSION_ID = '100004261122090500123456789012';

const RECORD = {
  status: 'success',
  session_id: SESSION_ID,
  reference: 'TT-1',
  amount: 1500,
  date: '2026-11-22 09:05:00',
};

const PAYOUT = {
  id: '1234567890',
  iban: null,
  currency: 566,
  userId: 42,
  ownerName: 'Ada Stores',
  name: 'Ada Payout',
  productId: 'prod-1',
  type: 'CURRENT',
  status: 'OPENED',
  balances: [
    {
      balanceType: 'SettlementPositionBalance',
      value: 1000,
      currency: 'NGN',
      display: 'NGN 10.00',
    },
    { balanceType: 'AvailableBalance', value: 250500, currency: 'NGN', display: 'NGN 2,505.00' },
  ],
  externalData: {},
};

const ok = (data: unknown) => ({ status: 'success', data });

function nonstatic(overrides: Partial<CreateVirtualAccountInput> = {}): CreateVirtualAccountInput {
  return {
    reference: 'TT-1',
    accountName: 'Mama Put Stores',
    merchantId: 'M-001',
    type: 'nonstatic',
    amountKobo: 150000,
    expiryMinutes: 30,
    callbackUrl: 'https://till.example.ng/webhook',
    ...overrides,
  };
}

function bodyOf(request: RecordedRequest | undefined): Record<string, unknown> {
  return JSON.parse(request?.body ?? 'null') as Record<string, unknown>;
}

describe('createVirtualAccount', () => {
  it('sends the section 4.1 request and returns the typed account', async () => {
    const { server, client } = await setup(answer(200, ok({ ...ACCOUNT, extra: 'ignored' })));
    const account = await client.createVirtualAccount(nonstatic());

    expect(account).toEqual({
      accountNumber: '9912345678',
      accountName: 'Mama Put Stores',
      providerReference: 'PRV-0001',
      bank: 'Sandbox Microfinance Bank',
      externalReference: 'TT-1',
      status: 'active',
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/virtual/new-account');
    expect(request?.headers['secretkey']).toBe(SECRET);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['authorization']).toBeUndefined();
    expect(bodyOf(request)).toEqual({
      reference: 'TT-1',
      account_name: 'Mama Put Stores',
      merchant_id: 'M-001',
      amount: 1500,
      expiers_in: 30,
      type: 'nonstatic',
      callback_url: 'https://till.example.ng/webhook',
      merchant: 'others',
    });
    expect(request?.body).toContain('"expiers_in":30');
    expect(request?.body).not.toContain('expires_in');
  });

  it('keeps a base path of the base URL', async () => {
    const { server } = await setup(answer(200, ok(ACCOUNT)));
    const client = createProviderClient({
      baseUrl: `${server.url}/api/v1/`,
      payoutBaseUrl: server.url,
      secretKey: SECRET,
      accessToken: TOKEN,
    });
    await client.createVirtualAccount(nonstatic());
    expect(server.requests[0]?.url).toBe('/api/v1/virtual/new-account');
  });

  it.each([
    [150000, '1500'],
    [123456, '1234.56'],
    [1, '0.01'],
    [10, '0.1'],
    [100_000_000_000, '1000000000'],
    [330, '3.3'], // 1.1 + 2.2 Naira, never 3.3000000000000003
    [30, '0.3'],
  ])('sends amountKobo %d as Naira %s exactly', async (amountKobo, naira) => {
    const { server, client } = await setup(answer(200, ok(ACCOUNT)));
    await client.createVirtualAccount(nonstatic({ amountKobo }));
    expect(server.requests[0]?.body).toContain(`"amount":${naira},`);
  });

  it('sends amount without expiers_in for static, and neither for static-flex', async () => {
    const { server, client } = await setup(answer(200, ok(ACCOUNT)));
    await client.createVirtualAccount(
      nonstatic({ type: 'static', expiryMinutes: undefined, merchant: 'restaurants' }),
    );
    await client.createVirtualAccount(
      nonstatic({ type: 'static-flex', amountKobo: undefined, expiryMinutes: undefined }),
    );
    const [staticBody, flexBody] = server.requests.map((r) => bodyOf(r));
    expect(staticBody).toMatchObject({ type: 'static', amount: 1500, merchant: 'restaurants' });
    expect(staticBody).not.toHaveProperty('expiers_in');
    expect(flexBody).toMatchObject({ type: 'static-flex', merchant: 'others' });
    expect(flexBody).not.toHaveProperty('amount');
    expect(flexBody).not.toHaveProperty('expiers_in');
  });

  const bad: readonly [
    string,
    string,
    Partial<Record<keyof CreateVirtualAccountInput, unknown>> & Record<string, unknown>,
  ][] = [
    ['empty reference', 'reference', { reference: '' }],
    ['reference with a space', 'reference', { reference: 'TT 1' }],
    ['reference with a slash', 'reference', { reference: 'TT/1' }],
    ['reference of 101 characters', 'reference', { reference: 'A'.repeat(101) }],
    ['reference with an accent', 'reference', { reference: 'TT-é' }],
    ['empty accountName', 'accountName', { accountName: '' }],
    ['blank accountName', 'accountName', { accountName: '   ' }],
    ['empty merchantId', 'merchantId', { merchantId: '' }],
    ['empty merchant', 'merchant', { merchant: '' }],
    ['unknown type', 'type', { type: 'dynamic' }],
    ['nonstatic without amount', 'amountKobo', { amountKobo: undefined }],
    [
      'static without amount',
      'amountKobo',
      { type: 'static', amountKobo: undefined, expiryMinutes: undefined },
    ],
    ['static-flex with amount', 'amountKobo', { type: 'static-flex', expiryMinutes: undefined }],
    ['zero amount', 'amountKobo', { amountKobo: 0 }],
    ['negative amount', 'amountKobo', { amountKobo: -100 }],
    ['fractional kobo', 'amountKobo', { amountKobo: 150.5 }],
    ['NaN amount', 'amountKobo', { amountKobo: Number.NaN }],
    ['amount beyond the safe range', 'amountKobo', { amountKobo: 2 ** 53 }],
    ['amount as text', 'amountKobo', { amountKobo: '1500' }],
    ['nonstatic without expiry', 'expiryMinutes', { expiryMinutes: undefined }],
    ['zero expiry', 'expiryMinutes', { expiryMinutes: 0 }],
    ['expiry beyond a day', 'expiryMinutes', { expiryMinutes: 1441 }],
    ['fractional expiry', 'expiryMinutes', { expiryMinutes: 2.5 }],
    ['static with expiry', 'expiryMinutes', { type: 'static', expiryMinutes: 30 }],
    ['relative callback', 'callbackUrl', { callbackUrl: '/webhook' }],
    ['ftp callback', 'callbackUrl', { callbackUrl: 'ftp://till.example.ng/hook' }],
    ['callback that is not a URL', 'callbackUrl', { callbackUrl: 'not a url' }],
    ['misspelt expiry key', 'expires_in', { expires_in: 30 }],
  ];

  it.each(bad)(
    'refuses %s as INVALID_REQUEST naming %s, sending nothing',
    async (_name, field, change) => {
      const { server, client } = await setup(answer(200, ok(ACCOUNT)));
      const input = { ...nonstatic(), ...change } as unknown as CreateVirtualAccountInput;
      const error = await failure(client.createVirtualAccount(input));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.field).toBe(field);
      expect(error.message).toContain(field);
      expect(error.message).toContain('Nothing was sent');
      expect(error.retryable).toBe(false);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('refuses to send without a secret key', async () => {
    const { server, client } = await setup(answer(200, ok(ACCOUNT)), { secretKey: '' });
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', field: 'secretKey' });
    expect(server.requests).toHaveLength(0);
  });

  it.each<[number, ProviderErrorCode]>([
    [400, 'BAD_REQUEST'],
    [404, 'SETTLEMENT_ACCOUNT_NOT_FOUND'],
    [409, 'REFERENCE_IN_USE'],
    [401, 'PROVIDER_AUTH_REFUSED'],
    [403, 'PROVIDER_AUTH_REFUSED'],
    [429, 'RATE_LIMITED'],
    [500, 'SERVER_ERROR'],
    [502, 'SERVER_ERROR'],
    [503, 'SERVER_ERROR'],
    [418, 'UNEXPECTED_STATUS'],
  ])('maps HTTP %d to %s and never retries', async (status, code) => {
    const { server, client, sleeps } = await setup(
      sequence(answer(status, { message: 'nope' }), answer(200, ok(ACCOUNT))),
    );
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error).toMatchObject({ code, operation: 'create', httpStatus: status });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('says what the account state is after a 5xx', async () => {
    const { client } = await setup(answer(502, '<html><body>Bad Gateway</body></html>'));
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/may or may not have been created/);
    expect(error.message).toContain('HTML page');
  });

  it('names the reference on 409', async () => {
    const { client } = await setup(answer(409, { message: 'duplicate' }));
    const error = await failure(client.createVirtualAccount(nonstatic({ reference: 'TT-77' })));
    expect(error.message).toContain('TT-77');
    expect(error.retryable).toBe(false);
  });

  it('times out a hanging server once, without retrying', async () => {
    const { server, client } = await setup(hang, { timeoutMs: 200 });
    const started = Date.now();
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: false });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects an answer for another reference', async () => {
    const { client } = await setup(answer(200, ok({ ...ACCOUNT, external_reference: 'TT-2' })));
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error.code).toBe('MALFORMED_RESPONSE');
  });

  it('does not follow a redirect (the secret key would go with it)', async () => {
    const elsewhere = await startScriptedServer(answer(200, ok(ACCOUNT)));
    servers.push(elsewhere);
    const { client } = await setup((_req, res) => {
      res.writeHead(307, { Location: `${elsewhere.url}/virtual/new-account` });
      res.end();
    });
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error).toMatchObject({ code: 'UNEXPECTED_STATUS', httpStatus: 307 });
    expect(elsewhere.requests).toHaveLength(0);
  });

  it.each([
    ['account_number as a number', { ...ACCOUNT, account_number: 9912345678 }],
    ['missing Bank', { ...ACCOUNT, Bank: undefined }],
    ['lower-case bank only', { ...ACCOUNT, Bank: undefined, bank: 'X' }],
  ])('rejects a create answer with %s', async (_name, data) => {
    const { client } = await setup(answer(200, ok(data)));
    const error = await failure(client.createVirtualAccount(nonstatic()));
    expect(error.code).toBe('MALFORMED_RESPONSE');
  });
});

describe('getPaymentStatus and checkPayment', () => {
  it('sends the section 4.2 request and returns the typed record', async () => {
    const { server, client } = await setup(answer(200, ok({ ...RECORD, extra: { a: 1 } })));
    const record = await client.getPaymentStatus('TT-1');
    expect(record).toEqual({
      status: 'success',
      rawStatus: 'success',
      sessionId: SESSION_ID,
      reference: 'TT-1',
      amountKobo: 150000,
      date: '2026-11-22 09:05:00',
      dateMs: Date.UTC(2026, 10, 22, 8, 5, 0),
    });
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/virtual/status?reference=TT-1');
    expect(request?.headers['secretkey']).toBe(SECRET);
  });

  it('reads dates in the configured zone', async () => {
    const { client } = await setup(answer(200, ok(RECORD)), { timeZone: 'UTC' });
    const record = await client.getPaymentStatus('TT-1');
    expect(record.dateMs).toBe(parseProviderTimestamp(RECORD.date, 'UTC'));
  });

  it.each([
    [0.01, 1],
    [1234.56, 123456],
    [1e9, 100_000_000_000],
    [3.3, 330],
    [0, 0],
  ])('turns Naira %d into %d kobo exactly', async (amount, kobo) => {
    const { client } = await setup(answer(200, ok({ ...RECORD, amount })));
    expect((await client.getPaymentStatus('TT-1')).amountKobo).toBe(kobo);
  });

  it.each<[string, string]>([
    ['404', 'STATUS_NOT_FOUND'],
    ['409', 'STATUS_PENDING'],
  ])('answers HTTP %s with %s and does not retry it', async (status, code) => {
    const { server, client, sleeps } = await setup(answer(Number(status), { message: 'x' }));
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error).toMatchObject({ code, operation: 'status', retryable: true });
    expect(error.message).toContain('TT-1');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('checkPayment turns answers into values', async () => {
    const { client } = await setup((req, res) => {
      const ref = req.query.get('reference');
      if (ref === 'PAID') sendJson(res, 200, ok({ ...RECORD, reference: 'PAID' }));
      else if (ref === 'NONE') sendJson(res, 404, {});
      else if (ref === 'WAIT') sendJson(res, 409, {});
      else if (ref === 'FAIL')
        sendJson(res, 200, ok({ ...RECORD, reference: 'FAIL', status: 'failed' }));
      else if (ref === 'ODD')
        sendJson(res, 200, ok({ ...RECORD, reference: 'ODD', status: 'reversed' }));
      else sendJson(res, 500, {});
    });
    expect(await client.checkPayment('PAID')).toMatchObject({
      kind: 'confirmed',
      record: { sessionId: SESSION_ID },
    });
    expect(await client.checkPayment('NONE')).toEqual({ kind: 'not_found' });
    expect(await client.checkPayment('WAIT')).toEqual({ kind: 'pending' });
    expect(await client.checkPayment('FAIL')).toMatchObject({
      kind: 'failed',
      record: { status: 'failed' },
    });
    expect(await client.checkPayment('ODD')).toMatchObject({
      kind: 'unknown',
      record: { status: 'unknown', rawStatus: 'reversed' },
    });
    const error = await failure(client.checkPayment('BROKEN'));
    expect(error.code).toBe('SERVER_ERROR');
  });

  it('retries 500, 502 and 503 and then succeeds, with bounded jittered delays', async () => {
    const { server, client, sleeps } = await setup(
      sequence(answer(500, {}), answer(502, {}), answer(503, {}), answer(200, ok(RECORD))),
      { readRetry: { attempts: 4, baseDelayMs: 500, maxDelayMs: 1500 } },
    );
    const record = await client.getPaymentStatus('TT-1');
    expect(record.sessionId).toBe(SESSION_ID);
    expect(server.requests).toHaveLength(4);
    // random() = 0.999 of ceilings 500, 1000, min(2000, 1500).
    expect(sleeps).toEqual([499, 999, 1498]);
  });

  it('uses full jitter: the delay is random() times the ceiling', async () => {
    const { client, sleeps } = await setup(sequence(answer(503, {}), answer(200, ok(RECORD))), {
      random: () => 0,
    });
    await client.getPaymentStatus('TT-1');
    expect(sleeps).toEqual([0]);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const { server, client, sleeps } = await setup(answer(503, { message: 'maintenance' }));
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error).toMatchObject({ code: 'SERVER_ERROR', httpStatus: 503, retryable: true });
    expect(error.message).toContain('gave up after 3 attempts');
    expect(error.message).toContain('maintenance');
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    for (const delay of sleeps) expect(delay).toBeLessThanOrEqual(8000);
  });

  it('honours Retry-After in seconds', async () => {
    const { server, client, sleeps } = await setup(
      sequence(answer(429, {}, { 'Retry-After': '2' }), answer(200, ok(RECORD))),
      { random: () => 0 },
    );
    await client.getPaymentStatus('TT-1');
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('does not retry sooner than a Retry-After beyond the cap: it reports it', async () => {
    const { server, client, sleeps } = await setup(answer(429, {}, { 'Retry-After': '120' }));
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 120_000, retryable: true });
    expect(error.message).toContain('120 s');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('reads Retry-After as an HTTP date', () => {
    const now = Date.UTC(2026, 10, 22, 8, 0, 0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 08:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('retries a hanging server after a timeout, covering headers', async () => {
    const { server, client, sleeps } = await setup(hang, {
      timeoutMs: 200,
      readRetry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    });
    const started = Date.now();
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('0.2 s');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('times out a body that stops half way', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"status":"success","data":');
      },
      { timeoutMs: 200, readRetry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } },
    );
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error.code).toBe('TIMEOUT');
  });

  it('maps a refused connection to NETWORK and retries it', async () => {
    const gone = await startScriptedServer(hang);
    await gone.close();
    const sleeps: number[] = [];
    const client = createProviderClient({
      baseUrl: gone.url,
      payoutBaseUrl: gone.url,
      secretKey: SECRET,
      accessToken: TOKEN,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error).toMatchObject({ code: 'NETWORK', retryable: true });
    expect(error.message).toContain('connection refused');
    expect(sleeps).toHaveLength(2);
  });

  it('maps a cut connection to NETWORK', async () => {
    const { server, client } = await setup(
      (req, res) => {
        res.socket?.destroy();
        void req;
      },
      { readRetry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
    );
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error.code).toBe('NETWORK');
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['malformed JSON', '{"status":"success","data":{'],
    ['an empty body', ''],
    ['an HTML error page', '<!DOCTYPE html><html><body><h1>Gateway error</h1></body></html>'],
    ['a JSON array', '[]'],
    ['an error envelope', JSON.stringify({ status: 'error', data: RECORD })],
    ['missing session_id', JSON.stringify(ok({ ...RECORD, session_id: undefined }))],
    ['missing amount', JSON.stringify(ok({ ...RECORD, amount: undefined }))],
    ['amount "abc"', JSON.stringify(ok({ ...RECORD, amount: 'abc' }))],
    ['amount as text "1500"', JSON.stringify(ok({ ...RECORD, amount: '1500' }))],
    ['amount with three decimals', JSON.stringify(ok({ ...RECORD, amount: 1234.567 }))],
    ['a float artefact amount', JSON.stringify(ok({ ...RECORD, amount: 1.1 + 2.2 }))],
    ['a negative amount', JSON.stringify(ok({ ...RECORD, amount: -5 }))],
    [
      'session_id as a 30-digit number',
      `{"status":"success","data":{"status":"success","session_id":${SESSION_ID},"reference":"TT-1","amount":1500,"date":"2026-11-22 09:05:00"}}`,
    ],
    ['session_id with letters', JSON.stringify(ok({ ...RECORD, session_id: 'abc123' }))],
    ['an impossible date', JSON.stringify(ok({ ...RECORD, date: '2026-02-30 10:00:00' }))],
    ['an ISO date', JSON.stringify(ok({ ...RECORD, date: '2026-11-22T09:05:00Z' }))],
    ['a record for another reference', JSON.stringify(ok({ ...RECORD, reference: 'TT-2' }))],
  ])('refuses %s as MALFORMED_RESPONSE without retrying', async (_name, body) => {
    const { server, client, sleeps } = await setup(answer(200, body));
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error).toMatchObject({ code: 'MALFORMED_RESPONSE', retryable: false, httpStatus: 200 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('names the field that was wrong', async () => {
    const { client } = await setup(answer(200, ok({ ...RECORD, amount: 'abc' })));
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error.message).toContain('data.amount');
    const html = await setup(answer(200, '<html>oops</html>'));
    expect((await failure(html.client.getPaymentStatus('TT-1'))).message).toContain('HTML page');
  });

  it('refuses bytes that are not UTF-8', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    });
    expect((await failure(client.getPaymentStatus('TT-1'))).code).toBe('MALFORMED_RESPONSE');
  });

  it('stops reading a body over the cap instead of buffering it', async () => {
    let written = 0;
    const { server, client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"status":"success","data":{"x":"');
        const chunk = 'a'.repeat(16 * 1024);
        // An endless body: only a client that stops reading gets an answer.
        const pump = (): void => {
          if (res.destroyed || written > 256 * 1024 * 1024) return;
          written += chunk.length;
          if (res.write(chunk)) setImmediate(pump);
          else res.once('drain', pump);
        };
        pump();
      },
      { maxResponseBytes: 64 * 1024, timeoutMs: 5000 },
    );
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toContain('larger than 65536 bytes');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.closedEarly()).toBe(1);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the cap without reading', async () => {
    const { client } = await setup(
      (_req, res: ServerResponse) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 50_000_000 });
        res.write('{');
      },
      { maxResponseBytes: 1024 },
    );
    const error = await failure(client.getPaymentStatus('TT-1'));
    expect(error.code).toBe('MALFORMED_RESPONSE');
  });

  it('validates the reference before sending', async () => {
    const { server, client } = await setup(answer(200, ok(RECORD)));
    for (const reference of ['', 'a b', 'x'.repeat(101), 'TT-1&reference=other']) {
      const error = await failure(client.getPaymentStatus(reference));
      expect(error).toMatchObject({ code: 'INVALID_REQUEST', field: 'reference' });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('stops on abort, even mid-request', async () => {
    const { client } = await setup(hang, { timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(client.getPaymentStatus('TT-1', { signal: controller.signal }));
    expect(error).toMatchObject({ code: 'ABORTED', retryable: false });
    const before = await failure(client.getPaymentStatus('TT-1', { signal: AbortSignal.abort() }));
    expect(before.code).toBe('ABORTED');
  });
});

describe('listTransactions', () => {
  const row = {
    amount: 2505.5,
    status: 'success',
    session_id: SESSION_ID,
    external_reference: 'TT-1',
    date: '2026-11-22 23:30:00',
  };

  it('sends the section 4.3 request and types the rows, keeping odd statuses', async () => {
    const { server, client } = await setup(
      answer(
        200,
        ok({
          count: 3,
          transactions: [
            row,
            { ...row, session_id: '2'.repeat(30), status: 'reversed', amount: 0.01 },
            { ...row, session_id: '3'.repeat(30), status: 'pending', amount: 1e9 },
          ],
        }),
      ),
    );
    const page = await client.listTransactions({ offset: 20, limit: 10 });
    expect(server.requests[0]?.url).toBe('/virtual/transactions?offset=20&limit=10');
    expect(server.requests[0]?.headers['secretkey']).toBe(SECRET);
    expect(page.count).toBe(3);
    expect(page.transactions).toEqual([
      {
        amountKobo: 250550,
        status: 'success',
        rawStatus: 'success',
        sessionId: SESSION_ID,
        externalReference: 'TT-1',
        date: '2026-11-22 23:30:00',
        dateMs: Date.UTC(2026, 10, 22, 22, 30, 0),
      },
      expect.objectContaining({ status: 'unknown', rawStatus: 'reversed', amountKobo: 1 }),
      expect.objectContaining({ status: 'pending', amountKobo: 100_000_000_000 }),
    ]);
  });

  it.each([
    ['count negative', ok({ count: -1, transactions: [] })],
    ['count fractional', ok({ count: 1.5, transactions: [] })],
    ['count as text', ok({ count: '3', transactions: [] })],
    ['transactions not an array', ok({ count: 1, transactions: {} })],
    ['no transactions', ok({ count: 1 })],
    ['no data', { status: 'success' }],
    ['no count', ok({ transactions: [] })],
  ])('refuses %s: a page whose envelope cannot be read fails whole', async (_name, body) => {
    const { client } = await setup(answer(200, body));
    expect((await failure(client.listTransactions({ offset: 0, limit: 10 }))).code).toBe(
      'MALFORMED_RESPONSE',
    );
  });

  const bad = (defect: Record<string, unknown>) => ({
    ...row,
    session_id: '4'.repeat(30),
    ...defect,
  });
  it.each<[string, unknown, string, string | null]>([
    ['a missing session_id', bad({ session_id: undefined }), 'session_id: missing', null],
    ['a null session_id', bad({ session_id: null }), 'session_id: missing', null],
    [
      'a 30-digit session_id sent as a number',
      bad({ session_id: 123456789012345 }),
      'session_id: not a string of digits',
      '123456789012345',
    ],
    [
      'a session_id with letters',
      bad({ session_id: 'SESSION-XYZ' }),
      'session_id: not a string of digits',
      'SESSION-XYZ',
    ],
    ['a missing amount', bad({ amount: undefined }), 'amount: missing', null],
    ['an amount as text', bad({ amount: '1500.00' }), 'amount: not a Naira amount', '1500.00'],
    ['a negative amount', bad({ amount: -25.5 }), 'amount: not a Naira amount', '-25.5'],
    ['an amount with 3 decimals', bad({ amount: 12.345 }), 'amount: not a Naira amount', '12.345'],
    [
      'an impossible date',
      bad({ date: '2026-02-30 10:00:00' }),
      'date: not a provider date',
      '02-30',
    ],
    ['an ISO date', bad({ date: '2026-11-22T09:05:00Z' }), 'date: not a provider date', 'T09'],
    ['a missing date', bad({ date: undefined }), 'date: missing', null],
    ['a numeric status', bad({ status: 7 }), 'status: not text', null],
    [
      'a missing reference',
      bad({ external_reference: undefined }),
      'external_reference: missing',
      null,
    ],
    ['a null row', null, 'row: null, not an object', null],
    ['a text row', 'oops', 'row: string, not an object', null],
    ['a list row', [1, 2], 'row: a list, not an object', null],
  ])(
    'sets aside a row with %s, keeps the rest of the page, and says what was wrong without its value',
    async (_name, defective, problem, value) => {
      const second = { ...row, session_id: '2'.repeat(30) };
      const { client } = await setup(
        answer(200, ok({ count: 40, transactions: [row, defective, second] })),
      );
      const page = await client.listTransactions({ offset: 30, limit: 3 });
      expect(page.count).toBe(40);
      expect(page.transactions.map((tx) => tx.sessionId)).toEqual([SESSION_ID, '2'.repeat(30)]);
      expect(page.unreadable).toHaveLength(1);
      const [unread] = page.unreadable;
      expect(unread?.position).toBe(31); // offset 30, second row of the page
      expect(unread?.problem.startsWith(problem)).toBe(true);
      expect(unread?.raw).toBe(JSON.stringify(defective));
      if (value !== null) expect(unread?.problem).not.toContain(value);
    },
  );

  it('names every defect of a row, and keeps at most 4096 characters of its text', async () => {
    const huge = { ...row, session_id: undefined, amount: 'x', note: 'n'.repeat(10_000) };
    const { client } = await setup(answer(200, ok({ count: 2, transactions: [huge, row] })));
    const page = await client.listTransactions({ offset: 0, limit: 2 });
    expect(page.transactions).toHaveLength(1);
    const [unread] = page.unreadable;
    expect(unread?.position).toBe(0);
    expect(unread?.problem).toBe(
      'session_id: missing; amount: not a Naira amount (a number, 0 or more, at most 2 decimals)',
    );
    expect(unread?.raw).toHaveLength(4096);
    expect(JSON.stringify(huge).startsWith(unread?.raw ?? '?')).toBe(true);
  });

  it('keeps a page of nothing but unreadable rows, without retrying', async () => {
    const { server, client, sleeps } = await setup(
      answer(200, ok({ count: 2, transactions: [{}, { ...row, date: 'soon' }] })),
    );
    const page = await client.listTransactions({ offset: 0, limit: 2 });
    expect(page.transactions).toEqual([]);
    expect(page.unreadable.map((u) => [u.position, u.problem.split(':')[0]])).toEqual([
      [0, 'amount'],
      [1, 'date'],
    ]);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it.each<[number, ProviderErrorCode]>([
    [400, 'BAD_REQUEST'],
    [401, 'PROVIDER_AUTH_REFUSED'],
    [404, 'NOT_FOUND'],
    [409, 'UNEXPECTED_STATUS'],
  ])('maps HTTP %d to %s', async (status, code) => {
    const { client } = await setup(answer(status, {}));
    expect((await failure(client.listTransactions({ offset: 0, limit: 10 }))).code).toBe(code);
  });

  it('validates offset and limit before sending', async () => {
    const { server, client } = await setup(answer(200, ok({ count: 0, transactions: [] })));
    const cases: [number, number, string][] = [
      [-1, 10, 'offset'],
      [1.5, 10, 'offset'],
      [0, 0, 'limit'],
      [0, 10_001, 'limit'],
      [0, Number.NaN, 'limit'],
    ];
    for (const [offset, limit, field] of cases) {
      const error = await failure(client.listTransactions({ offset, limit }));
      expect(error).toMatchObject({ code: 'INVALID_REQUEST', field });
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('getPayoutAccount', () => {
  it('sends the section 4.4 request and picks AvailableBalance', async () => {
    const { server, client } = await setup(answer(200, { ...PAYOUT, more: true }));
    const account = await client.getPayoutAccount('1234567890');
    expect(account.availableBalanceKobo).toBe(250500);
    expect(account).toMatchObject({
      id: '1234567890',
      iban: null,
      currency: 566,
      ownerName: 'Ada Stores',
      type: 'CURRENT',
      status: 'OPENED',
      externalData: {},
    });
    expect(account.balances).toEqual([
      {
        balanceType: 'SettlementPositionBalance',
        valueKobo: 1000,
        currency: 'NGN',
        display: 'NGN 10.00',
      },
      {
        balanceType: 'AvailableBalance',
        valueKobo: 250500,
        currency: 'NGN',
        display: 'NGN 2,505.00',
      },
    ]);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/request/company/get-user-account?accountId=1234567890');
    expect(request?.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['secretkey']).toBeUndefined();
  });

  it('uses the payout base URL, not the virtual-account one', async () => {
    const payout = await startScriptedServer(answer(200, PAYOUT));
    servers.push(payout);
    const { server, client } = await setup(answer(500, {}), {
      payoutBaseUrl: `${payout.url}/payout`,
    });
    await client.getPayoutAccount('1234567890');
    expect(server.requests).toHaveLength(0);
    expect(payout.requests[0]?.path).toBe('/payout/request/company/get-user-account');
  });

  it('accepts the account inside a { status, data } envelope too', async () => {
    const { client } = await setup(answer(200, ok(PAYOUT)));
    expect((await client.getPayoutAccount('1234567890')).availableBalanceKobo).toBe(250500);
  });

  it('accepts a zero and a negative balance as given', async () => {
    const { client } = await setup(
      answer(200, {
        ...PAYOUT,
        balances: [{ balanceType: 'AvailableBalance', value: 0, currency: 'NGN' }],
      }),
    );
    expect((await client.getPayoutAccount('1234567890')).availableBalanceKobo).toBe(0);
  });

  it.each([
    ['no balances', []],
    ['only a settlement balance', [PAYOUT.balances[0]]],
  ])('throws NO_AVAILABLE_BALANCE for %s, never zero', async (_name, balances) => {
    const { client } = await setup(answer(200, { ...PAYOUT, balances }));
    const error = await failure(client.getPayoutAccount('1234567890'));
    expect(error.code).toBe('NO_AVAILABLE_BALANCE');
    expect(error.message).toContain('not zero');
  });

  it.each([
    ['a fractional value', [{ balanceType: 'AvailableBalance', value: 2505.5, currency: 'NGN' }]],
    ['a value as text', [{ balanceType: 'AvailableBalance', value: '250500', currency: 'NGN' }]],
    ['an unsafe value', [{ balanceType: 'AvailableBalance', value: 2 ** 53, currency: 'NGN' }]],
    ['a foreign currency', [{ balanceType: 'AvailableBalance', value: 100, currency: 'USD' }]],
    [
      'two NGN entries',
      [
        { balanceType: 'AvailableBalance', value: 100, currency: 'NGN' },
        { balanceType: 'AvailableBalance', value: 200, currency: 'NGN' },
      ],
    ],
  ])('refuses %s', async (_name, balances) => {
    const { client } = await setup(answer(200, { ...PAYOUT, balances }));
    expect((await failure(client.getPayoutAccount('1234567890'))).code).toBe('MALFORMED_RESPONSE');
  });

  it('refuses another account or a missing id', async () => {
    const other = await setup(answer(200, { ...PAYOUT, id: '999' }));
    expect((await failure(other.client.getPayoutAccount('1234567890'))).code).toBe(
      'MALFORMED_RESPONSE',
    );
    const missing = await setup(answer(200, { ...PAYOUT, id: undefined }));
    expect((await failure(missing.client.getPayoutAccount('1234567890'))).code).toBe(
      'MALFORMED_RESPONSE',
    );
  });

  it.each<[number, ProviderErrorCode]>([
    [401, 'PROVIDER_AUTH_REFUSED'],
    [403, 'PROVIDER_AUTH_REFUSED'],
    [404, 'NOT_FOUND'],
  ])('maps HTTP %d to %s with a useful message', async (status, code) => {
    const { client } = await setup(answer(status, {}));
    const error = await failure(client.getPayoutAccount('1234567890'));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(status === 404 ? /payout account number/ : /access token/);
  });

  it('retries a 503 then succeeds', async () => {
    const { server, client } = await setup(sequence(answer(503, {}), answer(200, PAYOUT)));
    expect((await client.getPayoutAccount('1234567890')).availableBalanceKobo).toBe(250500);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses to send without a token or with a bad account id', async () => {
    const { server, client } = await setup(answer(200, PAYOUT), { accessToken: '' });
    expect(await failure(client.getPayoutAccount('1234567890'))).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'accessToken',
    });
    expect(await failure(client.getPayoutAccount(''))).toMatchObject({ field: 'accountId' });
    expect(await failure(client.getPayoutAccount('12 34'))).toMatchObject({ field: 'accountId' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('configuration', () => {
  it.each<[string, Partial<ProviderClientConfig>]>([
    ['baseUrl', { baseUrl: 'not a url' }],
    ['baseUrl', { baseUrl: 'ftp://x.example' }],
    ['baseUrl', { baseUrl: 'https://user:pass@x.example' }],
    ['payoutBaseUrl', { payoutBaseUrl: 'https://x.example/?a=1' }],
    ['timeZone', { timeZone: 'Lagos' }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['maxResponseBytes', { maxResponseBytes: 1.5 }],
    ['readRetry.attempts', { readRetry: { attempts: 0, baseDelayMs: 1, maxDelayMs: 2 } }],
    ['readRetry', { readRetry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 2 } }],
  ])('refuses a bad %s', (field, change) => {
    const build = () =>
      createProviderClient({
        baseUrl: 'https://x.example',
        payoutBaseUrl: 'https://y.example',
        secretKey: SECRET,
        accessToken: TOKEN,
        ...change,
      });
    expect(build).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field }));
  });
});

describe('secrets', () => {
  it('scrubs the key and token a server echoes back', async () => {
    const echo: ScriptedHandler = (req, res, index) => {
      const statuses = [400, 401, 404, 409, 500, 418];
      sendJson(res, statuses[index % statuses.length] ?? 400, {
        message: `bad key ${String(req.headers['secretkey'])} token ${TOKEN} enc ${encodeURIComponent(SECRET)}`,
      });
    };
    const { client } = await setup(echo, {
      readRetry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    });
    for (let i = 0; i < 6; i++) {
      const error = await failure(client.createVirtualAccount(nonstatic()));
      expect(error.message).toContain('[redacted]');
      expect(error.message).not.toContain(SECRET);
      expect(error.message).not.toContain(TOKEN);
    }
  });

  it('scrubs secrets from transport causes', async () => {
    const fetchWithLeak: typeof fetch = () =>
      Promise.reject(
        new TypeError(`fetch failed for ${SECRET}`, {
          cause: Object.assign(new Error(`connect ECONNREFUSED with ${TOKEN}`), {
            code: 'ECONNREFUSED',
          }),
        }),
      );
    const client = createProviderClient({
      baseUrl: 'https://x.example',
      payoutBaseUrl: 'https://y.example',
      secretKey: SECRET,
      accessToken: TOKEN,
      fetch: fetchWithLeak,
      sleep: () => Promise.resolve(),
    });
    const error = await failure(client.getPayoutAccount('1234567890'));
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('connection refused');
    const cause = error.cause as Error;
    expect(cause.message).toBe('fetch failed for [redacted]');
    expect((cause.cause as Error).message).toBe('connect ECONNREFUSED with [redacted]');
    expect((cause.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('never put the secret key or the access token in any error of these tests', () => {
    expect(seenErrors.length).toBeGreaterThan(100);
    for (const error of seenErrors) assertNoSecrets(error);
  });
});

function assertNoSecrets(error: unknown): void {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined; depth++) {
    const text =
      current instanceof Error
        ? `${current.name} ${current.message} ${current.stack ?? ''} ${JSON.stringify(current)}`
        : JSON.stringify(current);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
    current = current instanceof Error ? current.cause : undefined;
  }
}

afterAll(() => {
  // Also covers errors of tests run on their own (-t), where the sweep above may not run.
  for (const error of seenErrors) assertNoSecrets(error);
});
