/**
 * What the tray and the power-save blocker know of the till: a snapshot read again shortly
 * after each event that may change its counts, and now and then (acknowledged alerts and new
 * standing accounts send no event).
 */
import type { BridgeEvent } from '#shared/bridge/contract';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import type { Core } from '#main/core/create-core';
import { EMPTY_BOOK, noteSale, tillSnapshot, type TillSnapshot } from '#main/desktop/till-snapshot';

/** Events after which the till's counts may have changed. */
const REFRESH_ON: ReadonlySet<BridgeEvent['type']> = new Set([
  'sale-changed',
  'alert',
  'callback-health',
  'provider-reach',
  'inflow',
]);
/** Acknowledged alerts and new standing accounts send no event: read again now and then. */
const REFRESH_EVERY_MS = 60_000;
const REFRESH_DEBOUNCE_MS = 250;

export interface TillWatch {
  /** The last snapshot read; null until the first read succeeds. */
  snapshot(): TillSnapshot | null;
  refresh(): Promise<void>;
  close(): void;
}

/** Reads the till now and after each change; `changed` runs after every read. */
export function watchTill(core: Core, changed: () => void): TillWatch {
  const logger = core.log.logger;
  let till: TillSnapshot | null = null;
  let book = EMPTY_BOOK;
  let closed = false;

  async function refresh(): Promise<void> {
    try {
      const status = await core.handlers.getStatus({}, IN_PROCESS_OWNER);
      const activity = await core.handlers.getActivity({}, IN_PROCESS_OWNER);
      const connected = core.hub.view().counters.filter((counter) => counter.connected).length;
      till = tillSnapshot(status, activity, book, connected);
    } catch (error) {
      // Switching environments answers BUSY for a moment: keep the last snapshot.
      logger.debug({ err: error }, 'tray: till not readable now');
    }
    changed();
  }

  let pending: ReturnType<typeof setTimeout> | null = null;
  function refreshSoon(): void {
    if (pending || closed) return;
    pending = setTimeout(() => {
      pending = null;
      void refresh();
    }, REFRESH_DEBOUNCE_MS);
  }

  const unsubscribe = core.events.subscribe((event) => {
    if (event.type === 'sale-changed') book = noteSale(book, event.payload);
    if (REFRESH_ON.has(event.type)) refreshSoon();
  });
  const every = setInterval(refreshSoon, REFRESH_EVERY_MS);

  return {
    snapshot: () => till,
    refresh,
    close() {
      closed = true;
      unsubscribe();
      clearInterval(every);
      if (pending) clearTimeout(pending);
    },
  };
}
