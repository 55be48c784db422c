import type { StatusAnswer } from './confirmation';
import type { EngineContext } from './engine-context';
import type { ListingLookup } from './listing-lookup';

/** Why the interface's backoff (2 s, 4 s, 8 s) started for a sale. */
export type BackoffCause =
  /** A callback came but the status endpoint did not confirm it (a callback timeout). */
  | 'callback'
  /** The provider said a transfer is still pending. */
  | 'pending'
  /** "Customer says they paid". */
  | 'cashier'
  /** The final check at the deadline was not clear. */
  | 'deadline'
  /** No callback can come: the sale was made without a live route, or the route went down. */
  | 'no-route';

/** One watched sale: its next check and what its budget has spent. */
export interface Watch {
  readonly saleId: number;
  /** When the watch began: the start of the budget's average. */
  readonly since: number;
  checks: number;
  lastCheckAt: number | null;
  lastAnswer: StatusAnswer | null;
  /** The backoff step to run next, or null when no backoff runs. */
  backoffStep: number | null;
  backoffCause: BackoffCause | null;
  alertedAtCap: boolean;
  cancelNext: (() => void) | null;
}

/** The watching state, owned by the engine's composition and handed to each function. */
export interface WatchBook {
  readonly watches: Map<number, Watch>;
  /** The pending deadline timer of each sale (the final check, then the end of the grace). */
  readonly deadlines: Map<number, () => void>;
  closed: boolean;
}

export interface WatchEnv {
  readonly ctx: EngineContext;
  readonly lookup: ListingLookup;
  readonly book: WatchBook;
}

export function createWatchBook(): WatchBook {
  return { watches: new Map(), deadlines: new Map(), closed: false };
}

/** Stops every timer; work already queued sees `closed` and does nothing. */
export function closeWatchBook(book: WatchBook): void {
  book.closed = true;
  for (const watch of book.watches.values()) watch.cancelNext?.();
  book.watches.clear();
  for (const cancel of book.deadlines.values()) cancel();
  book.deadlines.clear();
}
