import { describe, expect, it } from 'vitest';
import {
  QUICK_REPETITIONS,
  REPETITIONS,
  median,
  repeat,
  repetitions,
  spreadOf,
  summarise,
} from '../bench/bench-figure';
import {
  BenchHistoryError,
  EVERY_TARGET_MET,
  compareRuns,
  exitCodeFor,
  figureKey,
  judgeFigure,
  parseHistory,
  recordDecision,
  renderComparison,
  renderResults,
  runSummary,
  serializeHistoryLine,
  tableRows,
  type BenchFailure,
  type BenchResult,
  type RecordQuestion,
  type RunOutcome,
} from '../bench/bench-report';
import { describeOrders, interleave, roundOrders } from '../bench/interleave';
import { BENCH_MACHINE, benchFigure, benchRun } from '#support/bench-runs';

describe('the figure helpers', () => {
  it('takes the median of odd and even counts, in any order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('gives the spread of the repetitions', () => {
    expect(spreadOf([3, 9, 4])).toEqual({ min: 3, max: 9, n: 3 });
    expect(summarise([3, 9, 4])).toEqual({ median: 4, spread: { min: 3, max: 9, n: 3 } });
  });

  it('takes three repetitions in quick mode, never more than the full run', () => {
    expect(repetitions({ seed: 1, quick: false })).toBe(REPETITIONS);
    expect(repetitions({ seed: 1, quick: false }, 9)).toBe(9);
    expect(repetitions({ seed: 1, quick: true }, 9)).toBe(QUICK_REPETITIONS);
    expect(repetitions({ seed: 1, quick: true }, 2)).toBe(2);
    expect(QUICK_REPETITIONS).toBeGreaterThanOrEqual(3);
  });

  it('repeats after warm-ups, which do not count', async () => {
    let calls = 0;
    const result = await repeat(5, () => ++calls, 2);
    expect(calls).toBe(7);
    // Warm-ups gave 1 and 2; the five counted repetitions are 3..7.
    expect(result).toEqual({ median: 5, spread: { min: 3, max: 7, n: 5 } });
  });
});

describe('judging a figure', () => {
  it('passes a time whose ratio to its baseline is within the maximum', () => {
    const judgement = judgeFigure(benchFigure({ ratioTarget: { max: 2 } }));
    expect(judgement).toEqual({ ratio: 2, ratioPass: true, boundPass: null, pass: true });
  });

  it('judges the median of the per-round ratios when the figure gives one', () => {
    // Medians 12 against 6 would be 2x (missed); round by round the subject was within 1.2x.
    const paired = benchFigure({ value: 12, pairedRatio: 1.15, ratioTarget: { max: 1.2 } });
    expect(judgeFigure(paired)).toMatchObject({ ratio: 1.15, ratioPass: true });
    expect(judgeFigure({ ...paired, pairedRatio: 1.25 }).pass).toBe(false);
  });

  it('misses a time whose ratio is over the maximum', () => {
    expect(judgeFigure(benchFigure({ value: 12.1, ratioTarget: { max: 2 } })).pass).toBe(false);
  });

  it('judges a throughput against a minimum ratio', () => {
    const throughput = benchFigure({ unit: '/s', value: 4000, baseline: 10000 });
    expect(judgeFigure({ ...throughput, ratioTarget: { min: 0.5 } }).pass).toBe(false);
    expect(judgeFigure({ ...throughput, ratioTarget: { min: 0.4 } }).pass).toBe(true);
  });

  it('never judges an absolute target, met or not', () => {
    const judgement = judgeFigure(benchFigure({ absoluteTarget: { text: '< 5 ms', met: false } }));
    expect(judgement.pass).toBeNull();
  });

  it('misses a ratio target it cannot compute (a zero baseline)', () => {
    const judgement = judgeFigure(benchFigure({ baseline: 0, ratioTarget: { max: 2 } }));
    expect(judgement.ratio).toBeNaN();
    expect(judgement.pass).toBe(false);
  });

  it('judges a bound on the worst repetition, not the median', () => {
    const bounded = benchFigure({ unit: 's', value: 20, spread: { min: 10, max: 36, n: 5 } });
    expect(judgeFigure({ ...bounded, bound: { max: 35, why: 'schedule' } }).pass).toBe(false);
    expect(judgeFigure({ ...bounded, bound: { max: 36, why: 'schedule' } }).pass).toBe(true);
    expect(judgeFigure({ ...bounded, bound: { min: 11, why: 'none lost' } }).pass).toBe(false);
  });

  it('needs both a ratio target and a bound met when a figure has both', () => {
    const both = benchFigure({ ratioTarget: { max: 3 }, bound: { max: 14, why: 'size' } });
    expect(judgeFigure(both)).toMatchObject({ ratioPass: true, boundPass: false, pass: false });
  });
});

