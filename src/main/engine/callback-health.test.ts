import { describe, expect, it } from 'vitest';
import type { CallbackHealthView, CallbackSelfTestView } from '#shared/views';
import type { CallbackRoute } from '#main/tunnel/callback-url';
import { createCallbackHealth, type CallbackHealthOptions } from './callback-health';
import { ManualScheduler } from '#support/clock';

const TUNNEL: CallbackRoute = {
  mode: 'tunnel',
  callbackUrl: 'https://mama-put.ngrok.app/callbacks/tok-aaaaaaaaaaaaaaaaaaaaaa',
};
const SESSION = '100004261122090000123456789012';

/** A monitor that has watched its route for an hour (payments settled since then count). */
async function setup(
  overrides: Partial<CallbackHealthOptions> = {},
  start: CallbackRoute = TUNNEL,
) {
  const clock = new ManualScheduler();
  let route = start;
  const health = createCallbackHealth({
    now: () => clock.now(),
    setTimer: (ms, fn) => clock.setTimer(ms, fn),
    route: () => route,
    ...overrides,
  });
  const views: CallbackHealthView[] = [];
  health.subscribe((view) => views.push(view));
  await clock.advance(60 * 60_000);
  return {
    clock,
    health,
    views,
    setRoute: (next: CallbackRoute) => {
      route = next;
    },
    selfTest(passed: boolean, code: CallbackSelfTestView['code'] = passed ? 'PASSED' : 'TIMEOUT') {
      health.selfTestStarted();
      health.selfTestFinished({
        at: clock.now(),
        passed,
        code,
        detail: `detail of ${code}`,
        action: passed ? null : `action for ${code}`,
        durationMs: 5,
        trigger: 'user',
      });
    },
  };
}

function found(
  t: Awaited<ReturnType<typeof setup>>,
  settledAgoMs: number | null,
  sessionId = SESSION,
) {
  t.health.paymentFoundByCheck({
    saleId: 7,
    reference: 'TT-0007',
    sessionId,
    settledAt: settledAgoMs === null ? null : t.clock.now() - settledAgoMs,
    foundAt: t.clock.now(),
  });
}

