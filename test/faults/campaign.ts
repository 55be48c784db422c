/**
 * The fault campaign: seeded randomised runs of whole sales against the embedded sandbox, under
 * a provider personality and with its fault injection on, each checked against the sandbox's
 * own ledger.
 *
 * One run = a fresh data directory, a till (in this process, or in a child process that is
 * SIGKILLed), a personality and a script drawn from the run's seed (script.ts) played on a fake
 * clock, then:
 * 1. with the faults still on, the clock past every deadline by the time-to-paid bound, the
 *    first check: whatever the till has not done by itself by then counts against it;
 * 2. the recovery (faults and bad rows off, the clock past the late grace, a clean full sync)
 *    and the completeness check.
 * A run also fails on a bridge handler that threw an uncoded error or an unplanned error-level
 * log line (PLANNED_PROBLEMS lists the planned ones).
 *
 * The script is a pure function of the seed; what happens in real time (callback deliveries
 * racing status checks, where exactly a SIGKILL lands) is not, so a seed replays the same
 * script, not necessarily the same interleaving.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CHECK_POLICY } from '#main/engine/check-schedule';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore } from '#main/settings/settings-store';
import type {
  BridgeResult,
  ChannelInput,
  ChannelName,
  ChannelOutput,
} from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import {
  checkInvariants,
  PAID_BOUND_MS,
  readStore,
  tillDbPath,
  type InvariantResult,
  type LedgerTx,
  type TimingContext,
  type Violation,
} from './invariants';
import { freePort } from '#support/free-port';
import { createPrng, runSeed } from '#support/random';
import { troubleSlackMs, type Trouble } from './trouble';
import {
  drawScript,
  MINUTE,
  PROVIDER_TIMEOUT_MS,
  SECOND,
  TIMEOUT_HOLD_MS,
  NO_CAMPAIGN_FAULTS,
  type FaultState,
  type Script,
  type Step,
} from './script';
import {
  FAULT_KINDS,
  runFailed,
  type FaultKind,
  type JudgedProblem,
  type RunReport,
  type ServedCounts,
} from './run-report';
import { summarise, type CampaignSummary } from './summary';
import {
  openChildTill,
  openInProcessTill,
  TILL_VERSION,
  type ChildTill,
  type Till,
  type TillProblem,
} from './till';

export interface RunOptions {
  readonly index: number;
  readonly seed: number;
  /** Whether this run's till is a child process that is SIGKILLed during the run. */
  readonly sigkill: boolean;
  /** A hand-written script instead of the seed's (the planted-fault tests). */
  readonly script?: Script;
  /** Keep the data directory of a passing run (a failing run's is always kept). */
  readonly keepData?: boolean;
  /** Each step as it is played, with the fake and real time it took (replaying one run). */
  readonly trace?: (line: string) => void;
}

const START_MS = Date.UTC(2026, 10, 23, 8, 0, 0);
const POLICY = DEFAULT_CHECK_POLICY;

/**
 * While faults that can fail a status check are on, the clock moves in steps this long and the
 * served counts are read after each, so that provider trouble is placed in time (see slackMs).
 */
const SAMPLE_MS = 10 * SECOND;

/**
 * The check interval of the time-to-paid slack (trouble.ts): an open sale is checked at least
 * once per safety-net interval, so a failed check costs it at most that.
 */
const SLACK_PER_FAILED_CHECK_MS = POLICY.safetyNetMs;

/** Served kinds that fail a provider request whatever the client does. */
const FAILING_KINDS = ['error', 'side_effect_error', 'timeout', 'malformed'] as const;

/**
 * How many times the first check moves past the bound of a payment still unpaid whose provider
 * trouble keeps adding slack, before it judges it anyway.
 */
const MAX_FIRST_CHECK_EXTENSIONS = 10;

/**
 * Problems the campaign plans, with why. The engine logs its business alerts (a late payment, an
 * amount conflict, a reversal) at warning level, and the sandbox does not report a client that
 * gave up on a request, so no problem is planned: any error-level line or sandbox error fails a
 * run. The list stays so that a planned one is written down with its reason.
 */
export const PLANNED_PROBLEMS: readonly {
  readonly why: string;
  readonly matches: (problem: TillProblem) => boolean;
}[] = [];

