/**
 * A busy day: 1,000 sales through the browser shell's bridge (scripts/web.ts, a fresh
 * --data-dir, the embedded sandbox provider), each paid by a transfer at the sandbox, with the
 * till's event stream open the whole time (read as it comes, as a page would). The till runs in
 * its own process; its resident memory (VmRSS), open file descriptors (/proc/<pid>/fd), the WAL
 * file's size and the create→account time (the createSale call over HTTP until its answer with
 * the account number) are taken in five blocks of 40 sales at the start of the day (sales 41-240,
 * after 40 that warm the till up) and five at the end (801-1,000). Each figure is the median of the end's blocks against the
 * median of the start's: a till that leaks memory, descriptors or WAL, or slows as its day fills,
 * shows it as a ratio. Judged: end ≤ 1.2× start. Quick mode (CI): 400 sales, three blocks at
 * each end (sales 41-160 and 281-400).
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tillDbPath } from '#main/config/data-files';
import { startJsonChild } from '#support/child-json';
import { openSseStream } from '#support/sse-stream';
import { callTill, sandboxTransfer, tokenOf, type WebShellLine } from '#support/web-till';
import { percentile, summarise, type BenchContext, type BenchFigure } from './bench-figure';

/** The first sales warm the till up (JIT, caches, the first checkpoints): outside both windows. */
const WARMUP = 40;
const BLOCK = 40;
interface Day {
  readonly sales: number;
  /** Blocks of BLOCK sales measured at each end of the day. */
  readonly blocks: number;
}
const FULL: Day = { sales: 1_000, blocks: 5 };
const QUICK: Day = { sales: 400, blocks: 3 };
const END_RATIO_MAX = 1.2;
const root = fileURLToPath(new URL('..', import.meta.url));

interface Sample {
  readonly rssBytes: number;
  readonly fds: number;
  readonly walBytes: number;
  readonly createP90Ms: number;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/** The till's descriptors by kind (socket, pipe, file...), to tell a pool from a leak. */
function fdKinds(pid: number): string {
  const kinds = new Map<string, number>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    const kind = /^(socket|pipe|anon_inode):/.exec(target)?.[1] ?? 'file';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const day = context.quick ? QUICK : FULL;
  const dataDir = mkdtempSync(join(tmpdir(), 'till-bench-busy-day-'));
  const web = await startJsonChild<WebShellLine>(
    'scripts/web.ts',
    ['--port', '0', '--data-dir', dataDir],
    { cwd: root, timeoutMs: 120_000 },
  );
  const pid = web.child.pid;
  if (pid === undefined) throw new Error('the till process has no pid');
  const wal = `${tillDbPath(dataDir, 'sandbox')}-wal`;
  const stream = await openSseStream(new URL('/api/events', web.first.url).href, {
    authorization: `Bearer ${tokenOf(web.first.url)}`,
  });
  let frames = 0;
  let streaming = true;
  const reading = (async () => {
    while (streaming) {
      try {
        await stream.next(60_000);
        frames += 1;
      } catch {
        return;
      }
    }
  })();
  const start: Sample[] = [];
  const end: Sample[] = [];
  let block: number[] = [];
  let afterDay = '';
  try {
    for (let n = 1; n <= day.sales; n++) {
      const naira = 100 + (n % 900);
      const asked = performance.now();
      const created = await callTill(web.first.url, 'createSale', { amount: String(naira) });
      const createMs = performance.now() - asked;
      if (!created.ok) throw new Error(`sale ${n} refused: ${created.error.message}`);
      const { accountNumber } = created.value as { accountNumber: string | null };
      if (!accountNumber) throw new Error(`sale ${n} has no account number`);
      await sandboxTransfer(web.first.control_url, accountNumber, naira);
      block.push(createMs);
      if (n % BLOCK !== 0) continue;
      const inStart = n > WARMUP && n <= WARMUP + BLOCK * day.blocks;
      const inEnd = n > day.sales - BLOCK * day.blocks;
      if (inStart || inEnd) {
        const sample: Sample = {
          rssBytes: rssOf(pid),
          fds: readdirSync(`/proc/${pid}/fd`).length,
          walBytes: sizeOf(wal),
          createP90Ms: percentile(Float64Array.from(block).sort(), 90),
        };
        (inStart ? start : end).push(sample);
      }
      block = [];
    }
    const atEnd = fdKinds(pid);
    // Keep-alive connections close after 5 s idle: what stays after that is not a pool.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    afterDay = `descriptors at the end of the day: ${atEnd}; after 6 s idle: ${fdKinds(pid)}`;
  } finally {
    streaming = false;
    stream.close();
    await reading;
    await web.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const pair = (key: keyof Sample, scale = 1) => {
    const at = (samples: Sample[]) => summarise(samples.map((sample) => sample[key] / scale));
    const [ended, started] = [at(end), at(start)];
    return {
      value: ended.median,
      spread: ended.spread,
      baseline: started.median,
      baselineSpread: started.spread,
      baselineName: `the same at the start of the day (sales ${WARMUP + 1}-${WARMUP + BLOCK * day.blocks})`,
      ratioTarget: { max: END_RATIO_MAX },
    };
  };
  const common = `${day.sales} sales through the bridge, each paid at the sandbox, event stream open all day (${frames} events read); the first ${WARMUP} warm up; blocks of ${BLOCK} sales, end = sales ${day.sales - BLOCK * day.blocks + 1}-${day.sales}; seed ${context.seed} (no random order: a day runs in order)`;
  return [
    {
      name: 'busy day: till RSS at the end of the day',
      unit: 'MB',
      ...pair('rssBytes', 1e6),
      note: common,
    },
    {
      name: 'busy day: open file descriptors at the end',
      unit: 'fds',
      ...pair('fds'),
      note: afterDay,
    },
    { name: 'busy day: WAL size at the end', unit: 'MB', ...pair('walBytes', 1e6) },
    { name: 'busy day: create→account p90 at the end', unit: 'ms', ...pair('createP90Ms') },
  ];
}
