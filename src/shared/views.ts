/** What the renderer sees of the core: plain, readonly data. Money is integer kobo. */
import type { CallbackMode, InflowView } from './sales';
import type { Environment, Settings } from './settings-schema';

export type TunnelStatusView =
  | { readonly state: 'off' }
  | { readonly state: 'connecting' }
  | { readonly state: 'online'; readonly url: string }
  | {
      readonly state: 'error';
      readonly code: string;
      readonly message: string;
      readonly retryInMs?: number;
    };

/** How payment callbacks reach this till. */
export type CallbackRouteMode = 'local-sandbox' | 'tunnel' | 'public-url' | 'polling-only';

export interface StatusView {
  readonly environment: Environment;
  readonly shopName: string;
  readonly tillId: string;
  /** The shop's IANA time zone (Africa/Lagos unless settings say otherwise). */
  readonly timeZone: string;
  readonly callback: {
    readonly mode: CallbackRouteMode;
    /** True when the provider can reach us now; false means the app is polling. */
    readonly live: boolean;
    readonly tunnel: TunnelStatusView;
  };
  /** Whether callbacks are proven to reach this till (the header shows "Callbacks live" only then). */
  readonly callbackHealth: CallbackHealthView;
  readonly openAlerts: number;
  readonly lastSync: SyncRunView | null;
  /** Whether the till's store can write (a full disk refuses new sales); absent from old cores. */
  readonly storeSpace?: StoreSpaceView;
  /** Whether the provider can be reached from this till now; absent from old cores. */
  readonly providerReach?: ProviderReachView;
  /**
   * The shop's name is still to be asked (a fresh till, no sale yet): the owner's first screen
   * asks it before the first sale. Absent from old cores (never asked there).
   */
  readonly askShopName?: boolean;
}

/**
 * Whether the provider can be reached: `unreachable` from `since` (epoch ms) when calls met a
 * network error or a timeout, `reachable` again once one is answered. `since` is when the state
 * began, null before anything was learned.
 */
export interface ProviderReachView {
  readonly state: 'reachable' | 'unreachable';
  readonly since: number | null;
}

/** Whether the till's store can write: full from `since` (epoch ms) until space returns. */
export interface StoreSpaceView {
  readonly full: boolean;
  readonly since: number | null;
}

/** One definition: a sale's callbackMode is the callback health at the time. */
export type CallbackHealthState = CallbackMode;

/** What a callback self-test found; every code but PASSED is a failure with its own words. */
export type CallbackSelfTestCode =
  | 'PASSED'
  | 'NO_ROUTE'
  | 'TIMEOUT'
  | 'REFUSED'
  | 'NETWORK'
  | 'ALLOW_LIST_REFUSED'
  | 'BASIC_AUTH_REJECTED'
  | 'WRONG_PATH'
  | 'TUNNEL_OFFLINE'
  | 'LISTENER_UNREACHABLE'
  | 'NOT_THIS_TILL'
  | 'UNEXPECTED_ANSWER';

/**
 * Why a self-test ran: the till started, someone asked, the tunnel came (back) online, the
 * address changed, or the last proof was getting old (so a quiet till stays proven).
 */
export type CallbackSelfTestTrigger =
  'start' | 'user' | 'tunnel-online' | 'route-changed' | 'periodic';

/** The till posted a one-time nonce to its own public callback address; did it come back? */
export interface CallbackSelfTestView {
  /** When it finished. */
  readonly at: number;
  readonly passed: boolean;
  readonly code: CallbackSelfTestCode;
  /** What happened, in words for the shop owner (never the address's token). */
  readonly detail: string;
  /** What to do about a failure; null when it passed. */
  readonly action: string | null;
  readonly durationMs: number;
  readonly trigger: CallbackSelfTestTrigger;
}

export interface CallbackHealthView {
  readonly state: CallbackHealthState;
  /** When the till entered this state. */
  readonly since: number;
  /** The newest proof that callbacks reach the till, or null. */
  readonly lastProof: { readonly at: number; readonly kind: 'callback' | 'self-test' } | null;
  /** The likely cause when not live, in words for the shop owner; null when live. */
  readonly cause: string | null;
  /** What to do about it; null when nothing is needed. */
  readonly action: string | null;
  /** How often the till itself checks each open sale with the provider in this state (the
   *  words in cause and action do not repeat it). */
  readonly checkEveryMs: number;
  /** The sale whose callback never came (not_reaching after a missed callback), or null. */
  readonly missedSaleId: number | null;
  readonly selfTestRunning: boolean;
  readonly lastSelfTest: CallbackSelfTestView | null;
}

export interface StandingAccountView {
  readonly id: number;
  readonly type: 'static' | 'static-flex';
  readonly reference: string;
  readonly accountNumber: string | null;
  readonly accountName: string | null;
  readonly bank: string | null;
  readonly amountKobo: number | null;
  readonly createdAt: number;
}

