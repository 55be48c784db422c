/**
 * The fault campaign: seeded randomised runs of whole sales against the embedded sandbox with
 * its fault injection on, each followed by an invariant check against the sandbox's own ledger.
 *
 * One run = a fresh data directory, a till (in this process, or in a child process that is
 * SIGKILLed), a script drawn from the run's seed (sales, customers, cashier actions, provider
 * faults, restarts) played on a fake clock, then a recovery phase (faults off, the clock moved
 * past every deadline plus the engine's late grace, a full sync) and the check.
 *
 * The script is a pure function of the seed; what happens in real time (callback deliveries
 * racing status checks, where exactly a SIGKILL lands) is not, so a seed replays the same
 * script, not necessarily the same interleaving.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_POLL_POLICY } from '../../src/main/engine/sales-engine';
import { openNodeSettings } from '../../src/main/settings/node-settings';
import { createSettingsStore } from '../../src/main/settings/settings-store';
import type { BridgeResult } from '../../src/shared/bridge/contract';
import type { SaleView } from '../../src/shared/sales';
import {
  checkInvariants,
  readStore,
  tillDbPath,
  type LedgerTx,
  type Violation,
  type InvariantResult,
} from './invariants';
import { createPrng, runSeed, type Prng } from './prng';
import { openChildTill, openInProcessTill, TILL_VERSION, type ChildTill, type Till } from './till';

export const FAULT_KINDS = [
  'provider_latency',
  'provider_5xx',
  'malformed_responses',
  'lying_count',
  'callbacks_dropped',
  'callbacks_duplicated',
  'callbacks_resent',
  'callbacks_unreachable',
  'callback_delivery_failures',
  'payments_pending',
  'wrong_amounts',
  'paid_twice',
  'paid_after_cancel',
  'refused_after_expiry',
  'provider_expired_early',
  'counter_payments',
  'restarts',
  'sigkills',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface RunReport {
  readonly index: number;
  readonly seed: number;
  readonly mode: Till['kind'];
  readonly durationMs: number;
  readonly faults: Readonly<Record<FaultKind, number>>;
  readonly result: InvariantResult;
  readonly violations: readonly Violation[];
  /** Non-coded handler errors and error-level log lines: reported, not failures. */
  readonly problems: readonly string[];
  readonly dataDir: string;
}

export interface RunOptions {
  readonly index: number;
  readonly seed: number;
  /** Whether this run's till is a child process that is SIGKILLed during the run. */
  readonly sigkill: boolean;
  /** Keep the data directory of a passing run (a failing run's is always kept). */
  readonly keepData?: boolean;
  /** Each step as it is played, with the fake and real time it took (replaying one run). */
  readonly trace?: (line: string) => void;
}

const START_MS = Date.UTC(2026, 10, 23, 8, 0, 0);
const SECOND = 1_000;
const MINUTE = 60_000;

// -------------------------------------------------------------------------------------------
// The script

type Behaviour =
  | 'exact'
  | 'wrong-then-exact'
  | 'wrong-only'
  | 'none'
  | 'cancel-then-pay'
  | 'cancel-only'
  | 'pay-twice'
  | 'near-deadline';

interface FaultState {
  latency_ms: number;
  error_rate: number;
  drop_callbacks: number;
  duplicate_callbacks: number;
  malformed_rate: number;
  count_skew: number;
}

type KillPoint = 'between-steps' | 'mid-create' | 'mid-transfer' | 'mid-advance' | 'mid-check';

type Step =
  | { readonly at: number; readonly kind: 'create'; readonly sale: number }
  | {
      readonly at: number;
      readonly kind: 'pay';
      readonly sale: number;
      readonly wrong: boolean;
      readonly pendingMs: number;
    }
  | { readonly at: number; readonly kind: 'cancel' | 'check' | 'retry'; readonly sale: number }
  | { readonly at: number; readonly kind: 'provider-expire'; readonly sale: number }
  | { readonly at: number; readonly kind: 'counter-create'; readonly fixedKobo: number | null }
  | { readonly at: number; readonly kind: 'counter-pay'; readonly kobo: number }
  | { readonly at: number; readonly kind: 'resend'; readonly pick: number; readonly copies: number }
  | { readonly at: number; readonly kind: 'faults'; readonly patch: Partial<FaultState> }
  | { readonly at: number; readonly kind: 'callbacks-down' }
  | { readonly at: number; readonly kind: 'sync' }
  | { readonly at: number; readonly kind: 'restart' }
  | {
      readonly at: number;
      readonly kind: 'kill';
      readonly point: KillPoint;
      readonly sale: number;
      readonly delayMs: number;
    };

