/**
 * A fault-campaign run's script: the provider personality it runs under and the steps it plays
 * (sales, customers, cashier actions, provider faults, restarts), a pure function of the seed so
 * that a failing run can be replayed from it.
 */
import {
  DEFAULT_PERSONALITY,
  PERSONALITY_CHOICES,
  type ChoiceKey,
  type Personality,
} from '#main/sandbox/personality';
import { NO_FAULTS, type FaultSettings } from '#main/sandbox/faults';
import { createPrng, type Prng } from '#support/random';

export const SECOND = 1_000;
export const MINUTE = 60_000;

/**
 * The till's provider timeout in the campaign (CoreConfig.providerTimeoutMs): low, so that a
 * held answer or a slow provider times the client out in a fraction of a second of real time.
 */
export const PROVIDER_TIMEOUT_MS = 250;
/** How long a `timeout_rate` answer is held (real time): past the client's timeout. */
export const TIMEOUT_HOLD_MS = 400;
/**
 * The client's read retries (CoreConfig.providerReadRetry): the same three attempts, but their
 * backoff runs in real time while the campaign's clock stands still, so it is kept short.
 */
export const PROVIDER_READ_RETRY = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } as const;
/** Latency values that exceed the client's timeout: every request fails while they hold. */
export const SLOW_LATENCIES_MS = [300, 450] as const;

export type Behaviour =
  | 'exact'
  | 'wrong-then-exact'
  | 'wrong-only'
  | 'none'
  | 'cancel-then-pay'
  | 'cancel-only'
  | 'pay-twice'
  | 'near-deadline';

/**
 * The sandbox's fault settings the campaign drives (POST /faults), all but the hold of a
 * timed-out answer: every POST sends the campaign's own TIMEOUT_HOLD_MS. "No faults" is the
 * sandbox's own NO_FAULTS.
 */
/** What the customer of an outage sale does about the amount they were asked to send. */
export type OutageBehaviour = 'exact' | 'round' | 'none' | 'exact-twice';

/** An outage sale: its price, and what its customer sends (into the till's outage account). */
export interface OutageSalePlan {
  readonly amountKobo: number;
  readonly behaviour: OutageBehaviour;
}

/** The share of runs with an outage (the provider unreachable for a while, outage sales in it). */
export const OUTAGE_RUN_SHARE = 0.25;
/**
 * An outage sale is taken at least this long into the outage: the till learns that the provider
 * cannot be reached from a failed call or its idle probe (every 15 s of quiet), as a shop does.
 */
export const OUTAGE_NOTICED_MS = 16 * SECOND;

export type FaultState = {
  -readonly [
    K in Exclude<keyof FaultSettings, 'timeout_hold_ms' | 'unreachable_until_ms'>
  ]: FaultSettings[K];
};

/**
 * The sandbox's NO_FAULTS as the campaign posts them: without the held answer's time (posted
 * apart) and the outage's end, which the sandbox keeps as its state (an outage is asked with
 * `unreachable_ms`).
 */
export const NO_CAMPAIGN_FAULTS: FaultState = (() => {
  const { timeout_hold_ms: _hold, unreachable_until_ms: _until, ...rest } = NO_FAULTS;
  return rest;
})();

export type KillPoint =
  'between-steps' | 'mid-create' | 'mid-transfer' | 'mid-advance' | 'mid-check';

export type Step =
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
  /** The provider cannot be reached for `ms` (sandbox clock): POST /faults {unreachable_ms}. */
  | { readonly at: number; readonly kind: 'outage'; readonly ms: number }
  | { readonly at: number; readonly kind: 'outage-sale'; readonly sale: number }
  /** A transfer into the outage account: the sale's amount due, or its round price. */
  | {
      readonly at: number;
      readonly kind: 'outage-pay';
      readonly sale: number;
      readonly round: boolean;
    }
  | { readonly at: number; readonly kind: 'sync' }
  | { readonly at: number; readonly kind: 'restart' }
  | {
      readonly at: number;
      readonly kind: 'kill';
      readonly point: KillPoint;
      readonly sale: number;
      readonly delayMs: number;
    };

export interface SalePlan {
  readonly amountKobo: number;
  readonly behaviour: Behaviour;
  readonly wrongKobo: number;
}

