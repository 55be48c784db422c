import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent, BridgeResult } from '#shared/bridge/contract';
import type { CallbackHealthView, StatusView } from '#shared/views';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import { ManualScheduler } from '#support/clock';
import { createFakeNgrok, type FakeNgrok } from '#support/fake-ngrok';
import { IN_PROCESS_OWNER } from '#main/auth/caller';

let core: Core | undefined;
let ngrok: FakeNgrok | undefined;
afterEach(async () => {
  await core?.close();
  await ngrok?.close();
  core = undefined;
  ngrok = undefined;
});

async function start(
  options: { readonly ngrok?: FakeNgrok; readonly scheduler?: ManualScheduler } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-selftest-core-'));
  core = await createCore({
    dataDir,
    shell: 'browser',
    version: '0.0.0-test',
    ...(options.ngrok ? { tunnelDriver: options.ngrok.driver } : {}),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
  });
  const events: BridgeEvent[] = [];
  core.events.subscribe((event) => events.push(event));
  const call = (channel: string, input: unknown = {}) =>
    dispatch(core!.handlers, channel, input, () => undefined, IN_PROCESS_OWNER);
  return { core, events, call };
}

function ok<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 250; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

type Call = Awaited<ReturnType<typeof start>>['call'];

/** The health as the status shows it; undefined while the till switches environments. */
async function health(call: Call): Promise<CallbackHealthView | undefined> {
  const result = await call('getStatus');
  return result.ok ? (result.value as StatusView).callbackHealth : undefined;
}

describe('the callback self-test in the core', () => {
  it('on the sandbox profile: tested at start, on demand, and "live" once it passed', async () => {
    const { call, events } = await start();
    const atStart = await until(async () => {
      const view = await health(call);
      return view?.lastSelfTest ? view : undefined;
    });
    expect(atStart).toMatchObject({
      state: 'live',
      lastProof: { kind: 'self-test' },
      lastSelfTest: { passed: true, code: 'PASSED', trigger: 'start' },
    });

    const tested = ok<CallbackHealthView>(await call('testCallbacks'));
    expect(tested).toMatchObject({
      state: 'live',
      selfTestRunning: false,
      lastSelfTest: { passed: true, trigger: 'user' },
    });
    expect(tested.lastSelfTest?.detail).toContain('local sandbox route');
    const pushed = events.filter(
      (event): event is Extract<BridgeEvent, { type: 'callback-health' }> =>
        event.type === 'callback-health',
    );
    expect(pushed.some((event) => event.payload.selfTestRunning)).toBe(true);
    expect(pushed.at(-1)?.payload.lastSelfTest?.trigger).toBe('user');

    // The test is no payment news: nothing reached the engine or the activity.
    const activity = ok<{ inflows: unknown[]; alerts: unknown[] }>(await call('getActivity'));
    expect(activity.inflows).toHaveLength(0);
    expect(activity.alerts).toHaveLength(0);
  });

  it('a quiet till tests itself again before its proof runs out, so it stays live', async () => {
    const clock = new ManualScheduler(Date.now());
    const { call } = await start({ scheduler: clock });
    const first = await until(async () => {
      const view = await health(call);
      return view?.lastSelfTest?.passed ? view.lastSelfTest : undefined;
    });
    await clock.advance(10 * 60_000);
    expect((await health(call))?.lastSelfTest).toEqual(first); // proof still fresh: no test
    await clock.advance(10 * 60_000);
    const again = await until(async () => {
      const view = await health(call);
      return view?.lastSelfTest?.trigger === 'periodic' ? view : undefined;
    });
    expect(again).toMatchObject({ state: 'live', lastSelfTest: { passed: true } });
    await clock.advance(15 * 60_000);
    expect((await health(call))?.state).toBe('live');
  });

  it('with no callback route: off, and the test says why', async () => {
    const { call } = await start();
    ok(
      await call('updateSettings', {
        patch: { environment: 'staging', callbacks: { mode: 'polling-only' } },
      }),
    );
    const tested = await until(async () => {
      const result = await call('testCallbacks');
      return result.ok ? (result.value as CallbackHealthView) : undefined;
    });
    expect(tested).toMatchObject({
      state: 'off',
      checkEveryMs: 10_000,
      lastSelfTest: { passed: false, code: 'NO_ROUTE' },
    });
    expect(tested.lastSelfTest?.detail).toContain('No tunnel or public address');
  });

  it('through an ngrok tunnel with basic auth (fake edge): passes, and tests again when the tunnel reconnects', async () => {
    ngrok = createFakeNgrok();
    const { call } = await start({ ngrok });
    ok(await call('setSecret', { scope: 'global', name: 'ngrokAuthtoken', value: 'tok_2abcDEF' }));
    ok(
      await call('setSecret', {
        scope: 'global',
        name: 'ngrokBasicAuthPassword',
        value: 'edge-pass-8841',
      }),
    );
    ok(
      await call('updateSettings', {
        patch: {
          environment: 'staging',
          callbacks: { mode: 'ngrok', ngrokBasicAuthUser: 'shopfront' },
        },
      }),
    );
    const online = await until(async () => {
      const view = await health(call);
      return view?.lastSelfTest?.trigger === 'tunnel-online' && view.state === 'live'
        ? view
        : undefined;
    });
    expect(online.lastSelfTest?.detail).toContain('ngrok tunnel');
    expect(ngrok.connects.at(-1)?.basicAuth).toEqual({
      username: 'shopfront',
      password: 'edge-pass-8841',
    });
    expect(ngrok.requests.some((request) => request.authorization?.startsWith('Basic '))).toBe(
      true,
    );

    const before = ngrok.requests.length;
    ngrok.drop();
    await until(async () => {
      const result = await call('getStatus');
      const status = result.ok ? (result.value as StatusView) : undefined;
      return status?.callback.tunnel.state === 'online' && ngrok!.requests.length > before
        ? status
        : undefined;
    });
    const again = await until(async () => {
      const view = await health(call);
      const previous = online.lastSelfTest?.at ?? 0;
      return view?.state === 'live' && (view.lastSelfTest?.at ?? 0) > previous ? view : undefined;
    });
    expect(again.lastSelfTest).toMatchObject({ passed: true, trigger: 'tunnel-online' });
  });

  it('an allow list without the shop’s own address: the test cannot pass, and says why', async () => {
    ngrok = createFakeNgrok({ clientAddress: '203.0.113.7' });
    const { call } = await start({ ngrok });
    ok(await call('setSecret', { scope: 'global', name: 'ngrokAuthtoken', value: 'tok_2abcDEF' }));
    ok(
      await call('updateSettings', {
        patch: {
          environment: 'staging',
          callbacks: { mode: 'ngrok', ngrokAllowCidrs: ['102.89.0.0/16'] },
        },
      }),
    );
    const view = await until(async () => {
      const current = await health(call);
      return current?.lastSelfTest?.code === 'ALLOW_LIST_REFUSED' ? current : undefined;
    });
    expect(view.state).toBe('unproven');
    expect(view.action).toContain("provider's addresses");
  });
});
