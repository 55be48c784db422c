/**
 * What one fault-campaign run reports: the personality it ran under, the faults its script
 * planned beside those the sandbox served, both invariant checks, and the till's problems.
 */
import type { InvariantResult, Violation } from './invariants';
import type { Personality } from '#main/sandbox/personality';
import type { Till, TillProblem } from './till';

/** What the script did or asked for (windows, runs, actions), by kind. */
export const FAULT_KINDS = [
  'provider_latency',
  'provider_latency_over_timeout',
  'provider_5xx',
  'side_effect_errors',
  'provider_timeouts',
  'malformed_responses',
  'lying_count',
  'callbacks_dropped',
  'callbacks_duplicated',
  'callbacks_resent',
  'callbacks_unreachable',
  'callback_delivery_failures',
  'callbacks_never',
  'callbacks_late',
  'callbacks_reordered',
  'failed_callbacks_sent',
  'bad_rows',
  'failed_status_masked',
  'expired_payment_accepted',
  'static_mismatch_accepted',
  'payments_pending',
  'wrong_amounts',
  'paid_twice',
  'paid_after_cancel',
  'refused_after_expiry',
  'provider_expired_early',
  'counter_payments',
  'provider_unreachable',
  'outage_sales',
  'outage_account_missing',
  'outage_payments',
  'restarts',
  'sigkills',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Served counts as GET {control_url}/faults answers them, by kind (sandbox names). */
export type ServedCounts = Readonly<Record<string, number>>;

/** A problem the till reported, judged: planned ones say why, the others fail the run. */
export interface JudgedProblem extends TillProblem {
  readonly plannedBecause: string | null;
}

export interface RunReport {
  readonly index: number;
  readonly seed: number;
  readonly mode: Till['kind'];
  readonly durationMs: number;
  readonly personality: Personality;
  readonly planned: Readonly<Record<FaultKind, number>>;
  readonly served: ServedCounts;
  /** With the faults on, past every deadline by the bound, before any recovery step. */
  readonly firstCheck: InvariantResult;
  /** After the recovery. */
  readonly result: InvariantResult;
  readonly violations: readonly Violation[];
  readonly problems: readonly JudgedProblem[];
  /** Unplanned problems: each fails the run. */
  readonly unplanned: readonly JudgedProblem[];
  readonly dataDir: string;
}

export function runFailed(report: RunReport): boolean {
  return report.violations.length > 0 || report.unplanned.length > 0;
}
