import { formatCountdown } from '../format';
import { useServerNow } from '../server-time';

/** The last two minutes are shown in a warning colour. */
export const URGENT_MS = 2 * 60 * 1000;

export function Countdown({
  expiresAt,
  createdAt,
  className = '',
}: {
  readonly expiresAt: number;
  /** When the service made the sale: its clock cannot read earlier than a time it stamped. */
  readonly createdAt?: number;
  readonly className?: string;
}) {
  // The till service's clock, not this device's: a tablet's clock may be minutes off. The
  // offset is measured without the network's delay, so it can lag by that delay; a fresh sale
  // never shows more time than it was given.
  const now = Math.max(useServerNow(), createdAt ?? -Infinity);
  const left = expiresAt - now;
  const expired = left <= 0;
  const urgency = expired ? 'countdown-expired' : left <= URGENT_MS ? 'countdown-urgent' : '';
  return (
    <span
      role="timer"
      aria-label="Time left to pay"
      className={`countdown ${urgency} ${className}`.trim()}
      data-testid="countdown"
    >
      {expired ? 'Expired' : formatCountdown(left)}
    </span>
  );
}
