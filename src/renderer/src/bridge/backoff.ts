/** Waits between reconnection tries: quick at first (a restart takes seconds), then every 8 s. */
export const RECONNECT_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 8000];

/** The wait before try number `attempt` (0 = the first try after the link was lost). */
export function reconnectDelay(attempt: number): number {
  const last = RECONNECT_DELAYS_MS[RECONNECT_DELAYS_MS.length - 1] ?? 8000;
  return RECONNECT_DELAYS_MS[Math.max(0, Math.floor(attempt))] ?? last;
}
