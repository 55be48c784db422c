import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeShellHttp } from '#support/renderer/fake-shell-http';
import { createHttpBridge, memorySlot } from '../bridge/http-bridge';
import { BridgeProvider } from '../bridge-context';
import { ClockNotice, describeOffset } from './clock-notice';
import { Countdown } from './countdown';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A page of the browser shell whose device clock is `deviceAhead` ms ahead of the service. */
async function pageWithClockOff(deviceAhead: number, expiresIn: number) {
  const shell = createFakeShellHttp();
  const bridge = createHttpBridge('tok', shell.fetch, memorySlot());
  const unsubscribe = bridge.subscribe(() => undefined); // opens the event stream
  const serverNow = Date.now();
  vi.setSystemTime(serverNow + deviceAhead);
  render(
    <BridgeProvider bridge={bridge}>
      <ClockNotice />
      <Countdown expiresAt={serverNow + expiresIn} />
    </BridgeProvider>,
  );
  await act(() => vi.advanceTimersByTimeAsync(0));
  shell
    .latest()
    .push(
      `event: ready\nid: b.0\ndata: ${JSON.stringify({ resync: false, serverTime: serverNow })}\n\n`,
    );
  await act(() => vi.advanceTimersByTimeAsync(1_000));
  return unsubscribe;
}

describe("countdowns on the till service's clock", () => {
  it('shows a fresh 15-minute sale as 15 minutes on a device 10 minutes fast, and says so quietly', async () => {
    const stop = await pageWithClockOff(600_000, 15 * 60_000);
    // One second of fake time passed after the service said its time.
    expect(screen.getByTestId('countdown').textContent).toBe('14:59');
    expect(screen.getByTestId('clock-notice').textContent).toContain(
      "This device's clock is 10 minutes ahead of the till's",
    );
    stop();
  });

  it('does not show "Expired" early on a device 10 minutes slow, nor late', async () => {
    const stop = await pageWithClockOff(-600_000, 30_000);
    expect(screen.getByTestId('countdown').textContent).toBe('00:29');
    expect(screen.getByTestId('clock-notice').textContent).toContain('10 minutes behind');
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(screen.getByTestId('countdown').textContent).toBe('Expired');
    stop();
  });

  it('says nothing of a device within a minute of the service', async () => {
    const stop = await pageWithClockOff(30_000, 60_000);
    expect(screen.queryByTestId('clock-notice')).toBeNull();
    stop();
  });

  it('words the offset in minutes, then hours', () => {
    expect(describeOffset(61_000)).toBe('1 minute');
    expect(describeOffset(-600_000)).toBe('10 minutes');
    expect(describeOffset(3 * 3_600_000)).toBe('3 hours');
  });
});
