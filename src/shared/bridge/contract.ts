/**
 * The bridge contract: the one place where a channel or event name is written. Main registers a
 * handler for every channel (checked with `satisfies Handlers`) and validates every input with the
 * channel's schema; preload and the browser shell build the window API from this table.
 */
import { z } from 'zod';
import type { AssertTrue, Disjoint } from './disjoint';
import { RENDERER_ERROR_LIMITS } from './wire';
import type { Caller, SessionView } from './session-types';
import type { PdfExportView, PrintSetupView, PrintersView, ReceiptPrintView } from '../printing';
import type { DisplayStateView, HubView, PairingLinkView } from '../hub';
import { OUTAGE_ACTIONS, type AlertView, type InflowView, type SaleView } from '../sales';
import { ENVIRONMENTS, type Environment } from '../environments';
import { RESOLUTION_ACTIONS, type ExceptionResolutionView } from '../views';
import type { ConnectionSavedView, GoLiveCheckView } from '../go-live';
import type { AppErrorCode } from '../errors';
import type {
  BalanceView,
  CallbackHealthView,
  ConnectionCheckView,
  SecretStatusView,
  SecretsView,
  SettingsView,
  StandingAccountView,
  CsvExportView,
  PayoutCheckView,
  ReceiptView,
  StatusView,
  ProviderReachView,
  StoreSpaceView,
  SyncProgressView,
  SyncRunView,
  TransactionListView,
  TrendView,
  TunnelStatusView,
  ZReportView,
} from '../views';

/**
 * Who may call a channel. 'open': anyone holding the shell's token, signed in or not (the app's
 * identity, its status, the sign-in channels). 'cashier': a signed-in cashier (selling, their own
 * sales). 'owner': the owner (Settings, secrets, Balance, the report's money, CSV, sync).
 */
export const ACCESS_LEVELS = ['open', 'cashier', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The items a caller may own: a sale (its till's, its cashier's) and an alert (by its sale). */
export const OWNED_ITEMS = ['sale', 'alert'] as const;
export type OwnedItem = (typeof OWNED_ITEMS)[number];

/**
 * A channel that acts on one sale or alert names the input field holding its id: main checks
 * that the caller owns that item before the handler runs (a cashier their own sales, a counter
 * its till's, the owner all), so no handler has to remember to.
 */
export interface OwnedInput<Field extends string = string> {
  readonly item: OwnedItem;
  readonly field: Field;
}

/** A channel: the schema of its input, who may call it and, as a phantom type, its output. */
export interface ChannelSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly access: AccessLevel;
  /** The sale or alert the call acts on, checked against the caller by dispatch. */
  readonly owns?: OwnedInput;
  readonly output?: O;
}

/** The access defaults to 'owner': a channel nobody thought to mark stays owner-only. */
function channel<O>() {
  return <I extends z.ZodType>(
    input: I,
    access: AccessLevel = 'owner',
    owns?: OwnedInput<keyof z.output<I> & string>,
  ): ChannelSpec<I, O> => ({ input, access, ...(owns ? { owns } : {}) });
}

const ownsSale = { item: 'sale', field: 'saleId' } as const;
const ownsAlert = { item: 'alert', field: 'alertId' } as const;

export type { Caller, CallerVia, Role, SessionView } from './session-types';
export { RENDERER_ERROR_LIMITS, SESSION_HEADER } from './wire';

const noInput = z.object({}).strict();
/** A new PIN: digits only, so that it can be typed on the keypad. */
const newPin = z.string().regex(/^\d{4,12}$/, 'A PIN is 4 to 12 digits');
/** A PIN as typed at sign-in: whatever it is, a wrong one counts towards the lock-out. */
const pinAttempt = z.string().min(1, 'Enter the PIN').max(64, 'Enter the PIN');
const cashierName = z.string().trim().min(1, 'Choose a cashier').max(60);
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
  readonly standingAccounts: readonly StandingAccountView[];
}

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly shell: 'electron' | 'browser';
  readonly environment: Environment;
}

/** The browser shell's addresses with its new token, shown once after a rotation. */
export interface ShellAccessView {
  readonly url: string;
  readonly displayUrl: string;
}

/**
 * The channel table, one group per domain; each `<group>Channels` has all its handlers in one file,
 * src/main/core/<group>-handlers.ts (`<group>Handlers`, typed `HandlersOf<typeof <group>Channels>`).
 */

/** The app itself: who it is and how it stands. */
export const appChannels = {
  getAppInfo: channel<AppInfo>()(noInput, 'open'),
  getStatus: channel<StatusView>()(noInput, 'open'),
} as const;

