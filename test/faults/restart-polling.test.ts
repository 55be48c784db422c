/**
 * Found by the fault campaign: after a restart that changes the callback address (the default
 * listener port 0 here; ngrok without a reserved domain in the field), a sale created before the
 * restart never hears its callback, and it was confirmed only by the deadline check, up to its
 * whole expiry later. Resume now polls the sales whose callback URL is no longer ours.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openInProcessTill, type Till } from './till';

let till: Till | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await till?.close();
  till = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function stateAfterRestartAndPayment(): Promise<string> {
  // Default settings: the listener takes a free port at every start.
  dataDir = mkdtempSync(join(tmpdir(), 'till-restart-'));
  till = await openInProcessTill(dataDir, Date.UTC(2026, 10, 23, 8));
  const sale = await till.call('createSale', { amount: '1,500' });
  if (!sale.ok) throw new Error(sale.error.message);
  await till.restart();
  const transfer = await fetch(`${till.controlUrl()}/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_number: sale.value.accountNumber, amount: 1500 }),
  });
  expect(transfer.status, await transfer.clone().text()).toBe(200);
  // Within the polling backoff (2 s, 4 s, 8 s), far from the 15-minute deadline.
  for (let i = 0; i < 15; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await till.advance(1_000);
  }
  const after = await till.call('getSale', { saleId: sale.value.id });
  if (!after.ok) throw new Error(after.error.message);
  return after.value.state;
}

describe('restart with a new callback address', () => {
  it('a sale created before the restart is polled, so its payment is found in seconds', async () => {
    expect(await stateAfterRestartAndPayment()).toBe('paid');
  });
});
