import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from './countdown';

describe('Countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T09:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down in mm:ss, turns urgent in the last two minutes and reads Expired at 0', () => {
    render(<Countdown expiresAt={Date.now() + 150_000} />);
    const countdown = screen.getByTestId('countdown');
    expect(countdown.textContent).toBe('02:30');
    expect(countdown.className).not.toContain('countdown-urgent');

    act(() => void vi.advanceTimersByTime(30_000));
    expect(countdown.textContent).toBe('02:00');
    expect(countdown.className).toContain('countdown-urgent');

    act(() => void vi.advanceTimersByTime(119_000));
    expect(countdown.textContent).toBe('00:01');

    act(() => void vi.advanceTimersByTime(1_000));
    expect(countdown.textContent).toBe('Expired');
    expect(countdown.className).toContain('countdown-expired');
    expect(countdown.className).not.toContain('countdown-urgent');
  });

  it('is not urgent with more than two minutes left', () => {
    render(<Countdown expiresAt={Date.now() + 30 * 60_000} />);
    expect(screen.getByTestId('countdown').textContent).toBe('30:00');
    act(() => void vi.advanceTimersByTime(27 * 60_000 + 59_000));
    expect(screen.getByTestId('countdown').textContent).toBe('02:01');
    expect(screen.getByTestId('countdown').className).not.toContain('countdown-urgent');
  });

  it('never shows more time than the sale was given when the measured clock lags', () => {
    // The device reads 09:00:00; the sale was stamped 800 ms later by the service (the offset
    // missed the network's delay) and the provider's expiry 700 ms after that. Without the cap it
    // would read 15:02.
    const createdAt = Date.now() + 800;
    render(<Countdown expiresAt={createdAt + 15 * 60_000 + 700} createdAt={createdAt} />);
    expect(screen.getByTestId('countdown').textContent).toBe('15:00');
    act(() => void vi.advanceTimersByTime(3_000));
    expect(screen.getByTestId('countdown').textContent).toBe('14:59');
  });
});
