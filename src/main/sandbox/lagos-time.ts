/** Lagos is UTC+1 all year (no daylight saving), so a fixed offset is exact. */
const LAGOS_OFFSET_MS = 60 * 60 * 1000;

/** Epoch milliseconds to the provider's zone-less `YYYY-MM-DD HH:MM:SS`, in Lagos time. */
export function formatProviderDate(epochMs: number): string {
  return new Date(epochMs + LAGOS_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** `yymmddHHmmss` in Lagos time: the middle of a NIP session id. */
export function nipTimestamp(epochMs: number): string {
  const iso = new Date(epochMs + LAGOS_OFFSET_MS).toISOString();
  return iso.slice(2, 19).replace(/[-T:]/g, '');
}