const met: BenchResult = { bench: 'webhook', figure: benchFigure({ ratioTarget: { max: 3 } }) };
const planted: BenchResult = {
  bench: 'sync',
  figure: benchFigure({ name: 'sync wall time', value: 30, ratioTarget: { max: 2 } }),
};
const hubFailed: BenchFailure = { bench: 'hub', error: 'Error: read ECONNRESET' };

/** A run's outcome: judged and full unless said otherwise. */
function outcome(overrides: Partial<RunOutcome> = {}): RunOutcome {
  return { results: [met], failures: [], strict: false, quick: false, ...overrides };
}

/** A run of every bench on main with a clean tree, neither flag given. */
const mainRun: RecordQuestion = {
  asked: undefined,
  quick: false,
  failures: 0,
  everyBench: true,
  branch: 'main',
  dirty: false,
};

describe('--strict', () => {
  it('exits 1 when a planted figure misses its ratio target', () => {
    expect(exitCodeFor(outcome({ results: [met, planted], strict: true }))).toBe(1);
  });

  it('exits 0 when every ratio is met, or without --strict', () => {
    expect(exitCodeFor(outcome({ strict: true }))).toBe(0);
    expect(exitCodeFor(outcome({ results: [met, planted] }))).toBe(0);
  });

  it('exits 0 when only an absolute target is missed: absolute figures are printed, not judged', () => {
    const absolute: BenchResult = {
      bench: 'webhook',
      figure: benchFigure({ value: 42, absoluteTarget: { text: '< 20 ms', met: false } }),
    };
    expect(exitCodeFor(outcome({ results: [met, absolute], strict: true }))).toBe(0);
  });
});

describe('a bench that fails to run', () => {
  it('exits 1 with or without --strict, quick or not, whatever the other figures', () => {
    for (const strict of [false, true]) {
      for (const quick of [false, true]) {
        expect(exitCodeFor(outcome({ failures: [hubFailed], strict, quick }))).toBe(1);
      }
    }
    expect(exitCodeFor(outcome({ results: [], failures: [hubFailed] }))).toBe(1);
  });

  it('is named in the summary, which then never says every judged target was met', () => {
    const summary = runSummary(outcome({ failures: [hubFailed] }));
    expect(summary).toBe(
      '1 bench failed to run (hub): no figures from it, so none of its targets was judged.\n' +
        'Of the benches that ran: every judged target met.',
    );
    expect(summary).not.toContain(EVERY_TARGET_MET);
    expect(runSummary(outcome({ results: [], failures: [hubFailed] }))).toBe(
      '1 bench failed to run (hub): no figures from it, so none of its targets was judged.',
    );
    const webhookFailed = { bench: 'webhook', error: 'Error: timeout' };
    const both = runSummary(
      outcome({ results: [met, planted], failures: [hubFailed, webhookFailed] }),
    );
    expect(both).toMatch(/^2 benches failed to run \(hub, webhook\): no figures from them/);
    expect(both).toContain('Of the benches that ran: Missed: sync / sync wall time');
    const quick = runSummary(outcome({ quick: true, failures: [hubFailed] }));
    expect(quick).toMatch(/^1 bench failed to run \(hub\)/);
    expect(quick).toContain(
      '(a shared machine): of the benches that ran: every figure with a target met it (1).',
    );
  });

  it('leaves the run unrecorded, even with --record', () => {
    const decision = recordDecision({ ...mainRun, asked: true, failures: 1 });
    expect(decision).toEqual({ record: false, why: 'a bench failed to run (see above)' });
  });
});

describe('the summary of a judged run', () => {
  it('says every judged target was met only when every bench ran and met them', () => {
    expect(runSummary(outcome())).toBe(EVERY_TARGET_MET);
    expect(runSummary(outcome({ results: [met, planted] }))).toBe('Missed: sync / sync wall time');
  });
});

