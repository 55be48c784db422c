import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MoneyError } from '#shared/money';
import { createProviderClient } from '#main/provider/client';
import type { ProviderClientConfig } from '#main/provider/client-config';
import { ProviderError } from '#main/provider/errors';
import { startScriptedServer } from '#support/scripted-server';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { unreachableUrl } from '#support/sandbox-world';
import { balanceErrorAdvice, checkPayout, describePayoutCheck, getBalanceView } from './balance';

const NOW = Date.UTC(2026, 10, 22, 17, 0);

let sandbox: SandboxProvider;

function clientFor(overrides: Partial<ProviderClientConfig> = {}) {
  return createProviderClient({
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    secretKey: sandbox.secretKey,
    accessToken: sandbox.accessToken,
    timeoutMs: 2_000,
    readRetry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    ...overrides,
  });
}

async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.controlUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

beforeAll(async () => {
  sandbox = await startSandboxProvider({ seed: 1 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('payout balance', () => {
  it('shows AvailableBalance in kobo, the other balances labelled, and checks a payout', async () => {
    const client = clientFor();
    const account = await client.createVirtualAccount({
      reference: 'BAL-COUNTER-1',
      accountName: 'Mama Put',
      merchantId: 'M-1',
      type: 'static-flex',
      callbackUrl: 'http://127.0.0.1:9/unused',
    });
    await control('/transfers', { account_number: account.accountNumber, amount: 1500.5 });
    await control('/transfers', { account_number: account.accountNumber, amount: 2505 });

    const view = await getBalanceView(client, sandbox.payoutAccountId, NOW);
    expect(view).toMatchObject({
      accountId: sandbox.payoutAccountId,
      ownerName: 'Sandbox Merchant',
      status: 'OPENED',
      availableKobo: 400550,
      availableDisplay: 'NGN 4,005.50',
      refreshedAt: NOW,
    });
    expect(view.name).toMatch(/Payout/);
    expect(view.otherBalances).toEqual([
      { balanceType: 'SettlementPositionBalance', valueKobo: 400550, display: 'NGN 4,005.50' },
    ]);

    const covered = checkPayout(view, 400550);
    expect(covered).toEqual({
      availableKobo: 400550,
      requestedKobo: 400550,
      covered: true,
      shortfallKobo: 0,
      refreshedAt: NOW,
    });
    const short = checkPayout(view, 500000);
    expect(short).toMatchObject({ covered: false, shortfallKobo: 99450 });
    expect(describePayoutCheck(short)).toMatch(/Not covered: ₦994\.50 short/);
    expect(describePayoutCheck(covered)).toMatch(/^Covered/);
    expect(() => checkPayout(view, 0)).toThrow(MoneyError);
    expect(() => checkPayout(view, 10.5)).toThrow(MoneyError);
  });

  it('passes provider errors through with their code and advice', async () => {
    const wrongToken = await rejection(
      getBalanceView(
        clientFor({ accessToken: 'at_wrong_token_123' }),
        sandbox.payoutAccountId,
        NOW,
      ),
    );
    expect(wrongToken.code).toBe('PROVIDER_AUTH_REFUSED');
    expect(balanceErrorAdvice(wrongToken)).toMatch(/token/);

    const unknown = await rejection(getBalanceView(clientFor(), '0000000001', NOW));
    expect(unknown.code).toBe('NOT_FOUND');
    expect(balanceErrorAdvice(unknown)).toMatch(/payout account number/);

    const unreachable = await rejection(
      getBalanceView(
        clientFor({ payoutBaseUrl: await unreachableUrl() }),
        sandbox.payoutAccountId,
        NOW,
      ),
    );
    expect(unreachable.code).toBe('NETWORK');
    expect(balanceErrorAdvice(unreachable)).toMatch(/internet connection/);

    // A provider answer without AvailableBalance: only a scripted server can send one.
    const server = await startScriptedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: '1234567890',
          iban: null,
          currency: 566,
          userId: 7,
          ownerName: 'X',
          name: 'X Payout',
          productId: 'P',
          type: 'CURRENT',
          status: 'OPENED',
          balances: [
            {
              balanceType: 'SettlementPositionBalance',
              value: 5,
              currency: 'NGN',
              display: 'NGN 0.05',
            },
          ],
          externalData: {},
        }),
      );
    });
    try {
      const none = await rejection(
        getBalanceView(clientFor({ payoutBaseUrl: server.url }), '1234567890', NOW),
      );
      expect(none.code).toBe('NO_AVAILABLE_BALANCE');
      expect(balanceErrorAdvice(none)).toMatch(/do not pay out/);
    } finally {
      await server.close();
    }
  });
});