export interface Script {
  readonly personality: Personality;
  readonly expiryMinutes: number;
  readonly fixedListenerPort: boolean;
  readonly sales: readonly SalePlan[];
  /** Sales taken on the outage account during the run's outage (none in most runs). */
  readonly outageSales?: readonly OutageSalePlan[];
  /** In the order they are played (by `at`, fake ms from the run's start). */
  readonly steps: readonly Step[];
  readonly faultSeed: number;
}

/**
 * Late callbacks are held on the provider's clock for one of these: before the first safety-net
 * check, between checks, past the time-to-paid bound, and past most deadlines, so that "late"
 * sometimes beats the till's own checks and sometimes comes long after them.
 */
export const LATE_CALLBACK_DELAYS_MS = [3_000, 12_000, 25_000, 45_000, 4 * MINUTE] as const;

/**
 * One reading of every place the provider interface is silent (every key the sandbox knows,
 * CONTRACTS.md's among them), uniformly; bad rows in half the runs.
 */
export function drawPersonality(rng: Prng): Personality {
  const choices: Partial<Record<ChoiceKey, string>> = {};
  for (const key of Object.keys(PERSONALITY_CHOICES) as ChoiceKey[]) {
    const values: readonly string[] = PERSONALITY_CHOICES[key];
    choices[key] = values[Math.floor(rng.next() * values.length)] ?? values[0];
  }
  return {
    ...DEFAULT_PERSONALITY,
    ...(choices as Partial<Personality>),
    bad_row_every: rng.chance(0.5) ? 0 : rng.pick([1, 2, 3, 5, 7] as const),
    callback_delay_ms: rng.pick(LATE_CALLBACK_DELAYS_MS),
    // A provider that caps its pages below the limit asked (the lookup asks 100, the sync 100).
    page_cap: rng.chance(0.6) ? 0 : rng.pick([3, 7, 25] as const),
  };
}

/** A personality in one line: `key=value` for every key, the delay only when it matters. */
export function describePersonality(personality: Personality): string {
  return Object.entries(personality)
    .filter(([key]) => key !== 'callback_delay_ms' || personality.callbacks === 'late')
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' ');
}

/**
 * Background faults for a stretch of the run: each one on by chance, at a drawn rate. The whole
 * run's background keeps its failing rates low: each failed request costs real time (the
 * client's retry backoff) while the fake clock stands still, and a run checks every open sale
 * every few seconds of fake time; the windows carry the high rates.
 */
function randomFaults(rng: Prng, wholeRun: boolean): Partial<FaultState> {
  const patch: Partial<FaultState> = {};
  if (rng.chance(0.5)) patch.latency_ms = rng.int(1, 12);
  if (rng.chance(0.5)) {
    patch.error_rate = wholeRun
      ? rng.pick([0.02, 0.05] as const)
      : rng.pick([0.05, 0.1, 0.2, 0.3] as const);
  }
  if (rng.chance(0.3)) {
    patch.side_effect_error_rate = wholeRun ? 0.02 : rng.pick([0.05, 0.1, 0.2] as const);
  }
  if (rng.chance(0.5)) patch.drop_callbacks = rng.pick([0.2, 0.5, 0.8] as const);
  if (rng.chance(0.4)) patch.duplicate_callbacks = rng.pick([0.2, 0.5, 1] as const);
  if (rng.chance(0.25)) patch.malformed_rate = rng.pick([0.05, 0.1, 0.2] as const);
  if (rng.chance(0.15)) patch.count_skew = rng.pick([-3, -1, 2, 7] as const);
  return patch;
}

/**
 * A slow provider for a short window: answers held past the client's timeout now and then, or
 * latency above the timeout (every request fails). Short, because each timed-out request costs
 * real time (the timeout and the client's retry backoff) while the fake clock stands still.
 */
function slowProvider(rng: Prng): Partial<FaultState> {
  return rng.chance(0.5)
    ? { timeout_rate: rng.pick([0.1, 0.3, 0.5] as const) }
    : { latency_ms: rng.pick(SLOW_LATENCIES_MS) };
}

