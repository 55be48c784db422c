/**
 * A saved provider key goes only to the origin it was entered for. A real core (real SQLite,
 * real secrets file) with LIVE keys of a standalone sandbox provider (plain http on this
 * computer); "another host" is a recording server that would answer anything.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityView, BridgeResult } from '#shared/bridge/contract';
import type { ConnectionCheckView, SecretsView } from '#shared/views';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createCore } from '#main/core/create-core';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { startScriptedServer, type ScriptedServer } from '#support/scripted-server';

const LIVE_KEY = 'sk_live_3f9a0c71d2b84e56aa7Q';
const LIVE_TOKEN = 'at_live_7e21c0b9f4d35a86bb1Z';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(keys: { secretKey?: string; accessToken?: string } = {}) {
  const provider = await startSandboxProvider({ onError: () => undefined, ...keys });
  cleanups.push(() => provider.close());
  return provider;
}

/** A host that records what it is sent and answers every request with an empty 200. */
async function recorder(): Promise<ScriptedServer> {
  const server = await startScriptedServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  cleanups.push(() => server.close());
  return server;
}

/** Requests that carried either LIVE key, anywhere (path, headers or body). */
function carryingKeys(server: ScriptedServer): readonly string[] {
  return server.requests
    .map((request) => JSON.stringify([request.url, request.headers, request.body]))
    .filter((text) => text.includes(LIVE_KEY) || text.includes(LIVE_TOKEN));
}

async function start() {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-key-binding-'));
  const lines: string[] = [];
  const core = await createCore({
    dataDir,
    shell: 'browser',
    version: '0.0.0-test',
    logMirror: { write: (line: string) => lines.push(line) },
  });
  cleanups.push(() => core.close());
  const call = (channel: string, input: unknown = {}) =>
    dispatch(core.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);
  return { core, call, lines };
}

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

type Call = (channel: string, input?: unknown) => Promise<BridgeResult<unknown>>;

/** The LIVE profile aimed at `provider`, with the LIVE keys entered for it. */
async function connectLive(call: Call, provider: SandboxProvider): Promise<void> {
  ok(
    await call('saveConnection', {
      environment: 'production',
      profile: {
        baseUrl: provider.baseUrl,
        payoutBaseUrl: provider.payoutBaseUrl,
        merchantId: 'SHOP-001',
        payoutAccountId: provider.payoutAccountId,
      },
      callbacks: { mode: 'polling-only' },
      secrets: { secretKey: LIVE_KEY, accessToken: LIVE_TOKEN },
    }),
  );
}

/** `url` with its origin replaced by `origin` (the path kept). */
function moved(url: string, origin: string): string {
  const parsed = new URL(url);
  return `${origin}${parsed.pathname}`;
}

async function checksOf(call: Call): Promise<readonly ConnectionCheckView[]> {
  return ok(await call('testConnection', { environment: 'production' }));
}

