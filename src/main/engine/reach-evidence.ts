/**
 * The till's own evidence that the provider cannot be reached: its last account request got no
 * answer (no connection, or none in time) a short while ago. A later answer of any kind clears
 * it. Held in memory: after a restart the till knows nothing until it asks again.
 */

/** How long one unanswered request counts as "the provider cannot be reached". */
export const UNREACHABLE_EVIDENCE_MS = 5 * 60_000;

/** A create's failure causes that mean no answer came (create-failure.ts names them). */
const OFFLINE_CAUSES: ReadonlySet<string> = new Set(['create-network', 'create-timeout']);

/** Whether a sale's `failed_to_create` cause means the provider gave no answer. */
export function isOfflineCause(cause: string): boolean {
  return OFFLINE_CAUSES.has(cause);
}

export interface ReachEvidence {
  /** An account request ended: answered (any answer, even a refusal) or not (its cause). */
  noteCreate(outcome: { readonly answered: true } | { readonly cause: string }): void;
  /** The last account request got no answer within UNREACHABLE_EVIDENCE_MS. */
  unreachable(): boolean;
}

export function createReachEvidence(now: () => number): ReachEvidence {
  let lastUnanswered: number | null = null;
  return {
    noteCreate(outcome) {
      lastUnanswered = 'cause' in outcome && isOfflineCause(outcome.cause) ? now() : null;
    },
    unreachable: () => lastUnanswered !== null && now() - lastUnanswered < UNREACHABLE_EVIDENCE_MS,
  };
}