export function drawScript(seed: number, sigkill: boolean): Script {
  const rng = createPrng(seed);
  const personality = drawPersonality(createPrng(seed ^ 0x27d4eb2f));
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
    const pay = (at: number, wrong: boolean) => {
      const pendingMs = wrong ? 0 : pending();
      steps.push({ at, kind: 'pay', sale: k, wrong, pendingMs });
      // The customer shows the transfer on their phone and the cashier presses "Customer says
      // they paid" a few seconds later (the "with the button" time to paid).
      if (!wrong && pendingMs === 0 && rng.chance(0.35)) {
        steps.push({ at: at + rng.int(0, 8) * SECOND, kind: 'check', sale: k });
      }
    };
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
  if (rng.chance(0.5)) steps.push({ at: 0, kind: 'faults', patch: randomFaults(rng, true) });
  for (let w = rng.int(0, 3); w > 0; w--) {
    const from = rng.int(0, horizon);
    steps.push({ at: from, kind: 'faults', patch: randomFaults(rng, false) });
    steps.push({
      at: from + rng.int(10 * SECOND, Math.min(expiry, 3 * MINUTE)),
      kind: 'faults',
      patch: { ...NO_CAMPAIGN_FAULTS },
    });
  }
  if (rng.chance(0.35)) {
    const from = rng.int(0, horizon);
    const patch = slowProvider(rng);
    steps.push({ at: from, kind: 'faults', patch });
    // An outage (latency past the timeout fails every request) is kept shorter than a window of
    // held answers (only some fail).
    const outage = patch.latency_ms !== undefined;
    steps.push({
      at: from + rng.int(5, outage ? 15 : 30) * SECOND,
      kind: 'faults',
      patch: outage ? { latency_ms: 0 } : { timeout_rate: 0 },
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
  // A permanent standing account (static-flex: any amount; static: a fixed one), paid several
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
  const outageSales = drawOutage(seed, horizon, steps);
  // Stable sort: steps at the same instant keep the order they were drawn in.
  steps.sort((a, b) => a.at - b.at);
  return {
    personality,
    expiryMinutes,
    fixedListenerPort: rng.chance(0.7),
    sales,
    ...(outageSales.length > 0 ? { outageSales } : {}),
    steps,
    faultSeed: rng.seed(),
  };
}

/**
 * An outage in a share of the runs (its own generator, so that the rest of a seed's script is
 * the same with or without it): the provider unreachable for 20-120 s, outage sales taken in it,
 * and their customers' transfers during and after it: most send the exact amount due, some the
 * round price, some nothing, now and then the exact amount twice. Prices are at least ₦1 apart,
 * so that no two outage sales can ever ask the same amount due (a tag is under ₦1).
 */
function drawOutage(seed: number, horizon: number, steps: Step[]): OutageSalePlan[] {
  const rng = createPrng(seed ^ 0x0a7a6e35);
  if (!rng.chance(OUTAGE_RUN_SHARE)) return [];
  const start = rng.int(0, horizon);
  const ms = rng.int(20, 120) * SECOND;
  steps.push({ at: start, kind: 'outage', ms });
  const plans: OutageSalePlan[] = [];
  const prices = new Set<number>();
  for (let k = rng.int(1, 4); k > 0; k--) {
    const amountKobo = rng.int(100, 50_000) * 100 + (rng.chance(0.3) ? rng.int(1, 99) : 0);
    if ([...prices].some((p) => Math.abs(p - amountKobo) < 100)) continue;
    prices.add(amountKobo);
    const behaviour = rng.pick([
      'exact',
      'exact',
      'exact',
      'exact',
      'round',
      'none',
      'exact-twice',
    ] as const);
    const sale = plans.length;
    plans.push({ amountKobo, behaviour });
    const taken = start + rng.int(OUTAGE_NOTICED_MS, ms - SECOND);
    steps.push({ at: taken, kind: 'outage-sale', sale });
    const paid = taken + rng.int(1, 200) * SECOND;
    if (behaviour === 'none') continue;
    steps.push({ at: paid, kind: 'outage-pay', sale, round: behaviour === 'round' });
    if (behaviour === 'exact-twice') {
      steps.push({ at: paid + rng.int(0, 60) * SECOND, kind: 'outage-pay', sale, round: false });
    }
  }
  return plans;
}