/** Sessions and roles (main keeps the sessions; a PIN never leaves main, not even hashed). */
export const sessionChannels = {
  getSession: channel<SessionView>()(noInput, 'open'),
  /** A cashier signs in at this counter by name (and PIN, when the owner asks for them). */
  signIn: channel<SessionView>()(
    z.object({ name: cashierName, pin: pinAttempt.optional() }).strict(),
    'open',
  ),
  /** Ends this counter's cashier sign-in and owner unlock. */
  signOut: channel<SessionView>()(noInput, 'open'),
  unlockOwner: channel<SessionView>()(z.object({ pin: pinAttempt }).strict(), 'open'),
  /** Ends the owner unlock; a signed-in cashier stays signed in. */
  lock: channel<SessionView>()(noInput, 'open'),
  /** Sets the owner PIN, or changes it (then the current one is needed). */
  setOwnerPin: channel<SessionView>()(
    z.object({ pin: newPin, currentPin: pinAttempt.optional() }).strict(),
  ),
  removeOwnerPin: channel<SessionView>()(z.object({ currentPin: pinAttempt }).strict()),
  /** Sets (or with null, removes) one cashier's PIN. */
  setCashierPin: channel<SessionView>()(
    z.object({ name: cashierName, pin: newPin.nullable() }).strict(),
  ),
} as const;

/** The sale screen, Activity and alerts: a cashier acts on their own sales only. */
export const saleChannels = {
  createSale: channel<SaleView>()(
    z
      .object({
        amount: nairaText,
        note: z.string().trim().max(200).optional(),
        /** Ignored when a cashier is signed in: the sale records the signed-in name. */
        cashier: z.string().trim().max(60).optional(),
      })
      .strict(),
    'cashier',
  ),
  /**
   * A sale on the till's standing account when the provider cannot be reached: `unconfirmed`,
   * asking for `amountDueKobo` (the amount plus a kobo tag), with no countdown. Refused when the
   * till has no such account, or when the provider answers and the owner has not allowed it.
   */
  createOutageSale: channel<SaleView>()(
    z
      .object({
        amount: nairaText,
        note: z.string().trim().max(200).optional(),
        /** Ignored when a cashier is signed in, as on createSale. */
        cashier: z.string().trim().max(60).optional(),
      })
      .strict(),
    'cashier',
  ),
  /** What the cashier did about an unconfirmed sale (goods given, or keep waiting): recorded. */
  recordOutageAction: channel<SaleView>()(
    z.object({ saleId: z.number().int().positive(), action: z.enum(OUTAGE_ACTIONS) }).strict(),
    'cashier',
    ownsSale,
  ),
  /** The till's standing account for outages, or null while it is not made yet. */
  getOutageAccount: channel<StandingAccountView | null>()(noInput),
  getSale: channel<SaleView>()(saleId, 'cashier', ownsSale),
  cancelSale: channel<SaleView>()(saleId, 'cashier', ownsSale),
  /** "Customer says they paid": an immediate status check, then polling. */
  customerSaysPaid: channel<SaleView>()(saleId, 'cashier', ownsSale),
  retrySale: channel<SaleView>()(saleId, 'cashier', ownsSale),
  getReceipt: channel<ReceiptView>()(saleId, 'cashier', ownsSale),
  /** A cashier gets only their own sales, and the money and alerts that belong to them. */
  getActivity: channel<ActivityView>()(noInput, 'cashier'),
  acknowledgeAlert: channel<{ readonly acknowledged: boolean }>()(
    z.object({ alertId: z.number().int().positive() }).strict(),
    'cashier',
    ownsAlert,
  ),
  createStandingAccount: channel<StandingAccountView>()(
    z.object({ type: z.enum(['static', 'static-flex']), amount: nairaText.optional() }).strict(),
  ),
  /**
   * The owner gives a "Needs a person" payment into the outage account to the outage sale it
   * was for (one press); recorded with who did it. Owner-only: the till never guesses, nor may
   * a cashier.
   */
  assignOutagePayment: channel<SaleView>()(
    z
      .object({
        sessionId: z.string().regex(/^\d{30}$/, 'A transfer\u2019s session id is 30 digits'),
        saleId: z.number().int().positive(),
      })
      .strict(),
    'owner',
    ownsSale,
  ),
} as const;

/** Receipts on paper: the roll, the saved printer, the printers the computer offers. */
export const printingChannels = {
  /** The receipt paper width and whether a receipt printed here goes straight to the printer. */
  getPrintSetup: channel<PrintSetupView>()(noInput, 'cashier'),
  /**
   * Prints the calling window's receipt (already on the page) to the saved printer without a
   * dialog, in the desktop app; elsewhere answers 'dialog' and the page opens its print dialog.
   */
  printReceipt: channel<ReceiptPrintView>()(
    z
      .object({
        saleId: z.number().int().positive(),
        /** The receipt's height in CSS pixels: the slip is cut to it. */
        contentHeightPx: z.number().positive().max(100_000).optional(),
      })
      .strict(),
    'cashier',
    ownsSale,
  ),
  /** The printers the computer offers, for choosing the receipt printer (desktop app only). */
  listPrinters: channel<PrintersView>()(noInput),
} as const;

