/**
 * What a page and main agree on beside the channel table, as plain values (no zod): a page
 * imports them from here without loading the table's schemas; contract.ts re-exports them.
 */

/** How much of a render error a page may send (it cuts its report to these itself). */
export const RENDERER_ERROR_LIMITS = {
  screen: 40,
  message: 1000,
  stack: 4000,
  componentStack: 4000,
} as const;

/**
 * The browser shell's session id travels in this header (and as `session=` on the event stream,
 * which cannot send headers); main answers every call with the id it used, new or not.
 */
export const SESSION_HEADER = 'x-till-session';
