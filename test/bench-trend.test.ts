import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE, parseHistory } from '../bench/bench-report';
import {
  TREND_DOC,
  TREND_END,
  TREND_RUNS,
  TREND_START,
  TrendBlockError,
  docWithTrend,
  renderTrend,
  withTrendBlock,
} from '../bench/bench-trend';
import { benchFigure, benchRun } from '#support/bench-runs';

const root = join(import.meta.dirname, '..');
const docFile = join(root, TREND_DOC);

describe('the trend in docs/benchmarks.md', () => {
  const doc = readFileSync(docFile, 'utf8');
  const history = parseHistory(readFileSync(join(root, HISTORY_FILE), 'utf8'));

  it('is what the committed history gives (npx tsx scripts/bench-trend.ts rewrites it)', async () => {
    expect(doc).toContain(TREND_START);
    expect(await docWithTrend(doc, history, docFile)).toBe(doc);
  });

  it('would change with the history: a recorded run left out of the block is caught', async () => {
    const last = history.at(-1);
    if (last === undefined) throw new Error('no recorded run in the history');
    const later = { ...last, date: '2027-01-01T00:00:00.000Z', commit: 'f'.repeat(40) };
    expect(await docWithTrend(doc, [...history, later], docFile)).not.toBe(doc);
  });
});

describe('the trend block', () => {
  const p50 = (value: number, overrides = {}) =>
    benchFigure({ name: 'p50', value, ratioTarget: { max: 2 }, ...overrides });
  const runs = [
    benchRun(
      [
        { bench: 'webhook', figure: p50(15, { ratioTarget: { max: 3 } }) },
        { bench: 'webhook', figure: benchFigure({ name: 'printed only' }) },
        {
          bench: 'bundle',
          figure: benchFigure({ name: 'size (140 KB)', bound: { max: 300, why: 'bytes' } }),
        },
      ],
      { date: '2026-11-01T10:00:00.000Z', commit: '1'.repeat(40) },
    ),
    benchRun(
      [
        { bench: 'webhook', figure: p50(9) },
        {
          bench: 'bundle',
          figure: benchFigure({ name: 'size (141 KB)', bound: { max: 300, why: 'bytes' } }),
        },
      ],
      { date: '2026-11-02T10:00:00.000Z', commit: '2'.repeat(40) },
    ),
  ];

  it('has one row per judged figure, a column per run, the target and each result', () => {
    const text = renderTrend(runs);
    const rows = text.split('\n').filter((row) => row.startsWith('| '));
    expect(rows).toEqual([
      '| bench | figure | target | 2026-11-01 1111111 | 2026-11-02 2222222 |',
      '| --- | --- | --- | --- | --- |',
      '| webhook | p50 | ≤ 2× | 2.50× pass (then ≤ 3×) | 1.50× pass |',
      '| bundle | size (141 KB) | bound ≤ 300 ms | worst 15.0 ms pass | worst 15.0 ms pass |',
    ]);
    expect(text).not.toContain('printed only');
    expect(text).toContain('of 2), oldest first');
  });

  it('marks a miss and a run without the figure', () => {
    const missed = benchRun([{ bench: 'webhook', figure: p50(30) }], {
      date: '2026-11-03T10:00:00.000Z',
    });
    const rows = renderTrend([...runs, missed]).split('\n');
    expect(rows).toContain(
      '| webhook | p50 | ≤ 2× | 2.50× pass (then ≤ 3×) | 1.50× pass | 5.00× **MISSED** |',
    );
    expect(rows.find((row) => row.startsWith('| bundle'))).toMatch(/ \| – \|$/);
  });

  it(`shows the last ${TREND_RUNS} runs and says how many there are`, () => {
    const many = Array.from({ length: TREND_RUNS + 2 }, (_, i) =>
      benchRun([{ bench: 'webhook', figure: p50(6 + i) }], {
        date: `2026-11-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`,
      }),
    );
    const text = renderTrend(many);
    expect(text).toContain(`last ${TREND_RUNS} recorded runs (of ${TREND_RUNS + 2})`);
    expect(text).not.toContain('2026-11-02 ');
    expect(text).toContain(`2026-11-${String(TREND_RUNS + 2).padStart(2, '0')} `);
  });

  it('replaces only what is between the markers, and refuses a document without them', () => {
    const doc = `# Title\n\n${TREND_START}\nold\n${TREND_END}\n\nAfter.\n`;
    expect(withTrendBlock(doc, 'new')).toBe(
      `# Title\n\n${TREND_START}\n\nnew\n\n${TREND_END}\n\nAfter.\n`,
    );
    expect(() => withTrendBlock('# Title\n', 'new')).toThrow(TrendBlockError);
    expect(renderTrend([])).toBe('No run recorded yet.');
  });
});