describe('--quick', () => {
  it('prints each ratio and target but judges none: exit 0 whatever is missed', () => {
    expect(exitCodeFor(outcome({ results: [met, planted], quick: true }))).toBe(0);
    expect(exitCodeFor(outcome({ results: [met, planted], quick: true, strict: true }))).toBe(0);
    const rows = tableRows([met, planted], { quick: true });
    expect(rows[1]).toEqual(
      expect.arrayContaining(['5.00×', '≤ 2×', 'missed, not judged (quick)']),
    );
    expect(rows[0]?.at(-1)).toBe('met, not judged (quick)');
    const bounded = benchFigure({ bound: { max: 1, why: 'a size' } });
    expect(renderResults([{ bench: 'bundle', figure: bounded }], { quick: true })).toContain(
      'Bounds, read (not judged (quick)) on the worst repetition, because a size',
    );
  });

  it('says so in the summary, with what would have missed, never that every target was met', () => {
    const summary = runSummary(outcome({ results: [met, planted], quick: true }));
    expect(summary).toBe(
      'Quick run, targets printed, not judged (a shared machine): 1 of 2 figures with a target missed it: sync / sync wall time',
    );
    expect(runSummary(outcome({ quick: true }))).toBe(
      'Quick run, targets printed, not judged (a shared machine): every figure with a target met it (1).',
    );
  });

  it('is never recorded', () => {
    expect(recordDecision({ ...mainRun, quick: true }).record).toBe(false);
  });
});

describe('recording a run', () => {
  it('records a run of every bench on main with a clean tree without being asked', () => {
    expect(recordDecision(mainRun).record).toBe(true);
  });

  it('does not record a run elsewhere, on a dirty tree or of some benches, unless --record', () => {
    const elsewhere: RecordQuestion[] = [
      { ...mainRun, branch: 'i31-runner' },
      { ...mainRun, branch: null },
      { ...mainRun, dirty: true },
      { ...mainRun, everyBench: false },
    ];
    expect(elsewhere.map((question) => recordDecision(question).why)).toEqual([
      'HEAD is on i31-runner, not main (--record records it anyway)',
      'HEAD is not on a branch, not main (--record records it anyway)',
      'the tree has uncommitted changes (--record records it anyway)',
      'not every bench ran (--record records it anyway)',
    ]);
    for (const question of elsewhere) {
      expect(recordDecision(question).record).toBe(false);
      expect(recordDecision({ ...question, asked: true }).record).toBe(true);
    }
  });

  it('never records with --no-record', () => {
    expect(recordDecision({ ...mainRun, asked: false })).toEqual({
      record: false,
      why: '--no-record',
    });
  });
});

describe('the table', () => {
  it('prints value, spread, baseline, ratio, targets and the result in one row', () => {
    const text = renderResults([
      {
        bench: 'webhook',
        figure: benchFigure({
          ratioTarget: { max: 3 },
          absoluteTarget: { text: '< 20 ms', met: true },
          note: 'interleaved, seed 7',
        }),
      },
      {
        bench: 'sync',
        figure: benchFigure({ name: 'sync wall time', value: 30, ratioTarget: { max: 2 } }),
      },
    ]);
    const [header, rule, first, second, ...rest] = text.split('\n');
    expect(header).toMatch(/^bench\s+figure\s+value\s+spread\s+baseline \(same run\)/);
    expect(rule).toMatch(/^-+ {2}-+/);
    expect(first).toMatch(
      /^webhook\s+time to answer p99\s+12\.0 ms\s+10\.0–15\.0 n=5\s+bare server p99\s+6\.00 \(5\.00–7\.00 n=5\)\s+2\.00×\s+≤ 3×\s+< 20 ms: met\s+pass$/,
    );
    expect(second).toMatch(/5\.00×\s+≤ 2×\s+MISSED$/);
    expect(rest).toContain('  webhook / time to answer p99: interleaved, seed 7');
  });

  it('lines columns up whatever the cell widths', () => {
    const lines = renderResults([
      { bench: 'a', figure: benchFigure({ name: 'x' }) },
      { bench: 'bundle-long-name', figure: benchFigure({ name: 'a much longer figure name' }) },
    ]).split('\n');
    const column = (text: string | undefined) => text?.indexOf('ms') ?? -1;
    expect(column(lines[2])).toBe(column(lines[3]));
  });

  it('says why a figure is judged as a bound', () => {
    const text = renderResults([
      { bench: 'fallback', figure: benchFigure({ bound: { max: 35, why: 'a schedule time' } }) },
      {
        bench: 'fallback',
        figure: benchFigure({ name: 'p50', bound: { max: 20, why: 'a schedule time' } }),
      },
    ]);
    expect(text).toContain('bound ≤ 35.0 ms');
    expect(text).toContain(
      'Bounds, judged on the worst repetition, because a schedule time: fallback / time to answer p99; fallback / p50',
    );
  });
});

