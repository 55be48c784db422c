/**
 * The honest state in the running core: the shop's internet goes down (the real embedded
 * sandbox's `unreachable_ms` fault: the till's sockets are destroyed), and the status says the
 * provider cannot be reached within 30 s of the till's clock with no sale running (the idle
 * probe), then reachable again within 30 s of its return; the hub's counters read the same.
 * Real SQLite, real HTTP; only the clock is manual.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeEvent, Caller } from '#shared/bridge/contract';
import type { ProviderReachView } from '#shared/views';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { createCore, type Core } from '#main/core/create-core';
import { REACH_PROBE_EVERY_MS } from '#main/provider/reach-probe';
import { ManualScheduler } from '#support/clock';
import { setSandboxFaults } from '#support/web-till';

const counter: Caller = {
  role: 'cashier',
  name: null,
  sessionId: 'front',
  via: 'counter',
  counter: { id: 1, name: 'Front', tillId: 'till-frnt' },
};

let core: Core;
let scheduler: ManualScheduler;
let pushed: ProviderReachView[];

beforeEach(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-reach-'));
  scheduler = new ManualScheduler();
  core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test', scheduler });
  pushed = [];
  core.events.subscribe((event: BridgeEvent) => {
    if (event.type === 'provider-reach') pushed.push(event.payload);
  });
});

afterEach(async () => {
  await core.close();
});

const setFaults = (faults: Readonly<Record<string, unknown>>) =>
  setSandboxFaults(core.sandboxControlUrl() ?? '', faults);

async function reach(caller: Caller = IN_PROCESS_OWNER): Promise<ProviderReachView | undefined> {
  return (await core.handlers.getStatus({}, caller)).providerReach;
}

/** Moves the till's clock, letting each timer's work (a probe's HTTP) finish at its time. */
const advance = (ms: number) => scheduler.advance(ms, () => core.idle());

describe("the provider's reach in the status", () => {
  it('goes unreachable within 30 s of an outage with no sale running, and back within 30 s', async () => {
    expect(await reach()).toEqual({ state: 'reachable', since: null });
    // A quiet till asks the provider now and then; an answer (a 404 for the probe) is reach.
    await advance(REACH_PROBE_EVERY_MS);
    expect(await reach()).toMatchObject({ state: 'reachable' });
    expect(core.isProviderUnreachable()).toBe(false);
    expect(pushed).toEqual([]);

    await setFaults({ unreachable_ms: 60_000 });
    const lost = scheduler.now();
    await advance(30_000);
    const down = await reach();
    expect(down?.state).toBe('unreachable');
    expect(down?.since).toBeGreaterThan(lost);
    expect(down?.since).toBeLessThanOrEqual(lost + 30_000);
    expect(core.isProviderUnreachable()).toBe(true);
    expect(pushed).toEqual([down]);
    // The hub's counters read the same state.
    expect(await reach(counter)).toEqual(down);

    // Still down while the outage lasts: the probes keep failing.
    await advance(29_000);
    expect(await reach()).toEqual(down);

    await advance(1_000);
    const back = scheduler.now();
    await advance(30_000);
    const up = await reach();
    expect(up?.state).toBe('reachable');
    expect(up?.since).toBeGreaterThanOrEqual(back);
    expect(up?.since).toBeLessThanOrEqual(back + 30_000);
    expect(core.isProviderUnreachable()).toBe(false);
    expect(pushed).toEqual([down, up]);
    expect(await reach(counter)).toEqual(up);
  });

  it('a sale that cannot be created for lack of connection says so at once; an answer clears it', async () => {
    await setFaults({ unreachable_ms: 600_000 });
    const refused = await core.handlers.createSale({ amount: '1500' }, IN_PROCESS_OWNER);
    expect(refused.state).toBe('failed_to_create');
    // Told before the sale was answered: no probe was needed.
    expect(core.isProviderUnreachable()).toBe(true);
    expect((await reach())?.since).toBe(scheduler.now());

    await setFaults({ unreachable_ms: 0 });
    const sale = await core.handlers.createSale({ amount: '1500' }, IN_PROCESS_OWNER);
    expect(sale.accountNumber).toMatch(/^\d{10}$/);
    expect(core.isProviderUnreachable()).toBe(false);
  });

  it('a refusal (a 4xx answer) is not an outage', async () => {
    // The probe's own question is answered 404 (no such payment): reach, every time.
    for (let i = 0; i < 3; i += 1) await advance(REACH_PROBE_EVERY_MS);
    expect(await reach()).toMatchObject({ state: 'reachable' });
    expect((await reach())?.since).not.toBeNull();
    expect(pushed).toEqual([]);
  });
});
