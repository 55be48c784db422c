import type { AppInfo, BridgeResult, SessionView } from '#shared/bridge/contract';
import {
  PAIRING_TTL_MS,
  type HubView,
  type LanListenerView,
  type PairedCounterView,
  type PairingLinkView,
} from '#shared/hub';
import type { AlertView, InflowView, SaleView } from '#shared/sales';
import { DEFAULT_SETTINGS, type Settings } from '#shared/settings-schema';
import type { AppErrorCode } from '#shared/errors';
import type {
  BalanceView,
  CallbackHealthView,
  CallbackSelfTestView,
  StandingAccountView,
  SecretStatusView,
  SecretsView,
  SettingsView,
  StatusView,
  ZReportView,
} from '#shared/views';

export function ok<T>(value: T): Promise<BridgeResult<T>> {
  return Promise.resolve({ ok: true, value });
}

export function fail<T>(
  code: AppErrorCode,
  message: string,
  field?: string,
): Promise<BridgeResult<T>> {
  return Promise.resolve({
    ok: false,
    error: field === undefined ? { code, message } : { code, message, field },
  });
}

/** 2026-11-22 10:00 in Lagos. */
export const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

export function appInfo(overrides: Partial<AppInfo> = {}): AppInfo {
  return {
    name: 'Transfer Till',
    version: '1.2.3',
    shell: 'browser',
    environment: 'sandbox',
    ...overrides,
  };
}

export function status(overrides: Partial<StatusView> = {}): StatusView {
  return {
    environment: 'sandbox',
    shopName: 'Mama Put Stores',
    tillId: 'till-1',
    timeZone: 'Africa/Lagos',
    callback: { mode: 'local-sandbox', live: true, tunnel: { state: 'off' } },
    callbackHealth: callbackHealth(),
    openAlerts: 0,
    lastSync: null,
    ...overrides,
  };
}

/** The session of a one-person shop: no owner PIN, so the page is owner. */
export function session(overrides: Partial<SessionView> = {}): SessionView {
  return {
    role: 'owner',
    name: null,
    ownerPinSet: false,
    ownerUntil: null,
    cashiers: [
      { name: 'Ada', pinSet: false },
      { name: 'Bola', pinSet: false },
    ],
    cashierPinsRequired: false,
    sounds: DEFAULT_SETTINGS.sounds,
    counter: null,
    ...overrides,
  };
}

/** A cashier signed in at a till whose owner set a PIN. */
export function cashierSession(overrides: Partial<SessionView> = {}): SessionView {
  return session({ role: 'cashier', name: 'Ada', ownerPinSet: true, ...overrides });
}

/** A tablet paired to a hub: always a cashier, no sign-in, its own till id. */
export function counterSession(overrides: Partial<SessionView> = {}): SessionView {
  return session({
    role: 'cashier',
    name: null,
    ownerPinSet: true,
    counter: { id: 3, name: 'Front counter', tillId: 'till-f3k9' },
    ...overrides,
  });
}

/** A hub certificate's SHA-256, as main shows it. */
export const HUB_FINGERPRINT =
  '10:17:1E:25:2C:33:3A:41:48:4F:56:5D:64:6B:72:79:80:87:8E:95:9C:A3:AA:B1:B8:BF:C6:CD:D4:DB:E2:E9';

/** A LAN listener running on the shop's network. */
export function lanListener(overrides: Partial<LanListenerView> = {}): LanListenerView {
  return {
    enabled: true,
    running: true,
    url: 'https://192.168.1.20:7443/',
    port: 7443,
    fingerprint: HUB_FINGERPRINT,
    problem: null,
    addresses: ['192.168.1.20'],
    setForThisRun: false,
    ...overrides,
  };
}

export function pairedCounter(overrides: Partial<PairedCounterView> = {}): PairedCounterView {
  return {
    id: 3,
    name: 'Front counter',
    tillId: 'till-f3k9',
    pairedAt: T0,
    lastContactAt: T0,
    connected: true,
    revokedAt: null,
    ...overrides,
  };
}

export function hubView(overrides: Partial<HubView> = {}): HubView {
  return { available: true, lan: lanListener(), counters: [pairedCounter()], ...overrides };
}

export function pairingLink(overrides: Partial<PairingLinkView> = {}): PairingLinkView {
  return {
    url: `https://192.168.1.20:7443/#/pair&code=Q2xvdWRzX2FyZV9ncmV5&fp=${HUB_FINGERPRINT.replace(/:/g, '')}`,
    name: 'Back counter',
    expiresAt: Date.now() + PAIRING_TTL_MS,
    fingerprint: HUB_FINGERPRINT,
    ...overrides,
  };
}