describe('a saved key goes only to the origin it was entered for', () => {
  it('re-aimed at another host: nothing carrying the keys reaches it, and the error says why', async () => {
    const provider = await sandbox({ secretKey: LIVE_KEY, accessToken: LIVE_TOKEN });
    const elsewhere = await recorder();
    const { call } = await start();
    await connectLive(call, provider);
    expect((await checksOf(call)).map((check) => check.ok)).toEqual([true, true]);

    ok(
      await call('updateSettings', {
        patch: {
          profiles: {
            production: {
              baseUrl: moved(provider.baseUrl, elsewhere.url),
              payoutBaseUrl: moved(provider.payoutBaseUrl, elsewhere.url),
            },
          },
        },
      }),
    );
    const providerOrigin = new URL(provider.baseUrl).origin;
    const checks = await checksOf(call);
    expect(carryingKeys(elsewhere)).toEqual([]);
    expect(checks.map((check) => [check.ok, check.code])).toEqual([
      [false, 'KEYS_ENTERED_ELSEWHERE'],
      [false, 'KEYS_ENTERED_ELSEWHERE'],
    ]);
    expect(checks[0]?.message).toBe(
      `The LIVE secret key was entered for ${providerOrigin}; the Base URL now points to ${elsewhere.url}. Enter the keys again in Settings → Connect provider.`,
    );

    // Selling on LIVE: refused with the same words before anything is sent.
    ok(await call('updateSettings', { patch: { environment: 'production' } }));
    await expect
      .poll(async () => {
        const sale = await call('createSale', { amount: '1,500' });
        return sale.ok ? 'made' : sale.error.code;
      })
      .toBe('KEYS_ENTERED_ELSEWHERE');
    const balance = await call('getBalance');
    expect(balance).toMatchObject({ ok: false, error: { code: 'KEYS_ENTERED_ELSEWHERE' } });
    expect(carryingKeys(elsewhere)).toEqual([]);

    const secrets = ok<SecretsView>(await call('getSecrets', { environment: 'production' }));
    expect(secrets.secrets.secretKey).toMatchObject({ set: true, boundOrigin: providerOrigin });
    expect(secrets.secrets.secretKey.problem).toContain('Enter the keys again');
  }, 30_000);

  it('a new path at the same origin keeps the keys', async () => {
    const provider = await recorder();
    const { call } = await start();
    ok(
      await call('saveConnection', {
        environment: 'production',
        profile: {
          baseUrl: `${provider.url}/v1`,
          payoutBaseUrl: `${provider.url}/v1`,
          merchantId: 'SHOP-001',
        },
        secrets: { secretKey: LIVE_KEY, accessToken: LIVE_TOKEN },
      }),
    );
    ok(
      await call('updateSettings', {
        patch: { profiles: { production: { baseUrl: `${provider.url}/v2` } } },
      }),
    );
    const checks = await checksOf(call);
    expect(checks.map((check) => check.code)).not.toContain('KEYS_ENTERED_ELSEWHERE');
    const atNewPath = provider.requests.filter((request) => request.path.startsWith('/v2/'));
    expect(atNewPath.map((request) => JSON.stringify(request)).join()).toContain(LIVE_KEY);
  });

  it('entered again, the keys work at the new origin', async () => {
    const first = await sandbox({ secretKey: LIVE_KEY, accessToken: LIVE_TOKEN });
    const second = await sandbox({ secretKey: LIVE_KEY, accessToken: LIVE_TOKEN });
    const { call } = await start();
    await connectLive(call, first);
    ok(
      await call('updateSettings', {
        patch: {
          profiles: {
            production: {
              baseUrl: second.baseUrl,
              payoutBaseUrl: second.payoutBaseUrl,
              payoutAccountId: second.payoutAccountId,
            },
          },
        },
      }),
    );
    expect((await checksOf(call)).map((check) => check.code)).toEqual([
      'KEYS_ENTERED_ELSEWHERE',
      'KEYS_ENTERED_ELSEWHERE',
    ]);
    ok(await call('setSecret', { scope: 'production', name: 'secretKey', value: LIVE_KEY }));
    const [transactions, balance] = await checksOf(call);
    expect(transactions?.ok).toBe(true);
    expect(balance).toMatchObject({ ok: false, code: 'KEYS_ENTERED_ELSEWHERE' });
    expect(balance?.message).toContain(
      `The LIVE payout access token was entered for ${new URL(first.payoutBaseUrl).origin}; the Payout base URL now points to ${new URL(second.payoutBaseUrl).origin}.`,
    );
    ok(await call('setSecret', { scope: 'production', name: 'accessToken', value: LIVE_TOKEN }));
    expect((await checksOf(call)).map((check) => check.ok)).toEqual([true, true]);
  });
});

describe('every change of a key or of its address is told to the owner, never the value', () => {
  it('raises one alert per change and logs what changed without the key or the address', async () => {
    const provider = await sandbox({ secretKey: LIVE_KEY, accessToken: LIVE_TOKEN });
    const elsewhere = await recorder();
    const { call, lines } = await start();
    await connectLive(call, provider);
    for (const origin of [elsewhere.url, new URL(provider.baseUrl).origin]) {
      ok(
        await call('updateSettings', {
          patch: { profiles: { production: { baseUrl: moved(provider.baseUrl, origin) } } },
        }),
      );
    }
    ok(await call('setSecret', { scope: 'production', name: 'secretKey', value: LIVE_KEY }));

    const alerts = ok<ActivityView>(await call('getActivity')).alerts;
    const messages = alerts.map((alert) => alert.message);
    // saveConnection entered two keys and one address; then two address changes, one key.
    expect(messages.filter((text) => text.startsWith('LIVE keys changed:'))).toHaveLength(3);
    expect(messages.filter((text) => text.startsWith('LIVE address changed:'))).toHaveLength(3);
    expect(messages).toContain(
      `LIVE address changed: the Base URL now points to ${elsewhere.url}. Saved keys go only to the address they were entered for; if nobody at the shop did this, check Settings → Connect provider.`,
    );
    for (const text of messages) {
      expect(text).not.toContain(LIVE_KEY.slice(-4));
    }

    const told = lines.filter((line) => /LIVE (keys|address) changed/.test(line));
    expect(told).toHaveLength(6);
    for (const line of told) {
      expect(line).not.toContain(LIVE_KEY);
      expect(line).not.toContain(LIVE_TOKEN);
      expect(line).not.toContain(LIVE_KEY.slice(-4));
      expect(line).not.toContain('[redacted]');
      expect(line).not.toContain(elsewhere.url);
    }
    expect(lines.join('\n')).not.toContain(LIVE_KEY);
  });
});
