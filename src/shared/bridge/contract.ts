/**
 * The bridge contract: the one place where a channel or event name is written. Main registers a
 * handler for every channel (checked with `satisfies Handlers`) and validates every input with the
 * channel's schema; preload and the browser shell build the window API from this table.
 */
import { z } from 'zod';
import type { AlertView, InflowView, SaleView } from '../sales';
import { ENVIRONMENTS } from '../settings-schema';
import type {
  BalanceView,
  CallbackHealthView,
  ConnectionCheckView,
  SecretStatusView,
  SecretsView,
  SettingsView,
  CounterAccountView,
  CsvExportView,
  PayoutCheckView,
  ReceiptView,
  StatusView,
  SyncProgressView,
  SyncRunView,
  TransactionListView,
  TunnelStatusView,
  ZReportView,
} from '../views';

/** A channel: the schema of its input and, as a phantom type, its output. */
export interface ChannelSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly output?: O;
}

function channel<O>() {
  return <I extends z.ZodType>(input: I): ChannelSpec<I, O> => ({ input });
}

const noInput = z.object({}).strict();
const saleId = z.object({ saleId: z.number().int().positive() }).strict();
/** Naira as the cashier typed it ("1500", "1,500.50"); main converts it to kobo exactly. */
const nairaText = z.string().trim().min(1, 'Enter an amount').max(24);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-22');
const dayRange = z
  .object({ day: day.optional(), fromDay: day.optional(), toDay: day.optional() })
  .strict();

export interface ActivityView {
  readonly sales: readonly SaleView[];
  readonly inflows: readonly InflowView[];
  readonly alerts: readonly AlertView[];
  readonly counterAccounts: readonly CounterAccountView[];
}

export type ProviderEnvironment = (typeof ENVIRONMENTS)[number];

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly shell: 'electron' | 'browser';
  readonly environment: ProviderEnvironment;
}