export interface ReceiptView {
  readonly shopName: string;
  readonly saleId: number;
  readonly state: string;
  readonly amountKobo: number;
  readonly accountNumber: string | null;
  readonly accountName: string | null;
  readonly bank: string | null;
  readonly reference: string;
  readonly sessionId: string | null;
  readonly createdAt: number;
  readonly paidAt: number | null;
  readonly cashier: string | null;
  readonly tillId: string | null;
  readonly timeZone: string;
}

export interface SyncRunView {
  readonly id: number;
  readonly mode: 'full' | 'incremental';
  readonly trigger: string;
  readonly status: 'running' | 'complete' | 'failed' | 'cancelled' | 'interrupted';
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly reportedCount: number | null;
  readonly collected: number;
  readonly inserted: number;
  readonly updated: number;
  /** Rows of the provider's listing this run could not read (kept, shown in the report). */
  readonly unreadable: number;
  readonly error: string | null;
  /** The rows a page was asked for (null for runs from before this was kept). */
  readonly pageLimit?: number | null;
  /** The rows a page really holds when the provider gives fewer than asked; null otherwise. */
  readonly providerPageSize?: number | null;
}

export interface SyncProgressView {
  readonly runId: number;
  readonly collected: number;
  readonly count: number;
}

export interface AmountTotal {
  readonly count: number;
  readonly amountKobo: number;
}

export type ExceptionKind =
  | 'paid_late'
  | 'wrong_amount'
  | 'unmatched_inflow'
  | 'missing_from_provider'
  | 'open_at_cutoff'
  /** A sale marked paid whose payment the provider no longer reports as successful. */
  | 'reversed'
  /** Rows of the provider's listing the till could not read (kept, not lost). */
  | 'unreadable_rows'
  /** Callback bodies of the period the till could not read (kept raw in the callback log). */
  | 'unreadable_callbacks'
  /** A success beyond the one that paid its sale: the customer paid twice and is owed a refund. */
  | 'paid_twice'
  /** A success above the owner's limit into a standing (static-flex counter) account. */
  | 'standing_above_limit'
  /** An outage sale whose money has not been seen: someone follows it up. */
  | 'outage_not_seen'
  /** An outage sale paid by its one exact match once the link was back. */
  | 'outage_confirmed'
  /** An outage sale an owner assigned a payment to. */
  | 'outage_assigned';

/** An exception as the report's queries find it (before its key and resolution are added). */
export interface ExceptionFinding {
  readonly kind: ExceptionKind;
  readonly saleId: number | null;
  readonly sessionId: string | null;
  readonly amountKobo: number | null;
  readonly at: number | null;
  readonly message: string;
  /** What a person should do about it. */
  readonly action: string;
}

