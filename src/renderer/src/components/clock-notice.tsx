import { CLOCK_NOTICE_MS, useClockOffset } from '../server-time';

/** "5 minutes", "1 minute", "2 hours": how far off, in the largest whole unit. */
export function describeOffset(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return `${hours} hours`;
}

/**
 * A quiet word when this device's clock is more than a minute away from the till service's: the
 * countdowns are right anyway (they use the service's time), but the device's own clock is not.
 */
export function ClockNotice() {
  const offset = useClockOffset();
  if (Math.abs(offset) <= CLOCK_NOTICE_MS) return null;
  // offset = service − device: a positive offset means this device is behind.
  const way = offset > 0 ? 'behind' : 'ahead of';
  return (
    <p className="clock-notice no-print" role="note" data-testid="clock-notice">
      This device&apos;s clock is {describeOffset(offset)} {way} the till&apos;s; countdowns use the
      till&apos;s time.
    </p>
  );
}
