import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent, BridgeResult } from '#shared/bridge/contract';
import { channelNames } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import { IN_PROCESS_OWNER } from '#main/auth/caller';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function start(dataDir = mkdtempSync(join(tmpdir(), 'till-core-'))) {
  core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test' });
  const events: BridgeEvent[] = [];
  core.events.subscribe((event) => events.push(event));
  const call = (channel: string, input: unknown = {}) =>
    dispatch(core!.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);
  return { core, events, call, dataDir };
}

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function control(core: Core, path: string, body?: unknown) {
  const response = await fetch(`${core.sandboxControlUrl()}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the core, end to end in one process (sandbox provider, real listener, real SQLite)', () => {
  it('a ₦1,500 sale is paid through the real callback path and reported as paid', async () => {
    const { core, events, call } = await start();
    const sale = ok<SaleView>(
      await call('createSale', { amount: '1,500', note: 'Indomie carton' }),
    );
    expect(sale).toMatchObject({
      state: 'awaiting_payment',
      amountKobo: 150_000,
      callbackMode: 'live',
    });

    const transfer = await control(core, '/transfers', {
      account_number: sale.accountNumber,
      amount: 1500,
    });
    expect(transfer['status']).toBe('success');

    const paid = await waitFor(() =>
      events.find(
        (e): e is Extract<BridgeEvent, { type: 'sale-changed' }> =>
          e.type === 'sale-changed' && e.payload.id === sale.id && e.payload.state === 'paid',
      ),
    );
    expect(paid.payload.paidSessionId).toBe(transfer['session_id']);
    expect(events.some((e) => e.type === 'inflow')).toBe(true);
    const receipt = ok<Record<string, unknown>>(await call('getReceipt', { saleId: sale.id }));
    expect(receipt).toMatchObject({
      amountKobo: 150_000,
      sessionId: transfer['session_id'],
      accountNumber: sale.accountNumber,
    });
  });

  it('100 copies of one callback in parallel give one inflow and one paid sale', async () => {
    const { core, events, call } = await start();
    await control(core, '/faults', { drop_callbacks: 1 });
    const sale = ok<SaleView>(await call('createSale', { amount: '700' }));
    const transfer = await control(core, '/transfers', {
      account_number: sale.accountNumber,
      amount: 700,
    });
    const { callbackUrl } = ok<{ callbackUrl: string }>(await call('getSettings'));
    const body = JSON.stringify({
      event: 'payment.success',
      reference: sale.reference,
      session_id: transfer['session_id'],
      amount: 700,
      status: 'success',
    });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(callbackUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then((r) => r.status),
      ),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    await waitFor(() =>
      events.some(
        (e) => e.type === 'sale-changed' && e.payload.id === sale.id && e.payload.state === 'paid',
      )
        ? true
        : undefined,
    );
    await core.idle();
    const activity = ok<{ inflows: unknown[]; sales: SaleView[] }>(await call('getActivity'));
    expect(activity.inflows).toHaveLength(1);
    expect(
      events.filter((e) => e.type === 'sale-changed' && e.payload.state === 'paid'),
    ).toHaveLength(1);
  });

  it('status shows the sandbox, a live local callback route and no alerts', async () => {
    const { call } = await start();
    expect(ok(await call('getStatus'))).toMatchObject({
      environment: 'sandbox',
      callback: { mode: 'local-sandbox', live: true, tunnel: { state: 'off' } },
      openAlerts: 0,
    });
  });

  it('an unconfigured environment refuses a sale with a clear NOT_CONFIGURED error', async () => {
    const { call } = await start();
    ok(await call('updateSettings', { patch: { environment: 'staging' } }));
    const result = await waitFor(async () => {
      const r = await call('getAppInfo');
      return r.ok && (r.value as { environment: string }).environment === 'staging' ? r : undefined;
    });
    expect(result.ok).toBe(true);
    const refused = await waitFor(async () => {
      const r = await call('createSale', { amount: '100' });
      return !r.ok && r.error.code !== 'BUSY' ? r : undefined;
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED' } });
  });

  it('bad settings come back with the field; bad amounts too', async () => {
    const { call } = await start();
    expect(
      await call('updateSettings', { patch: { profiles: { staging: { expiryMinutes: 0 } } } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_SETTINGS', field: 'profiles.staging.expiryMinutes' },
    });
    expect(await call('createSale', { amount: '12.345' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_AMOUNT', field: 'amount' },
    });
  });

  it('secrets go in but never come out: not in any bridge answer, the log or a file in clear', async () => {
    const { core, call, dataDir } = await start();
    const secret = 'sk_live_QWxhZGRpbjpvcGVuIHNlc2FtZQ';
    const token = 'at_live_9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d';
    const answers: unknown[] = [];
    // The addresses first: a key is bound to the origin it is entered for.
    ok(
      await call('updateSettings', {
        patch: {
          profiles: {
            production: {
              baseUrl: 'https://127.0.0.1:9',
              payoutBaseUrl: 'https://127.0.0.1:9',
              merchantId: 'M1',
              payoutAccountId: '1234567890',
            },
          },
        },
      }),
    );
    answers.push(
      ok(await call('setSecret', { scope: 'production', name: 'secretKey', value: secret })),
    );
    answers.push(
      ok(await call('setSecret', { scope: 'production', name: 'accessToken', value: token })),
    );
    const secrets = ok<{ secrets: { secretKey: { set: boolean; last4: string } } }>(
      await call('getSecrets', { environment: 'production' }),
    );
    expect(secrets.secrets.secretKey).toEqual({
      set: true,
      last4: secret.slice(-4),
      problem: null,
      boundOrigin: 'https://127.0.0.1:9',
    });
    answers.push(secrets);
    // A failing connection test builds errors around the key: they must not contain it.
    answers.push(await call('testConnection', { environment: 'production' }));
    for (const name of channelNames) {
      answers.push(await call(name, {}));
    }
    core.log.logger.info({ note: `oops ${secret}` }, `and a careless message with ${token}`);
    const everything = JSON.stringify(answers);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(token);

    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    for (const file of files(dataDir)) {
      const text = readFileSync(file).toString('latin1');
      expect(text, file).not.toContain(secret);
      expect(text, file).not.toContain(token);
    }
  });

  it('every channel answers wrong input with a clear error object, never a crash', async () => {
    const { call } = await start();
    const bad: unknown[] = [null, 42, 'text', [], { unexpected: true }, { saleId: 'x', amount: 5 }];
    for (const name of channelNames) {
      for (const input of bad) {
        const result = await call(name, input);
        if (result.ok) continue; // channels with no input accept {} and null means {}
        expect(result.error.code, `${name} ${JSON.stringify(input)}`).toMatch(/^[A-Z_]+$/);
        expect(result.error.message.length).toBeGreaterThan(3);
        expect(result.error.message).not.toMatch(/\n\s+at /);
      }
    }
    expect(await call('cancelSale', { saleId: 'seven' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', field: 'saleId' },
    });
  });
});
