/**
 * Settings that take effect when saved, and the go-live flow's one Save and "Check everything",
 * on a real core (real SQLite, real listener) against a real sandbox provider run apart from the
 * till, used with its keys as STAGING keys (plain http on this computer).
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeResult } from '#shared/bridge/contract';
import type { ConnectionSavedView, GoLiveCheckView } from '#shared/go-live';
import type { SettingsView } from '#shared/views';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { ManualScheduler } from '#support/clock';
import { createFakeNgrok, type FakeNgrok } from '#support/fake-ngrok';
import { freePort } from '#support/free-port';
import { sandboxTransfer } from '#support/web-till';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(scheduler?: ManualScheduler, ngrok?: FakeNgrok) {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-settings-live-'));
  const core: Core = await createCore({
    dataDir,
    shell: 'browser',
    version: '0.0.0-test',
    ...(scheduler ? { scheduler } : {}),
    ...(ngrok ? { tunnelDriver: ngrok.driver } : {}),
  });
  cleanups.push(() => core.close());
  const call = (channel: string, input: unknown = {}) =>
    dispatch(core.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);
  return { core, call };
}

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/** Whether something accepts connections on 127.0.0.1:port. */
async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(3_000) });
    return true;
  } catch {
    return false;
  }
}

async function holdPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => server.close(done)));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

async function standaloneSandbox(): Promise<SandboxProvider> {
  const sandbox = await startSandboxProvider({ onError: () => undefined });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

describe('the listener port applies when saved', () => {
  it('moves the listener at once, and the callback route and self-test follow', async () => {
    const { call } = await start();
    const before = ok<SettingsView>(await call('getSettings'));
    const oldPort = Number(new URL(before.callbackUrl ?? '').port);
    const port = await freePort();
    const saved = ok<SettingsView>(
      await call('updateSettings', { patch: { callbacks: { listenerPort: port } } }),
    );
    expect(new URL(saved.callbackUrl ?? '').port).toBe(String(port));
    expect(await listening(port)).toBe(true);
    expect(await listening(oldPort)).toBe(false);
    const check = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'sandbox' }));
    expect(check.lines.find((line) => line.check === 'callbacks')).toMatchObject({ ok: true });
  });

  it('an open sale keeps its watch: paid after the move although its callback went to the old port', async () => {
    const { core, call } = await start();
    const sale = ok<{ id: number; accountNumber: string }>(
      await call('createSale', { amount: '1,200' }),
    );
    ok(await call('updateSettings', { patch: { callbacks: { listenerPort: await freePort() } } }));
    const controlUrl = core.sandboxControlUrl();
    if (!controlUrl) throw new Error('no embedded sandbox');
    await sandboxTransfer(controlUrl, sale.accountNumber, 1200);
    await expect
      .poll(async () => ok<{ state: string }>(await call('getSale', { saleId: sale.id })).state, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('paid');
  }, 40_000);

  it('refuses a port another program holds, by field, and keeps listening where it was', async () => {
    const { call } = await start();
    const before = ok<SettingsView>(await call('getSettings'));
    const taken = await holdPort();
    const result = await call('updateSettings', { patch: { callbacks: { listenerPort: taken } } });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_SETTINGS', field: 'callbacks.listenerPort' },
    });
    if (result.ok) return;
    expect(result.error.message).toContain(`Port ${taken} cannot be used`);
    const after = ok<SettingsView>(await call('getSettings'));
    expect(after.settings.callbacks.listenerPort).toBe(before.settings.callbacks.listenerPort);
    expect(after.callbackUrl).toBe(before.callbackUrl);
    expect(await listening(Number(new URL(after.callbackUrl ?? '').port))).toBe(true);
  });
});