export function selfTest(overrides: Partial<CallbackSelfTestView> = {}): CallbackSelfTestView {
  return {
    at: T0,
    passed: true,
    code: 'PASSED',
    detail:
      'A test sent to http://127.0.0.1:4100 came back to this till through the local sandbox route.',
    action: null,
    durationMs: 12,
    trigger: 'start',
    ...overrides,
  };
}

/** Proven live by the self-test at start. */
export function callbackHealth(overrides: Partial<CallbackHealthView> = {}): CallbackHealthView {
  return {
    state: 'live',
    since: T0,
    lastProof: { at: T0, kind: 'self-test' },
    cause: null,
    action: null,
    checkEveryMs: 15_000,
    missedSaleId: null,
    selfTestRunning: false,
    lastSelfTest: selfTest(),
    ...overrides,
  };
}

/** Callbacks not reaching the till: sale #7's callback never came through the tunnel. */
export function notReaching(overrides: Partial<CallbackHealthView> = {}): CallbackHealthView {
  return callbackHealth({
    state: 'not_reaching',
    cause:
      "The tunnel is up, but the provider's callback for sale #7 never came: the provider cannot reach the tunnel, or does not send.",
    action: "Check that ngrok's allow list holds the provider's addresses.",
    checkEveryMs: 10_000,
    missedSaleId: 7,
    ...overrides,
  });
}

export function sale(overrides: Partial<SaleView> = {}): SaleView {
  return {
    id: 7,
    state: 'awaiting_payment',
    reason: null,
    amountKobo: 150_000,
    amountDueKobo: overrides.amountKobo ?? 150_000,
    note: null,
    cashier: 'Ada',
    tillId: 'till-1',
    reference: 'TT-0007',
    accountNumber: '0123456789',
    accountName: 'Mama Put Stores Checkout',
    bank: 'Wema Bank',
    expiresAt: Date.now() + 30 * 60 * 1000,
    paidAt: null,
    paidSessionId: null,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    callbackMode: 'live',
    paidAfter: null,
    lateResolution: null,
    canRetry: false,
    offlineCause: false,
    outagePolicy: null,
    outageAction: null,
    refundsOwed: [],
    ...overrides,
  };
}

/**
 * Sale #9 of the same till, ₦1,250.00, opened 20 minutes before `openedAt`, expired, then paid
 * 30 s after `openedAt`: money for an earlier sale while the one opened then waits.
 */
export function earlierSalePaidLate(openedAt: number, overrides: Partial<SaleView> = {}): SaleView {
  return sale({
    id: 9,
    amountKobo: 125_000,
    reference: 'TT-0009',
    state: 'paid_late',
    paidAfter: 'expired',
    createdAt: openedAt - 20 * 60_000,
    paidAt: openedAt + 30_000,
    updatedAt: openedAt + 30_000,
    ...overrides,
  });
}

export function inflow(overrides: Partial<InflowView> = {}): InflowView {
  return {
    sessionId: '100004261122090000123456789012',
    externalReference: 'TT-0007',
    amountKobo: 150_000,
    status: 'success',
    occurredAt: T0,
    source: 'callback',
    saleId: 7,
    firstSeenAt: T0,
    ...overrides,
  };
}

export function alert(overrides: Partial<AlertView> = {}): AlertView {
  return {
    id: 3,
    createdAt: T0,
    level: 'warning',
    kind: 'paid_late',
    saleId: 5,
    message: 'Sale #5 was paid after it was cancelled: ₦2,000.00',
    sessionId: null,
    acknowledgedAt: null,
    closedBy: null,
    action: 'settle-on-sale',
    ...overrides,
  };
}

export function standingAccount(overrides: Partial<StandingAccountView> = {}): StandingAccountView {
  return {
    id: 1,
    type: 'static-flex',
    reference: 'TT-COUNTER-1',
    accountNumber: '9876543210',
    accountName: 'Mama Put Stores Counter',
    bank: 'Wema Bank',
    amountKobo: null,
    createdAt: T0,
    ...overrides,
  };
}

