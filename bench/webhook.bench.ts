/**
 * Webhook figure: 10,000 valid callbacks at 50 concurrent keep-alive connections against the
 * real listener and the app's real store (callback_log in a migrated SQLite file, WAL,
 * synchronous=FULL), each callback committed before its 200 — by group commit: callbacks that
 * arrive during one commit share the next — with the app's real logger (rotating file,
 * redaction). Beside it, in the same run and with the same client, a bare node:http server that
 * reads the body and answers 200, the same bare server committing each body to the same kind of
 * store by the same group commit (the fair baseline of the p50: both pay the fsync), and the
 * same listener with one commit per callback.
 *
 * The client runs in a worker thread so that it does not share an event loop with the server
 * (the provider is another machine); on a 2-core box the two threads use both cores.
 *
 * All five servers are up for the whole bench and measured in five rounds, each round in its
 * own seeded random order (printed): run in a fixed order, the last one ran on a warmer JIT and
 * a quieter machine and came out faster than the bare server it is built on. Within a round the
 * servers take turns, a tenth of their callbacks a turn (measureRound), so that a burst of other
 * work on a shared machine meets them all. Each figure is the median of the five rounds.
 *
 * Quick mode (CI, `--quick`): the same five servers on the same path and client, three rounds of
 * far fewer callbacks (QUICK_PLAN); every figure is still reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppLogger, type Logger } from '#main/logging/logger';
import { createGroupCommitInbox } from '#main/store/callback-inbox';
import { openDatabase, type Db } from '#main/store/database';
import { openSqliteTestInbox } from '#support/sqlite-inbox';
import type { CallbackInbox, RawCallbackRecord } from '#main/webhook/types';
import { generateCallbackToken, startWebhookListener } from '#main/webhook/webhook-listener';
import { REPETITIONS, summarise, type BenchContext, type BenchFigure } from './bench-figure';
import { describeOrders, roundOrders } from './interleave';
import {
  clientFigures,
  startClient,
  type ClientFigures,
  type ClientResult,
} from './webhook-client';

/** How much each round sends: the full run, or CI's quick one. */
interface Plan {
  readonly rounds: number;
  /** Callbacks per round at CONCURRENCY connections. */
  readonly total: number;
  /** Turns per round: each server sends total / slices (and perCallbackTotal / slices) a turn. */
  readonly slices: number;
  /** One commit per callback runs at the disk's fsync rate (a few hundred a second when busy). */
  readonly perCallbackTotal: number;
  readonly warmup: number;
  /** One connection, one request at a time. */
  readonly unloaded: number;
  /** INSERTs per measurement of the disk's ceiling. */
  readonly inserts: number;
}

const FULL_PLAN: Plan = {
  rounds: REPETITIONS,
  total: 10_000,
  slices: 10,
  perCallbackTotal: 2_000,
  warmup: 500,
  unloaded: 500,
  inserts: 3_000,
};
const QUICK_PLAN: Plan = {
  rounds: 3,
  total: 1_000,
  slices: 2,
  perCallbackTotal: 100,
  warmup: 100,
  unloaded: 30,
  inserts: 100,
};
const CONCURRENCY = 50;
const TARGET_PER_SECOND = 2_000;
const TARGET_P99_MS = 20;
/**
 * Ratio targets to the bare server (same client, same rounds). Durable: at least half its rate
 * and at most twice its p50 and p99, though each callback is committed (fsync) before its 200:
 * group commit must make the disk nearly free under load. The listener with an in-memory inbox
 * (its own parsing, token check, rate limiter, logger): at least half the bare rate.
 */
const DURABLE_RATE_MIN = 0.5;
const DURABLE_LATENCY_MAX = 2;
/**
 * The p50 is judged against the fairer baseline (issue 26): a bare node:http server that commits
 * each body to the same kind of store by the same group commit before its 200, so both pay the
 * same fsync; what is left is the listener's own work (token, parsing, limiter, logger, hint).
 */
