import { useEffect, useState } from 'react';
import type { SaleState, SaleView } from '#shared/sales';
import { playChime } from '../components/chime';
import { announcePaid, type Announced, type CounterSounds, type Speaker } from './announce';
import { speechOf, voicesOf } from './speech';

/** Money that landed for the sale: on time, or after its account expired (still received). */
const PAID_STATES: readonly SaleState[] = ['paid', 'paid_late'];

/** Whether `next` is the moment the sale on screen turned paid. */
export function becamePaid(previous: SaleView | null, next: SaleView): boolean {
  return (
    previous !== null &&
    previous.id === next.id &&
    !PAID_STATES.includes(previous.state) &&
    PAID_STATES.includes(next.state)
  );
}

export interface PaidAnnouncer {
  /**
   * Says a sale's amount when this change made it paid, once per sale: an event replayed after
   * a reconnect, or the same sale read again after the screen let go of it, stays silent.
   * Null when there was nothing to say.
   */
  saleChanged(
    previous: SaleView | null,
    next: SaleView,
    sounds: CounterSounds,
  ): Promise<Announced> | null;
}

export function createPaidAnnouncer(speaker: () => Speaker): PaidAnnouncer {
  const announced = new Set<number>();
  return {
    saleChanged(previous, next, sounds) {
      if (!becamePaid(previous, next) || announced.has(next.id)) return null;
      announced.add(next.id);
      return announcePaid(next.amountKobo, sounds, speaker());
    },
  };
}

/** The page's own voice and chime, read when needed (a browser may add speech late). */
export function pageSpeaker(win: Window & typeof globalThis = window): Speaker {
  return { speech: speechOf(win), chime: (volume) => playChime(win, volume) };
}

/**
 * The page's paid announcer, one per mounted till. Asks for the voices at once: Chromium loads
 * them only when first asked, and the first paid sale should not find the list still empty.
 */
export function usePaidAnnouncer(): PaidAnnouncer {
  const [announcer] = useState(() => createPaidAnnouncer(() => pageSpeaker()));
  useEffect(() => {
    voicesOf(speechOf(window));
  }, []);
  return announcer;
}
