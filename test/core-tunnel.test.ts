import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent, BridgeResult } from '#shared/bridge/contract';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import type { StatusView } from '#shared/views';
import { createFakeNgrok, type FakeNgrok } from '#support/fake-ngrok';
import { IN_PROCESS_OWNER } from '#main/auth/caller';

// The ngrok network cannot be reached here (and is the true edge of the system), so this test
// fakes the tunnel driver with a local edge over real HTTP; everything else is the real core.
let core: Core | undefined;
let ngrok: FakeNgrok | undefined;
afterEach(async () => {
  await core?.close();
  await ngrok?.close();
});

async function until<T>(probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 250; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

describe('the core with an ngrok tunnel (fake driver)', () => {
  it('starts the tunnel with the stored authtoken, domain, allow list and basic auth, and gives its URL to the provider', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-tunnel-'));
    ngrok = createFakeNgrok({ clientAddress: '102.89.3.4' });
    const edge = ngrok;
    core = await createCore({
      dataDir,
      shell: 'browser',
      version: '0.0.0-test',
      tunnelDriver: ngrok.driver,
    });
    const events: BridgeEvent[] = [];
    core.events.subscribe((event) => events.push(event));
    const call = (channel: string, input: unknown = {}): Promise<BridgeResult<unknown>> =>
      dispatch(core!.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);

    const authtoken = '2abcDEFghiJKLmnoPQRstu_9XyZ';
    const password = 'edge-pass-8841';
    expect(
      (await call('setSecret', { scope: 'global', name: 'ngrokAuthtoken', value: authtoken })).ok,
    ).toBe(true);
    expect(
      (
        await call('setSecret', {
          scope: 'global',
          name: 'ngrokBasicAuthPassword',
          value: password,
        })
      ).ok,
    ).toBe(true);
    const updated = await call('updateSettings', {
      patch: {
        environment: 'staging',
        callbacks: {
          mode: 'ngrok',
          ngrokDomain: 'mama-put.ngrok.app',
          ngrokAllowCidrs: ['102.89.0.0/16'],
          ngrokBasicAuthUser: 'shopfront',
        },
      },
    });
    expect(updated.ok).toBe(true);

    const options = await until(() => edge.connects.at(-1));
    expect(options).toMatchObject({
      authtoken,
      domain: 'mama-put.ngrok.app',
      allowCidrs: ['102.89.0.0/16'],
      basicAuth: { username: 'shopfront', password },
    });
    expect(options.localPort).toBeGreaterThan(0);

    const view = await until(async () => {
      const result = await call('getSettings');
      const value = result.ok ? (result.value as { callbackUrl: string | null }) : undefined;
      return value?.callbackUrl ? value : undefined;
    });
    const edgeUrl = edge.url() ?? '';
    expect(view.callbackUrl?.startsWith(`${edgeUrl}/callbacks/`)).toBe(true);
    expect(view.callbackUrl).toMatch(/\/callbacks\/[A-Za-z0-9_-]{43}$/);
    expect(events).toContainEqual({ type: 'tunnel', payload: { state: 'online', url: edgeUrl } });
    // The self-test went through the edge with the basic-auth credentials and came back.
    const status = await until(async () => {
      const result = await call('getStatus');
      const value = result.ok ? (result.value as StatusView) : undefined;
      return value?.callbackHealth.state === 'live' ? result : undefined;
    });
    expect(status).toMatchObject({
      ok: true,
      value: {
        environment: 'staging',
        callback: { mode: 'tunnel', live: true },
        callbackHealth: { lastSelfTest: { passed: true, trigger: 'tunnel-online' } },
      },
    });

    // Neither secret reached the log or a status answer.
    const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8');
    expect(log).not.toContain(authtoken);
    expect(log).not.toContain(password);
    expect(JSON.stringify([events, status, view])).not.toContain(password);
  });
});
