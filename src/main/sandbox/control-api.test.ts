import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from './sandbox-provider';
import {
  accounts,
  controlErrorSchema,
  createAccount,
  errorBodySchema,
  http,
  ledger,
  nonstaticBody,
  startTestSandbox,
  transfer,
} from '#support/sandbox-world';
import type { ManualScheduler } from '#support/clock';
import { rawHttp } from '#support/raw-http';

let sandbox: SandboxProvider;
let clock: ManualScheduler;

beforeEach(async () => {
  ({ sandbox, clock } = await startTestSandbox());
});

afterEach(async () => {
  await sandbox.close();
});

describe('control API', () => {
  it('GET /accounts lists every account with type, amount, expiry, status and callback_url', async () => {
    const a = await createAccount(
      sandbox,
      nonstaticBody({ amount: 2505.5, expiers_in: 10, callback_url: 'http://127.0.0.1:7/a' }),
    );
    await clock.advance(60_000);
    await createAccount(
      sandbox,
      nonstaticBody({ type: 'static-flex', amount: undefined, expiers_in: undefined }),
    );
    const list = await accounts(sandbox);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      account_number: a.account_number,
      external_reference: a.external_reference,
      type: 'nonstatic',
      amount: 2505.5,
      status: 'active',
      paid: false,
      callback_url: 'http://127.0.0.1:7/a',
      expires_at: '2025-01-15 09:10:00',
    });
    expect(list[1]).toMatchObject({ type: 'static-flex', amount: null, expires_at: null });
  });

  it('POST /transfers answers the transaction made; GET /ledger holds every one', async () => {
    const a = await createAccount(sandbox, nonstaticBody({ amount: 10 }));
    const ok = await transfer(sandbox, a.account_number, 10);
    expect(ok).toMatchObject({
      status: 'success',
      amount: 10,
      account_number: a.account_number,
      external_reference: a.external_reference,
      date: '2025-01-15 09:00:00',
    });
    expect(ok.session_id.startsWith('999999250115090000')).toBe(true);
    const bad = await transfer(sandbox, a.account_number, 10);
    expect((await ledger(sandbox)).map((t) => [t.session_id, t.status, t.reason])).toEqual([
      [ok.session_id, 'success', null],
      [bad.session_id, 'failed', 'already_paid'],
    ]);
  });

  it.each([
    ['{', 400, 'INVALID_JSON'],
    [{ amount: 10 }, 400, 'VALIDATION'],
    [{ account_number: '1', amount: 10, pending_ms: -5 }, 400, 'VALIDATION'],
    [{ account_number: '1', amount: 10, pending_ms: 1.5 }, 400, 'VALIDATION'],
    [{ account_number: '1' }, 400, 'VALIDATION'],
    [{ account_number: '1', amount: 10, extra: true }, 400, 'VALIDATION'],
  ])('POST /transfers %j answers %i %s', async (body, status, code) => {
    const result = await http(`${sandbox.controlUrl}/transfers`, { body });
    expect(result.status).toBe(status);
    expect(controlErrorSchema.parse(result.body).code).toBe(code);
  });

  it('expire is idempotent, refused for static accounts and after cancel', async () => {
    const a = await createAccount(sandbox);
    const expire = (n: string) =>
      http(`${sandbox.controlUrl}/accounts/${n}/expire`, { method: 'POST' });
    expect((await expire(a.account_number)).status).toBe(200);
    expect((await expire(a.account_number)).status).toBe(200);
    const fixed = await createAccount(
      sandbox,
      nonstaticBody({ type: 'static', expiers_in: undefined }),
    );
    expect((await expire(fixed.account_number)).status).toBe(409);
    const b = await createAccount(sandbox);
    await http(`${sandbox.controlUrl}/accounts/${b.account_number}/cancel`, { method: 'POST' });
    const refused = await expire(b.account_number);
    expect(controlErrorSchema.parse(refused.body).code).toBe('ACCOUNT_CANCELLED');
    expect((await expire('0000000000')).status).toBe(404);
  });

  it('cancel is refused while a transfer is pending', async () => {
    const a = await createAccount(sandbox);
    await transfer(sandbox, a.account_number, 2505, 10_000);
    const result = await http(`${sandbox.controlUrl}/accounts/${a.account_number}/cancel`, {
      method: 'POST',
    });
    expect(result.status).toBe(409);
    expect(result.text).toContain('pending');
  });

  it('GET /info answers the addresses and keys of the start line, and they work', async () => {
    const info = await http(`${sandbox.controlUrl}/info`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      base_url: sandbox.baseUrl,
      payout_base_url: sandbox.payoutBaseUrl,
      secret_key: sandbox.secretKey,
      access_token: sandbox.accessToken,
      payout_account_id: sandbox.payoutAccountId,
      control_url: sandbox.controlUrl,
    });
    const { base_url, secret_key } = info.body as { base_url: string; secret_key: string };
    const listing = await http(`${base_url}/virtual/transactions?limit=1&offset=0`, {
      headers: { secretKey: secret_key },
    });
    expect(listing.status).toBe(200);
    expect((await http(`${sandbox.controlUrl}/info`, { method: 'POST', body: {} })).status).toBe(
      405,
    );
  });

  it('answers 404 with a code for unknown routes and 405 for a wrong method', async () => {
    const unknown = await http(`${sandbox.controlUrl}/nope`);
    expect(unknown.status).toBe(404);
    expect(controlErrorSchema.parse(unknown.body).code).toBe('ROUTE_NOT_FOUND');
    expect((await http(`${sandbox.controlUrl}/ledger`, { method: 'DELETE' })).status).toBe(405);
    expect((await http(`${sandbox.baseUrl.replace('/api', '/other')}`)).status).toBe(404);
  });
});