describe('the history line', () => {
  it('holds the commit, the machine, the load and every figure with its ratio and result', () => {
    const recorded = benchRun([
      { bench: 'webhook', figure: benchFigure({ ratioTarget: { max: 3 } }) },
    ]);
    expect(recorded).toMatchObject({
      version: 1,
      date: '2026-11-23T10:00:00.000Z',
      commit: 'a'.repeat(40),
      dirty: false,
      seed: 7,
      machine: BENCH_MACHINE,
      load: [{ bench: 'webhook', before: 1.5, after: 2.5, seconds: 30 }],
    });
    expect(recorded.figures).toEqual([
      {
        bench: 'webhook',
        name: 'time to answer p99',
        unit: 'ms',
        value: 12,
        spread: { min: 10, max: 15, n: 5 },
        baselineName: 'bare server p99',
        baseline: 6,
        baselineSpread: { min: 5, max: 7, n: 5 },
        ratio: 2,
        ratioTarget: { max: 3 },
        pass: true,
      },
    ]);
  });

  it('is one line of JSON that parses back to the same run', () => {
    const recorded = benchRun([{ bench: 'webhook', figure: benchFigure() }]);
    const text = serializeHistoryLine(recorded);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().includes('\n')).toBe(false);
    expect(parseHistory(text + text)).toEqual([recorded, recorded]);
  });

  it('stores a figure that could not be measured as null, not as invalid JSON', () => {
    const recorded = benchRun([{ bench: 'webhook', figure: benchFigure({ value: Number.NaN }) }]);
    const [parsed] = parseHistory(serializeHistoryLine(recorded));
    expect(parsed?.figures[0]).toMatchObject({ value: null, ratio: null });
  });

  it('refuses a history line that is not a recorded run', () => {
    expect(() => parseHistory('{"version":1}\n')).toThrow(BenchHistoryError);
    expect(() => parseHistory('not json\n')).toThrow(/line 1 is not JSON/);
  });
});

