import type { SandboxDb } from './sandbox-db';
import { addServedFault, clearServedFaults, readServedFaults } from './sandbox-state';

/**
 * Faults and personality readings the sandbox actually served (not the rates asked for), so a
 * fault campaign can report what its till really met.
 */
export const SERVED_FAULT_KINDS = [
  'latency',
  'error',
  'side_effect_error',
  'timeout',
  'malformed',
  'count_skew',
  'callbacks_dropped',
  'callbacks_duplicated',
  'callbacks_late',
  'callbacks_reordered',
  'callbacks_never',
  'bad_rows',
  'failed_status_masked',
  'expired_payment_accepted',
  'static_mismatch_accepted',
  'failed_callbacks_sent',
  'repeat_payment_accepted',
  'page_capped',
  'callbacks_foreign_form',
  'unreachable',
] as const;

export type ServedFaultKind = (typeof SERVED_FAULT_KINDS)[number];

export type ServedCounts = Readonly<Record<ServedFaultKind, number>>;

function zeroCounts(): Record<ServedFaultKind, number> {
  return Object.fromEntries(SERVED_FAULT_KINDS.map((kind) => [kind, 0])) as Record<
    ServedFaultKind,
    number
  >;
}

/** Counts persisted in the sandbox db: a restart keeps them, DELETE /faults/served zeroes them. */
export class ServedFaults {
  constructor(private readonly db: SandboxDb) {}

  record(kind: ServedFaultKind, times = 1): void {
    if (times > 0) addServedFault(this.db, kind, times);
  }

  get counts(): ServedCounts {
    const counts = zeroCounts();
    for (const row of readServedFaults(this.db)) {
      const kind = SERVED_FAULT_KINDS.find((k) => k === row.kind);
      if (kind !== undefined) counts[kind] = row.count;
    }
    return counts;
  }

  reset(): void {
    clearServedFaults(this.db);
  }
}

/**
 * What one provider answer would serve, kept until the answer goes out as built: an answer
 * replaced by an injected 500 or mangled body served none of it.
 */
export class ServedTally {
  private readonly pending = new Map<ServedFaultKind, number>();

  add(kind: ServedFaultKind, times = 1): void {
    if (times > 0) this.pending.set(kind, (this.pending.get(kind) ?? 0) + times);
  }

  discard(): void {
    this.pending.clear();
  }

  commit(served: ServedFaults): void {
    for (const [kind, times] of this.pending) served.record(kind, times);
    this.pending.clear();
  }
}