/** The provider's listing read into this till (end of day). */
export const syncChannels = {
  syncTransactions: channel<SyncRunView>()(
    z.object({ mode: z.enum(['incremental', 'full']).default('incremental') }).strict(),
  ),
  cancelSync: channel<{ readonly cancelled: boolean }>()(noInput),
} as const;

/** The end-of-day report of a day range: on screen, as a list, as files. */
export const reportChannels = {
  getZReport: channel<ZReportView>()(dayRange),
  /** Successful inflows of the seven business days ending on `day` (default today), day by day. */
  getTrend: channel<TrendView>()(z.object({ day: day.optional() }).strict()),
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
  /** The end-of-day report of the range as a PDF file ("Save as PDF"). */
  exportPdf: channel<PdfExportView>()(dayRange),
} as const;

/** What the owner did about the report's exceptions. */
export const exceptionChannels = {
  /** The owner records what was done about an exception of the report (by its key). */
  resolveException: channel<ExceptionResolutionView>()(
    z
      .object({
        key: z.string().min(1).max(160),
        action: z.enum(RESOLUTION_ACTIONS),
        /** Required for 'refunded', 'other' needs a note: main refuses either missing, in words. */
        bankReference: z.string().trim().max(100).nullable().optional(),
        note: z.string().trim().max(500).nullable().optional(),
      })
      .strict(),
    'owner',
  ),
  reopenException: channel<ExceptionResolutionView>()(
    z.object({ key: z.string().min(1).max(160) }).strict(),
    'owner',
  ),
} as const;

/** The payout account's balance, and whether a payout of an amount would go through. */
export const payoutChannels = {
  getBalance: channel<BalanceView>()(noInput),
  checkPayout: channel<PayoutCheckView>()(z.object({ amount: nairaText }).strict()),
} as const;