export const channels = {
  getAppInfo: channel<AppInfo>()(noInput),
  getStatus: channel<StatusView>()(noInput),

  // The sale screen
  createSale: channel<SaleView>()(
    z
      .object({
        amount: nairaText,
        note: z.string().trim().max(200).optional(),
        cashier: z.string().trim().max(60).optional(),
      })
      .strict(),
  ),
  getSale: channel<SaleView>()(saleId),
  cancelSale: channel<SaleView>()(saleId),
  /** "Customer says they paid": an immediate status check, then polling. */
  checkSale: channel<SaleView>()(saleId),
  retrySale: channel<SaleView>()(saleId),
  getReceipt: channel<ReceiptView>()(saleId),

  // Activity and alerts
  getActivity: channel<ActivityView>()(noInput),
  acknowledgeAlert: channel<{ readonly acknowledged: boolean }>()(
    z.object({ alertId: z.number().int().positive() }).strict(),
  ),
  createCounterAccount: channel<CounterAccountView>()(
    z.object({ type: z.enum(['static', 'static-flex']), amount: nairaText.optional() }).strict(),
  ),

  // End of day
  syncTransactions: channel<SyncRunView>()(
    z.object({ mode: z.enum(['incremental', 'full']).default('incremental') }).strict(),
  ),
  cancelSync: channel<{ readonly cancelled: boolean }>()(noInput),
  getZReport: channel<ZReportView>()(dayRange),
  listTransactions: channel<TransactionListView>()(
    dayRange
      .extend({
        status: z.enum(['success', 'failed', 'pending', 'unknown']).optional(),
        search: z.string().trim().max(60).optional(),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
  ),
  exportCsv: channel<CsvExportView>()(dayRange),

  // Payouts
  getBalance: channel<BalanceView>()(noInput),
  checkPayout: channel<PayoutCheckView>()(z.object({ amount: nairaText }).strict()),

  // Settings (secrets go in, only their status comes out)
  getSettings: channel<SettingsView>()(noInput),
  updateSettings: channel<SettingsView>()(
    z.object({ patch: z.record(z.string(), z.unknown()) }).strict(),
  ),
  getSecrets: channel<SecretsView>()(z.object({ environment: z.enum(ENVIRONMENTS) }).strict()),
  setSecret: channel<SecretStatusView>()(
    z.discriminatedUnion('scope', [
      z
        .object({
          scope: z.enum(ENVIRONMENTS),
          name: z.enum(['secretKey', 'accessToken']),
          value: z.string().max(600).nullable(),
        })
        .strict(),
      z
        .object({
          scope: z.literal('global'),
          name: z.enum(['ngrokAuthtoken', 'ngrokBasicAuthPassword']),
          value: z.string().max(600).nullable(),
        })
        .strict(),
    ]),
  ),
  testConnection: channel<readonly ConnectionCheckView[]>()(
    z.object({ environment: z.enum(ENVIRONMENTS) }).strict(),
  ),
  rotateCallbackToken: channel<{ readonly rotated: boolean }>()(noInput),
  /** The callback self-test: posts a one-time nonce to this till's own public callback address. */
  testCallbacks: channel<CallbackHealthView>()(noInput),
} as const;

export type ChannelName = keyof typeof channels;
export type ChannelInput<C extends ChannelName> = z.input<(typeof channels)[C]['input']>;
export type ChannelParsedInput<C extends ChannelName> = z.output<(typeof channels)[C]['input']>;
export type ChannelOutput<C extends ChannelName> =
  (typeof channels)[C] extends ChannelSpec<z.ZodType, infer O> ? O : never;

export const channelNames = Object.keys(channels) as readonly ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}

/** Events pushed from main to the renderer. */
export interface BridgeEvents {
  readonly 'sale-changed': SaleView;
  readonly inflow: InflowView;
  readonly alert: AlertView;
  readonly tunnel: TunnelStatusView;
  readonly 'sync-progress': SyncProgressView;
  readonly 'sync-finished': SyncRunView;
  /** The callback health changed (state, cause, a self-test started or finished). */
  readonly 'callback-health': CallbackHealthView;
  /** From the desktop app's menu: show this screen. */
  readonly navigate: { readonly route: 'sale' | 'activity' | 'report' | 'balance' | 'settings' };
}
export type EventName = keyof BridgeEvents;
export type BridgeEvent = {
  [E in EventName]: { readonly type: E; readonly payload: BridgeEvents[E] };
}[EventName];

/** An error as the renderer sees it: a code the UI maps to words, never a stack trace. */
export interface BridgeError {
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

export type BridgeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: BridgeError };

/** What main implements: one handler per channel, taking the already validated input. */
export type Handlers = {
  readonly [C in ChannelName]: (
    input: ChannelParsedInput<C>,
  ) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
};

/** What the renderer calls: one function per channel plus an event subscription. */
export type WindowApi = {
  readonly [C in ChannelName]: (input: ChannelInput<C>) => Promise<BridgeResult<ChannelOutput<C>>>;
} & {
  readonly subscribe: (listener: (event: BridgeEvent) => void) => () => void;
};

export type Invoke = (channel: ChannelName, input: unknown) => Promise<BridgeResult<unknown>>;
export type Subscribe = (listener: (event: BridgeEvent) => void) => () => void;

/** IPC channel names used by the Electron shell. */
export const IPC_EVENT_CHANNEL = 'till:event';
export function ipcChannelOf(name: ChannelName): string {
  return `till:${name}`;
}

/** Builds the window API from the table: named functions only, no way to reach other channels. */
export function buildWindowApi(invoke: Invoke, subscribe: Subscribe): WindowApi {
  const api: Record<string, unknown> = { subscribe };
  for (const name of channelNames) {
    api[name] = (input: unknown) => invoke(name, input);
  }
  return Object.freeze(api) as WindowApi;
}
