import type { Harness } from './sales-harness';

/**
 * Moves the harness's fake clock, running each due timer's work to its end before the next
 * (the engine's queue, and one turn of the event loop for the HTTP it started). Quicker than
 * the harness's own advance, which also waits for callbacks on the wire: for runs where the
 * sandbox sends none, or where they may land a timer later.
 */
export async function advanceEngine(h: Harness, ms: number): Promise<void> {
  await h.scheduler.advance(ms, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await h.engine.idle();
  });
}