interface SalePlan {
  readonly amountKobo: number;
  readonly behaviour: Behaviour;
  readonly wrongKobo: number;
}

interface Script {
  readonly expiryMinutes: number;
  readonly fixedListenerPort: boolean;
  readonly sales: readonly SalePlan[];
  readonly steps: readonly Step[];
  readonly faultSeed: number;
}

function randomFaults(rng: Prng): Partial<FaultState> {
  const patch: Partial<FaultState> = {};
  if (rng.chance(0.5)) patch.latency_ms = rng.int(1, 12);
  if (rng.chance(0.5)) patch.error_rate = rng.pick([0.05, 0.1, 0.2, 0.3] as const);
  if (rng.chance(0.5)) patch.drop_callbacks = rng.pick([0.2, 0.5, 0.8] as const);
  if (rng.chance(0.4)) patch.duplicate_callbacks = rng.pick([0.2, 0.5, 1] as const);
  if (rng.chance(0.25)) patch.malformed_rate = rng.pick([0.05, 0.1, 0.2] as const);
  if (rng.chance(0.15)) patch.count_skew = rng.pick([-3, -1, 2, 7] as const);
  return patch;
}

const NO_FAULTS: FaultState = {
  latency_ms: 0,
  error_rate: 0,
  drop_callbacks: 0,
  duplicate_callbacks: 0,
  malformed_rate: 0,
  count_skew: 0,
};

