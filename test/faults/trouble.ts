/**
 * Provider trouble a payment met on its way, as slack on its time-to-paid bound. The campaign
 * reads the sandbox's served counts as the fake clock moves and books every stretch of fake time
 * in which failing answers were served (a 5xx, a held or timed-out answer, a malformed body,
 * latency past the client's timeout).
 */

/** A stretch of fake time in which the provider served `answers` failing answers. */
export interface Trouble {
  readonly from: number;
  readonly to: number;
  readonly answers: number;
}

/**
 * Two allowances for a wait from `from` to `to`, each enough on its own; the smaller is given:
 * - per failing answer served while the sale waited: at most the check it answered is lost,
 *   and the next comes within one check interval (`perCheckMs`);
 * - per stretch of trouble (intervals back to back): the time it overlaps the wait, plus one
 *   check interval for the check after it.
 * Generous (an answer may have been another sale's, or the client's retry may have hidden it),
 * and zero when the wait met no trouble.
 */
export function troubleSlackMs(
  troubles: readonly Trouble[],
  from: number,
  to: number,
  perCheckMs: number,
): number {
  const met = troubles.filter((t) => t.to >= from && t.from <= to);
  const perAnswer = met.reduce((total, t) => total + t.answers * perCheckMs, 0);
  let perStretch = 0;
  let stretchEnd: number | null = null;
  for (const t of met) {
    if (t.from !== stretchEnd) perStretch += perCheckMs;
    perStretch += Math.max(0, Math.min(t.to, to) - Math.max(t.from, from));
    stretchEnd = t.to;
  }
  return Math.min(perAnswer, perStretch);
}
