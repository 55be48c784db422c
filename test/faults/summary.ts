/**
 * A fault campaign's figures: runs per personality value, faults planned beside faults the
 * sandbox served, losses and double counts, time to paid (no button / cashier pressed), and
 * every failing run with what is needed to replay it.
 */
import { PERSONALITY_CHOICES } from '#main/sandbox/personality';
import { SERVED_FAULT_KINDS } from '#main/sandbox/served-faults';
import {
  FAULT_KINDS,
  runFailed,
  type FaultKind,
  type RunReport,
  type ServedCounts,
} from './run-report';
import {
  percentile,
  PAID_BOUND_MS,
  type OutageCounts,
  type TimeToPaid,
  type Violation,
} from './invariants';
import { describePersonality } from './script';

/**
 * The sandbox's served count shown beside each planned kind (different units: the script plans
 * windows, runs or actions; the sandbox counts the answers or callbacks it served).
 */
export const SERVED_BESIDE: Partial<Readonly<Record<FaultKind, string>>> = {
  provider_latency: 'latency',
  provider_5xx: 'error',
  side_effect_errors: 'side_effect_error',
  provider_timeouts: 'timeout',
  malformed_responses: 'malformed',
  lying_count: 'count_skew',
  callbacks_dropped: 'callbacks_dropped',
  callbacks_duplicated: 'callbacks_duplicated',
  callbacks_never: 'callbacks_never',
  callbacks_late: 'callbacks_late',
  callbacks_reordered: 'callbacks_reordered',
  failed_callbacks_sent: 'failed_callbacks_sent',
  bad_rows: 'bad_rows',
  failed_status_masked: 'failed_status_masked',
  expired_payment_accepted: 'expired_payment_accepted',
  static_mismatch_accepted: 'static_mismatch_accepted',
  provider_unreachable: 'unreachable',
};

export interface TimeStats {
  readonly count: number;
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  readonly maxMs: number | null;
}

export function timeStats(values: readonly number[]): TimeStats {
  return {
    count: values.length,
    p50Ms: percentile(values, 50),
    p99Ms: percentile(values, 99),
    maxMs: values.length === 0 ? null : Math.max(...values),
  };
}

export interface CampaignSummary {
  readonly seed: number;
  readonly runs: number;
  readonly sigkillRuns: number;
  readonly durationMs: number;
  /** Runs per value of each personality key. */
  readonly personalities: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly planned: Readonly<Record<FaultKind, number>>;
  /** Summed over the runs, as each run's sandbox counted them (persisted across restarts). */
  readonly served: ServedCounts;
  readonly inflows: number;
  readonly sales: number;
  readonly states: Readonly<Record<string, number>>;
  readonly losses: number;
  readonly doubleCounts: number;
  readonly lateFlagged: number;
  readonly paidLate: number;
  /** Transfers that settled while their sale was open (the time-to-paid rule's subjects). */
  readonly openPayments: number;
  readonly outage: OutageCounts;
  /** From settlement, without and with a press; and from the press to paid. */
  readonly timeToPaid: {
    readonly noButton: TimeStats;
    readonly pressed: TimeStats;
    readonly afterPress: TimeStats;
  };
  /** Open payments held to exactly PAID_BOUND_MS (no provider trouble on the way). */
  readonly strictBound: number;
  readonly largestBoundMs: number;
  readonly firstCheckViolations: number;
  readonly recoveredViolations: number;
  readonly failures: readonly RunReport[];
  readonly plannedProblems: number;
  /** Planned problems by the reason they are planned. */
  readonly plannedByReason: Readonly<Record<string, number>>;
  readonly unplannedProblems: number;
  readonly errors: readonly { index: number; seed: number; error: string }[];
}