/**
 * Coded refusals the script can cause, by channel, with why; any other code is a problem. The
 * provider's failures are planned only while the script had failing faults on. A bridge call
 * that threw an uncoded error answers INTERNAL and is reported by the till itself.
 */
export const PLANNED_REFUSALS: Readonly<
  Partial<Record<ChannelName, Readonly<Record<string, { why: string; faultsOn: boolean }>>>>
> = {
  cancelSale: {
    SALE_NOT_OPEN: {
      why: 'the script cancels whatever the sale has become (paid, expired, failed)',
      faultsOn: false,
    },
  },
  retrySale: {
    SALE_NOT_OPEN: { why: 'a retry step races the sale leaving failed_to_create', faultsOn: false },
  },
  createStandingAccount: {
    SERVER_ERROR: {
      why: 'an injected 5xx or side-effect 500 (create is never retried)',
      faultsOn: true,
    },
    TIMEOUT: { why: 'a held answer or latency past the timeout', faultsOn: true },
    MALFORMED_RESPONSE: { why: 'an injected malformed body', faultsOn: true },
    NETWORK: { why: 'the provider cannot be reached (an outage)', faultsOn: true },
  },
};

interface Refusal {
  readonly channel: ChannelName;
  readonly code: string;
  readonly message: string;
  readonly at: number;
  readonly faultsOn: boolean;
}

/** A coded refusal the script does not plan, as a problem. */
function refusalProblem(refusal: Refusal): TillProblem | null {
  const planned = PLANNED_REFUSALS[refusal.channel]?.[refusal.code];
  if (planned !== undefined && (!planned.faultsOn || refusal.faultsOn)) return null;
  return {
    source: 'handler',
    message: `${refusal.channel} refused with ${refusal.code}`,
    at: refusal.at,
    detail: refusal.message.slice(0, 400),
  };
}