/** What the owner did about an exception. */
export const RESOLUTION_ACTIONS = ['refunded', 'goods_given', 'credited', 'other'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

export interface ExceptionResolution {
  readonly action: ResolutionAction;
  /** The bank's reference of the refund transfer (required for 'refunded'). */
  readonly bankReference: string | null;
  /** Required for 'other'. */
  readonly note: string | null;
  /** The signed-in name of who recorded it, or "owner". */
  readonly resolvedBy: string;
  readonly resolvedAt: number;
}

export interface ReportException extends ExceptionFinding {
  /** The same case has the same key in every report, e.g. "paid_late:sale:12". */
  readonly key: string;
  /** What was done about it; null while it is open. */
  readonly resolution: ExceptionResolution | null;
}

/**
 * The key of a sale's paid-late case: the report's exception and the sale screen's choices
 * record against it (reports/exception-resolutions.ts makes the same key from a finding).
 */
export function paidLateKey(saleId: number): string {
  return `paid_late:sale:${saleId}`;
}

/** An exception's state after resolveException or reopenException. */
export interface ExceptionResolutionView {
  readonly key: string;
  readonly resolution: ExceptionResolution | null;
}

/** Another till of this shop, named by its reference prefix (its till id's letters and digits). */
export interface OtherTillTotal extends AmountTotal {
  readonly tillPrefix: string;
  /** The name of the counter paired to this hub that has (or had) this till's prefix. */
  readonly counterName?: string;
}

/**
 * The provider's listing is merchant-wide: every till of the shop sees every till's payments.
 * Each successful inflow counts on one line, by the till whose prefix its reference carries.
 */
export interface ShopTotalsView {
  /** This till's id and its reference prefix. */
  readonly tillId: string;
  readonly tillPrefix: string;
  /** This till's own sales. */
  readonly thisTill: AmountTotal;
  /** Other tills of this shop, one each, largest amount first. */
  readonly otherTills: readonly OtherTillTotal[];
  /** The permanent standing accounts (static, static-flex) of any till of this shop. */
  readonly standingAccounts: AmountTotal;
  /** thisTill + otherTills + standingAccounts. */
  readonly shopTotal: AmountTotal;
  /** Money no till of this shop made (each payment is also an exception). */
  readonly notOurs: AmountTotal;
}

export interface ZReportView {
  /** The business days covered, first and last ('YYYY-MM-DD'). */
  readonly fromDay: string;
  readonly toDay: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly timeZone: string;
  readonly cutoffHour: number;
  readonly success: AmountTotal;
  readonly failed: AmountTotal;
  readonly pending: AmountTotal;
  /** Successful inflows by local hour of the day (0..23). */
  readonly byHour: readonly (AmountTotal & { readonly hour: number })[];
  /** Paid sales made here, by till and cashier. */
  readonly byTill: readonly (AmountTotal & {
    readonly tillId: string | null;
    readonly cashier: string | null;
  })[];
  /** Successful inflows into the permanent standing accounts (the same as shop.standingAccounts). */
  readonly counter: AmountTotal;
  /** The successful inflows by the till of this shop that made them. */
  readonly shop: ShopTotalsView;
  readonly exceptions: readonly ReportException[];
  readonly lastSync: SyncRunView | null;
  readonly generatedAt: number;
  /**
   * Transfers with no reference of this shop, when Settings say the account also receives
   * money from other channels (report.otherIncome); absent or null otherwise (they are then
   * exceptions).
   */
  readonly otherIncome?: OtherIncomeView | null;
}

/** "Other income on this account": money no till of this shop asked for, counted apart. */
export interface OtherIncomeView {
  readonly success: AmountTotal;
  readonly failed: AmountTotal;
  /** The transfers, oldest first, at most the report's exception limit. */
  readonly transfers: readonly {
    readonly sessionId: string;
    readonly reference: string | null;
    readonly amountKobo: number;
    readonly status: 'success' | 'failed';
    readonly at: number;
  }[];
}

/** One business day of the trend: the successful inflows of this till and of the whole shop. */
export interface TrendDayView {
  /** The business day, 'YYYY-MM-DD'. */
  readonly day: string;
  /** This till's own sales (the shop view's thisTill line). */
  readonly thisTill: AmountTotal;
  /** This till, the other tills and the standing accounts (the shop view's shopTotal line). */
  readonly shop: AmountTotal;
}

/** The business days ending on a report's day (seven unless asked otherwise), oldest first. */
export interface TrendView {
  readonly fromDay: string;
  readonly toDay: string;
  readonly timeZone: string;
  readonly cutoffHour: number;
  readonly tillId: string;
  readonly days: readonly TrendDayView[];
  readonly generatedAt: number;
}

export interface TransactionListView {
  readonly rows: readonly InflowView[];
  readonly total: number;
}

export interface BalanceView {
  readonly accountId: string;
  readonly ownerName: string | null;
  readonly name: string | null;
  readonly status: string | null;
  readonly availableKobo: number;
  /** The provider's own formatted text for AvailableBalance: a cross-check only. */
  readonly availableDisplay: string | null;
  readonly otherBalances: readonly {
    readonly balanceType: string;
    readonly valueKobo: number;
    readonly display: string | null;
  }[];
  readonly refreshedAt: number;
}

export interface PayoutCheckView {
  readonly availableKobo: number;
  readonly requestedKobo: number;
  readonly covered: boolean;
  /** 0 when covered. */
  readonly shortfallKobo: number;
  readonly refreshedAt: number;
}

export interface CsvExportView {
  readonly filename: string;
  readonly csv: string;
  readonly rows: number;
}

/** Shown in settings next to the key fields. */
export const WHERE_KEYS_COME_FROM =
  "Keys are not self-served: ask the provider's support team for the secret key, the payout access token and the payout account number of each environment you use. Staging and production keys are different — a staging key does not work in production, and the other way round.";

export interface SettingsView {
  readonly settings: Settings;
  /** The callback URL given to the provider for sales created now, or null in polling-only mode. */
  readonly callbackUrl: string | null;
  readonly callbackProblem: string | null;
  /** Open sales in the environment in use (switching asks first when there are any). */
  readonly openSales?: number;
}

/** All the renderer ever learns of a secret. */
export interface SecretStatusView {
  readonly set: boolean;
  readonly last4: string | null;
  /** Why a saved secret cannot be used (enter it again), or null. */
  readonly problem: string | null;
  /**
   * The origin a saved provider key was entered for ('' when no address was set then); it is sent
   * nowhere else. Null for the global secrets and for a key not saved.
   */
  readonly boundOrigin: string | null;
}

export type SecretBoxKindView = 'os-keychain' | 'os-plaintext-fallback' | 'file-key';

export interface SecretsView {
  readonly box: { readonly kind: SecretBoxKindView; readonly description: string };
  readonly secrets: {
    readonly secretKey: SecretStatusView;
    readonly accessToken: SecretStatusView;
    readonly ngrokAuthtoken: SecretStatusView;
    readonly ngrokBasicAuthPassword: SecretStatusView;
  };
}

export interface ConnectionCheckView {
  readonly check: 'transactions' | 'balance';
  readonly ok: boolean;
  readonly code?: string;
  readonly message: string;
  readonly advice?: string;
}