export function drawScript(seed: number, sigkill: boolean): Script {
  const rng = createPrng(seed);
  const expiryMinutes = rng.pick([2, 5, 10, 15] as const);
  const expiry = expiryMinutes * MINUTE;
  const steps: Step[] = [];
  const sales: SalePlan[] = [];
  const saleCount = rng.int(1, 4);
  for (let k = 0; k < saleCount; k++) {
    const amountKobo = rng.int(100, 50_000) * 100 + (rng.chance(0.5) ? rng.int(1, 99) : 0);
    const delta = rng.chance(0.5) ? rng.int(1, 99) : rng.int(1, 500) * 100;
    const wrongKobo =
      rng.chance(0.5) || amountKobo - delta <= 0 ? amountKobo + delta : amountKobo - delta;
    const behaviour = rng.pick([
      'exact',
      'exact',
      'exact',
      'wrong-then-exact',
      'wrong-only',
      'none',
      'cancel-then-pay',
      'cancel-only',
      'pay-twice',
      'near-deadline',
    ] as const);
    sales.push({ amountKobo, behaviour, wrongKobo });
    const created = rng.int(0, 120) * SECOND;
    steps.push({ at: created, kind: 'create', sale: k });
    const within = (from: number, to: number) => created + rng.int(from, to);
    const pending = () =>
      rng.chance(0.3)
        ? rng.pick([
            rng.int(1, 30) * SECOND,
            rng.int(1, 10) * MINUTE,
            rng.int(10, 45) * MINUTE,
            rng.int(30, 70) * MINUTE,
          ] as const)
        : 0;
    const pay = (at: number, wrong: boolean) =>
      steps.push({ at, kind: 'pay', sale: k, wrong, pendingMs: wrong ? 0 : pending() });
    switch (behaviour) {
      case 'exact':
        pay(within(2 * SECOND, expiry + 30 * SECOND), false);
        break;
      case 'wrong-then-exact': {
        const first = within(2 * SECOND, expiry - SECOND);
        pay(first, true);
        pay(first + rng.int(1, 120) * SECOND, false);
        break;
      }
      case 'wrong-only':
        pay(within(2 * SECOND, expiry), true);
        break;
      case 'none':
        break;
      case 'cancel-then-pay': {
        const cancelAt = within(2 * SECOND, expiry - 2 * SECOND);
        steps.push({ at: cancelAt, kind: 'cancel', sale: k });
        pay(cancelAt + rng.int(0, Math.max(0, created + expiry - cancelAt - 1)), false);
        break;
      }
      case 'cancel-only':
        steps.push({ at: within(2 * SECOND, expiry), kind: 'cancel', sale: k });
        break;
      case 'pay-twice': {
        const first = within(2 * SECOND, expiry - SECOND);
        pay(first, false);
        pay(first + rng.int(0, 60) * SECOND, false);
        break;
      }
      case 'near-deadline':
        pay(created + expiry + rng.int(-10, 10) * SECOND, false);
        break;
    }
    if (rng.chance(0.3)) steps.push({ at: within(SECOND, expiry), kind: 'check', sale: k });
    if (rng.chance(0.15)) steps.push({ at: within(SECOND, expiry), kind: 'check', sale: k });
    if (rng.chance(0.6)) steps.push({ at: within(SECOND, 60 * SECOND), kind: 'retry', sale: k });
    if (rng.chance(0.06))
      steps.push({ at: within(10 * SECOND, expiry), kind: 'provider-expire', sale: k });
  }
  const horizon = 2 * MINUTE + expiry + MINUTE;
  if (rng.chance(0.5)) steps.push({ at: 0, kind: 'faults', patch: randomFaults(rng) });
  for (let w = rng.int(0, 3); w > 0; w--) {
    const from = rng.int(0, horizon);
    steps.push({ at: from, kind: 'faults', patch: randomFaults(rng) });
    steps.push({
      at: from + rng.int(10 * SECOND, expiry),
      kind: 'faults',
      patch: { ...NO_FAULTS },
    });
  }
  if (rng.chance(0.25)) steps.push({ at: rng.int(0, expiry), kind: 'callbacks-down' });
  for (let r = rng.chance(0.35) ? rng.int(1, 3) : 0; r > 0; r--) {
    steps.push({
      at: rng.int(SECOND, horizon),
      kind: 'resend',
      pick: rng.next(),
      copies: rng.int(1, 4),
    });
  }
  if (rng.chance(0.3)) steps.push({ at: rng.int(0, horizon), kind: 'sync' });
  // A permanent counter account (static-flex: any amount; static: a fixed one), paid several
  // times: the status endpoint shows one payment, the listing sync the others.
  if (rng.chance(0.2)) {
    const fixedKobo = rng.chance(0.5) ? rng.int(1, 500) * 100 : null;
    const at = rng.int(0, horizon);
    steps.push({ at, kind: 'counter-create', fixedKobo });
    for (let p = rng.int(1, 3); p > 0; p--) {
      const wrong = fixedKobo !== null && rng.chance(0.3);
      const kobo = fixedKobo === null ? rng.int(100, 100_000) : fixedKobo + (wrong ? 100 : 0);
      steps.push({ at: at + rng.int(1, 600) * SECOND, kind: 'counter-pay', kobo });
    }
  }
  for (let r = rng.chance(0.4) ? rng.int(1, 2) : 0; r > 0; r--) {
    steps.push({ at: rng.int(0, horizon), kind: 'restart' });
  }
  if (sigkill) {
    for (let r = rng.int(1, 2); r > 0; r--) {
      steps.push({
        at: rng.int(0, horizon),
        kind: 'kill',
        point: rng.pick([
          'between-steps',
          'mid-create',
          'mid-transfer',
          'mid-transfer',
          'mid-advance',
          'mid-check',
        ] as const),
        sale: rng.int(0, saleCount - 1),
        delayMs: rng.int(0, 25),
      });
    }
  }
  // Stable sort: steps at the same instant keep the order they were drawn in.
  steps.sort((a, b) => a.at - b.at);
  return {
    expiryMinutes,
    fixedListenerPort: rng.chance(0.7),
    sales,
    steps,
    faultSeed: rng.seed(),
  };
}

// -------------------------------------------------------------------------------------------
// Playing a script

interface LiveSale {
  id: number;
  accountNumber: string | null;
  state: string;
  /** Transfers of the exact amount the provider took (a second one fails: already paid). */
  exactTransfers: number;
}

class Run {
  readonly faults: Record<FaultKind, number> = Object.fromEntries(
    FAULT_KINDS.map((kind) => [kind, 0]),
  ) as Record<FaultKind, number>;
  readonly live = new Map<number, LiveSale>();
  current: FaultState = { ...NO_FAULTS };
  counterAccount: string | null = null;
  callbacksDown = false;
  readonly runStart: number;

  constructor(
    readonly till: Till,
    readonly script: Script,
    readonly dataDir: string,
  ) {
    this.runStart = till.now();
  }

