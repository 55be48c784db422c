/**
 * `npx tsx scripts/bench-trend.ts [--check]`: rewrites the trend block of docs/benchmarks.md
 * (bench/bench-trend.ts) from bench-results/history.jsonl. --check: change nothing, exit 1 when
 * the block is not what the history gives. `npm run bench` does the rewrite itself when it
 * records a run.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HISTORY_FILE } from '../bench/bench-report';
import { TREND_DOC, updateTrendDoc } from '../bench/bench-trend';

const root = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' } }, strict: true });
  const check = values.check ?? false;
  const changed = await updateTrendDoc(root, check);
  process.stdout.write(
    `${TREND_DOC}: ${
      !changed
        ? 'the trend block is up to date'
        : check
          ? `the trend block is not what ${HISTORY_FILE} gives (run npx tsx scripts/bench-trend.ts)`
          : `trend block rewritten from ${HISTORY_FILE}`
    }\n`,
  );
  if (changed && check) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench-trend failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