export function summarise(input: {
  readonly seed: number;
  readonly durationMs: number;
  readonly reports: readonly RunReport[];
  readonly errors: readonly { index: number; seed: number; error: string }[];
}): CampaignSummary {
  const { reports } = input;
  const planned = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  const served: Record<string, number> = Object.fromEntries(SERVED_FAULT_KINDS.map((k) => [k, 0]));
  const states: Record<string, number> = {};
  const personalities: Record<string, Record<string, number>> = {};
  for (const [key, values] of Object.entries(PERSONALITY_CHOICES)) {
    personalities[key] = Object.fromEntries(values.map((v: string) => [v, 0]));
  }
  for (const report of reports) {
    for (const kind of FAULT_KINDS) planned[kind] += report.planned[kind];
    for (const [kind, n] of Object.entries(report.served)) served[kind] = (served[kind] ?? 0) + n;
    for (const [state, n] of Object.entries(report.result.states))
      states[state] = (states[state] ?? 0) + n;
    for (const [key, value] of Object.entries(report.personality)) {
      if (key === 'callback_delay_ms' && report.personality.callbacks !== 'late') continue;
      const byValue = (personalities[key] ??= {});
      byValue[String(value)] = (byValue[String(value)] ?? 0) + 1;
    }
  }
  const sum = (f: (r: RunReport) => number) => reports.reduce((total, r) => total + f(r), 0);
  const countOf = (kinds: readonly Violation['kind'][]) =>
    sum((r) => r.violations.filter((v) => kinds.includes(v.kind)).length);
  const times = reports.flatMap((r) => r.firstCheck.timeToPaid);
  return {
    seed: input.seed,
    runs: reports.length + input.errors.length,
    sigkillRuns: reports.filter((r) => r.mode === 'child').length,
    durationMs: input.durationMs,
    personalities,
    planned,
    served,
    inflows: sum((r) => r.result.inflows),
    sales: sum((r) => r.result.sales),
    states,
    losses: countOf([
      'loss',
      'wrong_amount_stored',
      'unattributed_payment',
      'extra_payment_not_flagged',
    ]),
    doubleCounts: countOf(['double_count']),
    lateFlagged: sum((r) => r.result.lateFlagged),
    paidLate: sum((r) => r.result.paidLate),
    openPayments: sum((r) => r.firstCheck.openPayments),
    outage: {
      sales: sum((r) => r.result.outage.sales),
      confirmed: sum((r) => r.result.outage.confirmed),
      toAPerson: sum((r) => r.result.outage.toAPerson),
    },
    timeToPaid: splitTimes(times),
    strictBound: times.filter((t) => t.boundMs === PAID_BOUND_MS).length,
    largestBoundMs: Math.max(PAID_BOUND_MS, ...times.map((t) => t.boundMs)),
    firstCheckViolations: sum((r) => r.firstCheck.violations.length),
    recoveredViolations: sum((r) => r.result.violations.length),
    failures: reports.filter(runFailed),
    plannedProblems: sum((r) => r.problems.length - r.unplanned.length),
    plannedByReason: reports
      .flatMap((r) => r.problems)
      .reduce<Record<string, number>>((counts, p) => {
        if (p.plannedBecause !== null)
          counts[p.plannedBecause] = (counts[p.plannedBecause] ?? 0) + 1;
        return counts;
      }, {}),
    unplannedProblems: sum((r) => r.unplanned.length),
    errors: input.errors,
  };
}

export function splitTimes(times: readonly TimeToPaid[]): CampaignSummary['timeToPaid'] {
  return {
    noButton: timeStats(times.filter((t) => !t.pressed).map((t) => t.ms)),
    pressed: timeStats(times.filter((t) => t.pressed).map((t) => t.ms)),
    afterPress: timeStats(times.flatMap((t) => (t.afterPressMs === null ? [] : [t.afterPressMs]))),
  };
}

const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);

function statsLine(stats: TimeStats): string {
  return stats.count === 0
    ? 'none'
    : `p50 ${seconds(stats.p50Ms)}, p99 ${seconds(stats.p99Ms)}, max ${seconds(stats.maxMs)} (${stats.count})`;
}

/** One line per run (the long form prints it as each run ends). */
export function formatRun(report: RunReport, campaignSeed: number): string {
  const { noButton, pressed, afterPress } = splitTimes(report.firstCheck.timeToPaid);
  const verdict = runFailed(report)
    ? `FAILED (replay: --seed ${campaignSeed} --run ${report.index})`
    : 'ok';
  return [
    `run ${report.index} (run seed ${report.seed}, ${report.mode}, ${(report.durationMs / 1000).toFixed(1)} s) ${verdict}`,
    `  personality: ${describePersonality(report.personality)}`,
    `  time to paid: no button ${statsLine(noButton)}; pressed ${statsLine(pressed)}, after the press ${statsLine(afterPress)}`,
  ].join('\n');
}