describe('the ngrok tunnel follows the settings it uses, and only those (fake ngrok edge)', () => {
  it('reconnects to a new listener port, and a save of the shop name leaves it connected', async () => {
    const ngrok = createFakeNgrok();
    cleanups.push(() => ngrok.close());
    const { call } = await start(undefined, ngrok);
    ok(
      await call('setSecret', {
        scope: 'global',
        name: 'ngrokAuthtoken',
        value: '2abcDEFghiJKLmnoPQRstu_9XyZ',
      }),
    );
    ok(
      await call('updateSettings', {
        patch: { environment: 'staging', callbacks: { mode: 'ngrok' } },
      }),
    );
    await expect.poll(() => ngrok.connects.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const connectsBefore = ngrok.connects.length;
    ok(await call('updateSettings', { patch: { shop: { name: 'Mama Put Annex' } } }));
    await new Promise((done) => setTimeout(done, 300));
    expect(ngrok.connects.length).toBe(connectsBefore);
    const port = await freePort();
    ok(await call('updateSettings', { patch: { callbacks: { listenerPort: port } } }));
    await expect.poll(() => ngrok.connects.at(-1)?.localPort, { timeout: 10_000 }).toBe(port);
  });
});

describe('other settings that apply when saved', () => {
  it('a new sync interval reschedules the syncs at once', async () => {
    const clock = new ManualScheduler();
    const { core, call } = await start(clock);
    const settle = () => core.idle();
    type Run = { startedAt: number; trigger: string; status: string };
    const lastRun = async () =>
      ok<{ lastSync: Run | null }>(await call('getStatus')).lastSync ?? null;
    const finished = async () => {
      await expect
        .poll(async () => (await lastRun())?.status, { timeout: 10_000 })
        .not.toBe('running');
      return lastRun();
    };
    ok(await call('updateSettings', { patch: { sync: { intervalMinutes: 0 } } }));
    const before = await finished();
    await clock.advance(20 * 60_000, settle);
    expect((await finished())?.startedAt).toBe(before?.startedAt);
    const saved = clock.now();
    ok(await call('updateSettings', { patch: { sync: { intervalMinutes: 2 } } }));
    // At once: a run now, then one every 2 minutes.
    expect((await finished())?.startedAt).toBeGreaterThanOrEqual(saved);
    await clock.advance(2 * 60_000 + 1_000, settle);
    await expect.poll(async () => (await lastRun())?.trigger, { timeout: 10_000 }).toBe('schedule');
  });

  it('a new time zone names the next sale at once (no restart)', async () => {
    const clock = new ManualScheduler(Date.UTC(2026, 10, 22, 23, 30, 0));
    const { call } = await start(clock);
    const reference = async () => {
      const sale = ok<{ reference: string }>(await call('createSale', { amount: '100' }));
      return sale.reference;
    };
    // 23:30 UTC is 00:30 the next day in Lagos, and still the 22nd in UTC.
    expect(await reference()).toContain('20261123003');
    ok(await call('updateSettings', { patch: { timeZone: 'UTC' } }));
    await expect.poll(reference, { timeout: 10_000 }).toContain('20261122233');
  });
});

describe("the shop's own callback URL follows the one URL rule", () => {
  it('takes plain http on this computer and refuses it elsewhere', async () => {
    const { call } = await start();
    const local = await call('updateSettings', {
      patch: { callbacks: { mode: 'public-url', publicUrl: 'http://127.0.0.1:4555' } },
    });
    expect(local.ok).toBe(true);
    const remote = await call('updateSettings', {
      patch: { callbacks: { mode: 'public-url', publicUrl: 'http://shop.example.com' } },
    });
    expect(remote).toMatchObject({ ok: false, error: { field: 'callbacks.publicUrl' } });
    if (!remote.ok) expect(remote.error.message).toContain('plain http:// is allowed only to');
  });
});

describe('Connect your provider: one Save, one "Check everything"', () => {
  it('connects STAGING to a standalone sandbox, callbacks included, without a restart', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    const port = await freePort();
    const saved = ok<ConnectionSavedView>(
      await call('saveConnection', {
        environment: 'staging',
        profile: {
          baseUrl: sandbox.baseUrl,
          payoutBaseUrl: sandbox.payoutBaseUrl,
          merchantId: 'SHOP-001',
          merchantCategory: 'retail',
          payoutAccountId: sandbox.payoutAccountId,
        },
        callbacks: {
          mode: 'public-url',
          publicUrl: `http://127.0.0.1:${port}`,
          listenerPort: port,
        },
        secrets: { secretKey: sandbox.secretKey, accessToken: sandbox.accessToken },
      }),
    );
    expect(saved.listenerMoved).toBe(true);
    expect(saved.secrets.secrets.secretKey).toMatchObject({ set: true });
    expect(JSON.stringify(saved)).not.toContain(sandbox.secretKey);
    expect(JSON.stringify(saved)).not.toContain(sandbox.accessToken);
    const check = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'staging' }));
    expect(check.lines.map((line) => [line.check, line.ok])).toEqual([
      ['connection', true],
      ['balance', true],
      ['callbacks', true],
    ]);
    expect(check.passed).toBe(true);
  });

  it('saves nothing when one part is wrong, and names the part', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    const result = await call('saveConnection', {
      environment: 'staging',
      profile: { baseUrl: sandbox.baseUrl },
      secrets: { secretKey: 'short' },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_SECRET' } });
    const settings = ok<SettingsView>(await call('getSettings'));
    expect(settings.settings.profiles.staging.baseUrl).toBe('');
    const badUrl = await call('saveConnection', {
      environment: 'staging',
      profile: { baseUrl: 'http://provider.example.com' },
      secrets: { secretKey: sandbox.secretKey },
    });
    expect(badUrl).toMatchObject({ ok: false, error: { field: 'profiles.staging.baseUrl' } });
    const secrets = ok<{ secrets: { secretKey: { set: boolean } } }>(
      await call('getSecrets', { environment: 'staging' }),
    );
    expect(secrets.secrets.secretKey.set).toBe(false);
  });

  it('names the real cause when the address points at a port nothing listens on', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    const dead = await freePort();
    ok(
      await call('saveConnection', {
        environment: 'staging',
        profile: { baseUrl: sandbox.baseUrl, payoutBaseUrl: sandbox.payoutBaseUrl },
        callbacks: { mode: 'public-url', publicUrl: `http://127.0.0.1:${dead}` },
        secrets: { secretKey: sandbox.secretKey },
      }),
    );
    const check = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'staging' }));
    const callbacks = check.lines.find((line) => line.check === 'callbacks');
    expect(callbacks?.ok).toBe(false);
    expect(callbacks?.advice).toMatch(
      new RegExp(
        `points at port ${dead} of this computer, but the till's listener is on port \\d+`,
      ),
    );
    expect(check.passed).toBe(false);
  });
});
