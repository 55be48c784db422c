import type { OutagePolicy, SaleView } from '#shared/sales';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import type { ReferenceGenerator } from '#main/provider/references';
import type { AlertRow } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import type { StoreSpace } from '#main/store/store-space';
import type { InflowRow } from '#main/store/inflows-repo';
import type { CallbackHealth } from './callback-health';
import type { CheckPolicy } from './check-schedule';
import type { Scheduler } from '#main/clock/scheduler';
import { AppError } from '#shared/errors';

export type SaleErrorCode =
  | 'INVALID_AMOUNT'
  | 'SALE_NOT_FOUND'
  | 'SALE_NOT_OPEN'
  | 'NOT_CONFIGURED'
  | 'OUTAGE_ACCOUNT_MISSING'
  | 'OUTAGE_SALE_NOT_ALLOWED'
  | 'OUTAGE_TAGS_FULL'
  | 'OUTAGE_HAND_OVER_OFF';

export class SaleError extends AppError<SaleErrorCode> {
  constructor(code: SaleErrorCode, message: string, field?: string) {
    super(code, message, field === undefined ? {} : { field });
    this.name = 'SaleError';
  }
}

/** What the engine reads from settings each time it needs it (settings may change). */
export interface EngineSettings {
  readonly accountName: string;
  readonly merchantId: string;
  readonly merchantCategory: string;
  readonly expiryMinutes: number;
  readonly maxSaleKobo: number;
  readonly tillId: string;
  /** A success above this into a standing (static-flex) account is flagged; 0: off. */
  readonly standingFlagAboveKobo: number;
  /** Selling through an outage: the shop's policy and the owner's choice (Settings). */
  readonly outage: { readonly policy: OutagePolicy; readonly allowByChoice: boolean };
}

/**
 * The callback_url the engine gives the provider for a new account, and whether the provider
 * can reach it now (the tunnel module's CallbackRoute, reduced to what a sale needs).
 */
export interface CallbackTarget {
  readonly url: string;
  /** Tunnel online, public URL or local sandbox: the provider can post to `url`. */
  readonly live: boolean;
}

export interface EngineEvents {
  saleChanged(view: SaleView): void;
  inflowRecorded(row: InflowRow): void;
  /** An alert raised, or closed (acknowledged, or by what resolved it). */
  alertChanged(alert: AlertRow): void;
}

export interface SalesEngineDeps {
  readonly db: Db;
  readonly client: () => ProviderClient;
  readonly references: ReferenceGenerator;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly settings: () => EngineSettings;
  readonly callbackTarget: () => CallbackTarget;
  readonly callbackHealth: CallbackHealth;
  readonly events: EngineEvents;
  readonly policy?: CheckPolicy;
  /**
   * Whether the store can write: with it, a payment's transaction reserves room while the store
   * is full, and new sales are refused until space returns (store-space.ts).
   */
  readonly storeSpace?: StoreSpace;
  /**
   * Whether the provider cannot be reached now, for outage sales. Default: this engine's own
   * evidence (its last account request got no answer, within the last few minutes).
   */
  readonly providerUnreachable?: () => boolean;
}

export interface NewSaleInput {
  readonly amountKobo: number;
  readonly note?: string | null;
  readonly cashier?: string | null;
  /**
   * The till the sale belongs to, when it is not this one: a counter paired to this hub. The
   * sale records it and its reference carries its prefix. Default: this till's (settings).
   */
  readonly tillId?: string;
  /**
   * The paired counter that made it (with its till id above): the report counts its money as
   * that counter's, whatever its till id becomes later.
   */
  readonly pairedCounterId?: number;
}

/** Who asked the provider: it names the causes in the sale's history. */
export type CheckTrigger = 'callback' | 'poll' | 'safety-net' | 'cashier' | 'deadline' | 'resume';
