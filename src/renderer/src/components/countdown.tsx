import { formatCountdown } from '../format';
import { useServerNow } from '../server-time';

/** The last two minutes are shown in a warning colour. */
export const URGENT_MS = 2 * 60 * 1000;

/**
 * The whole minutes a sale was given (the provider is asked for an expiry in minutes). The
 * offset to the service's clock is measured without the network's delay and the provider stamps
 * the expiry a moment after the till stamps the sale, so without this cap a fresh 15-minute sale
 * could read 15:01.
 */
function timeGiven(expiresAt: number, createdAt: number | undefined): number {
  if (createdAt === undefined) return Infinity;
  const minutes = Math.floor((expiresAt - createdAt) / 60_000);
  return minutes > 0 ? minutes * 60_000 : Infinity;
}

export function Countdown({
  expiresAt,
  createdAt,
  className = '',
}: {
  readonly expiresAt: number;
  /** When the service made the sale: a sale never shows more time than it was given. */
  readonly createdAt?: number;
  readonly className?: string;
}) {
  // The till service's clock, not this device's: a tablet's clock may be minutes off.
  const now = useServerNow();
  const left = Math.min(expiresAt - now, timeGiven(expiresAt, createdAt));
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
