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
      ['trial', true],
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
        profile: {
          baseUrl: sandbox.baseUrl,
          payoutBaseUrl: sandbox.payoutBaseUrl,
          merchantId: 'SHOP-001',
        },
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

interface SandboxAccount {
  readonly account_number: string;
  readonly external_reference: string;
  readonly type: string;
  readonly amount: number | null;
  readonly created_at_ms: number;
  readonly expires_at_ms: number | null;
  readonly merchant_id: string;
}

async function sandboxAccounts(sandbox: SandboxProvider): Promise<readonly SandboxAccount[]> {
  const answer = (await (await fetch(`${sandbox.controlUrl}/accounts`)).json()) as {
    accounts: SandboxAccount[];
  };
  return answer.accounts;
}

/** A keyed environment saved with the standalone sandbox's keys, polling only. */
async function saveKeyed(
  call: (channel: string, input?: unknown) => Promise<BridgeResult<unknown>>,
  sandbox: SandboxProvider,
  environment: 'staging' | 'production',
  overrides: { readonly secretKey?: string; readonly merchantId?: string } = {},
) {
  return call('saveConnection', {
    environment,
    profile: {
      baseUrl: sandbox.baseUrl,
      payoutBaseUrl: sandbox.payoutBaseUrl,
      merchantId: overrides.merchantId ?? 'SHOP-001',
      payoutAccountId: sandbox.payoutAccountId,
    },
    callbacks: { mode: 'polling-only' },
    secrets: {
      secretKey: overrides.secretKey ?? sandbox.secretKey,
      accessToken: sandbox.accessToken,
    },
  });
}

describe('Connect your provider: Save refuses what a sale would need', () => {
  it('refuses a blank Merchant ID at its field, in shop words, and saves nothing', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    for (const merchantId of ['', '   ']) {
      const result = await saveKeyed(call, sandbox, 'staging', { merchantId });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'INVALID_SETTINGS',
          field: 'profiles.staging.merchantId',
          message: 'Merchant ID (staging): Enter the Merchant ID your provider gave you',
        },
      });
    }
    const settings = ok<SettingsView>(await call('getSettings'));
    expect(settings.settings.profiles.staging.baseUrl).toBe('');
    const secrets = ok<{ secrets: { secretKey: { set: boolean } } }>(
      await call('getSecrets', { environment: 'staging' }),
    );
    expect(secrets.secrets.secretKey.set).toBe(false);
    // An environment not in use (no base URL) may be saved half-filled.
    ok(await call('saveConnection', { environment: 'production', profile: { merchantId: '' } }));
  });

  it('refuses the same blank Merchant ID when the profile is saved from the Environment page', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    const patch = (merchantId: string) => ({
      patch: { profiles: { production: { baseUrl: sandbox.baseUrl, merchantId } } },
    });
    expect(await call('updateSettings', patch(' '))).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_SETTINGS',
        field: 'profiles.production.merchantId',
        message: 'Merchant ID (production): Enter the Merchant ID your provider gave you',
      },
    });
    const before = ok<SettingsView>(await call('getSettings'));
    expect(before.settings.profiles.production.baseUrl).toBe('');
    ok(await call('updateSettings', patch('SHOP-001')));
    // A page that changes something else is not held up by a profile it did not touch.
    ok(await call('updateSettings', { patch: { dayCutoffHour: 4 } }));
  });

  it('refuses a missing secret key, a blank account display name and a blank merchant category at their fields', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    const noKey = await call('saveConnection', {
      environment: 'production',
      profile: { baseUrl: sandbox.baseUrl, merchantId: 'SHOP-001' },
    });
    expect(noKey).toMatchObject({
      ok: false,
      error: {
        field: 'secrets.secretKey',
        message: 'Secret key: Enter the secret key your provider gave you',
      },
    });
    for (const [field, message] of [
      ['accountName', 'Enter the name customers see on the account'],
      ['merchantCategory', 'Enter the merchant category (use "others" when unsure)'],
    ] as const) {
      const result = await call('saveConnection', {
        environment: 'production',
        profile: { baseUrl: sandbox.baseUrl, merchantId: 'SHOP-001', [field]: ' ' },
        secrets: { secretKey: sandbox.secretKey },
      });
      expect(result).toMatchObject({
        ok: false,
        error: { field: `profiles.production.${field}` },
      });
      if (!result.ok) expect(result.error.message).toContain(message);
    }
    // With a key saved once, a later Save need not repeat it.
    ok(await saveKeyed(call, sandbox, 'production'));
    ok(
      await call('saveConnection', {
        environment: 'production',
        profile: { baseUrl: sandbox.baseUrl, merchantId: 'SHOP-002' },
      }),
    );
  });
});