export function zReport(overrides: Partial<ZReportView> = {}): ZReportView {
  return {
    fromDay: '2026-11-22',
    toDay: '2026-11-22',
    fromMs: Date.UTC(2026, 10, 21, 23, 0, 0),
    toMs: Date.UTC(2026, 10, 22, 23, 0, 0),
    timeZone: 'Africa/Lagos',
    cutoffHour: 0,
    success: { count: 42, amountKobo: 12_345_600 },
    failed: { count: 3, amountKobo: 450_000 },
    pending: { count: 2, amountKobo: 100_000 },
    byHour: [
      { hour: 9, count: 10, amountKobo: 2_000_000 },
      { hour: 10, count: 0, amountKobo: 0 },
      { hour: 13, count: 32, amountKobo: 10_345_600 },
    ],
    byTill: [{ tillId: 'till-1', cashier: 'Ada', count: 40, amountKobo: 12_000_000 }],
    counter: { count: 2, amountKobo: 345_600 },
    shop: {
      tillId: 'till-1',
      tillPrefix: 'TILL1',
      thisTill: { count: 40, amountKobo: 12_000_000 },
      otherTills: [],
      standingAccounts: { count: 2, amountKobo: 345_600 },
      shopTotal: { count: 42, amountKobo: 12_345_600 },
      notOurs: { count: 0, amountKobo: 0 },
    },
    exceptions: [
      {
        kind: 'unmatched_inflow',
        saleId: null,
        sessionId: '100004261122090000999999999999',
        amountKobo: 500_000,
        at: T0,
        message: 'A transfer of ₦5,000.00 matches no sale made here.',
        action: 'Check whether another till or the standing account took it.',
        key: 'unmatched_inflow:session:100004261122090000999999999999',
        resolution: null,
      },
    ],
    lastSync: {
      id: 9,
      mode: 'incremental',
      trigger: 'manual',
      status: 'complete',
      startedAt: T0,
      finishedAt: T0 + 5000,
      reportedCount: 47,
      collected: 47,
      inserted: 5,
      updated: 0,
      unreadable: 0,
      error: null,
    },
    generatedAt: T0 + 6000,
    ...overrides,
  };
}

export function balance(overrides: Partial<BalanceView> = {}): BalanceView {
  return {
    accountId: 'acc-payout-1',
    ownerName: 'Mama Put Stores Ltd',
    name: 'Payouts',
    status: 'active',
    availableKobo: 25_000_050,
    availableDisplay: 'NGN 250,000.50',
    otherBalances: [
      { balanceType: 'SettlementPositionBalance', valueKobo: 1_000_000, display: 'NGN 10,000.00' },
    ],
    refreshedAt: T0,
    ...overrides,
  };
}

/** The defaults with a shop, two cashiers and a staging profile filled in. */
export function settings(overrides: Partial<Settings> = {}): Settings {
  return {
    ...DEFAULT_SETTINGS,
    profiles: {
      ...DEFAULT_SETTINGS.profiles,
      staging: {
        ...DEFAULT_SETTINGS.profiles.staging,
        baseUrl: 'https://staging.provider.example',
        payoutBaseUrl: 'https://payouts.staging.provider.example',
        merchantId: 'MRC-STAGE-1',
        accountName: 'Mama Put Stores',
        payoutAccountId: '1234567890',
      },
    },
    shop: {
      name: 'Mama Put Stores',
      nameConfirmed: true,
      tillId: 'till-1',
      cashiers: ['Ada', 'Bola'],
    },
    ...overrides,
  };
}

export function settingsView(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    settings: settings(),
    callbackUrl: 'https://shop-1.ngrok.app/callbacks/tok-abc',
    callbackProblem: null,
    ...overrides,
  };
}

export const NOT_SET: SecretStatusView = {
  set: false,
  last4: null,
  problem: null,
  boundOrigin: null,
};

export function secretsView(
  overrides: Partial<{
    readonly box: SecretsView['box'];
    readonly secretKey: SecretStatusView;
    readonly accessToken: SecretStatusView;
    readonly ngrokAuthtoken: SecretStatusView;
    readonly ngrokBasicAuthPassword: SecretStatusView;
  }> = {},
): SecretsView {
  return {
    box: overrides.box ?? {
      kind: 'os-keychain',
      description: "Secrets are encrypted with this computer's keyring.",
    },
    secrets: {
      secretKey: overrides.secretKey ?? NOT_SET,
      accessToken: overrides.accessToken ?? NOT_SET,
      ngrokAuthtoken: overrides.ngrokAuthtoken ?? NOT_SET,
      ngrokBasicAuthPassword: overrides.ngrokBasicAuthPassword ?? NOT_SET,
    },
  };
}
