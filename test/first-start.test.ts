/**
 * The first start's question in main: a real core (real SQLite, the embedded sandbox) asks a
 * fresh till's shop name until the owner gives it, refuses anyone else, and the name reaches the
 * provider as the account name of the next sale.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeResult, Caller } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import type { SettingsView, StatusView } from '#shared/views';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';

const cashier: Caller = { role: 'cashier', name: 'Ade', sessionId: 's-ade', via: 'browser' };
const counter: Caller = {
  role: 'cashier',
  name: null,
  sessionId: 's-counter',
  via: 'counter',
  counter: { id: 1, name: 'Front counter', tillId: 'till-frnt' },
};

const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'till-first-start-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string) {
  const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test' });
  cores.push(core);
  const call = (channel: string, input: unknown = {}, caller: Caller = IN_PROCESS_OWNER) =>
    dispatch(core.handlers, channel, input, () => undefined, caller);
  const asked = async () => ok<StatusView>(await call('getStatus')).askShopName;
  return { core, call, asked };
}

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

describe('the first start asks the shop name (main)', () => {
  it('a fresh till is asked until the owner names it; a cashier or a counter is refused', async () => {
    const dataDir = tempDir();
    const { call, asked, core } = await start(dataDir);
    expect(await asked()).toBe(true);

    for (const caller of [cashier, counter]) {
      expect(await call('setShopName', { name: 'Not the owner' }, caller)).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    }
    expect(await call('setShopName', { name: '  ' })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_SETTINGS',
        message: 'Shop name: Enter the shop name',
        field: 'shop.name',
      },
    });
    expect(await call('setShopName', { name: 'M'.repeat(101) })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_SETTINGS', message: 'Shop name: At most 100 characters' },
    });
    expect(await call('setShopName', { name: 42 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', field: 'name' },
    });
    expect(await call('setShopName', { name: 'x', extra: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await asked()).toBe(true);
    expect(core.settings.get().shop.name).toBe('My Shop');

    const view = ok<SettingsView>(await call('setShopName', { name: 'Mama Put Stores' }));
    expect(view.settings.shop).toMatchObject({ name: 'Mama Put Stores', nameConfirmed: true });
    expect(await asked()).toBe(false);
    expect(ok<StatusView>(await call('getStatus')).shopName).toBe('Mama Put Stores');

    // The next sale's account carries the name the owner gave, as the provider received it.
    const sale = ok<SaleView>(await call('createSale', { amount: '1,500' }));
    const response = await fetch(`${core.sandboxControlUrl()}/accounts`);
    const { accounts } = (await response.json()) as {
      readonly accounts: readonly Record<string, unknown>[];
    };
    expect(
      accounts.find((account) => account['account_number'] === sale.accountNumber),
    ).toMatchObject({ account_name: 'Mama Put Stores' });
  });

  it('keeps the answer in the till, not the page: a restart is not asked again', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    ok(await first.call('setShopName', { name: 'Iya Basira Provisions' }));
    await cores.splice(0)[0]?.close();
    const again = await start(dataDir);
    expect(await again.asked()).toBe(false);
    expect(again.core.settings.get().profiles.sandbox.accountName).toBe('Iya Basira Provisions');
  });

  it('a till with a sale already is not asked', async () => {
    const { call, asked } = await start(tempDir());
    ok(await call('createSale', { amount: '200' }));
    expect(await asked()).toBe(false);
  });

  it('an upgraded till (settings from before the question) is not asked', async () => {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, 'settings.json'),
      JSON.stringify({ shop: { name: 'My Shop', tillId: 'till-ab12' } }),
    );
    const { asked } = await start(dataDir);
    expect(await asked()).toBe(false);
  });

  it("keeps an environment's own account name", async () => {
    const { call, core } = await start(tempDir());
    ok(
      await call('updateSettings', {
        patch: { profiles: { production: { accountName: 'MAMA PUT NIG LTD' } } },
      }),
    );
    ok(await call('setShopName', { name: 'Mama Put' }));
    const { profiles } = core.settings.get();
    expect(profiles.production.accountName).toBe('MAMA PUT NIG LTD');
    expect(profiles.staging.accountName).toBe('Mama Put');
    expect(profiles.sandbox.accountName).toBe('Mama Put');

    // A later rename in Settings → Shop is carried to the profiles that follow the shop.
    ok(await call('updateSettings', { patch: { shop: { name: 'Mama Put Stores' } } }));
    const renamed = core.settings.get().profiles;
    expect(renamed.production.accountName).toBe('MAMA PUT NIG LTD');
    expect(renamed.staging.accountName).toBe('Mama Put Stores');
    expect(renamed.sandbox.accountName).toBe('Mama Put Stores');
  });
});