describe('Check everything makes a trial account, as a sale would', () => {
  it('on STAGING: a real nonstatic account for the smallest amount and 1 minute, shown by number and bank, never a sale', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    ok(await saveKeyed(call, sandbox, 'staging'));
    const check = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'staging' }));
    const trial = check.lines.find((line) => line.check === 'trial');
    const made = (await sandboxAccounts(sandbox)).filter((account) =>
      account.external_reference.includes('-TRIAL-'),
    );
    expect(made).toHaveLength(1);
    const [account] = made;
    expect(account).toMatchObject({ type: 'nonstatic', amount: 0.01, merchant_id: 'SHOP-001' });
    expect((account?.expires_at_ms ?? 0) - (account?.created_at_ms ?? 0)).toBe(60_000);
    expect(trial).toMatchObject({ ok: true });
    expect(trial?.message).toContain(`Trial account made: ${account?.account_number} at `);
    expect(check.passed).toBe(true);

    // Not a sale: the STAGING till holds no sale, no inflow and no report line for it.
    ok(await call('updateSettings', { patch: { environment: 'staging' } }));
    // The switch finishes in the background: the till answers BUSY until it has.
    await expect
      .poll(async () => (await call('getActivity')).ok, { timeout: 15_000, interval: 100 })
      .toBe(true);
    const activity = ok<{ sales: unknown[]; inflows: unknown[] }>(await call('getActivity'));
    expect(activity.sales).toEqual([]);
    expect(activity.inflows).toEqual([]);
    const report = ok<{ success: { count: number }; pending: { count: number } }>(
      await call('getZReport', {}),
    );
    expect(report.success.count).toBe(0);
    expect(report.pending.count).toBe(0);
  }, 30_000);

  it('on LIVE: made only when the owner ticks it; unticked, the line says what stays unproven', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    ok(await saveKeyed(call, sandbox, 'production'));
    const trials = async () =>
      (await sandboxAccounts(sandbox)).filter((account) =>
        account.external_reference.includes('-TRIAL-'),
      ).length;

    const unticked = ok<GoLiveCheckView>(
      await call('checkEverything', { environment: 'production' }),
    );
    expect(await trials()).toBe(0);
    const notMade = unticked.lines.find((line) => line.check === 'trial');
    expect(notMade).toMatchObject({ ok: true, notRun: true });
    expect(notMade?.message).toContain('no trial account was made');
    expect(notMade?.message).toContain('Merchant ID');
    expect(notMade?.advice).toContain('Make a trial account too (a real account nobody pays into)');

    const ticked = ok<GoLiveCheckView>(
      await call('checkEverything', { environment: 'production', trialAccount: true }),
    );
    expect(await trials()).toBe(1);
    expect(ticked.lines.find((line) => line.check === 'trial')?.message).toMatch(
      /^Trial account made: \d+ at /,
    );
  }, 30_000);

  it('a trial the provider refuses is a ✗ naming what to fix; a provider fault says check again', async () => {
    const sandbox = await standaloneSandbox();
    const { call } = await start();
    ok(await saveKeyed(call, sandbox, 'staging', { secretKey: 'sk_not_this_merchant_0000' }));
    const refused = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'staging' }));
    const trial = refused.lines.find((line) => line.check === 'trial');
    expect(trial).toMatchObject({ ok: false, advice: 'Fix it above, save, then check again.' });
    expect(trial?.message).toBe(
      "The trial account was not made. The provider has no settlement account for the shop's secret key: the key is wrong or belongs to the other environment. An owner can fix it in Settings → Connect provider.",
    );
    expect(refused.passed).toBe(false);

    ok(await saveKeyed(call, sandbox, 'staging'));
    await fetch(`${sandbox.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ error_rate: 1 }),
    });
    const fault = ok<GoLiveCheckView>(await call('checkEverything', { environment: 'staging' }));
    expect(fault.lines.find((line) => line.check === 'trial')).toMatchObject({
      ok: false,
      message:
        'The trial account was not made. The provider had a problem creating the account. Try again.',
      advice: 'Check again in a minute.',
    });
  }, 30_000);
});
