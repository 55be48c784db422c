import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent, BridgeResult } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import { foreignShape } from '#main/webhook/foreign-shape';
import { createHarness, type Harness } from '#support/sales-harness';

let core: Core | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
  await h?.close();
  h = undefined;
});

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a callback of a shape the till does not recognise', () => {
  it('foreign_form, through the real listener: the sale is paid at once, and support is told the shape', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-foreign-'));
    const started = (core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test' }));
    const events: BridgeEvent[] = [];
    started.events.subscribe((event) => events.push(event));
    const call = (channel: string, input: unknown = {}) =>
      dispatch(started.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);
    const control = (path: string, body: unknown) =>
      fetch(`${started.sandboxControlUrl()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await control('/personality', { callback_format: 'foreign_form' });
    const sale = ok<SaleView>(await call('createSale', { amount: '1,500' }));
    const sentAt = Date.now();
    await control('/transfers', { account_number: sale.accountNumber, amount: 1500 });
    await waitFor(
      () =>
        events.find(
          (e) =>
            e.type === 'sale-changed' && e.payload.id === sale.id && e.payload.state === 'paid',
        ),
      10_000,
    );
    // The safety net checks every 15 s: a paid sale well before that came by the callback.
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    const shape = events.find(
      (e): e is Extract<BridgeEvent, { type: 'alert' }> =>
        e.type === 'alert' && e.payload.kind === 'callback_shape',
    );
    expect(shape?.payload.message).toContain('does not recognise');
    expect(shape?.payload.message).toContain('txnRef=');
    expect(events.some((e) => e.type === 'alert' && e.payload.kind === 'unknown_callback')).toBe(
      false,
    );
  });

  it('naming no sale at all: every open sale is checked at once and the alert keeps the body', async () => {
    const harness = (h = await createHarness({ live: true }));
    await harness.control('/personality', { callbacks: 'never' });
    const waiting = await harness.engine.createSale({ amountKobo: 50_000 });
    const paidNow = await harness.engine.createSale({ amountKobo: 100_000 });
    await harness.transfer(paidNow.accountNumber ?? '', 1000);
    const foreign = foreignShape({ event: 'credit', data: { amt: '1000', apiKey: 'sk_live_x' } });
    const outcome = await harness.engine.handleCallback(null, { foreign });
    expect(outcome).toBe(`checked-open-sales:paid:${paidNow.id}`);
    expect(harness.engine.getSale(paidNow.id).state).toBe('paid');
    expect(harness.engine.getSale(waiting.id).state).toBe('awaiting_payment');
    const alert = harness.alerts.find((a) => a.kind === 'unknown_callback');
    expect(alert?.message).toContain('shape this till does not recognise');
    expect(alert?.message).toContain('checked its 2 open sales');
    expect(alert?.message).toContain('data.amt=1000');
    expect(alert?.message).toContain('data.apiKey=***');
    expect(alert?.message).not.toContain('sk_live_x');
    expect(alert?.message).not.toContain('no reference');
  });

  it('a value equal to a sale reference finds the sale, whatever the field is called', async () => {
    const harness = (h = await createHarness({ live: true }));
    await harness.control('/personality', { callbacks: 'never' });
    const other = await harness.engine.createSale({ amountKobo: 50_000 });
    const sale = await harness.engine.createSale({ amountKobo: 100_000 });
    await harness.transfer(sale.accountNumber ?? '', 1000);
    const foreign = foreignShape({ ref_no: sale.reference, what: 'paid' });
    expect(await harness.engine.handleCallback(null, { foreign })).toBe('confirmed');
    expect(harness.engine.getSale(sale.id).state).toBe('paid');
    // Only that sale was asked about.
    expect(harness.engine.getSale(other.id).state).toBe('awaiting_payment');
  });
});