  async control(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
    const response = await fetch(`${this.till.controlUrl()}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async ledger(): Promise<LedgerTx[]> {
    return (await this.control('/ledger')).body['transactions'] as LedgerTx[];
  }

  async applyFaults(): Promise<void> {
    const patch = {
      ...this.current,
      ...(this.callbacksDown ? { drop_callbacks: 1 } : {}),
      seed: this.script.faultSeed,
    };
    await this.control('/faults', patch);
  }

  /** Moves the clock; the bank then settles every pending transfer whose time has come. */
  async advanceTo(at: number): Promise<void> {
    const target = this.runStart + at;
    if (target > this.till.now()) await this.till.advance(target - this.till.now());
    await this.ledger();
  }

  noteSale(index: number, result: BridgeResult<SaleView>): void {
    if (!result.ok) return;
    const view = result.value;
    this.live.set(index, {
      id: view.id,
      accountNumber: view.accountNumber,
      state: view.state,
      exactTransfers: this.live.get(index)?.exactTransfers ?? 0,
    });
  }

  async create(index: number): Promise<void> {
    const plan = this.script.sales[index];
    if (!plan) return;
    const amount = (plan.amountKobo / 100).toFixed(2);
    this.noteSale(index, await this.till.call('createSale', { amount, note: `faults #${index}` }));
  }

  async pay(index: number, wrong: boolean, pendingMs: number): Promise<void> {
    const plan = this.script.sales[index];
    const sale = this.live.get(index);
    if (!plan || !sale?.accountNumber) return;
    const kobo = wrong ? plan.wrongKobo : plan.amountKobo;
    const { status, body } = await this.control('/transfers', {
      account_number: sale.accountNumber,
      amount: kobo / 100,
      ...(pendingMs > 0 ? { pending_ms: pendingMs } : {}),
    });
    if (status === 409) {
      this.faults.refused_after_expiry += 1;
      return;
    }
    if (status !== 200) throw new Error(`transfer refused: ${status} ${JSON.stringify(body)}`);
    if (wrong) this.faults.wrong_amounts += 1;
    if (pendingMs > 0) this.faults.payments_pending += 1;
    if (sale.state === 'cancelled') this.faults.paid_after_cancel += 1;
    if (!wrong && ++sale.exactTransfers === 2) this.faults.paid_twice += 1;
  }

  async step(step: Step): Promise<void> {
    switch (step.kind) {
      case 'create':
        return this.create(step.sale);
      case 'pay':
        return this.pay(step.sale, step.wrong, step.pendingMs);
      case 'cancel':
      case 'check':
      case 'retry': {
        const sale = this.live.get(step.sale);
        if (!sale) return;
        if (step.kind === 'retry' && sale.state !== 'failed_to_create') return;
        const channel = ({ cancel: 'cancelSale', check: 'checkSale', retry: 'retrySale' } as const)[
          step.kind
        ];
        const result = await this.till.call(channel, { saleId: sale.id });
        if (result.ok) this.noteSale(step.sale, result);
        return;
      }
      case 'provider-expire': {
        const sale = this.live.get(step.sale);
        if (!sale?.accountNumber) return;
        const { status } = await this.control(`/accounts/${sale.accountNumber}/expire`, {});
        if (status === 200) this.faults.provider_expired_early += 1;
        return;
      }
      case 'counter-create': {
        const result = await this.till.call('createCounterAccount', {
          type: step.fixedKobo === null ? 'static-flex' : 'static',
          ...(step.fixedKobo === null ? {} : { amount: (step.fixedKobo / 100).toFixed(2) }),
        });
        if (result.ok) this.counterAccount = result.value.accountNumber;
        return;
      }
      case 'counter-pay': {
        if (!this.counterAccount) return;
        const { status, body } = await this.control('/transfers', {
          account_number: this.counterAccount,
          amount: step.kobo / 100,
        });
        if (status !== 200) throw new Error(`transfer refused: ${status} ${JSON.stringify(body)}`);
        this.faults.counter_payments += 1;
        return;
      }
      case 'resend': {
        const successes = (await this.ledger()).filter((tx) => tx.status === 'success');
        const tx = successes[Math.floor(step.pick * successes.length)];
        if (!tx) return;
        await this.control(`/transactions/${tx.session_id}/callbacks`, { copies: step.copies });
        this.faults.callbacks_resent += step.copies;
        return;
      }
      case 'faults':
        this.current = { ...this.current, ...step.patch };
        if (step.patch.latency_ms) this.faults.provider_latency += 1;
        if (step.patch.error_rate) this.faults.provider_5xx += 1;
        if (step.patch.malformed_rate) this.faults.malformed_responses += 1;
        if (step.patch.count_skew) this.faults.lying_count += 1;
        return this.applyFaults();
      case 'callbacks-down':
        this.callbacksDown = true;
        this.faults.callbacks_unreachable += 1;
        return this.applyFaults();
      case 'sync': {
        await this.till.call('syncTransactions', { mode: 'incremental' });
        return;
      }
      case 'restart':
        this.faults.restarts += 1;
        await this.till.restart();
        return this.applyFaults();
      case 'kill':
        return this.kill(step);
    }
  }

  async startKilledWork(step: Extract<Step, { kind: 'kill' }>): Promise<unknown> {
    switch (step.point) {
      case 'between-steps':
        return undefined;
      case 'mid-create':
        return this.till.call('createSale', { amount: '777.77', note: 'killed mid-create' });
      case 'mid-transfer':
        return this.pay(step.sale, false, 0);
      case 'mid-advance':
        return this.till.advance(step.delayMs * SECOND);
      case 'mid-check': {
        const sale = this.live.get(step.sale);
        return sale ? this.till.call('checkSale', { saleId: sale.id }) : undefined;
      }
    }
  }

  async kill(step: Extract<Step, { kind: 'kill' }>): Promise<void> {
    const till = this.till as ChildTill;
    if (till.kind !== 'child') return;
    // Whatever is in flight dies with the process (a bridge call, or a transfer to the embedded
    // sandbox, which dies with it): its failure is expected, and handled from the start.
    const inFlight = this.startKilledWork(step).catch(() => undefined);
    await till.kill(step.delayMs);
    await inFlight;
    this.faults.sigkills += 1;
    await till.revive();
    await this.applyFaults();
  }

  /**
   * Waits (a little real time) for the callback deliveries on the wire. A delivery that already
   * failed is in the sandbox's retry backoff (seconds of real time) and is not waited for: the
   * final sync covers whatever it would have said.
   */
  async quietCallbacks(budgetMs: number): Promise<void> {
    const until = Date.now() + budgetMs;
    for (;;) {
      const log = (await this.control('/callbacks')).body['callbacks'] as {
        state: string;
        attempts: readonly unknown[];
      }[];
      const onTheWire = log.some((c) => c.state === 'pending' && c.attempts.length === 0);
      if (!onTheWire || Date.now() > until) return;
      await new Promise((r) => setTimeout(r, 5));
      await this.till.settle();
    }
  }

  /** A full sync that ran to the end, retried if the provider or a running sync got in the way. */
  async fullSync(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const started = await this.till.call('syncTransactions', { mode: 'full' });
      if (started.ok) {
        const runId = started.value.id;
        for (let waited = 0; ; waited++) {
          const status = await this.till.call('getStatus', {});
          const last = status.ok ? status.value.lastSync : null;
          if (last?.id === runId && last.status !== 'running') {
            if (last.mode === 'full' && last.status === 'complete') return;
            break;
          }
          if (waited > 2_000) throw new Error(`sync ${runId} did not finish`);
          await new Promise((r) => setTimeout(r, 2));
        }
      }
      if (attempt >= 5) throw new Error(`no complete full sync after ${attempt} attempts`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async recover(): Promise<void> {
    const till = this.till as ChildTill;
    if (till.kind === 'child') await till.revive();
    this.current = { ...NO_FAULTS };
    this.callbacksDown = false;
    await this.control('/faults', undefined, 'DELETE');
    // Past every sale's deadline plus the late grace, and past every pending settlement.
    const store = readStore(tillDbPath(this.dataDir));
    const ledger = await this.ledger();
    const deadlines = store.sales.map((s) => s.expiresAt ?? 0);
    const settlements = ledger.map((tx) => tx.settled_at_ms ?? 0);
    const end =
      Math.max(
        this.till.now(),
        ...deadlines.map(
          (d) => d + DEFAULT_POLL_POLICY.expiryCheckDelayMs + DEFAULT_POLL_POLICY.lateGraceMs,
        ),
        ...ledger.map((tx) => (tx.status === 'pending' ? (tx.settles_at_ms ?? 0) : 0)),
        ...settlements,
      ) + MINUTE;
    while (this.till.now() < end) {
      await this.till.advance(Math.min(5 * MINUTE, end - this.till.now()));
      await this.ledger();
    }
    // A pending transfer that settles only now (the bank's lazy settlement) is caught too.
    if ((await this.ledger()).some((tx) => tx.status === 'pending')) {
      throw new Error('a transfer is still pending after the recovery window');
    }
    await this.quietCallbacks(1_500);
    await this.till.settle();
    await this.fullSync();
    await this.till.settle();
    await this.till.advance(SECOND);
    await this.till.settle();
  }

  async countCallbackFaults(): Promise<void> {
    const log = (await this.control('/callbacks')).body['callbacks'] as {
      cause: string;
      state: string;
      attempts: { http_status: number | null }[];
    }[];
    for (const dispatch of log) {
      if (dispatch.state === 'dropped') this.faults.callbacks_dropped += 1;
      if (dispatch.cause === 'duplicate') this.faults.callbacks_duplicated += 1;
      for (const attempt of dispatch.attempts) {
        const status = attempt.http_status;
        if (status === null || status < 200 || status >= 300)
          this.faults.callback_delivery_failures += 1;
      }
    }
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The shop's settings before the first start: expiry, and a fixed listener port or not. */
async function prepareDataDir(dataDir: string, script: Script): Promise<void> {
  const settings = createSettingsStore(openNodeSettings(dataDir, TILL_VERSION).backend);
  settings.update({
    profiles: { sandbox: { expiryMinutes: script.expiryMinutes } },
    callbacks: { listenerPort: script.fixedListenerPort ? await freePort() : 0 },
  });
}

export async function runOnce(options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const script = drawScript(options.seed, options.sigkill);
  const dataDir = mkdtempSync(join(tmpdir(), 'till-faults-'));
  await prepareDataDir(dataDir, script);
  const till = options.sigkill
    ? await openChildTill(dataDir, START_MS)
    : await openInProcessTill(dataDir, START_MS);
  const run = new Run(till, script, dataDir);
  const rng = createPrng(options.seed ^ 0x5bd1e995);
  let result: InvariantResult;
  try {
    const trace = options.trace;
    const timed = async (label: string, fn: () => Promise<void>) => {
      const before = Date.now();
      await fn();
      trace?.(`${String(Date.now() - before).padStart(5)} ms  ${label}`);
    };
    for (const step of script.steps) {
      await timed(`advance to ${step.at / 1000} s`, () => run.advanceTo(step.at));
      await timed(JSON.stringify(step), () => run.step(step));
      // Let callbacks race the next step now and then.
      if (rng.chance(0.3)) await new Promise((r) => setTimeout(r, rng.int(0, 8)));
    }
    await timed('recover', () => run.recover());
    await run.countCallbackFaults();
    result = checkInvariants(await run.ledger(), readStore(tillDbPath(dataDir)));
  } finally {
    await till.close().catch(() => undefined);
  }
  const violations = result.violations;
  if (violations.length === 0 && !options.keepData) {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    index: options.index,
    seed: options.seed,
    mode: till.kind,
    durationMs: Date.now() - started,
    faults: run.faults,
    result,
    violations,
    problems: till.problems,
    dataDir,
  };
}

// -------------------------------------------------------------------------------------------
// A campaign of runs

export interface CampaignOptions {
  readonly runs: number;
  readonly seed: number;
  /** Every n-th run (indexes n-1, 2n-1, ...) is a child-process till that is SIGKILLed; 0: none. */
  readonly sigkillEvery: number;
  readonly concurrency: number;
  /** Only this run index (to replay one failure). */
  readonly only?: number;
  /** Passed to every run: each step as it is played (for a replay of one run). */
  readonly trace?: (line: string) => void;
  readonly onRun?: (report: RunReport, done: number) => void;
}

export interface CampaignSummary {
  readonly seed: number;
  readonly runs: number;
  readonly sigkillRuns: number;
  readonly durationMs: number;
  readonly faults: Readonly<Record<FaultKind, number>>;
  readonly inflows: number;
  readonly sales: number;
  readonly states: Readonly<Record<string, number>>;
  readonly losses: number;
  readonly doubleCounts: number;
  readonly lateFlagged: number;
  readonly paidLate: number;
  readonly failures: readonly RunReport[];
  readonly problems: number;
  /** The first few, with their run. */
  readonly problemSamples: readonly string[];
  readonly errors: readonly { index: number; seed: number; error: string }[];
}

export function isSigkillRun(index: number, every: number): boolean {
  return every > 0 && index % every === every - 1;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignSummary> {
  const started = Date.now();
  const indexes =
    options.only === undefined ? Array.from({ length: options.runs }, (_, i) => i) : [options.only];
  const reports: RunReport[] = [];
  const errors: { index: number; seed: number; error: string }[] = [];
  let next = 0;
  let done = 0;
  async function worker(): Promise<void> {
    for (;;) {
      const index = indexes[next++];
      if (index === undefined) return;
      const seed = runSeed(options.seed, index);
      try {
        const report = await runOnce({
          index,
          seed,
          sigkill: isSigkillRun(index, options.sigkillEvery),
          ...(options.trace ? { trace: options.trace } : {}),
        });
        reports.push(report);
        done += 1;
        options.onRun?.(report, done);
      } catch (error) {
        done += 1;
        errors.push({
          index,
          seed,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker()));

  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  const states: Record<string, number> = {};
  for (const report of reports) {
    for (const kind of FAULT_KINDS) faults[kind] += report.faults[kind];
    for (const [state, n] of Object.entries(report.result.states))
      states[state] = (states[state] ?? 0) + n;
  }
  const sum = (f: (r: RunReport) => number) => reports.reduce((total, r) => total + f(r), 0);
  const countOf = (kinds: readonly Violation['kind'][]) =>
    sum((r) => r.violations.filter((v) => kinds.includes(v.kind)).length);
  return {
    seed: options.seed,
    runs: reports.length + errors.length,
    sigkillRuns: reports.filter((r) => r.mode === 'child').length,
    durationMs: Date.now() - started,
    faults,
    inflows: sum((r) => r.result.inflows),
    sales: sum((r) => r.result.sales),
    states,
    losses: countOf(['loss', 'wrong_amount_stored', 'unattributed_payment']),
    doubleCounts: countOf(['double_count']),
    lateFlagged: sum((r) => r.result.lateFlagged),
    paidLate: sum((r) => r.result.paidLate),
    failures: reports.filter((r) => r.violations.length > 0),
    problems: sum((r) => r.problems.length),
    problemSamples: reports
      .flatMap((r) => r.problems.map((p) => `run ${r.index} (run seed ${r.seed}): ${p}`))
      .slice(0, 10),
    errors,
  };
}

export function formatSummary(summary: CampaignSummary): string {
  const faultLines = FAULT_KINDS.map((k) => `    ${k.padEnd(28)} ${summary.faults[k]}`).join('\n');
  const totalFaults = FAULT_KINDS.reduce((n, k) => n + summary.faults[k], 0);
  const states = Object.entries(summary.states)
    .sort()
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const lines = [
    `Fault campaign (seed ${summary.seed}): ${summary.runs} runs (${summary.sigkillRuns} with SIGKILL) in ${(summary.durationMs / 1000).toFixed(1)} s`,
    `  faults injected: ${totalFaults}`,
    faultLines,
    `  inflows (provider successes): ${summary.inflows}, all stored once with the right amount: ${summary.losses === 0 ? 'yes' : 'NO'}`,
    `  sales: ${summary.sales} (${states})`,
    `  losses = ${summary.losses}, double counts = ${summary.doubleCounts}`,
    `  late payments flagged: ${summary.lateFlagged} of ${summary.paidLate} paid late`,
    `  invariant violations: ${summary.failures.reduce((n, r) => n + r.violations.length, 0)} in ${summary.failures.length} runs; runs that crashed the campaign: ${summary.errors.length}`,
    `  handler errors / error log lines (not failures): ${summary.problems}`,
    ...summary.problemSamples.map((p) => `    ${p}`),
  ];
  for (const failure of summary.failures) {
    lines.push(
      `  FAILED run ${failure.index} (seed ${summary.seed}, run seed ${failure.seed}, ${failure.mode}; data kept in ${failure.dataDir}); replay: --seed ${summary.seed} --run ${failure.index}`,
      ...failure.violations.map((v) => `    ${v.kind}: ${v.message}`),
    );
  }
  for (const error of summary.errors) {
    lines.push(
      `  ERROR in run ${error.index} (seed ${summary.seed}, run seed ${error.seed}); replay: --seed ${summary.seed} --run ${error.index}`,
      `    ${error.error.split('\n').slice(0, 6).join('\n    ')}`,
    );
  }
  return lines.join('\n');
}
