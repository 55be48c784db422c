/**
 * The child process of bench/memory.bench.ts (not a bench module itself), which bundles it and
 * runs `node --expose-gc memory-child.mjs <data-dir>` (`--import tsx bench/memory-child.ts`
 * works too, with tsx's own memory on top). Starts the whole core on the
 * data directory, lets it settle, runs a full transaction sync through the bridge handler and
 * prints one JSON line with its own resident set size before, during and after.
 */
import { readFileSync } from 'node:fs';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { createCore } from '#main/core/create-core';
import type { SyncRunView } from '#shared/views';

const MB = 1024 * 1024;
const dataDir = process.argv[2];
if (!dataDir || typeof gc !== 'function') {
  throw new Error('usage: node --expose-gc memory-child.mjs <data-dir>');
}
const collect = gc;

/** Full collections with pauses between them, so that freed pages can go back to the OS. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const rss = (): number => process.memoryUsage().rss / MB;
const heap = (): number => process.memoryUsage().heapUsed / MB;

/** Where the resident pages are: V8's heap reservation, malloc'd memory, mapped files (Linux). */
function breakdown(): Record<string, number> {
  const usage = process.memoryUsage();
  const parts: Record<string, number> = {
    heapTotal: usage.heapTotal / MB,
    external: usage.external / MB,
  };
  try {
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const match = /^(RssAnon|RssFile|RssShmem):\s+(\d+) kB/.exec(line);
      if (match?.[1] && match[2]) parts[match[1]] = Number(match[2]) / 1024;
    }
  } catch {
    // Not Linux: the V8 figures only.
  }
  return parts;
}

const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-bench' });
await settle();
const before = rss();
const heapBefore = heap();
const partsBefore = breakdown();

let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rss());
}, 20);
const finished = new Promise<SyncRunView>((resolve) => {
  core.events.subscribe((event) => {
    if (event.type === 'sync-finished') resolve(event.payload);
  });
});
const started = performance.now();
await core.handlers.syncTransactions({ mode: 'full' }, IN_PROCESS_OWNER);
const syncRun = await finished;
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const after = rss();
const heapAfter = heap();
const partsAfter = breakdown();
peak = Math.max(peak, after);
await settle();
const afterGc = rss();
const heapAfterGc = heap();
const partsAfterGc = breakdown();

process.stdout.write(
  `${JSON.stringify({
    before,
    after,
    afterGc,
    peak,
    heapBefore,
    heapAfter,
    heapAfterGc,
    partsBefore,
    partsAfter,
    partsAfterGc,
    seconds,
    status: syncRun.status,
    inserted: syncRun.inserted,
    error: syncRun.error,
  })}\n`,
);
await core.close();