const FAIR_LATENCY_MAX = 1.2;
const LISTENER_RATE_MIN = 0.5;

interface Measured extends ClientFigures {
  /** One connection, one request at a time: the answer time without any queue. */
  readonly unloadedP99: number;
}

/**
 * One round: every server warmed up, then its callbacks sent in `plan.slices` slices with the
 * servers taking turns (the round's order, then reversed, and so on), then one connection, one
 * request at a time. A server's figures are those of its slices together. Sent in one block per
 * server, a round compared servers measured seconds apart, and on a busy machine a burst of
 * someone else's work landed on one of them: a busy run's round ratios spread 0.58–1.96x.
 */
async function measureRound(
  order: readonly Variant[],
  started: Readonly<Record<Variant, Server>>,
  plan: Plan,
  runIdOf: (variant: Variant) => string,
): Promise<Record<Variant, Round>> {
  /** Each server's client, the round's run id and the turns' results so far. */
  const lanes = order.map((variant) => ({
    variant,
    client: startClient(started[variant].port, started[variant].path, CONCURRENCY),
    runId: runIdOf(variant),
    perTurn: totalOf(variant, plan) / plan.slices,
    turns: [] as ClientResult[],
  }));
  try {
    for (const lane of lanes) {
      await lane.client.run({
        total: plan.warmup,
        concurrency: CONCURRENCY,
        runId: `w${lane.runId}`.slice(0, 20),
      });
    }
    for (let slice = 0; slice < plan.slices; slice += 1) {
      for (const lane of slice % 2 === 0 ? lanes : [...lanes].reverse()) {
        lane.turns.push(
          await lane.client.run({
            total: lane.perTurn,
            concurrency: CONCURRENCY,
            runId: lane.runId,
            first: slice * lane.perTurn,
          }),
        );
      }
    }
    const round: Partial<Record<Variant, Round>> = {};
    for (const lane of lanes) {
      const unloaded = await lane.client.run({
        total: plan.unloaded,
        concurrency: 1,
        runId: `u${lane.runId}`.slice(0, 20),
      });
      round[lane.variant] = {
        ...clientFigures(lane.turns),
        unloadedP99: clientFigures([unloaded]).p99,
        runId: lane.runId,
      };
    }
    return round as Record<Variant, Round>;
  } finally {
    for (const lane of lanes) await lane.client.close();
  }
}

function totalOf(variant: Variant, plan: Plan): number {
  return variant === 'perCallback' ? plan.perCallbackTotal : plan.total;
}

async function bareServer(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      Buffer.concat(chunks).toString('utf8');
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': '11',
      });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    path: '/callbacks/anything',
    handedOn: () => 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The fair baseline: bare node:http that commits each body to a store of the app's kind (a
 * migrated SQLite file, WAL, synchronous=FULL) through the same group-commit inbox, then answers
 * 200. No token, no parsing, no limiter, no logger.
 */