describe('callback health', () => {
  it('is off, and degraded, without a callback route; the view says why', async () => {
    const t = await setup({}, { mode: 'polling-only', reason: 'The ngrok tunnel is off: polling' });
    expect(t.health.state()).toBe('off');
    expect(t.health.degraded()).toBe(true);
    expect(t.health.view()).toMatchObject({
      state: 'off',
      cause: 'The ngrok tunnel is off: polling',
      checkEveryMs: 10_000,
    });
    // A callback-less payment on a polling-only till is no news.
    found(t, 60_000);
    t.health.callbackReceived({ at: t.clock.now() });
    expect(t.health.state()).toBe('off');
  });

  it('is unproven until a self-test passes, live for liveForMs, then unproven again by itself', async () => {
    const t = await setup({ liveForMs: 60_000 });
    expect(t.health.state()).toBe('unproven');
    expect(t.health.degraded()).toBe(false);
    t.selfTest(true);
    expect(t.health.view()).toMatchObject({
      state: 'live',
      cause: null,
      lastProof: { kind: 'self-test' },
      lastSelfTest: { passed: true, code: 'PASSED' },
      selfTestRunning: false,
    });
    await t.clock.advance(59_999);
    expect(t.health.state()).toBe('live');
    await t.clock.advance(1);
    // The subscribers heard of the expiry without anyone asking.
    expect(t.views.at(-1)).toMatchObject({ state: 'unproven', since: t.clock.now() });
    expect(t.views.at(-1)?.cause).toContain('in the last 1 minutes');
  });

  it('tells subscribers that a self-test is running, and only of changes', async () => {
    const t = await setup();
    t.health.selfTestStarted();
    expect(t.views.at(-1)).toMatchObject({ state: 'unproven', selfTestRunning: true });
    const before = t.views.length;
    t.health.refresh();
    expect(t.views).toHaveLength(before);
  });

  it('a real callback proves the route', async () => {
    const t = await setup();
    t.health.callbackReceived({ at: t.clock.now(), reference: 'TT-1', sessionId: SESSION });
    expect(t.health.view()).toMatchObject({ state: 'live', lastProof: { kind: 'callback' } });
  });

  it('raises no alarm when a check finds the payment before its callback could come', async () => {
    const t = await setup();
    t.selfTest(true);
    found(t, 1_000);
    await t.clock.advance(15_000);
    t.health.callbackReceived({ at: t.clock.now(), reference: 'TT-0007', sessionId: SESSION });
    await t.clock.advance(60_000);
    expect(t.health.state()).toBe('live');
    expect(t.views.some((view) => view.state === 'not_reaching')).toBe(false);
  });

  it('says not_reaching only once the window after settlement has passed without the callback', async () => {
    const t = await setup();
    t.selfTest(true);
    found(t, 5_000); // settled 5 s ago: its callback is due within 15 s more
    await t.clock.advance(14_999);
    expect(t.health.state()).toBe('live');
    await t.clock.advance(1);
    const view = t.health.view();
    expect(view).toMatchObject({
      state: 'not_reaching',
      missedSaleId: 7,
      checkEveryMs: 10_000,
      since: t.clock.now(),
    });
    expect(t.health.degraded()).toBe(true);
    expect(view.cause).toContain('sale #7');
    // A self-test passed earlier: the tunnel answers, so the provider is the likely cause.
    expect(view.cause).toContain('self-test passed');
    expect(view.action).toContain('allow list');
    expect(t.views.at(-1)?.state).toBe('not_reaching');

    // Callbacks seen again: live at once.
    t.health.callbackReceived({
      at: t.clock.now(),
      reference: 'TT-0008',
      sessionId: '1'.repeat(30),
    });
    expect(t.health.view()).toMatchObject({ state: 'live', missedSaleId: null });
    expect(t.health.degraded()).toBe(false);
  });

  it('waits at least the grace after a check, however long ago the payment settled', async () => {
    const t = await setup({ graceMs: 2_000 });
    found(t, 10 * 60_000);
    await t.clock.advance(1_999);
    expect(t.health.state()).toBe('unproven');
    await t.clock.advance(1);
    expect(t.health.state()).toBe('not_reaching');
  });

  it('uses the time found when the provider gave no settlement time', async () => {
    const t = await setup();
    found(t, null);
    await t.clock.advance(19_999);
    expect(t.health.state()).toBe('unproven');
    await t.clock.advance(1);
    expect(t.health.state()).toBe('not_reaching');
  });

  it('counts a callback that came before the check, by session id or by reference in the window', async () => {
    const t = await setup();
    t.health.callbackReceived({ at: t.clock.now(), sessionId: SESSION });
    await t.clock.advance(5_000);
    found(t, 5_000);
    t.health.callbackReceived({ at: t.clock.now(), reference: 'TT-0009' });
    found(t, 0, '2'.repeat(30));
    t.health.paymentFoundByCheck({
      saleId: 9,
      reference: 'TT-0009',
      sessionId: '3'.repeat(30),
      settledAt: t.clock.now(),
      foundAt: t.clock.now(),
    });
    await t.clock.advance(60_000);
    // TT-0007's second payment ('2…') had no callback: only it is missed.
    expect(t.health.view()).toMatchObject({ state: 'not_reaching', missedSaleId: 7 });
  });

  it('does not let an old callback of the same reference cover a new payment', async () => {
    const t = await setup();
    t.health.callbackReceived({ at: t.clock.now(), reference: 'TT-0007' });
    await t.clock.advance(5 * 60_000);
    found(t, 1_000);
    await t.clock.advance(30_000);
    expect(t.health.state()).toBe('not_reaching');
  });

  it('counts a callback without ids in the window: the route works', async () => {
    const t = await setup();
    found(t, 1_000);
    await t.clock.advance(3_000);
    t.health.callbackReceived({ at: t.clock.now() });
    await t.clock.advance(60_000);
    expect(t.health.state()).toBe('live');
  });

  it('a failed self-test means not_reaching with its words; a passed one clears it', async () => {
    const t = await setup();
    t.selfTest(true);
    t.selfTest(false, 'BASIC_AUTH_REJECTED');
    const view = t.health.view();
    expect(view).toMatchObject({
      state: 'not_reaching',
      lastSelfTest: { code: 'BASIC_AUTH_REJECTED' },
    });
    expect(view.cause).toContain('detail of BASIC_AUTH_REJECTED');
    expect(view.action).toBe('action for BASIC_AUTH_REJECTED');
    t.selfTest(true);
    expect(t.health.state()).toBe('live');
  });

  it('a passed self-test does not clear a missed callback: only callbacks do', async () => {
    const t = await setup();
    found(t, 1_000);
    await t.clock.advance(30_000);
    expect(t.health.state()).toBe('not_reaching');
    t.selfTest(true);
    expect(t.health.state()).toBe('not_reaching');
    expect(t.health.view().cause).toContain('self-test passed');
  });

  it('an allow list that keeps the till itself out is inconclusive, not a failure', async () => {
    const t = await setup();
    t.selfTest(false, 'ALLOW_LIST_REFUSED');
    const view = t.health.view();
    expect(view.state).toBe('unproven');
    expect(view.cause).toBe('detail of ALLOW_LIST_REFUSED');
    expect(view.action).toBe('action for ALLOW_LIST_REFUSED');
  });

  it('a new address forgets earlier proofs, problems and pending windows', async () => {
    const t = await setup();
    t.selfTest(false, 'TIMEOUT');
    expect(t.health.state()).toBe('not_reaching');
    found(t, 1_000);
    t.setRoute({ mode: 'tunnel', callbackUrl: 'https://other.ngrok.app/callbacks/tok-b' });
    t.health.refresh();
    expect(t.views.at(-1)?.state).toBe('unproven');
    await t.clock.advance(60_000);
    expect(t.health.state()).toBe('unproven');
    // A payment that settled before this address existed was never coming here.
    t.health.paymentFoundByCheck({
      saleId: 3,
      reference: 'TT-0003',
      sessionId: '4'.repeat(30),
      settledAt: t.clock.now() - 61_000,
      foundAt: t.clock.now(),
    });
    await t.clock.advance(60_000);
    expect(t.health.state()).toBe('unproven');
  });

  it('watches a payment whose provider date (whole seconds) is the second the address began', async () => {
    const t = await setup();
    t.setRoute({ mode: 'tunnel', callbackUrl: 'https://other.ngrok.app/callbacks/tok-b' });
    await t.clock.advance(400);
    t.health.refresh(); // the new address is seen 400 ms into a second
    const began = t.clock.now();
    await t.clock.advance(300);
    const foundWithDate = (saleId: number, settledAt: number) =>
      t.health.paymentFoundByCheck({
        saleId,
        reference: `TT-000${saleId}`,
        sessionId: String(saleId).repeat(30),
        settledAt,
        foundAt: t.clock.now(),
      });
    // The date of a second that ended before the address began: its callback went elsewhere.
    foundWithDate(6, began - 1_400);
    await t.clock.advance(60_000);
    expect(t.health.state()).toBe('unproven');
    // Settled 300 ms after the address began: its date says the start of that same second.
    foundWithDate(5, began - 400);
    await t.clock.advance(60_000);
    expect(t.health.state()).toBe('not_reaching');
  });

  it('keeps a proof when only the token of the address rotates', async () => {
    const t = await setup();
    t.selfTest(true);
    t.setRoute({ mode: 'tunnel', callbackUrl: 'https://mama-put.ngrok.app/callbacks/tok-new' });
    expect(t.health.state()).toBe('live');
  });

  it('ignores a self-test of an address the till no longer uses', async () => {
    const t = await setup();
    t.health.selfTestStarted();
    t.setRoute({ mode: 'public-url', callbackUrl: 'https://shop.example/callbacks/tok' });
    t.health.selfTestFinished({
      at: t.clock.now(),
      passed: true,
      code: 'PASSED',
      detail: 'ok',
      action: null,
      durationMs: 1,
      trigger: 'start',
    });
    expect(t.health.view()).toMatchObject({ state: 'unproven', lastSelfTest: { passed: true } });
  });

  it('stops timers and listeners on close', async () => {
    const t = await setup();
    found(t, 1_000);
    t.health.close();
    const seen = t.views.length;
    await t.clock.advance(60_000);
    t.health.callbackReceived({ at: t.clock.now() });
    expect(t.views).toHaveLength(seen);
    expect(t.clock.pending()).toBe(0);
  });
});