function judge(problem: TillProblem): JudgedProblem {
  const planned = PLANNED_PROBLEMS.find((p) => p.matches(problem));
  return { ...problem, plannedBecause: planned?.why ?? null };
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

function zeroPlanned(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
}

class Run {
  readonly planned = zeroPlanned();
  readonly live = new Map<number, LiveSale>();
  /** When the cashier pressed "Customer says they paid", by sale id. */
  readonly presses = new Map<number, number[]>();
  /** Bridge calls answered with a coded error. */
  readonly refusals: Refusal[] = [];
  current: FaultState = { ...NO_CAMPAIGN_FAULTS };
  /** When the outage asked by an 'outage' step ends (fake clock), while one may be on. */
  outageUntil: number | null = null;
  /** Outage sales taken, by their index in the script: the id and the exact amount asked. */
  readonly outageSales = new Map<number, { id: number; amountDueKobo: number }>();
  standingAccount: string | null = null;
  callbacksDown = false;
  badRowsOff = false;
  readonly runStart: number;
  private lastSample: { at: number; served: ServedCounts } | null = null;
  readonly troubles: Trouble[] = [];

  constructor(
    readonly till: Till,
    readonly script: Script,
    readonly dataDir: string,
  ) {
    this.runStart = till.now();
    const p = script.personality;
    const runs = this.planned;
    runs.callbacks_never = p.callbacks === 'never' ? 1 : 0;
    runs.callbacks_late = p.callbacks === 'late' ? 1 : 0;
    runs.callbacks_reordered = p.callbacks === 'reordered' ? 1 : 0;
    runs.failed_callbacks_sent = p.failed_callbacks === 'sent' ? 1 : 0;
    runs.bad_rows = p.bad_row_every > 0 ? 1 : 0;
    runs.failed_status_masked = p.failed_status === '200' ? 0 : 1;
    runs.expired_payment_accepted = p.expired_payments === 'accept' ? 1 : 0;
    runs.static_mismatch_accepted = p.static_mismatch === 'accept' ? 1 : 0;
  }

  /** A bridge call; a coded refusal is kept for the judgement of the run (refusalProblems). */
  async call<C extends ChannelName>(
    channel: C,
    input: ChannelInput<C>,
  ): Promise<BridgeResult<ChannelOutput<C>>> {
    const result = await this.till.call(channel, input);
    if (!result.ok && result.error.code !== 'INTERNAL') {
      this.refusals.push({
        channel,
        code: result.error.code,
        message: result.error.message,
        at: this.till.now(),
        faultsOn: this.failingOn(),
      });
    }
    return result;
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

  async served(): Promise<ServedCounts> {
    const { status, body } = await this.control('/faults');
    const served = body['served'];
    if (status !== 200 || typeof served !== 'object' || served === null) {
      throw new Error(`GET /faults has no served counts: ${status} ${JSON.stringify(body)}`);
    }
    return served as ServedCounts;
  }

  /** The personality and the faults in force: at the start and after every (re)start. */
  async applyProvider(): Promise<void> {
    const personality = {
      ...this.script.personality,
      ...(this.badRowsOff ? { bad_row_every: 0 } : {}),
    };
    const set = await this.control('/personality', personality);
    if (set.status !== 200) {
      throw new Error(`POST /personality refused: ${set.status} ${JSON.stringify(set.body)}`);
    }
    const faults = await this.control('/faults', {
      ...this.current,
      timeout_hold_ms: TIMEOUT_HOLD_MS,
      ...(this.callbacksDown ? { drop_callbacks: 1 } : {}),
      seed: this.script.faultSeed,
    });
    if (faults.status !== 200) {
      throw new Error(`POST /faults refused: ${faults.status} ${JSON.stringify(faults.body)}`);
    }
  }

  /** Whether a provider request can fail now whatever the client does. */
  failingOn(): boolean {
    const f = this.current;
    if (this.outageUntil !== null && this.till.now() < this.outageUntil) return true;
    return (
      f.error_rate > 0 ||
      f.side_effect_error_rate > 0 ||
      f.timeout_rate > 0 ||
      f.malformed_rate > 0 ||
      f.latency_ms >= PROVIDER_TIMEOUT_MS
    );
  }

  /** Reads the served counts and books the failing answers since the last read in time. */
  async sample(): Promise<void> {
    const served = await this.served();
    const at = this.till.now();
    const last = this.lastSample;
    if (last) {
      const delta = (kind: string) => Math.max(0, (served[kind] ?? 0) - (last.served[kind] ?? 0));
      // Latency is served on every request; only above the client's timeout does it fail one.
      const slow = this.current.latency_ms >= PROVIDER_TIMEOUT_MS ? delta('latency') : 0;
      const answers = FAILING_KINDS.reduce((n, kind) => n + delta(kind), slow);
      if (answers > 0) this.troubles.push({ from: last.at, to: at, answers });
    }
    this.lastSample = { at, served };
  }

  slackMs(from: number, to: number): number {
    return troubleSlackMs(this.troubles, from, to, SLACK_PER_FAILED_CHECK_MS);
  }

  timing(): TimingContext {
    return {
      now: this.till.now(),
      slackMs: (from, to) => this.slackMs(from, to),
      presses: this.presses,
    };
  }

  /** Moves the clock to `target`; the bank then settles every pending transfer whose time has come. */
  async advanceClockTo(target: number): Promise<void> {
    while (this.till.now() < target) {
      const to = this.failingOn() ? Math.min(target, this.till.now() + SAMPLE_MS) : target;
      await this.till.advance(to - this.till.now());
      await this.ledger();
      await this.sample();
    }
  }

  advanceTo(at: number): Promise<void> {
    return this.advanceClockTo(this.runStart + at);
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

  notePress(saleId: number): void {
    const list = this.presses.get(saleId) ?? [];
    list.push(this.till.now());
    this.presses.set(saleId, list);
  }

  async create(index: number): Promise<void> {
    const plan = this.script.sales[index];
    if (!plan) return;
    const amount = (plan.amountKobo / 100).toFixed(2);
    this.noteSale(index, await this.call('createSale', { amount, note: `faults #${index}` }));
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
      this.planned.refused_after_expiry += 1;
      return;
    }
    if (status !== 200) throw new Error(`transfer refused: ${status} ${JSON.stringify(body)}`);
    if (wrong) this.planned.wrong_amounts += 1;
    if (pendingMs > 0) this.planned.payments_pending += 1;
    if (sale.state === 'cancelled') this.planned.paid_after_cancel += 1;
    if (!wrong && ++sale.exactTransfers === 2) this.planned.paid_twice += 1;
  }

  countFaultPatch(patch: Partial<FaultState>): void {
    const p = this.planned;
    if (patch.latency_ms) {
      if (patch.latency_ms >= PROVIDER_TIMEOUT_MS) p.provider_latency_over_timeout += 1;
      else p.provider_latency += 1;
    }
    if (patch.error_rate) p.provider_5xx += 1;
    if (patch.side_effect_error_rate) p.side_effect_errors += 1;
    if (patch.timeout_rate) p.provider_timeouts += 1;
    if (patch.malformed_rate) p.malformed_responses += 1;
    if (patch.count_skew) p.lying_count += 1;
    if (patch.drop_callbacks) p.callbacks_dropped += 1;
    if (patch.duplicate_callbacks) p.callbacks_duplicated += 1;
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
        const channel = (
          { cancel: 'cancelSale', check: 'customerSaysPaid', retry: 'retrySale' } as const
        )[step.kind];
        if (step.kind === 'check') this.notePress(sale.id);
        const result = await this.call(channel, { saleId: sale.id });
        if (result.ok) this.noteSale(step.sale, result);
        return;
      }
      case 'provider-expire': {
        const sale = this.live.get(step.sale);
        if (!sale?.accountNumber) return;
        const { status } = await this.control(`/accounts/${sale.accountNumber}/expire`, {});
        if (status === 200) this.planned.provider_expired_early += 1;
        return;
      }
      case 'counter-create': {
        const result = await this.call('createStandingAccount', {
          type: step.fixedKobo === null ? 'static-flex' : 'static',
          ...(step.fixedKobo === null ? {} : { amount: (step.fixedKobo / 100).toFixed(2) }),
        });
        if (result.ok) this.standingAccount = result.value.accountNumber;
        return;
      }
      case 'counter-pay': {
        if (!this.standingAccount) return;
        const { status, body } = await this.control('/transfers', {
          account_number: this.standingAccount,
          amount: step.kobo / 100,
        });
        if (status !== 200) throw new Error(`transfer refused: ${status} ${JSON.stringify(body)}`);
        this.planned.counter_payments += 1;
        return;
      }
      case 'resend': {
        const successes = (await this.ledger()).filter((tx) => tx.status === 'success');
        const tx = successes[Math.floor(step.pick * successes.length)];
        if (!tx) return;
        await this.control(`/transactions/${tx.session_id}/callbacks`, { copies: step.copies });
        this.planned.callbacks_resent += step.copies;
        return;
      }
      case 'faults':
        this.current = { ...this.current, ...step.patch };
        this.countFaultPatch(step.patch);
        return this.applyProvider();
      case 'outage':
        return this.startOutage(step.ms);
      case 'outage-sale':
        return this.takeOutageSale(step.sale);
      case 'outage-pay':
        return this.payOutageSale(step.sale, step.round);
      case 'callbacks-down':
        this.callbacksDown = true;
        this.planned.callbacks_unreachable += 1;
        return this.applyProvider();
      case 'sync': {
        await this.call('syncTransactions', { mode: 'incremental' });
        return;
      }
      case 'restart':
        this.planned.restarts += 1;
        await this.till.restart();
        return this.applyProvider();
      case 'kill':
        return this.kill(step);
    }
  }

  /**
   * The shop's internet down for `ms` of the sandbox clock: every till request fails, callbacks
   * wait for the end. Booked as provider trouble for the whole window (the sandbox serves no
   * answer to count), so that a normal sale's time to paid gets the outage as slack.
   */
  async startOutage(ms: number): Promise<void> {
    const { status, body } = await this.control('/faults', { unreachable_ms: ms });
    if (status !== 200) throw new Error(`POST /faults refused: ${status} ${JSON.stringify(body)}`);
    const from = this.till.now();
    this.outageUntil = from + ms;
    this.troubles.push({ from, to: from + ms, answers: Number.MAX_SAFE_INTEGER });
    this.planned.provider_unreachable += 1;
  }

  /** The till's outage account number (made at its first online start), from its store. */
  outageAccountNumber(): string | null {
    const accounts = readStore(tillDbPath(this.dataDir)).accounts;
    return accounts.find((a) => a.purpose === 'outage')?.accountNumber ?? null;
  }

  /**
   * Waits (real time, bounded) for the outage account the till makes at its first online start,
   * before any fault is posted: the request runs in real time while the fake clock can race
   * ahead, and a fault posted before it lands would leave the till without one until a restart.
   */
  async awaitOutageAccount(budgetMs: number): Promise<void> {
    const until = Date.now() + budgetMs;
    while (this.outageAccountNumber() === null && Date.now() < until) {
      await this.till.settle();
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async takeOutageSale(index: number): Promise<void> {
    const plan = this.script.outageSales?.[index];
    if (!plan) return;
    const amount = (plan.amountKobo / 100).toFixed(2);
    if (this.outageAccountNumber() === null) {
      // The first start's try to make the account met an injected fault (the next start, or
      // "Check everything", retries): the till has none, and must say so.
      const refused = await this.till.call('createOutageSale', { amount });
      if (refused.ok || refused.error.code !== 'OUTAGE_ACCOUNT_MISSING') {
        throw new Error(`an outage sale with no outage account: ${JSON.stringify(refused)}`);
      }
      this.planned.outage_account_missing += 1;
      return;
    }
    const result = await this.call('createOutageSale', { amount });
    if (!result.ok) return;
    const { id, amountDueKobo } = result.value;
    this.outageSales.set(index, { id, amountDueKobo });
    this.planned.outage_sales += 1;
  }

  /** The customer's transfer into the outage account: the exact amount due, or the round price. */
  async payOutageSale(index: number, round: boolean): Promise<void> {
    const plan = this.script.outageSales?.[index];
    const sale = this.outageSales.get(index);
    const accountNumber = this.outageAccountNumber();
    if (!plan || !sale || accountNumber === null) return;
    const kobo = round ? plan.amountKobo : sale.amountDueKobo;
    const { status, body } = await this.control('/transfers', {
      account_number: accountNumber,
      amount: kobo / 100,
    });
    if (status !== 200) throw new Error(`transfer refused: ${status} ${JSON.stringify(body)}`);
    this.planned.outage_payments += 1;
  }

  async startKilledWork(step: Extract<Step, { kind: 'kill' }>): Promise<unknown> {
    switch (step.point) {
      case 'between-steps':
        return undefined;
      case 'mid-create':
        return this.call('createSale', { amount: '777.77', note: 'killed mid-create' });
      case 'mid-transfer':
        return this.pay(step.sale, false, 0);
      case 'mid-advance':
        return this.till.advance(step.delayMs * SECOND);
      case 'mid-check': {
        const sale = this.live.get(step.sale);
        if (!sale) return undefined;
        this.notePress(sale.id);
        return this.call('customerSaysPaid', { saleId: sale.id });
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
    this.planned.sigkills += 1;
    await till.revive();
    await this.applyProvider();
  }

  async ensureAlive(): Promise<void> {
    const till = this.till as ChildTill;
    if (till.kind === 'child' && !till.alive()) {
      await till.revive();
      await this.applyProvider();
    }
  }

  /**
   * The first check: faults still on, the clock past every deadline by the bound (and past the
   * bound of every payment still unpaid, whose provider trouble keeps adding slack), no recovery.
   */
  async firstCheck(): Promise<InvariantResult> {
    await this.ensureAlive();
    const deadlines = readStore(tillDbPath(this.dataDir)).sales.map((s) => s.expiresAt ?? 0);
    let target =
      Math.max(...deadlines, this.till.now()) + POLICY.expiryCheckDelayMs + PAID_BOUND_MS;
    for (let extension = 0; ; extension++) {
      await this.advanceClockTo(target);
      await this.till.settle();
      const ledger = await this.ledger();
      const result = checkInvariants(ledger, readStore(tillDbPath(this.dataDir)), {
        phase: 'faults-on',
        expiryCheckDelayMs: POLICY.expiryCheckDelayMs,
        timing: this.timing(),
      });
      if (result.notYetDue.length === 0) return result;
      if (extension >= MAX_FIRST_CHECK_EXTENSIONS) {
        const overdue: Violation[] = result.notYetDue.map((due) => ({
          kind: 'open_payment_not_paid',
          phase: 'faults-on',
          message: `sale ${due.saleId}: ${due.sessionId} still unpaid after ${MAX_FIRST_CHECK_EXTENSIONS} extensions of its bound (provider trouble kept adding slack)`,
        }));
        return { ...result, violations: [...result.violations, ...overdue] };
      }
      target = Math.max(...result.notYetDue.map((due) => due.dueAt));
    }
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
      const started = await this.call('syncTransactions', { mode: 'full' });
      if (started.ok) {
        const runId = started.value.id;
        for (let waited = 0; ; waited++) {
          const status = await this.call('getStatus', {});
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

  /** Faults and bad rows off, the clock past every deadline plus the late grace, a full sync. */
  async recover(): Promise<void> {
    await this.ensureAlive();
    this.current = { ...NO_CAMPAIGN_FAULTS };
    this.callbacksDown = false;
    if (this.outageUntil !== null) {
      await this.control('/faults', { unreachable_ms: 0 });
      this.outageUntil = null;
    }
    // The provider now serves every row readable: a later sync must take them in.
    this.badRowsOff = true;
    await this.applyProvider();
    const store = readStore(tillDbPath(this.dataDir));
    const ledger = await this.ledger();
    const deadlines = store.sales.map((s) => s.expiresAt ?? 0);
    const settlements = ledger.map((tx) => tx.settled_at_ms ?? 0);
    const end =
      Math.max(
        this.till.now(),
        ...deadlines.map((d) => d + POLICY.expiryCheckDelayMs + POLICY.lateGraceMs),
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

  async countCallbackDeliveryFailures(): Promise<void> {
    const log = (await this.control('/callbacks')).body['callbacks'] as {
      attempts: { http_status: number | null }[];
    }[];
    for (const dispatch of log) {
      for (const attempt of dispatch.attempts) {
        const status = attempt.http_status;
        if (status === null || status < 200 || status >= 300)
          this.planned.callback_delivery_failures += 1;
      }
    }
  }
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
  const script = options.script ?? drawScript(options.seed, options.sigkill);
  const dataDir = mkdtempSync(join(tmpdir(), 'till-faults-'));
  await prepareDataDir(dataDir, script);
  const till = options.sigkill
    ? await openChildTill(dataDir, START_MS)
    : await openInProcessTill(dataDir, START_MS);
  const run = new Run(till, script, dataDir);
  const rng = createPrng(options.seed ^ 0x5bd1e995);
  let firstCheck: InvariantResult;
  let result: InvariantResult;
  let served: ServedCounts;
  try {
    const trace = options.trace;
    const timed = async (label: string, fn: () => Promise<void>) => {
      const before = Date.now();
      await fn();
      trace?.(`${String(Date.now() - before).padStart(5)} ms  ${label}`);
    };
    if (script.outageSales !== undefined) await run.awaitOutageAccount(5_000);
    await run.applyProvider();
    await run.sample();
    for (const step of script.steps) {
      await timed(`advance to ${step.at / 1000} s`, () => run.advanceTo(step.at));
      await timed(JSON.stringify(step), () => run.step(step));
      // Let callbacks race the next step now and then.
      if (rng.chance(0.3)) await new Promise((r) => setTimeout(r, rng.int(0, 8)));
    }
    const beforeCheck = Date.now();
    firstCheck = await run.firstCheck();
    trace?.(`${String(Date.now() - beforeCheck).padStart(5)} ms  first check (faults on)`);
    await timed('recover', () => run.recover());
    await run.countCallbackDeliveryFailures();
    served = await run.served();
    result = checkInvariants(await run.ledger(), readStore(tillDbPath(dataDir)), {
      phase: 'recovered',
      expiryCheckDelayMs: POLICY.expiryCheckDelayMs,
    });
  } finally {
    await till.close().catch(() => undefined);
  }
  const refused = run.refusals.map(refusalProblem).filter((p): p is TillProblem => p !== null);
  const problems = [...till.problems, ...refused].map(judge);
  const report: RunReport = {
    index: options.index,
    seed: options.seed,
    mode: till.kind,
    durationMs: Date.now() - started,
    personality: script.personality,
    planned: run.planned,
    served,
    firstCheck,
    result,
    violations: [...firstCheck.violations, ...result.violations],
    problems,
    unplanned: problems.filter((p) => p.plannedBecause === null),
    dataDir,
  };
  if (!runFailed(report) && !options.keepData) {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
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
  reports.sort((a, b) => a.index - b.index);
  return summarise({ seed: options.seed, durationMs: Date.now() - started, reports, errors });
}