async function bareDurableServer(db: Db): Promise<Server> {
  const inbox = createGroupCommitInbox(() => db);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      void inbox
        .store({
          receivedAt: Date.now(),
          remoteAddress: '127.0.0.1',
          method: 'POST',
          contentType: request.headers['content-type'] ?? null,
          headers: {},
          body,
          parseStatus: 'ok',
          hint: null,
        })
        .then(
          () => {
            response.writeHead(200, {
              'content-type': 'application/json; charset=utf-8',
              'content-length': '11',
            });
            response.end('{"ok":true}');
          },
          () => response.writeHead(500).end(),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    path: '/callbacks/anything',
    handedOn: () => 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Server {
  readonly port: number;
  readonly path: string;
  /** Callbacks the listener handed to the engine so far (0 for the bare server). */
  handedOn(): number;
  close(): Promise<void>;
}

/** The real listener over `inbox`, up until closed. */
async function startListener(inbox: CallbackInbox, logger: Logger): Promise<Server> {
  let handedOn = 0;
  const token = generateCallbackToken();
  const listener = await startWebhookListener({
    tokens: () => [token],
    inbox,
    onCallback: () => {
      handedOn += 1;
    },
    logger,
    // Every request comes from 127.0.0.1 here; the limiter still runs, at a limit it never hits.
    rateLimit: { perAddressPerMinute: 10_000_000 },
  });
  return {
    port: listener.port,
    path: listener.callbackPath(),
    handedOn: () => handedOn,
    close: () => listener.close(),
  };
}

/** The ceiling set by the disk: INSERTs per second with no HTTP at all, in one synchronous mode. */
function insertsPerSecond(file: string, synchronous: 'FULL' | 'NORMAL', count: number): number {
  const inbox = openSqliteTestInbox(file);
  inbox.db.pragma(`synchronous = ${synchronous}`);
  const record: RawCallbackRecord = {
    receivedAt: Date.now(),
    remoteAddress: '127.0.0.1',
    method: 'POST',
    path: '/callbacks/:token',
    contentType: 'application/json',
    headers: {
      host: '127.0.0.1:40000',
      'content-type': 'application/json',
      'content-length': '230',
    },
    body: 'x'.repeat(230),
    parseStatus: 'ok',
    hint: { reference: 'bench', sessionId: '1', amountKobo: 150050, status: 'success' },
  };
  const started = performance.now();
  for (let i = 0; i < count; i += 1) void inbox.store(record);
  const elapsed = performance.now() - started;
  inbox.close();
  return (count / elapsed) * 1000;
}

const VARIANTS = ['bare', 'bareDurable', 'durable', 'perCallback', 'memory'] as const;
type Variant = (typeof VARIANTS)[number];

interface Round extends Measured {
  readonly runId: string;
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const plan = context.quick ? QUICK_PLAN : FULL_PLAN;
  const dir = mkdtempSync(join(tmpdir(), 'till-bench-webhook-'));
  const runBase = `9${Date.now()}`.slice(0, 14);
  const log = createAppLogger({ dataDir: dir });
  const inbox = openSqliteTestInbox(join(dir, 'inbox.sqlite'));
  const db = openDatabase({ path: join(dir, 'till.sqlite') });
  const bareDb = openDatabase({ path: join(dir, 'bare-durable.sqlite') });
  const servers: Server[] = [];
  let rounds: Record<Variant, Round[]>;
  let orders: Variant[][];
  let stored: number[];
  let handedOn: number;
  let settings: string;
  const inserts = { full: [] as number[], normal: [] as number[] };
  try {
    let nextId = 0;
    const started: Record<Variant, Server> = {
      bare: await bareServer(),
      bareDurable: await bareDurableServer(bareDb),
      durable: await startListener(
        createGroupCommitInbox(() => db),
        log.logger,
      ),
      perCallback: await startListener(inbox, log.logger),
      memory: await startListener({ store: () => ({ id: (nextId += 1) }) }, log.logger),
    };
    servers.push(...Object.values(started));
    let sequence = 0;
    /** Session ids are 30 digits: a per-run base, the measurement's number, then the callback's. */
    const runIdOf = (): string => {
      sequence += 1;
      return `${runBase}${String(sequence).padStart(3, '0')}`.padEnd(20, '0');
    };
    orders = roundOrders(VARIANTS, plan.rounds, context.seed);
    rounds = { bare: [], bareDurable: [], durable: [], perCallback: [], memory: [] };
    for (const order of orders) {
      const round = await measureRound(order, started, plan, runIdOf);
      for (const variant of VARIANTS) rounds[variant].push(round[variant]);
    }
    await new Promise((resolve) => setImmediate(resolve));
    handedOn = started.durable.handedOn();
    const countStored = db.prepare(
      `SELECT count(DISTINCT hint_session_id) FROM callback_log
       WHERE hint_session_id LIKE ? AND parse_status = 'ok'`,
    );
    stored = rounds.durable.map((round) => countStored.pluck().get(`${round.runId}%`) as number);
    settings = `journal_mode=${String(db.pragma('journal_mode', { simple: true }))}, synchronous=${String(
      db.pragma('synchronous', { simple: true }),
    )} (2 = FULL)`;
    for (let i = 0; i < plan.rounds; i++) {
      inserts.full.push(insertsPerSecond(join(dir, `full-${i}.sqlite`), 'FULL', plan.inserts));
      inserts.normal.push(
        insertsPerSecond(join(dir, `normal-${i}.sqlite`), 'NORMAL', plan.inserts),
      );
    }
  } finally {
    for (const server of servers) await server.close();
    inbox.close();
    db.close();
    bareDb.close();
    log.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const of = (variant: Variant, key: 'perSecond' | 'p50' | 'p99' | 'unloadedP99') =>
    summarise(rounds[variant].map((round) => round[key]));
  const pair = (
    variant: Variant,
    key: 'perSecond' | 'p50' | 'p99' | 'unloadedP99',
  ): Pick<BenchFigure, 'value' | 'spread' | 'baseline' | 'baselineSpread' | 'baselineName'> => {
    const subject = of(variant, key);
    const bare = of('bare', key);
    return {
      value: subject.median,
      spread: subject.spread,
      baselineName: 'bare node:http, same client, same rounds',
      baseline: bare.median,
      baselineSpread: bare.spread,
    };
  };
  /** Round by round, subject / baseline of the same round, and their median (the judged ratio). */
  const perRound = (
    variant: Variant,
    baseline: Variant,
    key: 'perSecond' | 'p50' | 'p99',
  ): { readonly ratios: number[]; readonly median: number } => {
    const ratios = rounds[variant].map(
      (round, i) => round[key] / (rounds[baseline][i]?.[key] ?? NaN),
    );
    return { ratios, median: summarise(ratios).median };
  };
  const roundRatios = (paired: { readonly ratios: readonly number[] }) =>
    paired.ratios.map((ratio) => `${ratio.toFixed(2)}x`).join(', ');
  const durableRatePaired = perRound('durable', 'bare', 'perSecond');
  const durableP50Paired = perRound('durable', 'bareDurable', 'p50');
  const durableP99Paired = perRound('durable', 'bare', 'p99');
  const memoryRatePaired = perRound('memory', 'bare', 'perSecond');
  const durableRate = of('durable', 'perSecond').median;
  const durableP99 = of('durable', 'p99').median;
  const durableP50 = of('durable', 'p50');
  const fairP50 = of('bareDurable', 'p50');
  // Little's law: with 50 requests always in flight, the mean wait is 50 / throughput.
  const meanFloorMs = (CONCURRENCY / durableRate) * 1000;
  const kept = summarise(rounds.durable.map((round, i) => Math.min(round.ok, stored[i] ?? 0)));
  const bareOk = summarise(rounds.bare.map((round) => round.ok));
  const full = summarise(inserts.full);
  const normal = summarise(inserts.normal);
  const perCallback = rounds.perCallback;
  const memory = rounds.memory;
  const median = (values: number[]) => summarise(values).median;
  return [
    {
      name: 'callbacks per second (durable)',
      unit: '/s',
      ...pair('durable', 'perSecond'),
      pairedRatio: durableRatePaired.median,
      ratioTarget: { min: DURABLE_RATE_MIN },
      absoluteTarget: { text: `≥ ${TARGET_PER_SECOND}/s`, met: durableRate >= TARGET_PER_SECOND },
      note: `${plan.total} callbacks per round, ${CONCURRENCY} keep-alive connections, each committed before its 200 (group commit), app logger on; ${settings}; judged: the median of the rounds' ratios (${roundRatios(durableRatePaired)}); ${plan.rounds} rounds of bare, bare with the store, durable, one-commit-per-callback and memory inbox, each round in ${plan.slices} turns a server (the round's order, then reversed), order per round (seed ${context.seed}): ${describeOrders(orders)}`,
    },
    {
      name: 'time to answer p50 (durable)',
      unit: 'ms',
      value: durableP50.median,
      spread: durableP50.spread,
      baselineName:
        'bare node:http committing each body to the same kind of store (group commit), same client, same rounds',
      baseline: fairP50.median,
      baselineSpread: fairP50.spread,
      pairedRatio: durableP50Paired.median,
      ratioTarget: { max: FAIR_LATENCY_MAX },
      note: `judged against the baseline that pays the same fsync (issue 26), as the median of the rounds' ratios (${roundRatios(durableP50Paired)}; the medians' ratio ${(durableP50.median / fairP50.median).toFixed(2)}x); against bare node:http with no store: ${durableP50.median.toFixed(1)} vs ${of('bare', 'p50').median.toFixed(1)} ms (${(durableP50.median / of('bare', 'p50').median).toFixed(2)}x, printed, not judged)`,
    },
    {
      name: 'time to answer p50 (bare server with the store)',
      unit: 'ms',
      ...pair('bareDurable', 'p50'),
      note: `what the commit alone costs a bare server: ${of('bareDurable', 'perSecond').median.toFixed(0)}/s, p99 ${of('bareDurable', 'p99').median.toFixed(1)} ms`,
    },
    {
      name: 'time to answer p99 (durable)',
      unit: 'ms',
      ...pair('durable', 'p99'),
      pairedRatio: durableP99Paired.median,
      ratioTarget: { max: DURABLE_LATENCY_MAX },
      absoluteTarget: { text: `< ${TARGET_P99_MS} ms`, met: durableP99 < TARGET_P99_MS },
      note: `rounds' ratios ${roundRatios(durableP99Paired)}; with ${CONCURRENCY} in flight the mean alone is ${meanFloorMs.toFixed(1)} ms (50 / throughput), and every fsync stall delays the whole queue`,
    },
    {
      name: 'time to answer p99, one connection (no queue)',
      unit: 'ms',
      ...pair('durable', 'unloadedP99'),
      note: `${plan.unloaded} callbacks one after another: the answer time a real provider sees; the durable one includes a commit (fsync) per callback, the bare one none, so the ratio is printed, not judged`,
    },
    {
      name: 'callbacks answered 200 and stored (durable)',
      unit: `of ${plan.total}`,
      value: kept.median,
      spread: kept.spread,
      baselineName: 'bare node:http answered 200',
      baseline: bareOk.median,
      baselineSpread: bareOk.spread,
      bound: {
        min: plan.total,
        why: 'a count of lost callbacks, which must be none on any machine',
      },
      note: `per round answered 200: ${rounds.durable.map((r) => r.ok).join(', ')}; distinct session ids stored: ${stored.join(', ')}; handed to the engine in all: ${handedOn} (warm-ups and one-connection runs included)`,
    },
    {
      name: 'callbacks per second (durable, one commit per callback)',
      unit: '/s',
      ...pair('perCallback', 'perSecond'),
      note: `${plan.perCallbackTotal} callbacks per round; without group commit: p50 ${median(perCallback.map((r) => r.p50)).toFixed(1)} ms, p99 ${median(perCallback.map((r) => r.p99)).toFixed(1)} ms`,
    },
    {
      name: 'callbacks per second (memory inbox, not durable)',
      unit: '/s',
      ...pair('memory', 'perSecond'),
      pairedRatio: memoryRatePaired.median,
      ratioTarget: { min: LISTENER_RATE_MIN },
      note: `rounds' ratios ${roundRatios(memoryRatePaired)}; the listener's own cost: p50 ${median(memory.map((r) => r.p50)).toFixed(1)} ms, p99 ${median(memory.map((r) => r.p99)).toFixed(1)} ms`,
    },
    {
      name: 'INSERTs per second, no HTTP (synchronous=FULL)',
      unit: '/s',
      value: full.median,
      spread: full.spread,
      baselineName: 'same, synchronous=NORMAL',
      baseline: normal.median,
      baselineSpread: normal.spread,
      note: 'the disk ceiling: one fsync per commit bounds the one-commit-per-callback rate',
    },
  ];
}