describe('--compare', () => {
  const before = benchRun([
    { bench: 'webhook', figure: benchFigure({ value: 10, baseline: 5, ratioTarget: { max: 3 } }) },
    { bench: 'webhook', figure: benchFigure({ name: 'retired figure' }) },
    { bench: 'sync', figure: benchFigure({ name: 'sync wall time', value: 8, baseline: 4 }) },
  ]);

  it('says so when there is no recorded run', () => {
    const comparison = compareRuns(null, benchRun([{ bench: 'webhook', figure: benchFigure() }]));
    expect(comparison.changes).toEqual([]);
    expect(renderComparison(comparison)).toMatch(/^No recorded run to compare with/);
  });

  it('gives the change of each figure and of its ratio from the last recorded run', () => {
    const now = benchRun([
      {
        bench: 'webhook',
        figure: benchFigure({ value: 12, baseline: 5, ratioTarget: { max: 3 } }),
      },
      { bench: 'webhook', figure: benchFigure({ name: 'new figure', value: 1 }) },
    ]);
    const { changes } = compareRuns(before, now);
    expect(changes.map((c) => [c.name, c.valueChangePct, c.ratioChangePct])).toEqual([
      // value 10 -> 12: +20%; ratio 2 -> 2.4: +20%.
      ['time to answer p99', 20, expect.closeTo(20, 10)],
      ['new figure', null, null],
      // Gone from a bench that ran; the sync did not run, so its figure is not reported gone.
      ['retired figure', null, null],
    ]);
    const text = renderComparison(compareRuns(before, now));
    expect(text).toContain(
      `Change from the run recorded 2026-11-23T10:00:00.000Z at ${'a'.repeat(12)}`,
    );
    expect(text).toMatch(
      /time to answer p99\s+10\.0 ms\s+12\.0 ms\s+\+20%\s+2\.00×\s+2\.40×\s+\+20%\s+pass → pass/,
    );
    expect(text).toMatch(/new figure\s+new\s+1\.00 ms/);
    expect(text).toMatch(/retired figure\s+12\.0 ms\s+not in this run/);
    expect(text).not.toContain('sync wall time');
  });

  it('shows a change too small to print as 0.0%, without a sign', () => {
    const now = benchRun([
      {
        bench: 'webhook',
        figure: benchFigure({ value: 10.001, baseline: 5, ratioTarget: { max: 3 } }),
      },
    ]);
    expect(renderComparison(compareRuns(before, now))).toMatch(/10\.0 ms\s+0\.0%\s+2\.00×/);
  });

  it('matches a figure whose bracketed count changed, and no other', () => {
    const backup = (name: string) => ({ bench: 'ten-year-shop', name });
    expect(figureKey(backup('daily backup of the ten-year store (7.28 GB)'))).toBe(
      figureKey(backup('daily backup of the ten-year store (7.30 GB)')),
    );
    expect(figureKey(backup('start-up on the ten-year store (median of 9)'))).not.toBe(
      figureKey(backup('start-up on the 365-day store (median of 3)')),
    );
    expect(figureKey(backup('callbacks per second (memory inbox, not durable)'))).not.toBe(
      figureKey(backup('callbacks per second')),
    );
    const then = benchRun([
      { bench: 'ten-year-shop', figure: benchFigure({ name: 'backup (7.28 GB)' }) },
    ]);
    const now = benchRun([
      { bench: 'ten-year-shop', figure: benchFigure({ name: 'backup (7.30 GB)' }) },
    ]);
    expect(compareRuns(then, now).changes.map((c) => [c.name, c.before?.name])).toEqual([
      ['backup (7.30 GB)', 'backup (7.28 GB)'],
    ]);
  });

  it('shows a result that turned from pass to missed', () => {
    const now = benchRun([
      {
        bench: 'webhook',
        figure: benchFigure({ value: 20, baseline: 5, ratioTarget: { max: 3 } }),
      },
    ]);
    expect(renderComparison(compareRuns(before, now))).toMatch(/\+100%.*pass → MISSED/);
  });
});

describe('interleaved rounds', () => {
  it('gives every round a permutation of the variants, the same for the same seed', () => {
    const orders = roundOrders(['A', 'B', 'C'], 6, 42);
    expect(orders).toHaveLength(6);
    for (const order of orders) expect([...order].sort()).toEqual(['A', 'B', 'C']);
    expect(roundOrders(['A', 'B', 'C'], 6, 42)).toEqual(orders);
  });

  it('balances two variants: every two rounds are A B and B A, in a random order', () => {
    for (const seed of [1, 11, 13, 1234567]) {
      const orders = roundOrders(['A', 'B'], 8, seed).map((order) => order.join(''));
      for (let i = 0; i < orders.length; i += 2) {
        expect([orders[i], orders[i + 1]].sort()).toEqual(['AB', 'BA']);
      }
    }
    const firstPairs = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => roundOrders(['A', 'B'], 2, seed)[0]);
    expect(new Set(firstPairs.map((order) => order?.join('')))).toEqual(new Set(['AB', 'BA']));
  });

  it('runs each of n variants once in each position every n rounds', () => {
    const variants = ['bare', 'durable', 'perCallback', 'memory'];
    const orders = roundOrders(variants, 8, 99);
    for (const square of [orders.slice(0, 4), orders.slice(4, 8)]) {
      for (let position = 0; position < 4; position++) {
        expect(square.map((order) => order[position]).sort()).toEqual([...variants].sort());
      }
    }
  });

  it('does not always run the same variant after another', () => {
    const followers = new Set(
      roundOrders(['A', 'B', 'C', 'D'], 40, 5)
        .map((order) => order[order.indexOf('A') + 1])
        .filter((follower) => follower !== undefined),
    );
    expect(followers).toEqual(new Set(['B', 'C', 'D']));
  });

  it('runs each variant once per round in that round order', async () => {
    const calls: string[] = [];
    const { results, orders } = await interleave(
      {
        A: () => Promise.resolve(calls.push('A')),
        B: () => Promise.resolve(calls.push('B')),
      },
      4,
      3,
    );
    expect(calls).toEqual(orders.flat());
    expect(results.A).toHaveLength(4);
    expect(results.B).toHaveLength(4);
    expect(describeOrders(orders)).toMatch(/^[AB] [AB]( \| [AB] [AB]){3}$/);
  });
});