function failureLines(report: RunReport, campaignSeed: number): string[] {
  return [
    `  FAILED run ${report.index} (seed ${campaignSeed}, run seed ${report.seed}, ${report.mode}; data kept in ${report.dataDir}); replay: --seed ${campaignSeed} --run ${report.index}`,
    `    personality: ${describePersonality(report.personality)}`,
    ...report.violations.map((v) => `    ${v.phase} ${v.kind}: ${v.message}`),
    ...report.unplanned.map(
      (p) => `    unplanned ${p.source} problem at ${p.at}: ${p.message} | ${p.detail}`,
    ),
  ];
}

export function formatSummary(summary: CampaignSummary): string {
  const personalityLines = Object.entries(summary.personalities).map(
    ([key, byValue]) =>
      `    ${key.padEnd(18)} ${Object.entries(byValue)
        .map(([value, runs]) => `${value} ${runs}`)
        .join(', ')}`,
  );
  const besides = new Set(Object.values(SERVED_BESIDE));
  const faultLines = [
    ...FAULT_KINDS.map((kind) => {
      const servedKind = SERVED_BESIDE[kind];
      const served =
        servedKind === undefined ? '' : `${servedKind} ${summary.served[servedKind] ?? 0}`;
      return `    ${kind.padEnd(30)} ${String(summary.planned[kind]).padStart(6)}   ${served}`;
    }),
    ...Object.entries(summary.served)
      .filter(([kind]) => !besides.has(kind))
      .map(([kind, n]) => `    ${'(served only)'.padEnd(30)} ${''.padStart(6)}   ${kind} ${n}`),
  ];
  const states = Object.entries(summary.states)
    .sort()
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const timed = summary.timeToPaid.noButton.count + summary.timeToPaid.pressed.count;
  const lines = [
    `Fault campaign (seed ${summary.seed}): ${summary.runs} runs (${summary.sigkillRuns} with SIGKILL) in ${(summary.durationMs / 1000).toFixed(1)} s`,
    `  personalities (runs per value):`,
    ...personalityLines,
    `  faults: planned (windows, runs or actions) | served by the sandbox (answers or callbacks)`,
    ...faultLines,
    `  inflows (provider successes): ${summary.inflows}, all stored once with the right amount: ${summary.losses === 0 ? 'yes' : 'NO'}`,
    `  sales: ${summary.sales} (${states})`,
    `  losses = ${summary.losses}, double counts = ${summary.doubleCounts}`,
    `  payments settled while their sale was open: ${summary.openPayments}, paid within the bound: ${timed} (${summary.strictBound} held to ${PAID_BOUND_MS / 1000} s exactly, the rest with provider-trouble slack; largest bound ${seconds(summary.largestBoundMs)})`,
    `  time to paid (fake time from settlement): no button ${statsLine(summary.timeToPaid.noButton)}; cashier pressed ${statsLine(summary.timeToPaid.pressed)}, from the press ${statsLine(summary.timeToPaid.afterPress)}`,
    `  late payments flagged: ${summary.lateFlagged} of ${summary.paidLate} paid late`,
    `  outage sales: ${summary.outage.sales}, confirmed after the outage: ${summary.outage.confirmed}; transfers into the outage account given to a person: ${summary.outage.toAPerson}`,
    `  invariant violations: ${summary.firstCheckViolations} with faults on, ${summary.recoveredViolations} after recovery, in ${summary.failures.length} failing runs; runs that crashed the campaign: ${summary.errors.length}`,
    `  till problems: ${summary.plannedProblems} planned, ${summary.unplannedProblems} unplanned`,
    ...Object.entries(summary.plannedByReason).map(([why, n]) => `    planned ${n}: ${why}`),
  ];
  for (const failure of summary.failures) lines.push(...failureLines(failure, summary.seed));
  for (const error of summary.errors) {
    lines.push(
      `  ERROR in run ${error.index} (seed ${summary.seed}, run seed ${error.seed}); replay: --seed ${summary.seed} --run ${error.index}`,
      `    ${error.error.split('\n').slice(0, 6).join('\n    ')}`,
    );
  }
  return lines.join('\n');
}