/** Settings (secrets go in, only their status comes out) and the checks of what they set up. */
export const settingsChannels = {
  getSettings: channel<SettingsView>()(noInput),
  updateSettings: channel<SettingsView>()(
    z.object({ patch: z.record(z.string(), z.unknown()) }).strict(),
  ),
  /**
   * The first start's question: names the shop (at most 100 characters, checked in main) and
   * makes it the account display name of every environment still on the starting default.
   */
  setShopName: channel<SettingsView>()(
    z.object({ name: z.string().max(1000, 'At most 100 characters') }).strict(),
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
  /** The go-live flow's one Save: an environment's profile, its keys and the callback route. */
  saveConnection: channel<ConnectionSavedView>()(
    z
      .object({
        environment: z.enum(ENVIRONMENTS),
        profile: z.record(z.string(), z.unknown()),
        callbacks: z.record(z.string(), z.unknown()).optional(),
        secrets: z
          .object({
            secretKey: z.string().max(600).nullable().optional(),
            accessToken: z.string().max(600).nullable().optional(),
            ngrokAuthtoken: z.string().max(600).nullable().optional(),
            ngrokBasicAuthPassword: z.string().max(600).nullable().optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
  ),
  /**
   * "Check everything": the connection, the payout balance, the callback route and a trial
   * account (always on STAGING; on LIVE only with `trialAccount: true`), in one run.
   */
  checkEverything: channel<GoLiveCheckView>()(
    z.object({ environment: z.enum(ENVIRONMENTS), trialAccount: z.boolean().optional() }).strict(),
  ),
} as const;

/** The shells' own upkeep (a per-shell group: see `perShellGroups`). */
export const shellChannels = {
  /** A screen hit a render error: it goes to the main log (bounded here, redacted there). */
  reportRendererError: channel<{ readonly logged: boolean }>()(
    z
      .object({
        screen: z.string().trim().min(1).max(RENDERER_ERROR_LIMITS.screen),
        message: z.string().max(RENDERER_ERROR_LIMITS.message),
        stack: z.string().max(RENDERER_ERROR_LIMITS.stack).optional(),
        componentStack: z.string().max(RENDERER_ERROR_LIMITS.componentStack).optional(),
      })
      .strict(),
    'open',
  ),
  /** The browser shell's access token: a new one, and pages holding the old one are refused. */
  rotateShellToken: channel<ShellAccessView>()(noInput),
} as const;

/** The shop hub: counters on the shop's network (the owner's, at the hub). */
export const hubChannels = {
  getHub: channel<HubView>()(noInput),
  /** Turns the LAN listener on or off (kept in Settings); counters are refused while it is off. */
  setLanListener: channel<HubView>()(z.object({ enabled: z.boolean() }).strict()),
  /** A one-time pairing link for a new counter of this name, valid PAIRING_TTL_MS. */
  createPairingLink: channel<PairingLinkView>()(
    z.object({ name: z.string().trim().min(1, 'Name the counter').max(40) }).strict(),
  ),
  /** Renames a counter or changes its till id (checked like this till's, unique in the shop). */
  updateCounter: channel<HubView>()(
    z
      .object({
        counterId: z.number().int().positive(),
        name: z.string().trim().min(1, 'Name the counter').max(40).optional(),
        tillId: z.string().trim().min(1).max(16).optional(),
      })
      .strict(),
  ),
  /** The counter's token is refused from now on, and its open event stream ends. */
  revokeCounter: channel<HubView>()(z.object({ counterId: z.number().int().positive() }).strict()),
} as const;

/** Every channel: the groups together. */
export const channels = {
  ...appChannels,
  ...sessionChannels,
  ...saleChannels,
  ...printingChannels,
  ...syncChannels,
  ...reportChannels,
  ...exceptionChannels,
  ...payoutChannels,
  ...settingsChannels,
  ...shellChannels,
  ...hubChannels,
} as const;

/** A name in two groups would silently lose one of its specs in the spread above: a type error. */
export type _ChannelGroupsAreDisjoint = AssertTrue<
  Disjoint<
    [
      typeof appChannels,
      typeof sessionChannels,
      typeof saleChannels,
      typeof printingChannels,
      typeof syncChannels,
      typeof reportChannels,
      typeof exceptionChannels,
      typeof payoutChannels,
      typeof settingsChannels,
      typeof shellChannels,
      typeof hubChannels,
    ]
  >
>;

export type ChannelName = keyof typeof channels;
/** What a channel spec answers (its phantom output type). */
type SpecOutput<S> = S extends ChannelSpec<z.ZodType, infer O> ? O : never;
export type ChannelInput<C extends ChannelName> = z.input<(typeof channels)[C]['input']>;
export type ChannelParsedInput<C extends ChannelName> = z.output<(typeof channels)[C]['input']>;
export type ChannelOutput<C extends ChannelName> = SpecOutput<(typeof channels)[C]>;

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
  /** Only to a customer display's stream (its token calls nothing): what to show, at once. */
  readonly 'display-state': DisplayStateView;
  /** The store became full (new sales refused) or can write again. */
  readonly 'store-space': StoreSpaceView;
  /** The provider became unreachable from this till, or reachable again. */
  readonly 'provider-reach': ProviderReachView;
}
export type EventName = keyof BridgeEvents;
export type BridgeEvent = {
  [E in EventName]: { readonly type: E; readonly payload: BridgeEvents[E] };
}[EventName];

/** An error as the renderer sees it: a code the UI maps to words, never a stack trace. */
export interface BridgeError {
  readonly code: AppErrorCode;
  readonly message: string;
  readonly field?: string;
}

export type BridgeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: BridgeError };

export function accessOf(name: ChannelName): AccessLevel {
  return channels[name].access;
}

/** A group of the table, e.g. `typeof saleChannels`. */
export type ChannelGroup = Readonly<Record<string, ChannelSpec<z.ZodType, unknown>>>;

/**
 * What main implements for a group: one handler per channel, taking the already validated input
 * and the caller (already checked against the channel's access level). A handler file returns
 * `HandlersOf<typeof itsGroup>`, so that it never writes the group's channel names again.
 */
export type HandlersOf<G extends ChannelGroup> = {
  readonly [C in keyof G]: (
    input: z.output<G[C]['input']>,
    caller: Caller,
  ) => Promise<SpecOutput<G[C]>> | SpecOutput<G[C]>;
};

/** What main implements: every channel of the table. */
export type Handlers = HandlersOf<typeof channels>;

/** Groups whose handlers differ per shell (only the browser shell has a token to rotate): the
 * core's table leaves them out, and each shell hands in its part (`Core.handlersFor`). */
export const perShellGroups = { shellChannels } as const;
type KeysOf<G> = G extends unknown ? keyof G : never;
/** What the core answers by itself: every channel but the per-shell groups'. */
export type CoreHandlers = HandlersOf<
  Omit<typeof channels, KeysOf<(typeof perShellGroups)[keyof typeof perShellGroups]>>
>;

/** What the renderer calls: one function per channel plus an event subscription. */
export type WindowApi = {
  readonly [C in ChannelName]: (input: ChannelInput<C>) => Promise<BridgeResult<ChannelOutput<C>>>;
} & {
  readonly subscribe: (listener: (event: BridgeEvent) => void) => () => void;
};

// The zod-free part, which the sandboxed preload imports on its own.
export {
  IPC_EVENT_CHANNEL,
  ipcChannelOf,
  windowApiOf,
  type DisplayApi,
  type Invoke,
  type Subscribe,
} from './window-api';