describe('Host and Origin: no web page reaches the sandbox', () => {
  const transferBody = (accountNumber: string) =>
    JSON.stringify({ account_number: accountNumber, amount: 2505 });

  it('refuses a cross-origin POST /transfers (a no-cors page) with 403 and makes no transaction', async () => {
    const a = await createAccount(sandbox);
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${sandbox.port + 1}`]) {
      const refused = await http(`${sandbox.controlUrl}/transfers`, {
        method: 'POST',
        // What a no-cors fetch may send: a text/plain body, and the page's Origin.
        headers: { origin, 'content-type': 'text/plain;charset=UTF-8' },
        body: transferBody(a.account_number),
      });
      expect(refused.status).toBe(403);
      expect(controlErrorSchema.parse(refused.body).code).toBe('CROSS_ORIGIN');
    }
    expect(await ledger(sandbox)).toEqual([]);
    expect((await accounts(sandbox))[0]).toMatchObject({ paid: false });
  });

  it('answers 421 to a foreign Host (DNS rebinding), without its keys or ledger', async () => {
    await transfer(sandbox, (await createAccount(sandbox)).account_number, 2505);
    for (const path of ['/control/info', '/control/ledger', '/control/accounts']) {
      const answer = await rawHttp({
        port: sandbox.port,
        path,
        headers: { host: `evil.example:${sandbox.port}` },
      });
      expect(answer.status).toBe(421);
      expect(controlErrorSchema.parse(JSON.parse(answer.text)).code).toBe('MISDIRECTED');
      expect(answer.text).not.toContain(sandbox.secretKey);
    }
    const otherPort = await rawHttp({
      port: sandbox.port,
      path: '/control/info',
      headers: { host: `127.0.0.1:${sandbox.port + 1}` },
    });
    expect(otherPort.status).toBe(421);
  });

  it("refuses foreign pages on the provider API too, in the provider's error shape", async () => {
    const status = `/api/virtual/status?reference=nope`;
    const rebound = await rawHttp({
      port: sandbox.port,
      path: status,
      headers: { host: `evil.example:${sandbox.port}`, secretKey: sandbox.secretKey },
    });
    expect(rebound.status).toBe(421);
    expect(errorBodySchema.parse(JSON.parse(rebound.text)).message).toContain('Host');
    const crossOrigin = await http(`${sandbox.baseUrl}/virtual/status?reference=nope`, {
      headers: { origin: 'http://evil.example', secretKey: sandbox.secretKey },
    });
    expect(crossOrigin.status).toBe(403);
    expect(errorBodySchema.parse(crossOrigin.body).message).toContain('cross-origin');
  });

  it('serves the till, scripts and its own pages: no Origin, its own origin, localhost', async () => {
    const a = await createAccount(sandbox, nonstaticBody({ amount: 10 }));
    for (const origin of [`http://127.0.0.1:${sandbox.port}`, `http://localhost:${sandbox.port}`]) {
      const info = await http(`${sandbox.controlUrl}/info`, { headers: { origin } });
      expect(info.status).toBe(200);
    }
    const sameOrigin = await http(`${sandbox.controlUrl}/transfers`, {
      headers: { origin: `http://127.0.0.1:${sandbox.port}` },
      body: { account_number: a.account_number, amount: 10 },
    });
    expect(sameOrigin.status).toBe(200);
    const byLocalhost = await rawHttp({
      port: sandbox.port,
      path: '/control/ledger',
      headers: { host: `localhost:${sandbox.port}` },
    });
    expect(byLocalhost.status).toBe(200);
    expect(await ledger(sandbox)).toHaveLength(1);
  });
});
