import type { ReadRetryPolicy } from '#main/provider/read-retry';
import type { AppInfo, BridgeEvent, Caller } from '#shared/bridge/contract';
import type { StoreSpaceView } from '#shared/views';
import type { SessionRequest } from '#main/auth/sessions';
import type { OwnedHandlers } from '#main/auth/ownership';
import type { Scheduler } from '#main/clock/scheduler';
import type { AppLogger } from '#main/logging/logger';
import type { SecretBox } from '#main/secrets/secret-box';
import type { OpenedSettings } from '#main/settings/recovery';
import type { SettingsBackend, SettingsStore } from '#main/settings/settings-store';
import type { TunnelDriver } from '#main/tunnel';
import type { Hub } from '#main/hub/hub-types';
import type { EventBus } from './event-bus';
import type { ReceiptPrinter } from '#main/printing/receipt-printer';
import type { ShellParts } from './shell-handlers';

/* The core's outside shape: what a shell passes in and what it gets back (create-core.ts builds it). */

export interface CoreConfig {
  readonly dataDir: string;
  readonly shell: AppInfo['shell'];
  readonly version: string;
  /** electron-store in the desktop app; conf (settings.json in dataDir) by default. */
  readonly settings?: OpenedSettings<SettingsBackend>;
  /** Electron's safeStorage in the desktop app; a file key (named as such) by default. */
  readonly secretBox?: SecretBox;
  /** better-sqlite3 built for Electron's ABI, in the desktop app. */
  readonly sqliteNativeBinding?: string;
  readonly scheduler?: Scheduler;
  /** The ngrok SDK by default; tests pass a fake (the ngrok network is the true edge). */
  readonly tunnelDriver?: TunnelDriver;
  /** Port of the embedded sandbox provider (0: a free port). */
  readonly sandboxPort?: number;
  readonly logLevel?: string;
  readonly logMirror?: { write(line: string): unknown };
  /** The provider client's request timeout (tests make it short to reach it quickly). */
  readonly providerTimeoutMs?: number;
  /** The provider client's read retries (tests on a fake clock make their real-time waits short). */
  readonly providerReadRetry?: ReadRetryPolicy;
  /** The desktop app's printer access (silent receipt printing); absent in the browser shell. */
  readonly receiptPrinter?: ReceiptPrinter;
}

/** Who calls: the shells ask this before every call and before pushing each event. */
export interface CoreAuth {
  /** The caller of a call on `channel` (its session made if needed; an owner call renews it). */
  callerFor(request: SessionRequest, channel: string): Caller;
  /** Who an event stream listens as now (no session made). */
  viewerFor(request: SessionRequest): Caller;
  eventVisibleTo(event: BridgeEvent, caller: Caller): boolean;
  /** A window closed: its session goes. */
  forget(sessionId: string): void;
}

export interface Core {
  /**
   * The table of a shell with no part of its own (the desktop app, a paired counter, an
   * in-process caller). Carries its ownership lookup: dispatch checks the sale or alert a
   * channel declares.
   */
  readonly handlers: OwnedHandlers;
  /** The table of a shell that hands in its part of the per-shell groups (the browser shell). */
  handlersFor(shell: ShellParts): OwnedHandlers;
  readonly events: EventBus;
  readonly auth: CoreAuth;
  readonly log: AppLogger;
  /** The shop hub's counters and pairing; a shell with a LAN listener attaches it here. */
  readonly hub: Hub;
  /** The shop's settings (shells keep their own choices here, e.g. the LAN listener's). */
  readonly settings: SettingsStore;
  /** Encrypts what a shell must keep on disk (the LAN listener's TLS private key). */
  readonly secretBox: SecretBox;
  /** The embedded sandbox's control API, when the sandbox profile is active. */
  sandboxControlUrl(): string | null;
  /**
   * --dev-clock mode and tests: a full disk simulated on the real store (PRAGMA max_page_count),
   * or space given back; the store is tried at once, and its state returned.
   */
  limitStoreGrowth(limited: boolean): StoreSpaceView;
  /**
   * True while the environment in use cannot reach its provider (a call met a network error or
   * a timeout, none answered since); false while it switches environments.
   */
  isProviderUnreachable(): boolean;
  /** The till service's time (its scheduler's): pages count down against it, not their own. */
  now(): number;
  /** Settles in-flight work (tests and benchmarks). */
  idle(): Promise<void>;
  close(): Promise<void>;
}
