/**
 * A sale whose account cannot be created, against the real sandbox over HTTP: the reason names
 * what to fix in shop words (never the provider's own text), and "Try again" is offered only
 * where asking again can help (interface section 7: a 400 or a 404 on create, and a refused key,
 * repeat until a setting changes; a network fault or the provider's 5xx may not).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type HarnessOptions } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIX = 'An owner can fix it in Settings → Connect provider.';

async function failedSale(options: HarnessOptions, before?: (harness: Harness) => Promise<void>) {
  const harness = (h = await createHarness(options));
  await before?.(harness);
  const sale = await harness.engine.createSale({ amountKobo: 150_000 });
  expect(sale.state).toBe('failed_to_create');
  return sale;
}

/** The client's fetch with another secret key: the sandbox knows no settlement account for it. */
const wrongKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('secretKey', 'sk_sandbox_not_this_merchant');
  return fetch(input, { ...init, headers });
};

describe('a sale whose account could not be created', () => {
  it('a blank Merchant ID: named, nothing sent, no "Try again"', async () => {
    const sale = await failedSale({ settings: { merchantId: '' } });
    expect(sale.reason).toBe(
      `The shop's details are incomplete: the Merchant ID is missing or not valid, so no account was asked for. ${FIX}`,
    );
    expect(sale.reason).not.toContain('merchantId');
    expect(sale.canRetry).toBe(false);
  });

  it('the provider\'s 400 naming merchant_id: the Merchant ID, in shop words, no "Try again"', async () => {
    // Longer than the sandbox takes: the client sends it, the sandbox answers 400.
    const sale = await failedSale({ settings: { merchantId: 'M'.repeat(201) } });
    expect(sale.reason).toBe(
      `The provider refused the shop's details: the Merchant ID is missing or wrong. ${FIX}`,
    );
    expect(sale.reason).not.toMatch(/merchant_id|HTTP|400/);
    expect(sale.canRetry).toBe(false);
  });

  it('the provider\'s 404 for the key: the secret key, no "Try again"', async () => {
    const sale = await failedSale({ clientFetch: wrongKey });
    expect(sale.reason).toBe(
      `The provider has no settlement account for the shop's secret key: the key is wrong or belongs to the other environment. ${FIX}`,
    );
    expect(sale.canRetry).toBe(false);
  });

  it('the provider\'s 500: "Try again" stays, and a retry after the fault clears makes the account', async () => {
    const sale = await failedSale({}, async (harness) => {
      await harness.control('/faults', { error_rate: 1 });
    });
    expect(sale.reason).toBe('The provider had a problem creating the account. Try again.');
    expect(sale.canRetry).toBe(true);
    await h?.control('/faults', { error_rate: 0 });
    const again = await h?.engine.retrySale(sale.id);
    expect(again).toMatchObject({ state: 'awaiting_payment', canRetry: false });
  });

  it('a provider that does not answer: "Try again" stays', async () => {
    const unreachable: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const sale = await failedSale({ clientFetch: unreachable });
    expect(sale.reason).toContain('The provider did not answer.');
    expect(sale.canRetry).toBe(true);
  });
});
